// Server: paceline-server's listener. Accepts PostgreSQL protocol v3 client
// connections on ServerOptions::listen:port and serves them (Connection)
// over one embedded engine Database.
//
// Threading model: one Asio io_context, run by one acceptor thread, accepts
// connections (async_accept); ConnectionThreads serves them: a connection
// waiting for its client holds no thread (its socket waits in an epoll
// set), and the thread that the client's message wakes serves it with
// blocking I/O and blocking engine calls (a Session statement runs on the
// calling thread; a scheduled transaction runs there too or is waited for:
// Database::Run), so each conversation stays a straight-line state
// machine. Threads grow whenever every one is busy, so a connection blocked
// in the engine never keeps another's message unread, and shrink when
// idle: connections that wait cost no thread (PostgreSQL's process per
// connection costs a process each). The engine's own workers
// (Options::workers) run the scheduled transactions that are queued.
//
// Limits: a new connection first counts as authenticating; beyond
// max_authenticating of those, a new socket is simply closed. Each has
// authentication_timeout to log in (then it is closed). Once authenticated
// it takes one of max_connections places, or is answered FATAL 53300 when
// they are all taken. So sockets that never log in can delay new clients
// (at most max_authenticating of them, each for authentication_timeout) but
// never take the places of authenticated ones.
//
// Shutdown (Shutdown(), e.g. on SIGTERM): stops accepting, wakes every
// connection waiting for its client (it answers FATAL 57P01 and closes); a
// connection busy with a statement finishes it and replies first. Returns
// when every connection has ended and the connection threads with them. The Database is not shut down
// here (its owner does that).
//
// Thread-safety: Start once; Shutdown from any thread (idempotent);
// accessors any time. Ownership: the Database is borrowed and must outlive
// the Server.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "common/status.h"
#include "server/connection.h"
#include "server/connection_threads.h"
#include "server/server_options.h"

namespace paceline::engine {
class Database;
}  // namespace paceline::engine

namespace paceline::server {

class Server : public ConnectionHost {
 public:
  Server(engine::Database* db, ServerOptions options);
  ~Server() override;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts accepting. 22023 for bad options; 08006-like errors
  // (the address in use, ...) name the address.
  Status Start();
  // The port listened on (the chosen one when options.port was 0).
  uint16_t port() const { return port_; }
  const ServerOptions& options() const { return options_; }
  // Authenticated connections being served now.
  size_t connections() const;
  // Threads serving connections now (ConnectionThreads::threads).
  size_t connection_threads() const { return threads_.threads(); }

  void Shutdown();
  bool shutting_down() const override { return shutting_down_.load(std::memory_order_acquire); }
  void Cancel(int32_t pid, int32_t secret) override;
  bool Admit() override;
  void Wake(Connection* connection) override;
  SqlStateCounts* error_counts() override { return &error_counts_; }
  // The ErrorResponses every connection sent, by SQLSTATE.
  const SqlStateCounts& error_counts() const { return error_counts_; }

 private:
  void Accept();
  void Serve(asio::ip::tcp::socket socket);
  // A connection's conversation has ended (ConnectionThreads' callback):
  // its place is freed and it is destroyed.
  void Ended(Connection* connection);

  engine::Database* db_;
  const ServerOptions options_;
  asio::io_context io_;
  // Holds the connections' sockets and is never run: their reads and
  // writes are synchronous, on the connections' own threads. (A socket of
  // io_ is in its epoll set, edge-triggered: every message a client sent
  // woke io_thread_ for nothing — 10% of the server's profile under
  // pgbench select-only, measured.) Declared before the sockets' owners.
  asio::io_context connections_io_;
  asio::ip::tcp::acceptor acceptor_;
  std::thread io_thread_;
  uint16_t port_ = 0;
  std::atomic<bool> shutting_down_{false};
  std::atomic<bool> stopped_{false};

  mutable std::mutex mu_;
  std::condition_variable ended_cv_;        // a connection ended (with mu_)
  std::list<std::unique_ptr<Connection>> connections_;  // guarded by mu_
  size_t active_ = 0;                       // admitted connections, guarded by mu_
  size_t authenticating_ = 0;               // not yet admitted, guarded by mu_
  int32_t next_pid_ = 0;                    // guarded by mu_
  std::mt19937 random_;                     // guarded by mu_
  SqlStateCounts error_counts_;             // thread-safe
  ConnectionThreads threads_;               // last: its threads use the members above
};

}  // namespace paceline::server
