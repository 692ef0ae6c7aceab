// Connection: one client's PostgreSQL protocol v3 conversation — start-up
// and authentication, then simple and extended queries, COPY, until the
// client terminates, disconnects, breaks the protocol, or the server shuts
// down. It owns the client's engine::ClientSession (destroying it rolls
// back an open transaction and drops the client's named prepared statements
// and portals), and writes the engine's results through a WireResultSink.
//
// Every request runs whole behind the ClientSession (client_session.h): a
// simple Query's text (RunQuery), and the extended protocol's Parse, Bind,
// Describe, Execute and Close, buffered up to Sync or Flush (or a full
// buffer) and decoded into one PipelineRequest (RunPipeline). A request
// that holds a whole transaction goes to the scheduler; anything else runs
// statement by statement in the implicit block's rules. After an error in
// a pipeline every message up to Sync is dropped. The connection knows the
// wire protocol and nothing of SQL.
//
// Errors: an error in a statement is an ErrorResponse (ERROR) and the
// connection goes on; a protocol violation (malformed, truncated or oversize
// message, unknown message type) is FATAL 08P01 and closes this connection
// only.
//
// Threading: Serve() runs on a thread of the server's ConnectionThreads
// (one at a time) and blocks on engine calls (a statement, a scheduled
// transaction it waits for or runs itself: Database::Run) and within a
// message on its socket; between messages it returns, and the connection
// holds no thread while its client is silent. Interrupt() and
// RequestCancel() may be called from any thread.
// Ownership: the Database and the host must outlive the connection.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/client/client_session.h"
#include "server/message_reader.h"
#include "server/message_writer.h"
#include "server/server_options.h"
#include "server/sqlstate_counts.h"
#include "server/wire_result_sink.h"

namespace paceline::server {

class Connection;

// What a connection needs from the server that runs it.
class ConnectionHost {
 public:
  virtual ~ConnectionHost() = default;
  // True once the server is shutting down: connections end with 57P01.
  virtual bool shutting_down() const = 0;
  // A CancelRequest for the connection with this backend key.
  virtual void Cancel(int32_t pid, int32_t secret) = 0;
  // The connection has authenticated: true when it may take one of the
  // max_connections places (it then holds it until it ends), false when
  // they are all taken.
  virtual bool Admit() = 0;
  // A notification for the connection's LISTEN arrived (any thread): serve
  // it soon if it waits for its client (Connection::notify_pending).
  virtual void Wake(Connection* connection) = 0;
  // Where the connection counts the errors it sends (null: nowhere).
  virtual SqlStateCounts* error_counts() { return nullptr; }
};

class Connection {
 public:
  Connection(engine::Database* db, const ServerOptions& options, ConnectionHost* host, asio::ip::tcp::socket socket,
             int32_t pid, int32_t secret);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  enum class Progress {
    kWaiting,  // for the client's next message: call Serve again once the
               // socket is readable, or at wait_deadline()
    kEnded,    // the conversation is over and the socket closed
  };
  // Serves the client on the calling thread — start-up and authentication
  // first, then message after message — until no whole message is
  // buffered and it must wait for the client, or the conversation ends.
  Progress Serve();
  // When a waiting connection must be served even if its client sends
  // nothing: the end of authentication_timeout before login, of
  // idle_in_transaction_timeout in a block; none otherwise.
  std::optional<std::chrono::steady_clock::time_point> wait_deadline() const { return wait_deadline_; }
  // Serve until the end, waiting for the client between messages on the
  // calling thread (poll): for a caller without ConnectionThreads (the
  // wire fuzzer).
  void Run();
  // The socket, for a poller. Valid until Serve returns kEnded.
  int socket_handle() { return socket_.native_handle(); }
  // Wakes a Run() blocked reading from the client (server shutdown): it
  // then answers FATAL 57P01 and ends. Any thread.
  void Interrupt();
  // A matching CancelRequest: stops what this connection runs now with
  // 57014 — a statement through the session, a scheduled transaction
  // (queued: it never runs; running: at its next check point), the rest of
  // a multi-statement Query, a COPY FROM. Ignored when nothing runs (the
  // flags are cleared as each client message is read). Any thread.
  void RequestCancel();
  // pg_terminate_backend: stops what it runs (as RequestCancel), then ends
  // the connection with FATAL 57P01 instead of answering (Interrupt wakes
  // it if it waits for its client). Any thread.
  void RequestTerminate();

