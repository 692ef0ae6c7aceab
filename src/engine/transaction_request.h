// TransactionRequest: a whole transaction handed to the engine at once — a
// list of SQL statements with their parameters, or a call of a registered
// stored procedure with its arguments — and TransactionResult, its outcome.
//
// Because the request is complete before it runs, a scheduler can read its
// footprint (the statements' reference slots bound to these parameter
// values; for a procedure, the calls its `predict` function lists) without
// executing it. Plain value types (the cancel token is borrowed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/cancel_token.h"
#include "common/ids.h"
#include "common/status.h"
#include "common/value.h"
#include "common/query_result.h"

namespace paceline::sql {
struct PreparedStatement;
class SystemInfo;
}

namespace paceline::engine {

struct StatementCall {
  std::string sql;            // exactly one statement
  std::vector<Value> params;  // $1..$n
  // Optional: the statement as the caller already prepared it (a server's
  // Parse, with its declared parameter types; or `sql` with its literals
  // made parameters, Session::PrepareNormalized), `params` of its
  // parameter types. The engine runs it while the catalog is the one it
  // was bound against, so nothing is lexed or looked up again; after DDL
  // it prepares prepared->text again with those parameter types (`sql` is
  // then only what error messages quote).
  std::shared_ptr<const sql::PreparedStatement> prepared = nullptr;
};

// A request's statements as the engine prepared them (engine-internal:
// defined in database.cc).
class SequenceSession;
class AdvisoryLocks;
class SessionActivity;
struct PreparedCalls;

struct TransactionRequest {
  std::vector<StatementCall> statements;  // run in order, then commit
  std::string procedure;                  // or: the name of a registered procedure
  std::vector<Value> args;                // its arguments
  // Cancels it (borrowed, may be null; must outlive the result's delivery):
  // canceled while queued, it never runs; while running, it stops at the
  // next check point (see common/cancel_token.h). Either way it fails with
  // 57014, is not retried, and is no abort in the scheduler's History.
  const CancelToken* cancel = nullptr;
  // The session whose currval and lastval nextval & co. read and set
  // (borrowed, may be null: the request has its own, which it forgets).
  SequenceSession* sequences = nullptr;
  // The session whose advisory locks pg_advisory_lock & co. take (borrowed,
  // may be null: they then fail); its transaction-level ones end with each
  // attempt.
  AdvisoryLocks* advisory_locks = nullptr;
  // The session the system catalogs and session functions describe
  // (borrowed, may be null: they then fail with 0A000).
  sql::SystemInfo* system_info = nullptr;
  // The process id its notifications (pg_notify) are sent from.
  int32_t notifier_pid = 0;
  // The submitting session's pg_stat_activity record (borrowed, may be
  // null): Database::Run names the run queue it waits on there.
  SessionActivity* activity = nullptr;
  // Filled by the engine, left empty by callers: the statements as
  // prepared when the footprint was read, which each attempt runs while the
  // catalog is the one they were bound against (instead of preparing
  // every statement again).
  std::shared_ptr<const PreparedCalls> prepared;

  static TransactionRequest Statements(std::vector<StatementCall> calls) {
    TransactionRequest r;
    r.statements = std::move(calls);
    return r;
  }
  static TransactionRequest Call(std::string name, std::vector<Value> args) {
    TransactionRequest r;
    r.procedure = std::move(name);
    r.args = std::move(args);
    return r;
  }
};

struct TransactionResult {
  Status status;                     // OK when committed
  // Statement lists: one per statement run, the failed one last. A
  // procedure: what its body returned (ProcedureContext::Return), if anything.
  std::vector<QueryResult> results;
  bool user_abort = false;           // rolled back by the procedure itself (not a conflict)
  // A commit's redo record (Lsn(): it wrote nothing, or no data directory);
  // its result is delivered once the record is durable.
  Lsn commit_lsn;
  // The newest sequence record its nextval/setval calls need (Lsn(): none).
  Lsn sequence_lsn;
  uint32_t conflicts = 0;            // attempts aborted by conflicts before this outcome (retries + 1 at the limit)
  bool committed() const { return status.ok(); }
};

}  // namespace paceline::engine
