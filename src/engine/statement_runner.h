// StatementRunner: how statements run against a database — the one internal
// interface that the embedded API (Database: requests, procedures, bulk
// loads, recovery) and sessions (Session) share, so that neither reaches
// into the other.
//
// It holds the execution gate (shared while a statement runs or binds,
// exclusive for DDL and bulk loads; execution_gate.h), the table gates of
// transaction blocks (table_gates.h), the conflict lanes of interactive
// blocks (lane_table.h) and what the scheduler needs of each transaction
// (its FootprintSpec); it hands out transactions and their timestamps,
// prepares statements from the statement cache (for the foreign keys of
// every transaction too: it is their sql::StatementPreparer), runs DML
// inside a transaction and DDL under the gates, and waits for a commit to
// be durable. It borrows the Database's parts: options, catalog, statement
// cache, concurrency control, epochs, scheduler, activity registry, advisory
// lock table and, once recovery is done, the durability.
//
// Thread-safety: every method may be called from any thread; what a caller
// must hold (a gate) is stated per method. Ownership: owned by the
// Database; the parts it borrows outlive it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cc/concurrency_control.h"
#include "common/query_result.h"
#include "common/ids.h"
#include "common/status.h"
#include "engine/activity_registry.h"
#include "engine/advisory_lock_table.h"
#include "engine/durability/durability.h"
#include "engine/execution_gate.h"
#include "engine/lane_table.h"
#include "engine/options.h"
#include "engine/table_gates.h"
#include "engine/transaction.h"
#include "engine/transaction_request.h"
#include "scheduler/scheduler.h"
#include "sql/literal_parameterizer.h"
#include "sql/statement_cache.h"
#include "sql/statement_preparer.h"
#include "storage/catalog/catalog.h"
#include "storage/epoch_manager.h"

namespace paceline::sql {
struct DdlRedo;
}  // namespace paceline::sql

namespace paceline::engine {

class StatementRunner final : public sql::StatementPreparer {
 public:
  // The Database's parts, borrowed. `scheduler` fixes the footprint spec
  // and, with Options::conflict_lanes, whether there are lanes.
  struct Parts {
    const Options* options = nullptr;
    catalog::Catalog* catalog = nullptr;
    sql::StatementCache* cache = nullptr;
    cc::ConcurrencyControl* cc = nullptr;
    storage::EpochManager* epoch = nullptr;
    scheduler::Scheduler* scheduler = nullptr;
    ActivityRegistry* activity = nullptr;
    AdvisoryLockTable* advisory_locks = nullptr;
  };
  explicit StatementRunner(const Parts& parts);
  StatementRunner(const StatementRunner&) = delete;
  StatementRunner& operator=(const StatementRunner&) = delete;

  // The redo log commits and DDL append to, set once recovery is done
  // (until then, DDL replayed by recovery is not logged again).
  void SetDurability(durability::Durability* durability) { durability_ = durability; }

  // --- Transactions
  // A started transaction (epoch pinned, cc context begun) with
  // `timestamp`, logging to the durability and preparing its foreign keys'
  // statements here.
  Status NewTransaction(TxnTimestamp timestamp, std::unique_ptr<Transaction>* out);
  // A new transaction timestamp (a retried attempt keeps its first).
  TxnTimestamp NextTimestamp() { return TxnTimestamp(next_timestamp_.fetch_add(1, std::memory_order_relaxed)); }

