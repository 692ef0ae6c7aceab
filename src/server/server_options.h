// ServerOptions: everything that configures a paceline-server (Server), on
// top of the engine's Options. Binaries copy their flags into it; library
// code never reads flags. Plain value type.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "server/sasl_mechanism.h"

namespace paceline::server {

struct ServerOptions {
  // Address to listen on (an IPv4 or IPv6 literal) and TCP port; port 0
  // picks a free port (Server::port() says which).
  std::string listen = "127.0.0.1";
  uint16_t port = 5433;
  // Authenticated client connections served at once; one more is told
  // 53300 "sorry, too many clients already" (once it has authenticated)
  // and closed.
  size_t max_connections = 100;
  // Connections still in start-up or authentication, counted apart from
  // max_connections so that sockets that never log in cannot lock
  // authenticated clients out; one more is closed at once.
  size_t max_authenticating = 32;
  // A connection that has not completed authentication by then is closed
  // (PostgreSQL's authentication_timeout).
  std::chrono::milliseconds authentication_timeout{60000};
  // A session idle inside a transaction block for longer is ended with
  // FATAL 25P03 (its transaction rolled back, its locks freed); 0: never
  // (PostgreSQL's idle_in_transaction_session_timeout).
  std::chrono::milliseconds idle_in_transaction_timeout{0};
  // A connection keeps its thread while its client is this quick with the
  // next message (a busy client's usually comes within microseconds: no
  // hand-off to the epoll set and back per message); after that long
  // without one it waits without a thread (ConnectionThreads).
  std::chrono::milliseconds client_hold{20};
  // The one database this server has. A StartupMessage naming another gets
  // AuthenticationOk, then FATAL 3D000, as PostgreSQL answers for a database
  // that does not exist. (psql's default database is the user name: connect
  // with -d paceline, or start the server with --database=<user>.)
  std::string database = "paceline";
  // Authentication: "trust" (anyone, no password; meant for loopback) or
  // "scram-sha-256" (needs `sasl`, built from password_file by the binary).
  std::string auth = "trust";
  std::string password_file;
  // With auth "scram-sha-256": makes the server side of one SASL exchange
  // for `user` (nullptr: the user is unknown; the exchange then fails with
  // 28P01 like a wrong password). Called on connection threads.
  std::function<std::unique_ptr<SaslMechanism>(const std::string& user)> sasl;
  // Largest frontend message accepted (its length field, in bytes). A longer
  // one gets FATAL 08P01 and the connection is closed, without reading or
  // allocating it. COPY data arrives in messages of any size up to this,
  // and one line of COPY FROM STDIN data, which may span several CopyData
  // messages, is bounded by it too (54000, the COPY fails).
  uint32_t max_message_bytes = 64u << 20;
  // `server_version` reported to clients (ParameterStatus); clients adapt to
  // it (pgbench uses COPY FREEZE from 14 on), so keep the major version 15.
  std::string server_version = "15.0 (Paceline 0.1)";
};

}  // namespace paceline::server
