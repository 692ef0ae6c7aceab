// Connection: one client's PostgreSQL protocol v3 conversation — start-up
// and authentication, then simple and extended queries, COPY, until the
// client terminates, disconnects, breaks the protocol, or the server shuts
// down. It owns the client's engine::ClientSession (destroying it rolls
// back an open transaction and drops the client's named prepared statements
// and portals), and writes the engine's results through a WireResultSink.
//
// Transactions reach the engine two ways:
//  - Scheduled: a simple Query message that holds a whole transaction
//    outside a block (DML statements, optionally between a leading BEGIN and
//    a trailing COMMIT/END), and an extended-protocol batch up to Sync that
//    does the same (pipelines: Parse/Bind/Describe/Execute ... Sync), are
//    submitted as ONE TransactionRequest with every parameter bound
//    (Database::Submit): the scheduler sees its references before it runs,
//    conflicts are retried by the workers, and the client sees 40001 only
//    when retries run out. The replies are written in protocol order once
//    the transaction has finished.
//  - Interactive: everything else (a block opened by BEGIN in its own
//    message, DDL, SET, SHOW, COPY, ...) runs through the Session, outside
//    the run queues, with the same concurrency control; its commits and
//    conflict aborts still feed the scheduler's History.
// The block rules are the Session's (session.h): this class opens and ends
// the implicit block of a several-statement Query or of a batch up to Sync
// (BeginImplicitBlock / EndImplicitBlock), tells it about errors it finds
// itself (FailOpenBlock) and about a scheduled BEGIN ... that failed
// (EnterFailedBlock), and writes the warnings it returns.
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
#include "engine/database.h"
#include "engine/session.h"
#include "engine/sql/literal_parameterizer.h"
#include "server/message_reader.h"
#include "server/message_writer.h"
#include "server/server_options.h"
#include "server/wire_result_sink.h"

namespace paceline::server {

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

  // Whether the host admitted it (Admit returned true). Set on Run's thread.
  bool admitted() const { return admitted_.load(std::memory_order_acquire); }
  int32_t pid() const { return pid_; }
  int32_t secret() const { return secret_; }

 private:
  using StatementEntry = engine::PreparedNamespace::StatementEntry;
  using Portal = engine::PreparedNamespace::Portal;
  struct Message {
    char type;
    std::string body;
  };
  // An Execute of a scheduled batch whose reply waits for the transaction.
  struct Deferred {
    size_t offset;          // where its reply goes in the writer's buffer
    int call = -1;          // index in the request (-1: BEGIN or COMMIT)
    std::string tag;        // BEGIN / COMMIT
    std::vector<int16_t> formats;  // its portal's result formats
  };
  // One statement to run, from a Query (ast) or a Parse (prepared).
  struct StatementRef {
    const sql::Statement* ast = nullptr;            // may be null for prepared DML
    const sql::PreparedStatement* prepared = nullptr;
    sql::StatementKind kind = sql::StatementKind::kUnsupported;
    std::string_view text;
  };

  // Destroys the client session (rolling back its open transaction), out
  // of RequestCancel's way.
  void ResetSession();
  // The client's engine session (ClientSession's pass-through, until the
  // statement rules below move behind it).
  engine::Session* session() { return client_->session(); }
  // The client's named statements and portals.
  engine::PreparedNamespace& names() { return client_->names(); }
  Status Startup();
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

  // Simple Query.
  void SimpleQuery(std::string_view text);
  // A Query message that is a whole transaction ([BEGIN;] DML...[; COMMIT]
  // outside a block) goes to the scheduler as one TransactionRequest. The
  // unparsed way: sql::LiteralParameterizer splits the text and every DML
  // statement's literals parameterize (the engine then runs them on cached
  // plans, and libpg_query never sees the text). False when not applicable.
  bool TrySubmitUnparsed(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                         const std::vector<sql::ParameterizedStatement>& normalized);
  // One statement of a Query that the lexer split and classified (DML,
  // BEGIN, COMMIT): prepared from `normalized` when its literals
  // parameterize, else from its text (both cached), run through the
  // session, and its replies or error written.
  void RunUnparsed(std::string_view text, const sql::ScriptStatement& part,
                   const sql::ParameterizedStatement* normalized);
  // `normalized`, if not null, holds each part parameterized (SplitScript).
  bool TrySubmitScript(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                       const std::vector<sql::ParameterizedStatement>* normalized = nullptr);
  // Runs one statement of a Query through the session (or COPY/DEALLOCATE
  // here) and writes its replies; the error is returned, not written.
  Status RunSimpleStatement(const sql::Statement& statement);