  // Whether the host admitted it (Admit returned true). Set on Run's thread.
  bool admitted() const { return admitted_.load(std::memory_order_acquire); }
  int32_t pid() const { return pid_; }
  // Whether it waits for an idle client (no block, no unfinished batch)
  // and notifications arrived since it last sent them: Serve it, which
  // sends them. Any thread.
  bool wants_wake() const {
    return idle_waiting_.load(std::memory_order_acquire) && notify_pending_.load(std::memory_order_acquire);
  }
  int32_t secret() const { return secret_; }

 private:
  struct Message {
    char type;
    std::string body;
  };

  // Destroys the client session (rolling back its open transaction), out
  // of RequestCancel's way.
  void ResetSession();
  Status Startup();
  // FATAL 57P01's status: the server shuts down, or pg_terminate_backend.
  static Status AdministratorCommand();
  // A read before login failed: FATAL for a timeout or a bad message;
  // nothing for a client that went away.
  void ReadFailedBeforeLogin(const Status& s);
  Status Authenticate(const std::string& user);
  // Serves messages while whole ones are buffered, or one read after a
  // wake-up; true when it then waits for the client, false at the end.
  bool MessageLoop();
  // Closes the conversation (session rolled back, socket closed).
  Progress End();
  // Sends what is buffered.
  Status Flush();
  // FATAL `status`, flushed; the caller then ends the connection.
  void Fatal(const Status& status);
  char TransactionStatus() const;
  void ReadyForQuery();
  // The notifications for its LISTEN channels, when the client is idle
  // (no block, no unfinished extended-protocol batch); buffered, not sent.
  void AddNotifications();

  // Runs the buffered extended-protocol messages (pending_), up to a Sync
  // (`sync`) or a Flush.
  void ProcessPending(bool sync);

  // ParameterStatus for the reported settings that changed since they were
  // last sent.
  void ReportChangedSettings();

  engine::Database* db_;
  const ServerOptions& options_;
  ConnectionHost* host_;
  asio::ip::tcp::socket socket_;
  std::mutex socket_mu_;  // guards closing the socket against Interrupt
  bool closed_ = false;   // guarded by socket_mu_
  const int32_t pid_;
  const int32_t secret_;
  std::atomic<bool> admitted_{false};
  std::atomic<bool> notify_pending_{false};
  std::atomic<bool> terminating_{false};  // RequestTerminate was called
  std::atomic<bool> idle_waiting_{false};  // between Serves, its client idle
  std::mutex session_mu_;  // guards client_ being set or reset against RequestCancel

  bool started_ = false;  // Startup has run
  bool woken_ = false;    // in Serve after a wake-up: read once even with nothing buffered
  std::optional<std::chrono::steady_clock::time_point> wait_deadline_;
  MessageReader reader_;
  MessageWriter writer_;
  // The engine's results onto writer_, and its input from reader_.
  WireResultSink sink_{&writer_, &reader_, options_.max_message_bytes, [this] { return Flush(); }};
  std::unique_ptr<engine::ClientSession> client_;
  std::string user_;

  std::vector<Message> pending_;      // extended-protocol messages before Sync/Flush
  size_t pending_bytes_ = 0;
  bool skip_until_sync_ = false;      // after an error in an extended batch
  std::map<std::string, std::string> reported_;  // ParameterStatus values sent
  engine::PipelineRequest request_;  // pending_ decoded (reused: no allocation once warm)
};

}  // namespace paceline::server
