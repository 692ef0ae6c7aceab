// Database: the embedded API and composition root of the engine.
//
//   std::unique_ptr<Database> db;
//   Status s = Database::Open(Options{}, &db);
//   auto session = db->CreateSession();
//   QueryResult r;
//   s = session->Execute("SELECT c_balance FROM customer WHERE c_id = $1", {Value::Int32(7)}, &r);
//
// A Database owns the catalog, the tables, the statement cache, the
// registered stored procedures, the concurrency control (Options::cc), and
// the execution layer: worker threads with one run queue each and the
// scheduler that picks a queue for each transaction. Sessions run SQL
// interactively; Submit queues a whole TransactionRequest (statements or a
// procedure call) for the workers; Execute runs one on the calling thread;
// BulkLoad appends rows without SQL.
//
// Transactions run concurrently and are serializable; each is atomic, and a
// failed statement never leaves partial effects. A transaction aborted by a
// conflict is retried (Options::max_retries) before the client sees 40001.
//
// Thread-safety: every public method may be called from any thread.
// Ownership: sessions must not outlive the Database.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cc/cc_registry.h"
#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "engine/durability/durability.h"
#include "engine/execution/worker_pool.h"
#include "engine/activity_registry.h"
#include "engine/advisory_lock_table.h"
#include "engine/footprint_builder.h"
#include "engine/notification_hub.h"
#include "engine/options.h"
#include "engine/procedure.h"
#include "engine/session.h"
#include "engine/statement_runner.h"
#include "sql/statement_cache.h"
#include "storage/epoch_manager.h"
#include "engine/transaction_request.h"
#include "scheduler/scheduler.h"

namespace paceline::engine {

class Database {
 public:
  static Status Open(const Options& options, std::unique_ptr<Database>* out);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  std::unique_ptr<Session> CreateSession();

  // Registers a stored procedure; its statements are prepared now (so they
  // must be valid against the current schema). 42710 if the name is taken.
  Status RegisterProcedure(Procedure procedure);
  // Runs a whole transaction on the calling thread and commits it, or rolls
  // it back on the first error (result->status). Conflicts are retried as
  // on a worker.
  void Execute(const TransactionRequest& request, TransactionResult* result);

  // Queues a whole transaction on the run queue the scheduler picks; `done`
  // is called once with the result, on a worker thread — or, for a commit
  // with a data directory, on the log writer's thread once its record is
  // durable (57P01 when the database shuts down first; 55000 when
  // Options::workers is 0). `done` must not block on this database (no
  // Execute, session COMMIT, DDL or waiting for another Submit): it would
  // hold up the worker or the log writer it runs on; submitting more
  // (Submit with a callback) is fine.
  void Submit(TransactionRequest request, ResultCallback done);
  std::future<TransactionResult> Submit(TransactionRequest request);
  // Submit, waiting for the result — except that a transaction the
  // scheduler would place on any queue alike (Scheduler::MayRunHere:
  // "adaptive" when none of its references has conflict evidence) runs on
  // the calling thread instead, with a worker's retries and scheduler
  // events (WorkerPool::RunHere), saving the trip to a worker and back.
  // For a caller that waits anyway (a server connection). It may block on
  // this database (a 2PL lock wait): never call it from a worker or a
  // callback.
  TransactionResult Run(TransactionRequest request);
  // Queues it on run queue `queue` (< workers()), bypassing the scheduler's
  // choice; its outcomes still teach the scheduler's History (events with
  // scheduler::kNoQueue), but it counts in no queue's State.
  void SubmitTo(size_t queue, TransactionRequest request, ResultCallback done);
  // Statistics of the workers since start or the last ResetStats.
  ExecutionStats Stats() const;
  // Sessions waiting for an advisory lock now (tests, monitoring).
  size_t AdvisoryLockWaiters() const { return advisory_lock_table_.Waiting(); }
  // Those that ran on their submitter's thread (Run; WorkerPool::HereStats).
  ExecutionStats StatsHere() const;
  // The same per run queue (WorkerPool::StatsPerQueue); empty without workers.
  std::vector<ExecutionStats> StatsPerQueue() const;
  // Transactions waiting on each run queue now (not those running); empty
  // without workers.
  std::vector<size_t> QueueLengths() const;
  void ResetStats();
  size_t workers() const { return pool_ ? pool_->workers() : 0; }
  // Stops the workers: drain runs what is queued first, otherwise queued
  // transactions fail with 57P01. Idempotent; the destructor drains.
  void Shutdown(bool drain);