  // Extended Query.
  void ProcessPending(bool sync);
  bool TrySubmitBatch();
  Status HandleParse(std::string_view body);
  Status HandleBind(std::string_view body);
  Status HandleDescribe(std::string_view body);
  Status HandleExecute(std::string_view body, bool autocommit);
  Status HandleClose(std::string_view body);
  // Writes rows [next_row, next_row + max_rows) of a started portal and
  // CommandComplete or PortalSuspended.
  Status SendPortalRows(Portal* portal, int32_t max_rows);

  // Shared by both protocols: runs `ref` through the session; COPY and
  // DEALLOCATE are carried out here (*written: their replies are written).
  // Writes the statement's warnings; an error fails the open block (the
  // session keeps the block rules).
  Status RunStatement(const StatementRef& ref, const std::vector<Value>& params, engine::QueryResult* result,
                      bool* written);
  Status RunStatementHere(const StatementRef& ref, const std::vector<Value>& params, engine::QueryResult* result,
                          bool* written);
  // Writes RowDescription (when rows), DataRows and CommandComplete.
  Status SendResult(const engine::QueryResult& result, const std::vector<int16_t>& formats);
  Status RunCopy(const sql::CopyStmt& copy, bool* written);
  Status CopyIn(const sql::CopyStmt& copy, const std::string& table, const std::vector<engine::ResultColumn>& columns,
                uint64_t* rows);
  // Notes SET / transaction ends, after which reported settings may differ.
  void NoteStatement(sql::StatementKind kind) {
    if (kind == sql::StatementKind::kSet || kind == sql::StatementKind::kTransaction) settings_dirty_ = true;
  }
  void ReportChangedSettings();
  bool SubmitAllowed() const;

  engine::Database* db_;
  const ServerOptions& options_;
  ConnectionHost* host_;
  asio::ip::tcp::socket socket_;
  std::mutex socket_mu_;  // guards closing the socket against Interrupt
  bool closed_ = false;   // guarded by socket_mu_
  const int32_t pid_;
  const int32_t secret_;
  std::atomic<bool> admitted_{false};
  std::mutex session_mu_;  // guards client_ being set or reset against RequestCancel

  bool started_ = false;  // Startup has run
  bool woken_ = false;    // in Serve after a wake-up: read once even with nothing buffered
  std::optional<std::chrono::steady_clock::time_point> wait_deadline_;
  MessageReader reader_;
  MessageWriter writer_;
  WireResultSink sink_{&writer_, [this] { return Flush(); }};  // the engine's results, onto writer_
  std::unique_ptr<engine::ClientSession> client_;
  std::string user_;

  std::vector<Message> pending_;      // extended-protocol messages before Sync/Flush
  size_t pending_bytes_ = 0;
  bool skip_until_sync_ = false;      // after an error in an extended batch
  bool batch_failed_ = false;         // an error since the last Sync
  bool copy_discard_ = false;         // drop CopyData/CopyDone/CopyFail after a COPY error
  bool settings_dirty_ = false;
  std::map<std::string, std::string> reported_;  // ParameterStatus values sent
  std::vector<Deferred> deferred_;    // a scheduled batch being built
  std::vector<engine::StatementCall> deferred_calls_;
  bool deferring_ = false;
  engine::ParseMessage parse_;  // the Parse and Bind being decoded (reused: no allocation once warm)
  engine::BindMessage bind_;
};

}  // namespace paceline::server