  // --- Preparing (the caller holds the execution gate)
  // sql::StatementPreparer: from the statement cache.
  Status Prepare(std::string_view sql, const std::vector<Type>& declared,
                 std::shared_ptr<const sql::PreparedStatement>* out) override;
  uint64_t CatalogVersion() const override { return catalog_.version(); }
  // Prepares `sql` to run with `params` ($1..$n). With
  // Options::parameterize_literals, when sql::LiteralParameterizer replaces
  // literals of `sql` and the normalized text prepares, that is the
  // statement (shared by every text differing only in literals) and
  // `*with_literals` receives `params` followed by the literal values: run
  // it with those. Otherwise `sql` itself is prepared, as by Prepare, and
  // `*with_literals` is left empty: run it with `params`.
  Status PrepareCall(std::string_view sql, const std::vector<Value>& params,
                     std::shared_ptr<const sql::PreparedStatement>* out, std::vector<Value>* with_literals);
  // `normalized` (LiteralParameterizer) prepared, and `*with_literals`
  // `params` followed by its literal values converted to the plan's
  // parameter types. False (*out untouched) when the normalized text does
  // not prepare or a literal would not convert: the caller then prepares
  // the original text. The one rule for when a normalized text stands for
  // the original: PrepareCall and the Session's PrepareParameterized and
  // PrepareNormalized all use it.
  bool PrepareNormalized(const sql::ParameterizedStatement& normalized, const std::vector<Value>& params,
                         std::shared_ptr<const sql::PreparedStatement>* out, std::vector<Value>* with_literals);
  // A request's statement: call.prepared while the catalog is at `version`
  // (a stale one is prepared again from its own text and parameter types,
  // which call.params have); without it, PrepareCall.
  Status PrepareCallOf(const StatementCall& call, uint64_t version, std::shared_ptr<const sql::PreparedStatement>* out,
                       std::vector<Value>* with_literals);

  // --- Running
  // Runs DML `statement` with `params` in `txn` (the caller holds the
  // execution gate). A failed statement is undone (rolled back to the mark
  // taken before it) and `result` cleared; an error decided on reads that
  // are no longer current is the conflict instead (40001).
  Status RunDml(const sql::PreparedStatement& statement, const std::vector<Value>& params, Transaction* txn,
                int64_t start_time, QueryResult* result);
  // Runs `txn`'s deferred foreign key checks that are due (sql::Executor::
  // CheckDeferredForeignKeys): all of them before a commit, or those SET
  // CONSTRAINTS .. IMMEDIATE made due. 23503 for the first that fails, or
  // the conflict when the reads it failed on are stale (Transaction::Explain).
  Status CheckDeferred(Transaction* txn, int64_t start_time, bool all);
  // Runs DDL `statement`; the caller holds what ChangeSchema holds. Logged
  // (and waited for) when durable. `replaying`: recovery runs a logged
  // statement again (sql::DdlOptions).
  Status RunDdl(const sql::PreparedStatement& statement, QueryResult* result, bool replaying = false);
  // Blocks until what a commit at `commit_lsn` (Lsn(): a read-only one) that
  // handed out sequence values covered by `sequence_lsn` depends on is
  // durable; the log's I/O error if any. At once when in memory only.
  Status AwaitCommitDurable(Lsn commit_lsn, Lsn sequence_lsn = Lsn());
  // The LSN that acknowledgement waits for (AwaitCommitDurable); needs the
  // durability.
  Lsn AcknowledgedAfter(Lsn commit_lsn, Lsn sequence_lsn) const;

  // --- Gates
  // The execution gate: shared for statements in flight and binding,
  // exclusive for DDL and bulk loads; 55P03 after lock_timeout.
  Status EnterGate();
  void LeaveGate() { gate_.LeaveShared(); }
  Status EnterGateExclusive();
  void LeaveGateExclusive() { gate_.LeaveExclusive(); }
  // Whether a schema change waits for (or holds) the execution gate or a
  // table's gate.
  bool schema_change_pending() const { return gate_.exclusive_claimed() || table_gates_.exclusive_claimed(); }
  // A transaction block's entry to `table`'s gate (table_gates.h), waiting
  // while a schema change claims it: 55P03 after lock_timeout, 40P01 when
  // the wait would close a cycle, 57014 when `cancel` is raised. The caller
  // does not hold the execution gate.
  Status EnterTableGate(const void* owner, TableId table, const CancelToken* cancel);
  // The table gates themselves (a block's entries without waiting, leaving
  // them all at its end).
  TableGates& table_gates() { return table_gates_; }
  const TableGates& table_gates() const { return table_gates_; }
  // Runs `change` as a schema change of `owner` (a session, or the bulk
  // load's frame): enters the table gates of `tables()` exclusive (waiting
  // for the blocks that use them; errors as EnterTableGate), then the
  // execution gate exclusive (waiting for the statements in flight). Should
  // the catalog have changed meanwhile so that `tables()` names more
  // tables, it enters those too and looks again. `tables` runs under the
  // execution gate (shared or exclusive). The caller holds neither gate.
  Status ChangeSchema(const void* owner, const CancelToken* cancel,
                      const std::function<std::vector<TableId>()>& tables, const std::function<Status()>& change);
  // The tables DDL `ast` changes (ids, ascending): each table it names
  // with the tables its foreign keys connect it to (both ways), every table
  // using a domain it drops. Read under the execution gate.
  std::vector<TableId> TablesChangedBy(const sql::Statement& ast) const;
  // The tables DDL `ast` operates on by name (CREATE INDEX's, ALTER's,
  // TRUNCATE's, the tables or the indexes' tables DROP names; none for
  // CREATE TABLE/DOMAIN), those that exist. Read under the execution gate.
  std::vector<std::shared_ptr<storage::Table>> TablesNamedBy(const sql::Statement& ast) const;
  // Frees the garbage no pinned transaction can reach any more (after DDL).
  void CollectGarbage() { epoch_.Collect(); }

