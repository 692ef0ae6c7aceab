// Options: everything that configures a Database, passed to Database::Open.
// Binaries copy their flags into an Options; library code never reads flags.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "scheduler/scheduler.h"

namespace paceline::engine {

// The scheduler a Database uses unless told otherwise (Options::scheduler,
// and the --scheduler flag of every binary).
inline constexpr char kDefaultScheduler[] = "adaptive";

struct Options {
  // Memory for SQL texts kept parsed and planned, in bytes (what the
  // entries really hold, measured; the least recently used go first: see
  // StatementCache).
  size_t statement_cache_bytes = size_t{128} << 20;
  // The most heap one DML statement may hold while it runs (rows it
  // materializes, its hash tables, sort input and result rows, measured by
  // an AllocationMeter on its thread): past it the statement fails with
  // 54000 program_limit_exceeded (sql::Executor). 0: no limit.
  size_t statement_memory_bytes = size_t{1} << 30;
  // Texts run with Session::Execute, Session::ExecuteScript and statement
  // lists (Submit, Execute) have their literals in value positions replaced
  // by parameters first (sql::LiteralParameterizer), so texts differing only
  // in literal values share one cached plan; Session::Prepare (a protocol's
  // Parse) never does.
  bool parameterize_literals = true;
  // Concurrency control by name: "occ", "2pl" (NO_WAIT), "2pl-wait-die",
  // "2pl-wound-wait" (see src/cc).
  std::string cc = "occ";
  // How long a transaction waits for a lock (2PL waiting variants), or for
  // running transactions to finish before DDL, before failing with 55P03.
  std::chrono::milliseconds lock_timeout{10000};

  // Execution (Database::Submit): worker threads, each with its own run
  // queue; 0 runs no workers (Submit then fails, sessions and Execute work).
  size_t workers = 4;
  // The scheduler that picks each transaction's run queue, by name:
  // "adaptive" (Paceline's own, the default: kDefaultScheduler), "random"
  // (the paper's Original), "round-robin", "partition" (hard partition on
  // partition_domain), or a conflict-aware policy of the paper
  // "{count|fraction}-{sum|max}-{literal|canonical}[-{single|all}]"
  // (see src/scheduler and Database::SchedulerNames()).
  std::string scheduler{kDefaultScheduler};
  // The scheduler's settings (warm-up, learning, State, capacity, reference
  // sources, partition domain: scheduler/scheduler.h). Its `queues` and
  // `seed` are not read: Open sets them from `workers` and `seed`.
  scheduler::SchedulerOptions scheduling;
  // Conflict lanes (lane_table.h): interactive transaction blocks whose
  // statements meet references with conflict evidence take the lane the
  // scheduler gives them and run one after the other there, instead of
  // conflicting. False: blocks always run free (the concurrency control
  // alone decides), as before lanes. Under every CC; lane waits keep the
  // deadlock rule of 2PL wait-die and wound-wait (lane_table.h).
  bool conflict_lanes = true;
  // The most lanes one block takes (0: no limit). 1 is the one-lane-per-
  // block design: deadlock-free among lanes, a block's later hot
  // references left to the CC; measured against no limit in
  // docs/results.md (conflict lanes).
  size_t max_lanes_per_block = 0;
  // Idle workers take queued transactions from other workers' queues ...
  bool steal = true;
  // ... holding at least this many waiting transactions (1: any non-empty).
  size_t steal_threshold = 1;
  // A transaction aborted by a conflict is retried at once by its worker, at
  // most this many times; then it fails with 40001.
  int max_retries = 100;
  // The first retries of a transaction run at once (after yielding the
  // core); later ones wait a growing pause capped at this (see
  // execution/retry_pause.h). 0: every retry at once, the reference paper's
  // rule to the letter.
  std::chrono::microseconds max_retry_pause{1000};
  // Whether an immediate retry first yields the core (false with
  // max_retry_pause 0: the paper's "Original", retrying at once).
  bool retry_yield = true;
  // Seed of randomised choices (scheduler, stealing).
  uint64_t seed = 42;

  // Durability (src/engine/durability). Empty: purely in memory, nothing
  // survives the process. Otherwise the data directory: opened (created)
  // and recovered by Database::Open, with a redo log of every commit.
  std::string data_dir;
  // When a commit is acknowledged: after its log record is written and
  // fsync'ed ("fsync") or fdatasync'ed ("fdatasync"), with many commits per
  // sync (group commit); "off" acknowledges before the write (a crash may
  // lose the last ~10 ms of commits, never half of one).
  std::string sync = "fsync";
  // A checkpoint is written in the background after this long, or once this
  // much log has been written since the last one (0: never by that
  // measure) — or the last checkpoint's size, when larger: a checkpoint
  // writes the whole database —, and when the database closes (unless
  // turned off).
  std::chrono::seconds checkpoint_interval{300};
  uint64_t checkpoint_log_bytes = 256ull << 20;
  bool checkpoint_on_close = true;
  // Group commit: when others are committing too, the log writer waits this
  // long for more commits before a write and sync (log/log_options.h);
  // 200 µs measured best for 16-256 TPC-C clients here (docs/results.md).
  std::chrono::microseconds group_commit_delay{200};
  // Size at which the log starts a new segment file.
  size_t log_segment_bytes = 64u << 20;
  // Tests only: runs on the log writer thread before each sync (to hold
  // the log back and see what waits for it).
  std::function<void()> log_before_sync;
};

}  // namespace paceline::engine
