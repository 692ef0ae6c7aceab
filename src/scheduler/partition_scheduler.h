// PartitionScheduler ("partition"): the paper's "Hard Partition" baseline.
// It asks the engine for the value each transaction gives one canonical
// domain (SchedulerOptions::partition_domain, "w_id" by default) and sends
// it to queue value mod queues, so that all transactions on one partition
// (e.g. one warehouse) run on one worker. A transaction that gives the
// domain no value goes to a uniformly random queue (as RandomScheduler).
// Outcomes are ignored.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "scheduler/random_scheduler.h"
#include "scheduler/scheduler.h"

namespace paceline::scheduler {

class PartitionScheduler final : public Scheduler {
 public:
  static constexpr std::string_view kName = "partition";

  // Requires options.queues >= 1.
  explicit PartitionScheduler(const SchedulerOptions& options);

  std::string_view Name() const override { return kName; }
  // The partition value of options.partition_domain.
  FootprintSpec Needs() const override;
  size_t Pick(const Footprint& footprint) override;

 private:
  const size_t queues_;
  const std::string domain_;
  RandomScheduler unpartitioned_;  // for footprints without a partition value
};

}  // namespace paceline::scheduler