  std::string_view cc_name() const { return cc_->Name(); }
  const cc::ConcurrencyControl& concurrency_control() const { return *cc_; }
  // Whether a schema change waits for (or holds) the execution gate or a
  // table's gate. For tests and monitoring.
  bool schema_change_pending() const { return statements_->schema_change_pending(); }
  // How many sessions wait at a table's gate (for a schema change, or as
  // one). For tests and monitoring.
  size_t table_gate_waits() const { return statements_->table_gates().waiting(); }
  std::string_view scheduler_name() const { return scheduler_->Name(); }
  // The scheduler's k heaviest references (name, aborts, commits, weight,
  // State per queue), heaviest first; empty for the baselines.
  std::vector<scheduler::HotReference> TopReferences(size_t k) const;
  // The scheduler's bookkeeping: decisions, references known, bytes.
  scheduler::SchedulerStats SchedulerStats() const;
  // What pg_stat_activity, pg_locks and pg_stat_user_tables show
  // (database_activity.cc): every session, the advisory locks and conflict
  // lanes held and awaited (their holders by pid), each table's committed
  // row changes and live rows. Any thread.
  std::vector<sql::BackendActivity> Backends() const { return activity_.Backends(); }
  // The transactions of sessions (SQL statements and blocks, not those
  // submitted or Run here) and their requests' durations, since Open.
  ActivityRegistry::SessionTotals SessionTotals() const { return activity_.Totals(); }
  // The conflict lanes now and since Open (zero when lanes are off).
  LaneTable::Stats LaneStats() const;
  std::vector<sql::LockActivity> LockActivities() const;
  std::vector<sql::TableActivity> TableActivities() const;
  // The names Options::cc and Options::scheduler accept.
  static std::vector<std::string> ConcurrencyControlNames();
  static std::vector<std::string> SchedulerNames();

  // Durability (Options::data_dir). Whether there is a data directory;
  // what recovery found at Open; a checkpoint now (55000 without a data
  // directory). Checkpoints also run in the background (Options).
  bool durable() const { return durability_ != nullptr; }
  const durability::RecoveryStats& recovery_stats() const { return recovery_stats_; }
  Status Checkpoint(durability::CheckpointStats* stats);
  // The redo log's counters (appends, writes, syncs, bytes); zero without a
  // data directory.
  log::LogWriterStats LogStats() const;
  // The log's counters with its syncs' durations and the checkpoints'
  // figures (durability::DurabilityStats); zero without a data directory.
  durability::DurabilityStats DurabilityStats() const;

  // Appends rows to `table` without SQL: each row has one value per column
  // (converted to the column type when needed). Checks NOT NULL and unique
  // keys, not CHECK constraints or foreign keys (a loader loads consistent
  // data); on an error nothing of this call is kept.
  Status BulkLoad(std::string_view table, const std::vector<std::vector<Value>>& rows);

  const Options& options() const { return options_; }
  const catalog::Catalog& catalog() const { return catalog_; }
  const sql::StatementCache& statement_cache() const { return cache_; }
  // LISTEN / NOTIFY between sessions.
  NotificationHub& notifications() { return notifications_; }

 private:
  explicit Database(const Options& options);

