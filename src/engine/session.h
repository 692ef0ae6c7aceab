// Session: one client's connection to a Database — its transaction state,
// its settings, and statement execution.
//
// Statements outside BEGIN .. COMMIT run in their own transaction
// (autocommit; one that meets a conflict is retried, up to
// Options::max_retries, before 40001 reaches the caller). Inside a block, a failing statement is undone and the block
// is marked failed: later statements get 25P02 until ROLLBACK (or COMMIT,
// which then rolls back, with command tag ROLLBACK), as in PostgreSQL.
// ExecuteScript runs several ';'-separated statements as PostgreSQL runs a
// simple-query message: as one implicit transaction unless the text has its
// own BEGIN/COMMIT; a protocol layer that runs a message's statements one by
// one uses the same rules through BeginImplicitBlock and its neighbours.
// Transaction control out of place (COMMIT with no block or in an implicit
// one, BEGIN in an explicit block) succeeds with PostgreSQL's warning in
// QueryResult::warnings. Settings behave as in PostgreSQL: ROLLBACK undoes a
// block's SETs, SET LOCAL lasts until the block ends, and a READ ONLY
// transaction (BEGIN READ ONLY, default_transaction_read_only) refuses
// writes with 25006.
//
// Thread-safety: a Session is used by one thread at a time (it may move
// between threads); Cancel() may be called from any thread. Ownership: created by Database::CreateSession; must not
// outlive its Database. Destroying a session rolls back its open transaction.
//
// Schema changes: an autocommit statement holds the database's execution
// gate while it runs; a transaction block holds it for each statement and
// its commit, and between statements keeps the gates of the tables its
// statements named (table_gates.h), until it ends. DDL elsewhere waits for
// the blocks that use the tables it changes, never for idle blocks on
// other tables; DDL inside a block runs at once when no other block uses
// its tables (it is not transactional: ROLLBACK does not undo it).
//
// Scheduling: a session's transactions run on the caller's thread, outside
// the run queues (they cannot be placed in advance: their statements arrive
// one by one), but their commits and conflict aborts still feed the
// scheduler's History (events with scheduler::kNoQueue). A block's
// statement whose references have conflict evidence first takes their
// conflict lanes (lane_table.h; Options::conflict_lanes), waiting while
// another block holds one, and the block
// keeps its lanes until it ends: blocks of one conflict group run one after
// the other instead of failing each other with 40001. A lane wait ends with
// 40P01 when it would close a cycle, 55P03 after lock_timeout, 57014 on
// Cancel(); the block is then failed, like any failed statement. Autocommit
// statements take no lanes (their conflicts are retried here).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/cancel_token.h"
#include "common/status.h"
#include "common/value.h"
#include "common/query_result.h"
#include "engine/recent_statements.h"
#include "engine/advisory_locks.h"
#include "engine/session_activity.h"
#include "engine/session_system_info.h"
#include "engine/notification_hub.h"
#include "engine/sequence_session.h"
#include "sql/deferred_constraints.h"
#include "sql/prepared_statement.h"
#include "sql/literal_parameterizer.h"
#include "engine/transaction.h"
#include "engine/transaction_state.h"
#include "scheduler/footprint.h"

namespace paceline::engine {

class Database;
class StatementRunner;
class FootprintBuilder;

class Session {
 public:
  // Made by Database::CreateSession: a session of `db`, running its
  // statements through `runner` (the database's).
  Session(Database* db, StatementRunner* runner);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs exactly one statement with parameters $1..$n.
  Status Execute(std::string_view sql, const std::vector<Value>& params, QueryResult* result);
  Status Execute(std::string_view sql, QueryResult* result) { return Execute(sql, {}, result); }
  // Runs every statement of `sql`; one result per statement that ran. Stops
  // at the first error, which it returns.
  Status ExecuteScript(std::string_view sql, std::vector<QueryResult>* results);

