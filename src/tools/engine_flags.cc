// The engine flags shared by paceline-bench and paceline-server; see
// engine_flags.h.
#include "tools/engine_flags.h"

#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>

#include "engine/log/log_options.h"
#include "scheduler/options_text.h"

DEFINE_int32(workers, 8, "worker threads (= run queues); more than the cores is expected");
DEFINE_string(cc, "occ", "concurrency control: occ, 2pl, 2pl-wait-die, 2pl-wound-wait");
DEFINE_string(scheduler, paceline::engine::kDefaultScheduler,
              "adaptive | random | round-robin | partition | {count|fraction}-{sum|max}-{literal|canonical}[-{single|all}]");
DEFINE_string(history_warmup, "0",
              "conflict-aware policies: random placement while History learns, for N transactions or a time "
              "(2s, 500ms); 0: no warm-up");
DEFINE_string(history_learning, "continuous",
              "conflict-aware policies: History keeps learning after the warm-up (continuous) or stops (frozen)");
DEFINE_string(state, "cumulative",
              "conflict-aware policies: State counts every transaction queued (cumulative) or those queued and "
              "unfinished (inflight)");
DEFINE_uint64(history_capacity, 1 << 20,
              "conflict-aware policies: references History keeps before forgetting those that never aborted");
DEFINE_int32(history_half_life_ms, 2000,
             "adaptive: a reference's conflict evidence (blamed aborts, exposures) halves every this many ms");
DEFINE_double(exploration, 0.02, "adaptive: share of transactions placed on a random queue so that evidence keeps coming");
DEFINE_bool(run_here, true,
            "adaptive: a transaction without conflict evidence whose client waits for it (paceline-server) runs on "
            "the client's connection thread instead of a worker's run queue (false: every transaction is queued)");
DEFINE_string(reference_sources, "keys",
              "conflict-aware policies: references from key equalities of WHERE clauses and inserted primary keys "
              "(keys, the paper authors'), every WHERE conjunct (where), or WHERE, SET and VALUES (all)");
DEFINE_string(reference_multiplicity, "occurrence",
              "conflict-aware policies: a reference counts once per statement that makes it (occurrence) or once "
              "per transaction (transaction)");
DEFINE_string(partition_domain, "w_id", "partition: the canonical domain whose value picks the queue");
DEFINE_bool(steal, true, "idle workers steal queued transactions from other queues");
DEFINE_int32(steal_threshold, 1, "with --steal: steal only from queues holding at least this many waiting transactions");
DEFINE_int32(max_retries, 100, "retries of a transaction aborted by conflicts before it fails with 40001");
DEFINE_int32(max_retry_pause_us, 1000, "longest pause before a retry (the first 8 are immediate); 0: always at once");
DEFINE_bool(retry_yield, true,
            "an immediate retry first yields the core (false with --max-retry-pause-us=0: the paper's Original)");
DEFINE_int32(lock_timeout_ms, 10000, "longest lock wait (2PL waiting variants) and DDL wait");
DEFINE_bool(conflict_lanes, true,
            "interactive transaction blocks that meet references with conflict evidence run one after the other "
            "in the scheduler's conflict lanes (false: the concurrency control alone decides)");
DEFINE_int32(max_lanes_per_block, 0,
             "the most conflict lanes one interactive block takes (0: no limit; 1: one lane per block, its later "
             "conflicts left to the concurrency control)");
DEFINE_bool(parameterize_literals, true,
            "statements sent with literals share one plan per shape (their literals become parameters)");
DEFINE_string(data_dir, "",
              "data directory (redo log, checkpoints; recovered at start); empty: in memory only, nothing survives");
DEFINE_string(sync, "fsync", "with --data-dir, a commit is acknowledged after: fsync, fdatasync, off (before the write)");
DEFINE_int32(checkpoint_interval_s, 300, "with --data-dir: a checkpoint at least this often (0: not by time)");
DEFINE_uint64(checkpoint_log_mb, 256, "with --data-dir: a checkpoint once this much log was written since the last one, or that checkpoint's size if larger (0: not by size)");
DEFINE_int32(group_commit_us, 200,
             "with --data-dir: when others commit too, the log waits this long for more commits before each sync");
DEFINE_bool(checkpoint_on_close, true, "with --data-dir: write a checkpoint when shutting down (faster restart)");
DEFINE_uint64(statement_cache_mb, 128,
              "memory for parsed and planned statement texts, in MiB (what the entries really hold, measured; the "
              "least recently used go first)");
DEFINE_uint64(statement_memory_mb, 1024,
              "the most heap one statement may hold while it runs, in MiB (rows it materializes, result rows); past "
              "it the statement fails with 54000 program_limit_exceeded; 0: no limit");
DEFINE_uint64(seed, 42, "seed of the scheduler's and stealing's random choices (and paceline-bench's inputs)");