  // Holds the execution gate for one scope: Enter() it (shared or
  // exclusive), and it is left when the scope ends, however it ends (a
  // procedure body that throws included).
  class ScopedGate {
   public:
    explicit ScopedGate(StatementRunner* runner) : runner_(runner) {}
    ~ScopedGate() {
      if (held_) exclusive_ ? runner_->LeaveGateExclusive() : runner_->LeaveGate();
    }
    ScopedGate(const ScopedGate&) = delete;
    ScopedGate& operator=(const ScopedGate&) = delete;
    Status Enter() {
      PL_RETURN_IF_ERROR(runner_->EnterGate());
      held_ = true;
      return Status::OK();
    }
    Status EnterExclusive() {
      PL_RETURN_IF_ERROR(runner_->EnterGateExclusive());
      held_ = exclusive_ = true;
      return Status::OK();
    }

   private:
    StatementRunner* runner_;
    bool held_ = false;
    bool exclusive_ = false;
  };

  // --- Scheduling and sessions
  // What the scheduler needs of a transaction (fixed), and whether it needs
  // anything (the baselines need no footprint).
  const scheduler::FootprintSpec& footprint_spec() const { return footprint_spec_; }
  bool needs_footprint() const { return needs_footprint_; }
  scheduler::Scheduler& scheduler() { return *scheduler_; }
  // The conflict lanes of interactive blocks (null: Options::conflict_lanes
  // off, or a scheduler that keeps no references).
  LaneTable* lanes() { return lanes_.get(); }
  const LaneTable* lanes() const { return lanes_.get(); }
  // Every session's activity (pg_stat_activity, signals between backends).
  ActivityRegistry& activity() { return activity_; }
  // pg_advisory_lock & co.'s locks, shared by every session.
  AdvisoryLockTable& advisory_lock_table() { return advisory_lock_table_; }
  // The redo log (null: in memory only, or recovery still running).
  durability::Durability* durability() const { return durability_; }
  // A new session's id (1, 2, ...).
  uint64_t NextSessionId() { return next_session_id_.fetch_add(1, std::memory_order_relaxed); }

 private:
  // 55P03 for a gate wait that ran out: "could not <what>: <who> ...".
  Status GateTimedOut(bool entered, const char* what, const char* who) const;
  // Logs a DDL statement's text, then what replaying it would not make the
  // same way (sql::DdlRedo), and waits until all of it is durable.
  Status LogDdl(const std::string& text, const sql::DdlRedo& after);

  const Options& options_;
  catalog::Catalog& catalog_;
  sql::StatementCache& cache_;
  cc::ConcurrencyControl* const cc_;
  storage::EpochManager& epoch_;
  scheduler::Scheduler* const scheduler_;
  ActivityRegistry& activity_;
  AdvisoryLockTable& advisory_lock_table_;
  durability::Durability* durability_ = nullptr;
  ExecutionGate gate_;
  TableGates table_gates_;
  const scheduler::FootprintSpec footprint_spec_;
  const bool needs_footprint_;
  std::unique_ptr<LaneTable> lanes_;
  std::atomic<uint64_t> next_timestamp_{1};
  std::atomic<uint64_t> next_session_id_{1};
};

}  // namespace paceline::engine
