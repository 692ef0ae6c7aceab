// EngineMetrics (see engine_metrics.h): one function per group of families.
#include "engine/metrics/engine_metrics.h"

#include <string_view>
#include <utility>
#include <vector>

#include "cc/abort_reason.h"
#include "common/process_memory.h"
#include "engine/database.h"

namespace paceline::engine {

namespace {

// Histogram buckets of durations, in seconds: from a point read's tens of
// microseconds to a long transaction's seconds.
const std::vector<double>& DurationBounds() {
  static const std::vector<double> bounds = {25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3,
                                             25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1,    2.5,    5,    10};
  return bounds;
}

double Seconds(uint64_t ns) { return static_cast<double>(ns) / 1e9; }

// The three paths a transaction takes (engine_metrics.h), with their figures.
struct Paths {
  ExecutionStats queued;   // summed over the run queues
  ExecutionStats here;
  ExecutionStats session;  // its latency histogram is empty
  LatencyHistogram requests;

  std::vector<std::pair<std::string_view, const ExecutionStats*>> All() const {
    return {{"queued", &queued}, {"here", &here}, {"session", &session}};
  }
};

// One counter family with a series per path, from one field of ExecutionStats.
void PerPath(const Paths& paths, std::string_view name, std::string_view help, uint64_t ExecutionStats::*field,
             PrometheusText* out) {
  out->Family(name, "counter", help);
  for (const auto& [path, stats] : paths.All()) out->Sample(name, {{"path", std::string(path)}}, stats->*field);
}

void Transactions(const Paths& paths, PrometheusText* out) {
  PerPath(paths, "paceline_commits_total", "Transactions committed, by the path they ran on.", &ExecutionStats::commits,
          out);
  PerPath(paths, "paceline_rollbacks_total",
          "Transactions rolled back by their client or procedure (ROLLBACK, or the session ended).",
          &ExecutionStats::user_aborts, out);
  PerPath(paths, "paceline_transaction_errors_total",
          "Transactions an error other than a conflict failed (a statement's error, a failed commit).",
          &ExecutionStats::errors, out);
  PerPath(paths, "paceline_retries_total",
          "Attempts run again after a conflict (whole transactions and autocommit statements).",
          &ExecutionStats::retries, out);
  PerPath(paths, "paceline_retry_limit_failures_total",
          "Transactions that failed with 40001 after their last allowed retry.", &ExecutionStats::retry_limit_failures,
          out);
  out->Family("paceline_aborts_total", "counter",
              "Transaction attempts the concurrency control ended, by reason and the SQLSTATE it fails with.");
  for (size_t r = 1; r < cc::kAbortReasonCount; ++r) {
    const auto reason = static_cast<cc::AbortReason>(r);
    uint64_t n = 0;
    for (const auto& [path, stats] : paths.All()) n += stats->aborts(reason);
    out->Sample("paceline_aborts_total",
                {{"reason", std::string(cc::AbortReasonName(reason))},
                 {"sqlstate", std::string(cc::AbortReasonSqlState(reason))}},
                n);
  }
  out->Family("paceline_transaction_duration_seconds", "histogram",
              "Whole transactions' time from submit to end (queued: run queue wait included), by path.");
  out->Histogram("paceline_transaction_duration_seconds", {{"path", "queued"}}, paths.queued.latency, DurationBounds());
  out->Histogram("paceline_transaction_duration_seconds", {{"path", "here"}}, paths.here.latency, DurationBounds());
  out->Family("paceline_queue_wait_seconds", "histogram",
              "Queued transactions' time from submit to their first attempt's start.");
  out->Histogram("paceline_queue_wait_seconds", {}, paths.queued.queue_wait, DurationBounds());
  out->Family("paceline_request_duration_seconds", "histogram",
              "Sessions' requests (a client message's statements, or one API call) from start to end.");
  out->Histogram("paceline_request_duration_seconds", {}, paths.requests, DurationBounds());
}

void Scheduling(const Database& db, const std::vector<ExecutionStats>& per_queue,
                PrometheusText* out) {
  const std::vector<size_t> lengths = db.QueueLengths();
  out->Family("paceline_queue_length", "gauge", "Transactions waiting on each run queue now (not those running).");
  for (size_t q = 0; q < lengths.size(); ++q) {
    out->Sample("paceline_queue_length", {{"queue", std::to_string(q)}}, static_cast<uint64_t>(lengths[q]));
  }
  out->Family("paceline_queue_transactions_total", "counter", "Transactions put on each run queue.");
  for (size_t q = 0; q < per_queue.size(); ++q) {
    out->Sample("paceline_queue_transactions_total", {{"queue", std::to_string(q)}}, per_queue[q].queued);
  }
  out->Family("paceline_queue_busy_seconds_total", "counter",
              "Time each run queue's worker spent running transactions (first attempt's start to end).");
  for (size_t q = 0; q < per_queue.size(); ++q) {
    out->Sample("paceline_queue_busy_seconds_total", {{"queue", std::to_string(q)}}, Seconds(per_queue[q].executing_ns));
  }

  constexpr size_t kHotShown = 10;
  std::vector<scheduler::HotReference> hot = db.TopReferences(kHotShown);
  std::erase_if(hot, [](const scheduler::HotReference& ref) { return ref.name.empty(); });  // never named: no label
  out->Family("paceline_hot_reference_weight", "gauge",
              "The scheduler's heaviest references (at most 10) and their weight under its policy.");
  for (const auto& ref : hot) out->Sample("paceline_hot_reference_weight", {{"reference", ref.name}}, ref.weight);
  out->Family("paceline_hot_reference_aborts", "gauge", "Aborts the scheduler's evidence holds against each of them.");
  for (const auto& ref : hot) out->Sample("paceline_hot_reference_aborts", {{"reference", ref.name}}, ref.aborts);
  out->Family("paceline_hot_reference_commits", "gauge", "Commits the scheduler's evidence holds for each of them.");
  for (const auto& ref : hot) out->Sample("paceline_hot_reference_commits", {{"reference", ref.name}}, ref.commits);

  const LaneTable::Stats lanes = db.LaneStats();
  out->Family("paceline_lanes_held", "gauge", "Conflict lanes held by a transaction block now.");
  out->Sample("paceline_lanes_held", {}, static_cast<uint64_t>(lanes.held));
  out->Family("paceline_lane_waiting", "gauge", "Sessions waiting in a conflict lane now.");
  out->Sample("paceline_lane_waiting", {}, static_cast<uint64_t>(lanes.waiting));
  out->Family("paceline_lane_waits_total", "counter", "Waits in a conflict lane begun.");
  out->Sample("paceline_lane_waits_total", {}, lanes.waits);
  out->Family("paceline_lane_deadlocks_total", "counter", "Lane waits refused because they closed a cycle (40P01).");
  out->Sample("paceline_lane_deadlocks_total", {}, lanes.deadlocks);
  out->Family("paceline_advisory_lock_waiting", "gauge", "Sessions waiting for an advisory lock now.");
  out->Sample("paceline_advisory_lock_waiting", {}, static_cast<uint64_t>(db.AdvisoryLockWaiters()));

  const scheduler::SchedulerStats s = db.SchedulerStats();
  out->Family("paceline_scheduler_picks_total", "counter", "Placements the scheduler decided.");
  out->Sample("paceline_scheduler_picks_total", {}, s.picks);
  out->Family("paceline_scheduler_references", "gauge", "References the scheduler keeps evidence for.");
  out->Sample("paceline_scheduler_references", {}, static_cast<uint64_t>(s.history_references));
  out->Family("paceline_scheduler_bytes", "gauge", "Memory the scheduler's evidence takes (estimate).");
  out->Sample("paceline_scheduler_bytes", {}, static_cast<uint64_t>(s.bytes));
}

void Memory(const Database& db, PrometheusText* out) {
  const sql::StatementCache& cache = db.statement_cache();
  out->Family("paceline_statement_cache_entries", "gauge", "Prepared statements in the shared statement cache.");
  out->Sample("paceline_statement_cache_entries", {}, static_cast<uint64_t>(cache.size()));
  out->Family("paceline_statement_cache_bytes", "gauge", "Bytes its entries hold.");
  out->Sample("paceline_statement_cache_bytes", {}, static_cast<uint64_t>(cache.bytes()));
  out->Family("paceline_statement_cache_capacity_bytes", "gauge", "The bound on those bytes.");
  out->Sample("paceline_statement_cache_capacity_bytes", {}, static_cast<uint64_t>(cache.capacity_bytes()));
  out->Family("paceline_statement_cache_hits_total", "counter", "Statement texts found prepared in the cache.");
  out->Sample("paceline_statement_cache_hits_total", {}, cache.hits());
  out->Family("paceline_statement_cache_misses_total", "counter", "Statement texts prepared anew.");
  out->Sample("paceline_statement_cache_misses_total", {}, cache.misses());
  out->Family("paceline_statement_cache_evictions_total", "counter", "Entries evicted to keep within the bound.");
  out->Sample("paceline_statement_cache_evictions_total", {}, cache.evictions());

  const ProcessMemory m = ReadProcessMemory();
  out->Family("process_resident_memory_bytes", "gauge", "Resident memory of the process (VmRSS).");
  out->Sample("process_resident_memory_bytes", {}, static_cast<uint64_t>(m.resident_bytes));
  out->Family("paceline_heap_in_use_bytes", "gauge", "Bytes the C allocator has handed out and not taken back.");
  out->Sample("paceline_heap_in_use_bytes", {}, static_cast<uint64_t>(m.heap_in_use_bytes));
  out->Family("paceline_heap_free_bytes", "gauge", "Free bytes the C allocator keeps for reuse.");
  out->Sample("paceline_heap_free_bytes", {}, static_cast<uint64_t>(m.heap_free_bytes));
}

void Durability(const Database& db, PrometheusText* out) {
  out->Family("paceline_durable", "gauge", "1 with a data directory (commits logged and synced), 0 in memory only.");
  out->Sample("paceline_durable", {}, uint64_t{db.durable() ? 1u : 0u});
  if (!db.durable()) return;
  const durability::DurabilityStats d = db.DurabilityStats();
  out->Family("paceline_log_records_total", "counter", "Redo log records appended.");
  out->Sample("paceline_log_records_total", {}, d.log.appends);
  out->Family("paceline_log_bytes_total", "counter", "Redo log bytes appended (framed).");
  out->Sample("paceline_log_bytes_total", {}, d.log.bytes);
  out->Family("paceline_log_writes_total", "counter", "Batches of log records written (group commits).");
  out->Sample("paceline_log_writes_total", {}, d.log.writes);
  out->Family("paceline_log_syncs_total", "counter", "fsync/fdatasync calls on the log.");
  out->Sample("paceline_log_syncs_total", {}, d.log.syncs);
  out->Family("paceline_log_sync_duration_seconds", "histogram", "Each fsync/fdatasync of the log.");
  out->Histogram("paceline_log_sync_duration_seconds", {}, d.sync_latency, DurationBounds());
  out->Family("paceline_checkpoints_total", "counter", "Checkpoints written since the server started.");
  out->Sample("paceline_checkpoints_total", {}, d.checkpoints);
  out->Family("paceline_checkpoint_age_seconds", "gauge",
              "Since the newest checkpoint ended (or the server started, before its first).");
  out->Sample("paceline_checkpoint_age_seconds", {}, d.checkpoint_age_seconds);
  out->Family("paceline_checkpoint_last_duration_seconds", "gauge", "How long the newest checkpoint took.");
  out->Sample("paceline_checkpoint_last_duration_seconds", {}, d.last_checkpoint_seconds);
  out->Family("paceline_log_bytes_since_checkpoint", "gauge",
              "Log bytes appended since the newest checkpoint began (what a recovery would replay).");
  out->Sample("paceline_log_bytes_since_checkpoint", {}, d.log_bytes_since_checkpoint);
}

}  // namespace

void AppendEngineMetrics(const Database& db, PrometheusText* out) {
  out->Family("paceline_info", "gauge", "1, labelled with the server's scheduler, concurrency control and workers.");
  out->Sample("paceline_info",
              {{"scheduler", std::string(db.scheduler_name())},
               {"cc", std::string(db.cc_name())},
               {"workers", std::to_string(db.workers())}},
              uint64_t{1});
  Paths paths;
  const std::vector<ExecutionStats> per_queue = db.StatsPerQueue();
  for (const ExecutionStats& q : per_queue) paths.queued.Add(q);
  paths.here = db.StatsHere();
  ActivityRegistry::SessionTotals sessions = db.SessionTotals();
  paths.session = sessions.transactions;
  paths.requests = sessions.request_latency;
  Transactions(paths, out);
  Scheduling(db, per_queue, out);
  Memory(db, out);
  Durability(db, out);
}

}  // namespace paceline::engine
