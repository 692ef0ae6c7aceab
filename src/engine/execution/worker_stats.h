// WorkerStats: the counters and histograms of one worker thread, read by
// other threads (the benchmark driver, WorkerPool::Stats) while it runs.
//
// Each worker owns one, on cache lines of its own (alignas(64)), and is its
// only writer: a relaxed fetch_add on a line nobody else writes is cheap and
// uncontended. Readers load relaxed, so a snapshot is race-free but not a
// consistent cut: a transaction finishing meanwhile may be partly in it.
//
// Reset() stores zeros from any thread, also race-free. It is exact when
// called between runs; called while the worker runs (after a warm-up), a
// transaction in flight at that moment may be counted partly before and
// partly after the reset (e.g. its commit before, its latency after).
//
// Thread-safety: the Count*/Record methods from the owning worker only,
// except CountQueued, which any submitting thread calls (an atomic add);
// AddTo and Reset from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "cc/abort_reason.h"
#include "engine/execution/execution_stats.h"
#include "engine/execution/latency_histogram.h"

namespace paceline::engine {

class alignas(64) WorkerStats {
 public:
  // A transaction was put on this worker's run queue (by any thread).
  void CountQueued() { Add(queued_); }
  void CountCommit() { Add(commits_); }
  void CountAbort(cc::AbortReason reason) { Add(aborts_[static_cast<size_t>(reason)]); }
  void CountRetry() { Add(retries_); }
  void CountRetryLimitFailure() { Add(retry_limit_failures_); }
  void CountSteal() { Add(steals_); }
  void CountUserAbort() { Add(user_aborts_); }
  void CountError() { Add(errors_); }
  // One finished transaction: its time queued and executing (first attempt
  // start → end), and so its end-to-end latency (the sum).
  void RecordTimes(uint64_t queued_ns, uint64_t executing_ns);

  // Adds this worker's figures into `stats`.
  void AddTo(ExecutionStats* stats) const;
  void Reset();

 private:
  static void Add(std::atomic<uint64_t>& counter, uint64_t n = 1) { counter.fetch_add(n, std::memory_order_relaxed); }

  // Written by submitting threads: on a line of its own, away from the
  // worker's counters below.
  alignas(64) std::atomic<uint64_t> queued_{0};
  alignas(64) std::atomic<uint64_t> commits_{0};
  std::array<std::atomic<uint64_t>, cc::kAbortReasonCount> aborts_{};
  std::atomic<uint64_t> retries_{0};
  std::atomic<uint64_t> retry_limit_failures_{0};
  std::atomic<uint64_t> steals_{0};
  std::atomic<uint64_t> user_aborts_{0};
  std::atomic<uint64_t> errors_{0};
  std::atomic<uint64_t> queued_ns_{0};
  std::atomic<uint64_t> executing_ns_{0};
  LatencyHistogram latency_;
  LatencyHistogram queue_wait_;
};

}  // namespace paceline::engine