  // Prepares `sql` (cached) for Describe/Execute by a protocol layer.
  Status Prepare(std::string_view sql, const std::vector<Type>& declared_types,
                 std::shared_ptr<const sql::PreparedStatement>* out);
  Status ExecutePrepared(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                         QueryResult* result);
  // A statement its caller parameterized (sql::LiteralParameterizer, no
  // parameters of its own): its normalized text prepared (cached) and
  // `*with_literals` its literal values converted to that plan's parameter
  // types — a StatementCall{text, *with_literals, *out} for Database::Run.
  // False when the normalized text does not prepare or a literal would not
  // convert: then the caller runs the original text, which fails as it
  // always did.
  bool PrepareNormalized(const sql::ParameterizedStatement& normalized,
                         std::shared_ptr<const sql::PreparedStatement>* out, std::vector<Value>* with_literals);

  // Cancels what this session runs now — the statement (and with it an
  // autocommit transaction), or the script — with 57014, as PostgreSQL's
  // CancelRequest: a lock wait wakes up, the executor stops within
  // kCancelCheckRows rows, a script stops before its next statement, an
  // autocommit conflict is not retried. In a block, the block becomes failed
  // (25P02 until ROLLBACK). Ignored when nothing runs: each Execute,
  // ExecuteScript or ExecutePrepared called from outside starts by clearing
  // it. Any thread.
  void Cancel() { cancel_.Cancel(); }
  // The token Cancel() sets, for work the session's owner runs on the
  // session's behalf outside it (a TransactionRequest it submits, inside a
  // RequestScope) and for tests (checks()).
  CancelToken* cancel_token() { return &cancel_; }
  // Its currval/lastval state, for the requests it submits (a scheduled
  // pipeline keeps currval like a block).
  SequenceSession* sequences() { return &sequences_; }
  AdvisoryLocks* advisory_locks() { return &advisory_locks_; }
  // The process id a protocol gave this session (default: its id): the
  // sender of its notifications.
  void SetBackendPid(int32_t pid) {
    backend_pid_ = pid;
    activity_.SetPid(pid);
  }
  // The client's address and port, for pg_stat_activity (a protocol layer
  // sets it; an embedded session has none).
  void SetClient(std::string address, int32_t port) {
    client_end_ = sql::SystemInfo::Endpoint{address, port};
    activity_.SetClient(std::move(address), port);
  }
  // The server's end of the connection (inet_server_addr/port).
  void SetServer(std::string address, int32_t port) { server_end_ = sql::SystemInfo::Endpoint{std::move(address), port}; }
  const std::optional<sql::SystemInfo::Endpoint>& client_end() const { return client_end_; }
  const std::optional<sql::SystemInfo::Endpoint>& server_end() const { return server_end_; }
  // How pg_terminate_backend ends this session's connection (its protocol
  // layer sets it; called on another session's thread). Empty: the session
  // has no connection to end.
  void SetTerminator(std::function<void()> terminator);
  // pg_cancel_backend (terminate false): Cancel(); true. pg_terminate_backend:
  // the terminator; false without one. Any thread.
  bool Signal(bool terminate);
  // Signal to the session with `pid` (ActivityRegistry::Signal).
  bool SignalBackend(int32_t pid, bool terminate);
  // The text a client message runs, for pg_stat_activity: the first one
  // noted in a request stands for it (a simple Query's whole text, not
  // each of its statements). Execute, ExecuteScript and ExecutePrepared
  // note their own.
  void NoteQuery(std::string_view text) {
    if (query_noted_) return;
    query_noted_ = true;
    request_start_ = activity_.Start(text, state_ != TransactionState::kIdle);
  }
  SessionActivity* activity() { return &activity_; }
  int32_t backend_pid() const { return backend_pid_ != 0 ? backend_pid_ : static_cast<int32_t>(id_); }
  // Between transactions: the notifications for its LISTEN channels since
  // the last call (NotificationHub); none while a block is open.
  std::vector<Notification> TakeNotifications();
  // Called when a notification arrives for this session (see
  // NotificationHub::SetWaker); empty: none.
  void SetNotificationWaker(std::function<void()> waker);
  // One client request: the outermost scope clears the cancel token when it
  // opens; calls inside it (each public entry point opens one) do not. An
  // owner that serves one client message with several calls (a protocol's
  // Query with several statements, a COPY, a Submit) opens one around them,
  // so a cancel that arrives between or before those calls is not dropped.
  class RequestScope {
   public:
    explicit RequestScope(Session* session, std::string_view query = {}) : session_(session) {
      session_->BeginRequest(query);
    }
    ~RequestScope() { session_->EndRequest(); }
    RequestScope(const RequestScope&) = delete;
    RequestScope& operator=(const RequestScope&) = delete;

