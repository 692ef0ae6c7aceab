// RoundRobinScheduler: an atomic ticket modulo the number of queues.
#include "scheduler/round_robin_scheduler.h"

#include <cassert>

namespace paceline::scheduler {

RoundRobinScheduler::RoundRobinScheduler(const SchedulerOptions& options) : queues_(options.queues) {
  assert(queues_ >= 1);
}

size_t RoundRobinScheduler::Pick(const Footprint&) {
  return static_cast<size_t>(next_.fetch_add(1, std::memory_order_relaxed) % queues_);
}

}  // namespace paceline::scheduler
