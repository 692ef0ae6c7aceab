// RoundRobinScheduler ("round-robin"): the n-th transaction picked goes to
// run queue n mod queues, starting at 0, whatever its footprint; outcomes are
// ignored. It spreads load evenly and, like "random", knows nothing of
// conflicts.
//
// Thread-safety: all methods may be called concurrently (one relaxed atomic
// counter); concurrent callers get distinct positions in the cycle.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "scheduler/scheduler.h"

namespace paceline::scheduler {

class RoundRobinScheduler final : public Scheduler {
 public:
  static constexpr std::string_view kName = "round-robin";

  // Requires options.queues >= 1; options.seed is not used.
  explicit RoundRobinScheduler(const SchedulerOptions& options);

  std::string_view Name() const override { return kName; }
  size_t Pick(const Footprint& footprint) override;

 private:
  const size_t queues_;
  std::atomic<uint64_t> next_{0};
};

}  // namespace paceline::scheduler