   private:
    Session* session_;
  };

  // What RequestScope does, for an owner that keeps its own scope object
  // (ClientSession::RequestScope): calls in balanced pairs.
  // `query` (may be empty): the text it runs, for pg_stat_activity.
  void BeginRequest(std::string_view query = {}) {
    if (request_depth_++ == 0) cancel_.Reset();
    if (!query.empty()) NoteQuery(query);
  }
  void EndRequest() {
    if (--request_depth_ == 0) {
      query_noted_ = false;
      FinishActivity();
    }
  }

  TransactionState state() const { return state_; }

  // Blocks for a protocol layer that runs a client message's statements one
  // call at a time (the server's Query message, an extended-protocol batch
  // up to Sync); ExecuteScript follows the same rules.
  //
  // Opens an implicit transaction block when idle (otherwise does nothing):
  // the statements up to EndImplicitBlock run in one transaction, as
  // PostgreSQL runs a Query message of several statements. An explicit BEGIN
  // inside it takes the block over (it becomes an ordinary block, command
  // tag BEGIN, no warning); an explicit COMMIT or ROLLBACK ends it. The
  // protocol layer calls it before each statement of the message, so that
  // the statements after an explicit COMMIT or ROLLBACK form a new implicit
  // block, as in PostgreSQL ("INSERT 1; COMMIT; INSERT 2; SELECT 1/0"
  // keeps 1 and rolls back 2).
  Status BeginImplicitBlock();
  // Ends the implicit block, if one is still open: commits it unless
  // `failed` or one of its statements failed (then rolls it back). Returns
  // the commit's error (a conflict: 40001), else OK.
  Status EndImplicitBlock(bool failed);
  bool in_implicit_block() const { return implicit_block_; }
  // The statements of one simple-query message, `count` of them, in the
  // rules above: BeginImplicitBlock before each when there are several; a
  // cancel (Cancel) between statements stops with 57014; the first error
  // fails the open block and stops; then EndImplicitBlock. `run(i)` runs
  // statement i (and reports its result). Returns the first error, and in
  // *failed_statement the i whose run(i) returned it, or `count` when it
  // is the loop's own (a cancel, or the implicit block's begin or commit).
  // ExecuteScript and the server's Query message both run through it.
  Status RunStatements(size_t count, const std::function<Status(size_t)>& run, size_t* failed_statement);
  // A statement of the open block failed outside this session (its text did
  // not parse, a COPY or a protocol message failed): the block fails as if
  // the session had run it (kInBlock -> kFailed, its transaction aborted,
  // its locks, gates and lanes given back at once; but with a savepoint to
  // go back to, and no conflict behind the failure, the transaction stays
  // for ROLLBACK TO SAVEPOINT). Otherwise does nothing.
  void FailOpenBlock();
  // The client's BEGIN ... ran elsewhere (submitted whole as one
  // TransactionRequest, which the engine rolled back when a statement
  // failed) and its COMMIT is still to come: when idle, the session enters
  // that failed block (kFailed, no transaction) until COMMIT or ROLLBACK.
  void EnterFailedBlock();
  // 25P02 in a failed block, else OK: for statements the owner runs itself
  // (the server's COPY, PREPARE, EXECUTE, DEALLOCATE).
  Status CheckNotInFailedBlock() const;
  // This session's number among the database's sessions (SHOW
  // paceline.lanes names lane holders and waiters by it; SHOW
  // paceline.session_id shows it).
  uint64_t id() const { return id_; }
  // A setting's current value (SHOW), or "" with 42704 when unknown.
  Status GetSetting(std::string_view name, std::string* value) const;
  Status SetSetting(std::string_view name, std::string value);
  // set_config(name, value, is_local) inside a statement: SET or SET LOCAL.
  Status SetSettingFromStatement(const std::string& name, const std::string& value, bool local);
  // Every setting as SHOW ALL prints it, in name order.
  std::vector<std::pair<std::string, std::string>> AllSettings() const;
  // The role and database its owner connected it as (the system catalogs,
  // current_user, current_database()).
  void SetIdentity(std::string user, std::string database) {
    activity_.SetIdentity(user, database);
    system_info_.SetIdentity(std::move(user), std::move(database));
  }
  sql::SystemInfo* system_info() { return &system_info_; }
  // The database it belongs to (for what its system views show of others).
  const Database& database() const { return *db_; }

