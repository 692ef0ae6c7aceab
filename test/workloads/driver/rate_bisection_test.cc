// FindRateForLatency on synthetic latency curves: an M/M/1 queue whose mean
// response time 1/(μ − λ) crosses the target at a known rate.
#include "workloads/driver/rate_bisection.h"

#include <gtest/gtest.h>

#include <limits>

namespace paceline::workloads {
namespace {

// Mean latency (ms) of an M/M/1 queue serving `mu` per second at rate λ;
// beyond capacity the queue grows without bound: shed.
std::function<Status(double, RateProbe*)> MM1(double mu) {
  return [mu](double rate, RateProbe* p) {
    if (rate >= mu) {
      p->shed = true;
      p->mean_latency_ms = std::numeric_limits<double>::infinity();
    } else {
      p->mean_latency_ms = 1000.0 / (mu - rate);
    }
    return Status::OK();
  };
}

TEST(RateBisectionTest, FindsTheRateWhoseMeanLatencyIsTheTarget) {
  // μ = 1000/s, target 500 ms → λ* = 998/s.
  BisectionOptions options;
  options.target_latency_ms = 500;
  options.capacity = 900;  // a closed-loop estimate below μ
  options.steps = 14;
  std::vector<RateProbe> probes;
  size_t best = 0;
  ASSERT_TRUE(FindRateForLatency(options, MM1(1000), &probes, &best).ok());
  const RateProbe& answer = probes[best];
  EXPECT_TRUE(answer.met);
  EXPECT_LE(answer.mean_latency_ms, 500);
  EXPECT_LE(answer.rate, 998);
  // The bracket [0, 1125] halves 14 times: within 1125 / 2^14 ≈ 0.07 of λ*.
  EXPECT_GE(answer.rate, 998 - 0.1);
  // Every probe is labelled by the rule: met iff latency ≤ target and not shed.
  for (const RateProbe& p : probes) EXPECT_EQ(p.met, !p.shed && p.mean_latency_ms <= 500) << p.rate;
  EXPECT_EQ(probes.size(), 1u + 14u);  // the bracket's high end missed at once
}

TEST(RateBisectionTest, RaisesTheBracketWhenTheCapacityEstimateIsLow) {
  // The closed-loop capacity can underestimate: 1.25 × 100 meets the target,
  // so the high end doubles until it misses.
  BisectionOptions options;
  options.target_latency_ms = 500;
  options.capacity = 100;
  options.steps = 10;
  std::vector<RateProbe> probes;
  size_t best = 0;
  ASSERT_TRUE(FindRateForLatency(options, MM1(1000), &probes, &best).ok());
  EXPECT_TRUE(probes[0].met);
  EXPECT_NEAR(probes[best].rate, 998, 2);
}

TEST(RateBisectionTest, ReportsWhenNoRateMeetsTheTarget) {
  // A service time of 1 s can never answer in 500 ms.
  BisectionOptions options;
  options.target_latency_ms = 500;
  options.capacity = 1;
  options.steps = 3;
  auto slow = [](double, RateProbe* p) {
    p->mean_latency_ms = 1000;
    return Status::OK();
  };
  std::vector<RateProbe> probes;
  size_t best = 0;
  Status s = FindRateForLatency(options, slow, &probes, &best);
  EXPECT_TRUE(s.Is(sqlstate::kObjectNotInPrerequisiteState)) << s.ToString();
  EXPECT_NE(s.message().find("lowest seen was 1000 ms"), std::string::npos) << s.message();
}

TEST(RateBisectionTest, RejectsBadOptionsAndPassesProbeErrorsOn) {
  std::vector<RateProbe> probes;
  size_t best = 0;
  BisectionOptions options;
  options.capacity = 0;
  EXPECT_TRUE(FindRateForLatency(options, MM1(10), &probes, &best).Is(sqlstate::kInvalidParameterValue));
  options.capacity = 10;
  options.target_latency_ms = 0;
  EXPECT_TRUE(FindRateForLatency(options, MM1(10), &probes, &best).Is(sqlstate::kInvalidParameterValue));
  options.target_latency_ms = 500;
  auto failing = [](double, RateProbe*) { return Status(sqlstate::kAdminShutdown, "gone"); };
  EXPECT_TRUE(FindRateForLatency(options, failing, &probes, &best).Is(sqlstate::kAdminShutdown));
}

}  // namespace
}  // namespace paceline::workloads
