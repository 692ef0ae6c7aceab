// ClientSession: one client of a Database at the protocol's level — the
// engine's entry point for a protocol layer (src/server), which speaks the
// wire protocol and nothing of SQL. It owns the client's engine Session
// (its transaction state, settings and statements) and its named prepared
// statements and portals (prepared_namespace.h: Parse/Bind and SQL
// PREPARE/EXECUTE/DEALLOCATE share one namespace).
//
// A simple Query's text (RunQuery) runs here whole, its results reported
// through a ResultSink (result_sink.h) in the order the client must see
// them, COPY FROM's data read through a ClientInput (client_input.h):
//  - Scheduled: a text that holds a whole transaction outside a block (DML
//    statements, optionally between a leading BEGIN and a trailing
//    COMMIT/END) is submitted as ONE TransactionRequest (Database::Run):
//    the scheduler sees its references before it runs, conflicts are
//    retried by the workers, and the client sees 40001 only when retries
//    run out. Its results are reported once it has finished.
//  - Interactive: everything else runs statement by statement through the
//    Session in the block rules of session.h (several statements form one
//    implicit block, the first error fails it, a cancel stops the rest).
// The extended protocol's messages up to a Sync or a Flush (RunPipeline,
// pipeline_runner.h) run here too: a pipeline that holds a whole
// transaction goes to the scheduler the same way; anything else runs
// message by message in the implicit block's rules.
//
// Thread-safety: used by one thread at a time (it may move between
// threads); Cancel() may be called from any thread.
// Ownership: must not outlive its Database. Destroying it rolls back the
// client's open transaction and drops its statements and portals. The sink
// and input are borrowed for one call.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "engine/client/client_request.h"
#include "engine/client/prepared_namespace.h"
#include "engine/notification_hub.h"
#include "common/query_result.h"
#include "engine/transaction_state.h"

namespace paceline::engine {

class ClientInput;
class Database;
class ResultSink;
class Session;
struct StatementRef;

class ClientSession {
 public:
  explicit ClientSession(Database* db);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  // One client message, from when the protocol layer has read it to when
  // it has answered it: a cancel that arrived before it is dropped, one
  // that arrives while it runs stops it (Session::RequestScope).
  class RequestScope {
   public:
    explicit RequestScope(ClientSession* client) : client_(client) { client_->BeginRequest(); }
    ~RequestScope() { client_->EndRequest(); }
    RequestScope(const RequestScope&) = delete;
    RequestScope& operator=(const RequestScope&) = delete;

   private:
    ClientSession* client_;
  };

  // One simple Query message's text: its statements' results, or its
  // error (at most one; its position in the whole text), through `sink`.
  // An empty text is EmptyQuery.
  void RunQuery(std::string_view text, ResultSink* sink, ClientInput* input);
  // The extended protocol's messages up to a Sync or a Flush, their
  // replies through `sink`. Returns whether an error has been reported
  // since the last Sync: the protocol layer then drops every message up to
  // the next Sync, which it still passes on (an empty request that ends
  // the failed implicit block).
  bool RunPipeline(const PipelineRequest& request, ResultSink* sink, ClientInput* input);
  // One statement for the protocol layer: COPY, PREPARE, EXECUTE,
  // DEALLOCATE and the client's part of DISCARD ALL here, anything else
  // through the session. Reports its warnings; an error is returned (not
  // reported) and fails the open block. *written: it reported its replies
  // itself (COPY); else the caller reports *result.
  Status RunStatement(const StatementRef& ref, const std::vector<Value>& params, QueryResult* result, bool* written,
                      ResultSink* sink, ClientInput* input);
  // Whether a whole transaction of this client may go to the scheduler:
  // the database has workers, no block is open, and transactions are not
  // READ ONLY by default.
  bool SubmitAllowed() const;

  // Stops what the client runs now with 57014 (Session::Cancel). Any
  // thread.
  void Cancel();
  // Between requests: idle, in a block, or in a failed block.
  TransactionState state() const;
  // A setting's current value (SHOW), or 42704 when unknown.
  Status GetSetting(std::string_view name, std::string* value) const;
  // Sets a setting (a start-up parameter); 42704 when unknown.
  Status SetSetting(std::string_view name, std::string value);
  // Whether a statement since the last call may have changed a setting a
  // protocol reports (SET, or the end of a block, which undoes SET LOCAL).
  bool TakeSettingsChanged();
  // The process id a protocol gave the client (BackendKeyData): the
  // sender of its notifications.
  void SetBackendPid(int32_t pid);
  // The role and database the client connected as (Session::SetIdentity).
  void SetIdentity(std::string user, std::string database);
  // The client's address and port (pg_stat_activity's client_addr/port).
  void SetClient(std::string address, int32_t port);
  // The server's address and port the client reached (inet_server_addr/port).
  void SetServer(std::string address, int32_t port);
  // How pg_terminate_backend from another session ends this client's
  // connection (Session::SetTerminator; called on that session's thread).
  void SetTerminator(std::function<void()> terminator);
  // The notifications for its LISTEN channels since the last call
  // (Session::TakeNotifications).
  std::vector<Notification> TakeNotifications();
  // Called, on the notifying thread, when a notification arrives for this
  // client (Session::SetNotificationWaker); empty: none.
  void SetNotificationWaker(std::function<void()> waker);

 private:
  void BeginRequest();
  void EndRequest();
  Status RunStatementHere(const StatementRef& ref, const std::vector<Value>& params, QueryResult* result,
                          bool* written, ResultSink* sink, ClientInput* input);

  Database* db_;
  std::unique_ptr<Session> session_;
  PreparedNamespace names_;  // after session_, which it borrows: destroyed first
  bool settings_changed_ = false;
  bool pipeline_failed_ = false;  // an error since the last Sync
};

}  // namespace paceline::engine
