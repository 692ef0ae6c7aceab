// WorkerStats: recording times, snapshots and reset.
#include "engine/execution/worker_stats.h"

namespace paceline::engine {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

void WorkerStats::RecordTimes(uint64_t queued_ns, uint64_t executing_ns) {
  Add(queued_ns_, queued_ns);
  Add(executing_ns_, executing_ns);
  queue_wait_.Record(queued_ns);
  latency_.Record(queued_ns + executing_ns);
}

void WorkerStats::AddTo(ExecutionStats* stats) const {
  stats->queued += queued_.load(kRelaxed);
  stats->commits += commits_.load(kRelaxed);
  for (size_t i = 0; i < aborts_.size(); ++i) stats->aborts_by_reason[i] += aborts_[i].load(kRelaxed);
  stats->retries += retries_.load(kRelaxed);
  stats->retry_limit_failures += retry_limit_failures_.load(kRelaxed);
  stats->steals += steals_.load(kRelaxed);
  stats->user_aborts += user_aborts_.load(kRelaxed);
  stats->errors += errors_.load(kRelaxed);
  stats->queued_ns += queued_ns_.load(kRelaxed);
  stats->executing_ns += executing_ns_.load(kRelaxed);
  stats->latency.Merge(latency_);
  stats->queue_wait.Merge(queue_wait_);
}

void WorkerStats::Reset() {
  for (std::atomic<uint64_t>* counter : {&queued_, &commits_, &retries_, &retry_limit_failures_, &steals_, &user_aborts_,
                                         &errors_, &queued_ns_, &executing_ns_}) {
    counter->store(0, kRelaxed);
  }
  for (std::atomic<uint64_t>& counter : aborts_) counter.store(0, kRelaxed);
  latency_.Reset();
  queue_wait_.Reset();
}

}  // namespace paceline::engine