namespace paceline::tools {
namespace {

bool IsEngineFlag(const std::string& name) {
  static const char* const kNames[] = {
      "workers", "cc", "scheduler", "history_warmup", "history_learning", "state", "history_capacity",
      "history_half_life_ms", "exploration", "run_here", "reference_sources", "reference_multiplicity", "partition_domain", "steal", "steal_threshold", "max_retries",
      "max_retry_pause_us", "retry_yield",
      "lock_timeout_ms", "conflict_lanes", "max_lanes_per_block", "parameterize_literals", "data_dir", "sync", "checkpoint_interval_s", "checkpoint_log_mb", "checkpoint_on_close", "group_commit_us",
      "statement_cache_mb", "statement_memory_mb", "seed"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

Status Invalid(const std::string& message) { return Status(sqlstate::kInvalidParameterValue, message); }

}  // namespace

bool SetEngineFlagDefault(const std::string& name, const std::string& value) {
  if (!IsEngineFlag(name)) return false;
  return !gflags::SetCommandLineOptionWithMode(name.c_str(), value.c_str(), gflags::SET_FLAGS_DEFAULT).empty();
}

Status EngineOptionsFromFlags(engine::Options* options) {
  if (FLAGS_workers < 1) return Invalid("--workers must be at least 1: " + std::to_string(FLAGS_workers));
  options->workers = static_cast<size_t>(FLAGS_workers);
  options->cc = FLAGS_cc;
  options->scheduler = FLAGS_scheduler;
  options->steal = FLAGS_steal;
  if (FLAGS_steal_threshold < 1) return Invalid("--steal-threshold must be at least 1");
  options->steal_threshold = static_cast<size_t>(FLAGS_steal_threshold);
  if (FLAGS_max_retries < 0) return Invalid("--max-retries must not be negative");
  options->max_retries = FLAGS_max_retries;
  options->max_retry_pause = std::chrono::microseconds(std::max(0, FLAGS_max_retry_pause_us));
  options->retry_yield = FLAGS_retry_yield;
  options->lock_timeout = std::chrono::milliseconds(std::max(0, FLAGS_lock_timeout_ms));
  options->parameterize_literals = FLAGS_parameterize_literals;
  options->conflict_lanes = FLAGS_conflict_lanes;
  if (FLAGS_max_lanes_per_block < 0) return Invalid("--max-lanes-per-block must not be negative");
  options->max_lanes_per_block = static_cast<size_t>(FLAGS_max_lanes_per_block);
  options->seed = FLAGS_seed;
  if (FLAGS_statement_cache_mb < 1 || FLAGS_statement_cache_mb > (1u << 20)) {
    return Invalid("--statement-cache-mb must be in [1, 1048576]: " + std::to_string(FLAGS_statement_cache_mb));
  }
  options->statement_cache_bytes = FLAGS_statement_cache_mb << 20;
  if (FLAGS_statement_memory_mb > (1u << 20)) {
    return Invalid("--statement-memory-mb must be in [0, 1048576]: " + std::to_string(FLAGS_statement_memory_mb));
  }
  options->statement_memory_bytes = FLAGS_statement_memory_mb << 20;
  options->data_dir = FLAGS_data_dir;
  engine::log::SyncMode sync_mode;
  if (Status s = engine::log::ParseSyncMode(FLAGS_sync, &sync_mode); !s.ok()) return Invalid("--sync: " + s.message());
  options->sync = FLAGS_sync;
  options->checkpoint_interval = std::chrono::seconds(std::max(0, FLAGS_checkpoint_interval_s));
  options->checkpoint_log_bytes = FLAGS_checkpoint_log_mb << 20;
  options->checkpoint_on_close = FLAGS_checkpoint_on_close;
  options->group_commit_delay = std::chrono::microseconds(std::max(0, FLAGS_group_commit_us));
  scheduler::SchedulerOptions& scheduling = options->scheduling;
  Status s = scheduler::ParseHistoryWarmup(FLAGS_history_warmup, &scheduling);
  if (!s.ok()) return Invalid("--history-warmup " + s.message());
  s = scheduler::ParseHistoryLearning(FLAGS_history_learning, &scheduling.history_learning);
  if (!s.ok()) return Invalid("--history-learning " + s.message());
  if (scheduling.history_learning == scheduler::HistoryLearning::kFrozen &&
      scheduling.history_warmup_transactions == 0 && scheduling.history_warmup_time.count() == 0) {
    return Invalid("--history-learning=frozen needs a --history-warmup: History would never learn");
  }
  s = scheduler::ParseStateMode(FLAGS_state, &scheduling.state);
  if (!s.ok()) return Invalid("--state " + s.message());
  if (FLAGS_history_capacity == 0) return Invalid("--history-capacity must be at least 1");
  scheduling.history_capacity = FLAGS_history_capacity;
  if (FLAGS_history_half_life_ms < 1) return Invalid("--history-half-life-ms must be at least 1");
  scheduling.history_half_life = std::chrono::milliseconds(FLAGS_history_half_life_ms);
  if (!(FLAGS_exploration >= 0 && FLAGS_exploration <= 1)) {
    return Invalid("--exploration must be in [0, 1]: " + std::to_string(FLAGS_exploration));
  }
  scheduling.exploration = FLAGS_exploration;
  scheduling.run_here = FLAGS_run_here;
  s = scheduler::ParseReferenceSources(FLAGS_reference_sources, &scheduling.reference_sources);
  if (!s.ok()) return Invalid("--reference-sources " + s.message());
  s = scheduler::ParseReferenceMultiplicity(FLAGS_reference_multiplicity, &scheduling.reference_multiplicity);
  if (!s.ok()) return Invalid("--reference-multiplicity " + s.message());
  scheduling.partition_domain = FLAGS_partition_domain;
  return Status::OK();
}

}  // namespace paceline::tools
