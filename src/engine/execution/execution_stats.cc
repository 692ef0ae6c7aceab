// ExecutionStats: derived figures.
#include "engine/execution/execution_stats.h"

#include <numeric>

namespace paceline::engine {

uint64_t ExecutionStats::aborts() const {
  return std::accumulate(aborts_by_reason.begin(), aborts_by_reason.end(), uint64_t{0});
}

double ExecutionStats::abort_rate() const {
  const uint64_t a = aborts();
  return a + commits == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(a + commits);
}

}  // namespace paceline::engine
