// PartitionScheduler: partition value modulo the number of queues.
#include "scheduler/partition_scheduler.h"

#include <cassert>

namespace paceline::scheduler {

PartitionScheduler::PartitionScheduler(const SchedulerOptions& options)
    : queues_(options.queues), domain_(options.partition_domain), unpartitioned_(options) {
  assert(queues_ >= 1);
}

FootprintSpec PartitionScheduler::Needs() const {
  FootprintSpec spec;
  spec.partition_domain = domain_;
  return spec;
}

size_t PartitionScheduler::Pick(const Footprint& footprint) {
  if (!footprint.has_partition_value) return unpartitioned_.Pick(footprint);
  return static_cast<size_t>(footprint.partition_value % queues_);
}

}  // namespace paceline::scheduler
