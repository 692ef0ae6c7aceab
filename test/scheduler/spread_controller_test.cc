// SpreadController: on a simulated workload whose commit rate is a
// function of the spread (injected time, no threads), it climbs to the
// spread with the most throughput, stays at 1 when spreading loses and then
// probes ever more rarely, never probes upward without an idle queue,
// ignores epochs without homed placements, follows a workload whose best
// spread changes, and is not moved by noisy epochs.
#include "scheduler/spread_controller.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>

#include "common/split_mix64.h"

namespace paceline::scheduler {
namespace {

constexpr int64_t kEpoch = 1'000'000;  // ns
constexpr int kStepsPerEpoch = 20;

// Drives a controller: each step asks for the spread, then reports
// `placements` homed placements (seeing an idle queue when `idle`) and the
// commits `rate(spread)` gives for the step.
struct Simulation {
  SpreadController controller{8, kEpoch, 0};
  int64_t now = 0;
  bool idle = true;
  bool homed = true;
  double noise = 0;  // ± this share of the rate, per step
  uint64_t seed = 1;
  std::map<size_t, int> epochs_at;  // steps spent at each spread / kStepsPerEpoch

  void Run(int epochs, const std::function<double(size_t)>& rate) {
    for (int i = 0; i < epochs * kStepsPerEpoch; ++i) {
      const size_t spread = controller.Spread(now);
      ++epochs_at[spread];
      for (int p = 0; p < 10; ++p) controller.OnPlaced(homed, idle);
      double commits = rate(spread);
      if (noise > 0) {
        const double u = static_cast<double>(SplitMix64::Mix(seed++) >> 11) * 0x1.0p-53;  // [0, 1)
        commits *= 1 + noise * (2 * u - 1);
      }
      for (int c = 0; c < static_cast<int>(commits); ++c) controller.OnCommit();
      now += kEpoch / kStepsPerEpoch;
    }
  }
};

// Commits per step by spread: the most at `best`, falling off either side.
std::function<double(size_t)> PeakAt(size_t best) {
  return [best](size_t spread) {
    const double distance = spread > best ? static_cast<double>(spread) / static_cast<double>(best)
                                          : static_cast<double>(best) / static_cast<double>(spread);
    return 100.0 / distance;  // half as much two levels away
  };
}

TEST(SpreadControllerTest, ClimbsToTheSpreadWithTheMostThroughput) {
  Simulation sim;
  sim.Run(60, PeakAt(4));
  const SpreadController::Stats stats = sim.controller.GetStats();
  EXPECT_EQ(stats.spread, 4u);
  EXPECT_EQ(stats.adopted, 2u) << "1 → 2 → 4";
}

TEST(SpreadControllerTest, StaysAtOneWhenSpreadingLosesAndProbesEverMoreRarely) {
  Simulation sim;
  sim.Run(40, PeakAt(1));
  const uint64_t early = sim.controller.GetStats().probes;
  sim.Run(400, PeakAt(1));
  const SpreadController::Stats stats = sim.controller.GetStats();
  EXPECT_EQ(stats.spread, 1u);
  EXPECT_EQ(stats.adopted, 0u);
  EXPECT_GE(early, 3u) << "it looks around while the workload is new";
  // Dwells double up to kMaxDwell epochs: then one probe per kMaxDwell + 2.
  const uint64_t late = stats.probes - early;
  EXPECT_GE(late, 400u / (SpreadController::kMaxDwell + 2) - 1) << "it keeps probing, rarely";
  EXPECT_LE(late, 400u / SpreadController::kMaxDwell + 1);
  EXPECT_LE(sim.epochs_at[2], static_cast<int>(stats.probes) * kStepsPerEpoch);
}

TEST(SpreadControllerTest, NeverProbesUpwardWithoutAnIdleQueue) {
  Simulation sim;
  sim.idle = false;  // every queue busy: a wider spread adds conflicts, not capacity
  sim.Run(100, PeakAt(8));
  const SpreadController::Stats stats = sim.controller.GetStats();
  EXPECT_EQ(stats.spread, 1u);
  EXPECT_EQ(stats.probes, 0u);
  EXPECT_EQ(sim.epochs_at.size(), 1u);
}

TEST(SpreadControllerTest, EpochsWithoutHomedPlacementsDoNotCount) {
  Simulation sim;
  sim.homed = false;  // no hot reference: the spread changes nothing
  sim.Run(100, PeakAt(8));
  EXPECT_EQ(sim.controller.GetStats().probes, 0u);
  EXPECT_EQ(sim.controller.GetStats().spread, 1u);
}

TEST(SpreadControllerTest, FollowsAWorkloadWhoseBestSpreadChanges) {
  Simulation sim;
  sim.Run(200, PeakAt(1));
  ASSERT_EQ(sim.controller.GetStats().spread, 1u);
  // Within one maximal dwell and the climb (two adoptions, a dwell epoch
  // and a probe and its return each).
  sim.Run(SpreadController::kMaxDwell + 12, PeakAt(4));
  EXPECT_EQ(sim.controller.GetStats().spread, 4u);
  sim.Run(3 * (SpreadController::kMaxDwell + 3), PeakAt(1));
  EXPECT_EQ(sim.controller.GetStats().spread, 1u) << "and back down";
}

TEST(SpreadControllerTest, NoisyEpochsDoNotAdoptAWorseSpread) {
  Simulation sim;
  sim.noise = 0.3;  // ±30% per step: a few % per epoch of 16 measured steps
  sim.Run(400, [](size_t spread) { return spread == 1 ? 100.0 : 85.0; });
  EXPECT_EQ(sim.controller.GetStats().spread, 1u);
  EXPECT_EQ(sim.controller.GetStats().adopted, 0u);
}

}  // namespace
}  // namespace paceline::scheduler
