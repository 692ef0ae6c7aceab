// FindRateForLatency: the throughput at which the mean response time
// (queueing included) equals a target — how the reference paper throttled
// its runs (500 ms). Bisection on the offered (open-loop, Poisson) rate.
//
//   1. `capacity` (the caller measured it closed-loop) sets the bracket:
//      high = 1.25 × capacity is probed and doubled until the target is
//      missed (at most 4 doublings); low = 0.
//   2. `steps` times: probe the middle of [low, high]; a mean latency at or
//      under the target (and nothing shed) moves low up, otherwise high down.
//   3. The answer is the probe at the highest rate that met the target.
//
// A probe is one measured run at a given rate, supplied by the caller (in
// paceline-bench: a BenchDriver run); the function itself is pure logic, so
// it is tested with synthetic latency curves.
//
// Thread-safety: calls `probe` on the calling thread only.
#pragma once

#include <functional>
#include <vector>

#include "common/status.h"

namespace paceline::workloads {

struct RateProbe {
  double rate = 0;             // offered transactions per second
  double mean_latency_ms = 0;  // mean response time of committed transactions
  bool shed = false;           // arrivals were dropped: the system could not keep up
  bool met = false;            // mean_latency_ms <= target and nothing shed (set by FindRateForLatency)
};

struct BisectionOptions {
  double target_latency_ms = 500;
  double capacity = 0;  // closed-loop throughput, > 0
  int steps = 6;
};

// Fills `probes` in the order they ran and `best` with the index of the
// answer. 22023 for bad options; 55000 when no probe met the target (the
// message gives the lowest latency seen).
Status FindRateForLatency(const BisectionOptions& options, const std::function<Status(double rate, RateProbe*)>& probe,
                          std::vector<RateProbe>* probes, size_t* best);

}  // namespace paceline::workloads