 private:
  Status Run(const sql::PreparedStatement& statement, const std::vector<Value>& params, QueryResult* result);
  Status RunTransactionControl(const sql::TransactionStmt& stmt, QueryResult* result);
  Status RunUtility(const sql::PreparedStatement& statement, QueryResult* result);
  // EXPLAIN [ANALYZE] (session_explain.cc): the plan of the statement
  // explained, with the scheduler's view of its references; ANALYZE runs
  // it as it would run here (in the open block, or as its own autocommit
  // transaction) and adds what its plan's nodes produced.
  Status RunExplain(const sql::PreparedStatement& statement, const std::vector<Value>& params, QueryResult* result);
  // LISTEN, UNLISTEN, NOTIFY (session_block.cc).
  Status RunNotifyStatement(const sql::Statement& ast, QueryResult* result);
  // LISTEN (listen) or UNLISTEN channel ("" : UNLISTEN *), now.
  void ApplyListen(bool listen, const std::string& channel);
  // A committed transaction's notifications, sent to the listeners.
  void PublishNotifications(std::vector<std::pair<std::string, std::string>> notifications);
  // SET CONSTRAINTS (session_block.cc): the block's deferrable foreign keys
  // deferred or made immediate, those made immediate checked at once.
  Status SetConstraints(const sql::SetConstraintsStmt& stmt, QueryResult* result);
  // 25001 when DDL in an open block would touch a table the block wrote.
  Status CheckDdlAfterWrites(const sql::Statement& ast) const;
  // Starts a transaction (TxnTimestamp(): a new age).
  Status Begin(TxnTimestamp timestamp = TxnTimestamp());
  // Execute's and ExecuteScript's parameterization of literals
  // (Options::parameterize_literals): prepares the normalized text of `sql`
  // (from this session's recent statements, else the shared cache) and sets
  // `*with_literals` to `params` followed by the literal values, `*applied`
  // then true. Not applicable, or the normalized text does not prepare:
  // OK with `*applied` false, and the caller runs `sql` as it is. Returns
  // only a gate timeout as an error.
  Status PrepareParameterized(std::string_view sql, const std::vector<Value>& params,
                              std::shared_ptr<const sql::PreparedStatement>* out, std::vector<Value>* with_literals,
                              bool* applied);
  // Runs DML in the open transaction, binding it again when the schema
  // changed since it was prepared; inside a block, after entering the gates
  // of its tables.
  Status RunDmlInTransaction(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                             QueryResult* result);
  // Enters the gates of `statement`'s tables this block does not hold yet,
  // without waiting: false with `*busy` the first one a schema change claims.
  bool EnterTableGatesNow(const sql::PreparedStatement& statement, TableId* busy);
  // Enters one table's gate if it is free (or held by this block already).
  bool TryEnterTableGate(TableId table);
  // LOCK TABLE: the share modes hold the tables' gates to the block's end
  // (no schema change until then); the exclusive modes are 0A000.
  Status RunLock(const sql::LockStmt& stmt, QueryResult* result);
  // DDL, as the database's ChangeSchema.
  Status RunSchemaChange(const sql::PreparedStatement& statement, QueryResult* result);
  // Gives back the open block's table gates.
  void LeaveTableGates();
  // The conflict lane of a reference a statement carries.
  struct LaneWanted {
    uint64_t key = 0;
    std::string name;
  };
  // Takes the conflict lanes `statement` calls for that this block does
  // not hold yet, in key order: those of its references with conflict
  // evidence (Scheduler::LanedReferences) or whose lanes blocks keep
  // meeting in (LaneTable::Remembered). Takes the free ones without
  // waiting; false with the first busy one in `*busy`.
  bool TakeLanesNow(const sql::PreparedStatement& statement, const std::vector<Value>& params, LaneWanted* busy);
  // The indexes (into footprint.references) of the references a block's
  // statement takes lanes for: those with conflict evidence, and those
  // whose lanes blocks keep meeting in (empty without lanes).
  void LanedReferences(const scheduler::Footprint& footprint, std::vector<size_t>* laned) const;
  // Gives back the open block's lanes.
  void LeaveLanes();
  // Begin() for a transaction block (BEGIN, or a multi-statement script).
  Status BeginBlock();
  // Every setting back to its default (RESET ALL, DISCARD ALL);
  // `block_scoped`: as SET LOCAL, until the block ends.
  void ResetAllSettings(bool block_scoped);
  // Commits (a conflict is returned, the transaction then rolled back) or
  // rolls back the open transaction, and gives back its table gates.
  // `failed`: an error failed it (a rollback the client did not ask for).
  Status EndTransaction(bool commit, bool failed = false);
  // Counts the transaction EndTransaction ends (last_abort_reason_ set) in
  // the session's totals: a commit, an abort by its reason, an error
  // (`failed`, or a failed commit), or a rollback.
  void CountOutcome(bool commit, bool failed, const Status& status);
  // SAVEPOINT, RELEASE [SAVEPOINT] and ROLLBACK TO [SAVEPOINT] (see
  // savepoints_): 25P01 outside a block, 3B001 for an unknown name. ROLLBACK
  // TO resumes a failed block unless a conflict ended its transaction
  // (40001: only the whole transaction can be retried).
  Status RunSavepointCommand(const sql::TransactionStmt& stmt, QueryResult* result);
  // The newest savepoint named `name`, or 3B001.
  Status FindSavepoint(const std::string& name, size_t* index) const;
  // At a block's end: ROLLBACK undoes its SETs, the end of any block undoes
  // its SET LOCALs; the next transaction's READ ONLY mode is the default's.
  void EndBlockSettings(bool commit);

