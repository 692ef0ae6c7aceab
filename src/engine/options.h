// Options: everything that configures a Database, passed to Database::Open.
// Binaries copy their flags into an Options; library code never reads flags.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scheduler/scheduler.h"

namespace paceline::engine {

struct Options {
  // Distinct SQL texts kept parsed and planned (see StatementCache).
  size_t statement_cache_capacity = 10000;
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
  // "random" (the paper's Original), "round-robin", "partition" (hard
  // partition on partition_domain), or a conflict-aware policy
  // "{count|fraction}-{sum|max}-{literal|canonical}[-{single|all}]"
  // (see src/scheduler and Database::SchedulerNames()).
  std::string scheduler = "random";
  // The scheduler's settings (warm-up, learning, State, capacity, reference
  // sources, partition domain: scheduler/scheduler.h). Its `queues` and
  // `seed` are not read: Open sets them from `workers` and `seed`.
  scheduler::SchedulerOptions scheduling;
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
  // Seed of randomised choices (scheduler, stealing).
  uint64_t seed = 42;
};

}  // namespace paceline::engine
