// FindRateForLatency: bracket, then bisect.
#include "workloads/driver/rate_bisection.h"

#include <sstream>

namespace paceline::workloads {

Status FindRateForLatency(const BisectionOptions& options, const std::function<Status(double rate, RateProbe*)>& probe,
                          std::vector<RateProbe>* probes, size_t* best) {
  if (!(options.target_latency_ms > 0)) {
    return Status(sqlstate::kInvalidParameterValue, "--target-latency-ms must be positive");
  }
  if (!(options.capacity > 0)) {
    return Status(sqlstate::kInvalidParameterValue, "the capacity to bracket the rate must be positive");
  }
  if (options.steps < 1) return Status(sqlstate::kInvalidParameterValue, "--bisect-steps must be at least 1");
  probes->clear();
  bool found = false;
  auto run = [&](double rate, bool* met) -> Status {
    RateProbe p;
    PL_RETURN_IF_ERROR(probe(rate, &p));
    p.rate = rate;
    p.met = !p.shed && p.mean_latency_ms <= options.target_latency_ms;
    probes->push_back(p);
    if (p.met && (!found || rate > (*probes)[*best].rate)) {
      *best = probes->size() - 1;
      found = true;
    }
    *met = p.met;
    return Status::OK();
  };

  double low = 0;
  double high = 1.25 * options.capacity;
  bool met = true;
  for (int doubling = 0; doubling <= 4 && met; ++doubling) {
    PL_RETURN_IF_ERROR(run(high, &met));
    if (met) {
      low = high;
      high *= 2;
    }
  }
  for (int step = 0; step < options.steps; ++step) {
    const double mid = (low + high) / 2;
    PL_RETURN_IF_ERROR(run(mid, &met));
    (met ? low : high) = mid;
  }
  if (!found) {
    double lowest = probes->front().mean_latency_ms;
    for (const RateProbe& p : *probes) lowest = std::min(lowest, p.mean_latency_ms);
    std::ostringstream message;
    message << "no offered rate met the target mean latency of " << options.target_latency_ms
            << " ms; the lowest seen was " << lowest << " ms";
    return Status(sqlstate::kObjectNotInPrerequisiteState, message.str());
  }
  return Status::OK();
}

}  // namespace paceline::workloads