  class Runner;
  class ProcedureRun;  // the ProcedureContext a procedure body sees
  // Queues `request` where the scheduler places it (Submit's second half); returns the queue.
  size_t Queue(TransactionRequest request, scheduler::Footprint footprint, ResultCallback done);
  // `request`'s footprint as the scheduler Needs() it (empty when it needs
  // none). With `prepared`, a statement list's statements as prepared for
  // it (left empty when none were).
  scheduler::Footprint FootprintOf(const TransactionRequest& request,
                                   std::shared_ptr<const PreparedCalls>* prepared = nullptr);
  // Adds `request`'s references to `builder` (a procedure's predictions,
  // or its statements prepared from the cache, kept in `prepared` if not
  // null).
  void AddFootprint(const TransactionRequest& request, FootprintBuilder* builder,
                    std::shared_ptr<const PreparedCalls>* prepared = nullptr);
  // The text of each reference of `request`'s footprint, in its order (from
  // request.prepared when the footprint was read from it).
  void NameReferences(const TransactionRequest& request, std::vector<std::string>* names);
  // One attempt of `request` in a new transaction with `timestamp`. On a
  // conflict, *reason names it and *culprit_table (if not null) the table
  // the concurrency control blamed.
  AttemptOutcome RunAttempt(const TransactionRequest& request, TxnTimestamp timestamp, TransactionResult* result,
                            cc::AbortReason* reason, TableId* culprit_table = nullptr);
  // BulkLoad's work, the caller holding what ChangeSchema holds.
  Status LoadRows(std::string_view table, const std::vector<std::vector<Value>>& rows);

  struct RegisteredProcedure {
    Procedure procedure;
    // Its statements, prepared; re-prepared after DDL by whichever worker
    // notices first, while others may be reading them. The hot path is one
    // atomic load of a plain pointer: every version stays alive in `keep`
    // for the procedure's life (a few plans per DDL).
    using Slot = std::atomic<const sql::PreparedStatement*>;
    std::vector<std::unique_ptr<Slot>> prepared;
    std::mutex keep_mu;
    std::vector<std::shared_ptr<const sql::PreparedStatement>> keep;
    void Set(size_t statement, std::shared_ptr<const sql::PreparedStatement> p) {
      std::lock_guard lock(keep_mu);
      prepared[statement]->store(p.get(), std::memory_order_release);
      keep.push_back(std::move(p));
    }
  };

  const Options options_;
  catalog::Catalog catalog_;
  sql::StatementCache cache_;
  AdvisoryLockTable advisory_lock_table_;  // pg_advisory_lock & co.; outlives every session
  ActivityRegistry activity_;              // every session's SessionActivity; outlives every session
  NotificationHub notifications_;          // LISTEN / NOTIFY; outlives every session
  std::mutex procedures_mu_;
  std::map<std::string, std::shared_ptr<RegisteredProcedure>, std::less<>> procedures_;
  std::unique_ptr<cc::ConcurrencyControl> cc_;
  // Declared after the catalog: destroyed first, it reclaims retired rows
  // into tables that still exist.
  storage::EpochManager epoch_;
  std::unique_ptr<scheduler::Scheduler> scheduler_;
  // How statements run (the gates, lanes and footprint spec); shared with
  // the sessions. Made at Open, after the parts it borrows.
  std::unique_ptr<StatementRunner> statements_;
  // The data directory (null: in memory only), and the thread that writes
  // checkpoints in the background.
  std::unique_ptr<durability::Durability> durability_;
  durability::RecoveryStats recovery_stats_;
  std::thread checkpointer_;
  std::mutex checkpointer_mu_;
  std::condition_variable checkpointer_cv_;
  bool checkpointer_stop_ = false;
  void CheckpointerLoop();
  // `done` of a committed request, once its redo record is durable (at once
  // without a data directory, and for failures).
  ResultCallback AfterDurable(ResultCallback done);
  std::unique_ptr<Runner> runner_;
  std::unique_ptr<WorkerPool> pool_;  // last: its workers stop first
};

}  // namespace paceline::engine