  // SHOW paceline.scheduler | paceline.cc | paceline.workers | paceline.lanes |
  // paceline.hot_references: the database's execution settings and the
  // scheduler's heaviest references. False when `name` is none of these.
  bool ShowPacelineSetting(const std::string& name, QueryResult* result) const;

  // Holds the database's execution gate shared for one step of this
  // session (binding, a statement, a commit) unless an enclosing step does.
  class StatementGate;

  Database* db_;
  StatementRunner* runner_;
  CancelToken cancel_;     // borrowed by txn_ and by the owner's requests
  std::optional<sql::SystemInfo::Endpoint> client_end_, server_end_;  // set before the first statement
  std::mutex terminator_mu_;
  std::function<void()> terminator_;  // guarded by terminator_mu_
  SequenceSession sequences_;  // borrowed by txn_ and by the owner's requests
  int32_t backend_pid_ = 0;
  // LISTEN / UNLISTEN in the open block, applied when it commits:
  // (listen, channel), channel "" for UNLISTEN *.
  std::vector<std::pair<bool, std::string>> pending_listens_;
  AdvisoryLocks advisory_locks_;
  SessionSystemInfo system_info_;  // borrowed by txn_ and by the owner's requests
  SessionActivity activity_;       // registered with the database for its life
  bool query_noted_ = false;       // this request's text is in activity_
  int64_t request_start_ = 0;      // when it was noted (its statement_timestamp())
  // A request ended: its state (and application_name) for pg_stat_activity.
  void FinishActivity();
  int request_depth_ = 0;  // public entry points on the stack
  TransactionState state_ = TransactionState::kIdle;
  std::unique_ptr<Transaction> txn_;  // the open block's transaction
  // The open transaction's references (only when the scheduler needs
  // footprints): its commit or conflict abort teaches the scheduler's
  // History like a submitted transaction's, with queue kNoQueue, though it
  // ran outside the run queues.
  std::unique_ptr<FootprintBuilder> footprint_;
  // EXPLAIN ANALYZE's counters while its statement runs (null otherwise):
  // RunDmlInTransaction hands them to the transaction, cleared per attempt.
  sql::PlanCounters* explain_counters_ = nullptr;
  // One statement's references, for its conflict lanes (kept: its
  // allocations serve every statement of every block).
  std::unique_ptr<FootprintBuilder> lane_builder_;
  // Its statements (text, parameter types, values), to name the references
  // of a conflict abort for History (only then rendered).
  struct Executed {
    std::string text;
    std::vector<Type> param_types;
    std::vector<Value> params;
  };
  std::vector<Executed> executed_;
  cc::AbortReason last_abort_reason_ = cc::AbortReason::kNone;  // of the last ended transaction
  // transaction_timestamp(): as PostgreSQL's, the start of the request that
  // began the transaction, else (no request noted) the clock at Begin.
  int64_t txn_start_ = 0;
  using SettingsMap = std::map<std::string, std::string, std::less<>>;
  // PostgreSQL's defaults of the settings a session has (session_settings.cc).
  static const SettingsMap& DefaultSettings();
  SettingsMap settings_;
  // The settings before the open block's first SET (none: unchanged), and
  // the names set with SET LOCAL in it.
  std::optional<std::map<std::string, std::string, std::less<>>> block_settings_;
  std::vector<std::string> local_settings_;
  // Whether the current transaction (when idle: each next one) is READ ONLY
  // (SHOW transaction_read_only); writes then fail with 25006.
  bool read_only_ = false;

  RecentStatements recent_;  // this session's recently run texts
  bool ran_ddl_ = false;  // the open block ran DDL
  bool gate_held_ = false;  // a StatementGate holds the execution gate
  std::vector<TableId> table_gates_;  // the tables whose gates the open block holds
  const uint64_t id_;
  std::vector<uint64_t> block_lanes_;  // the keys of the conflict lanes the open block holds
  bool implicit_block_ = false;  // the open block is BeginImplicitBlock's
  // The open block's savepoints, oldest first (a name may repeat: the
  // newest counts): where its transaction's undo log stood
  // (Transaction::Mark) and its settings, for ROLLBACK TO.
  struct Savepoint {
    std::string name;
    size_t mark = 0;
    std::map<std::string, std::string, std::less<>> settings;
    size_t local_settings = 0;
    bool read_only = false;
    size_t pending_listens = 0;           // LISTEN / UNLISTEN before it
    size_t advisory_mark = 0;             // transaction-level advisory holds before it
    sql::DeferredConstraints::Modes constraint_modes;  // SET CONSTRAINTS before it
  };
  std::vector<Savepoint> savepoints_;
};

}  // namespace paceline::engine
