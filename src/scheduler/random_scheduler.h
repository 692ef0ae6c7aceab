// RandomScheduler ("random"): the paper's "Original" baseline. Every
// transaction goes to a run queue drawn uniformly at random, whatever its
// footprint; outcomes are ignored. Under contention, conflicting transactions
// land on different workers, run at the same time, and abort.
//
// Each thread that calls Pick draws from its own SplitMix64 stream, seeded
// from SchedulerOptions::seed and the order in which threads first called
// this instance: no lock, no shared cache line on the hot path, and one
// thread's sequence is reproducible for a given seed.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "scheduler/scheduler.h"

namespace paceline::scheduler {

class RandomScheduler final : public Scheduler {
 public:
  static constexpr std::string_view kName = "random";

  // Requires options.queues >= 1.
  explicit RandomScheduler(const SchedulerOptions& options);

  std::string_view Name() const override { return kName; }
  size_t Pick(const Footprint& footprint) override;

 private:
  const size_t queues_;
  const uint64_t seed_;
  const uint64_t instance_;           // process-unique, to tell instances apart in thread-local state
  std::atomic<uint64_t> streams_{0};  // threads that have called Pick so far
};

}  // namespace paceline::scheduler
