// ExecutionStats: derived figures.
#include "engine/execution/execution_stats.h"

#include <numeric>

namespace paceline::engine {

void ExecutionStats::Add(const ExecutionStats& other) {
  queued += other.queued;
  ran_here += other.ran_here;
  commits += other.commits;
  for (size_t i = 0; i < aborts_by_reason.size(); ++i) aborts_by_reason[i] += other.aborts_by_reason[i];
  retries += other.retries;
  retry_limit_failures += other.retry_limit_failures;
  steals += other.steals;
  user_aborts += other.user_aborts;
  errors += other.errors;
  queued_ns += other.queued_ns;
  executing_ns += other.executing_ns;
  latency.Merge(other.latency);
  queue_wait.Merge(other.queue_wait);
}

uint64_t ExecutionStats::aborts() const {
  return std::accumulate(aborts_by_reason.begin(), aborts_by_reason.end(), uint64_t{0});
}

double ExecutionStats::abort_rate() const {
  const uint64_t a = aborts();
  return a + commits == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(a + commits);
}

}  // namespace paceline::engine
