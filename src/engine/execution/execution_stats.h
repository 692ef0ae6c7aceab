// ExecutionStats: a snapshot of what the workers did, summed over workers
// (WorkerPool::Stats). Throughput is computed by the caller, which knows the
// measurement interval. Plain value type.
//
// Counting rules (WorkerPool): every attempt that ended in a conflict is one
// abort, under its reason; every abort but the last of a transaction that
// hit the retry limit is one retry. Each transaction a worker ran ends as
// exactly one of commits, retry_limit_failures, user_aborts or errors;
// transactions failed at shutdown without being run are not counted.
#pragma once

#include <array>
#include <cstdint>

#include "cc/abort_reason.h"
#include "engine/execution/latency_histogram.h"

namespace paceline::engine {

struct ExecutionStats {
  uint64_t queued = 0;                // transactions put on the run queue(s) by Submit
  uint64_t ran_here = 0;              // run on their submitter's thread instead (WorkerPool::RunHere)
  uint64_t commits = 0;
  std::array<uint64_t, cc::kAbortReasonCount> aborts_by_reason{};  // indexed by cc::AbortReason
  uint64_t retries = 0;
  uint64_t retry_limit_failures = 0;  // gave up after max_retries retries (40001)
  uint64_t steals = 0;                // transactions run by a worker that took them from another's queue
  uint64_t user_aborts = 0;           // rolled back by the transaction itself; not conflicts
  uint64_t errors = 0;                // any other failure (also: no retry during Shutdown(false))
  uint64_t queued_ns = 0;             // Σ (first attempt start − submit)
  uint64_t executing_ns = 0;          // Σ (end − first attempt start)
  LatencyHistogram latency;           // end − submit, per transaction
  LatencyHistogram queue_wait;        // first attempt start − submit, per transaction

  // Adds `other`'s counts and histograms into this one.
  void Add(const ExecutionStats& other);

  uint64_t aborts() const;
  uint64_t aborts(cc::AbortReason reason) const { return aborts_by_reason[static_cast<size_t>(reason)]; }
  // Transactions that ended, whatever the outcome.
  uint64_t finished() const { return commits + retry_limit_failures + user_aborts + errors; }
  // aborts / (aborts + commits), in [0, 1]; 0 when both are 0.
  double abort_rate() const;
};

}  // namespace paceline::engine
