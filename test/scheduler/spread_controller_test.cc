// SpreadController: on a simulated workload whose commit rate is a
// function of the level (injected time, no threads), it climbs to the
// spread with the most throughput, stays at one queue when spreading loses
// and then probes ever more rarely, starts without spills, spills when
// spills win and stops when they lose, climbs
// from one queue without spills where spills change nothing, probes
// upward straight to the home set that would occupy the idle workers, never
// probes upward without idle workers but counts spills as idle workers
// (they run where queues would be empty), ignores epochs without homed
// placements, follows a workload whose best spread changes, is not moved
// by noisy epochs, switches spills on not for one lucky epoch, does not keep a level that
// wins only while it is new, and takes the narrowest of home sets that
// commit alike.
#include "scheduler/spread_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "common/split_mix64.h"

namespace paceline::scheduler {
namespace {

constexpr int64_t kEpoch = 1'000'000;  // ns
constexpr int kStepsPerEpoch = 20;

// Drives a controller: each step asks for the level, then reports ten
// placements (homed when `homed`; `idle_share` of the queues empty on
// average; `spill_share` of them spilled where the level spills) and the
// commits `rate(level)` gives for the step.
struct Simulation {
  SpreadController controller{8, kEpoch, 0};
  int64_t now = 0;
  double idle_share = 0.5;  // mean share of the 8 queues empty at a placement
  std::vector<double> idle_cycle;  // if set: the idle share epoch by epoch, cycling
  double spill_share = 0;   // share of the placements spilled, at levels that spill
  bool homed = true;
  double noise = 0;  // ± this share of the rate, per step
  // The first epoch at a level wider than the one before commits this
  // share more (a change measured as well as a level: queued work
  // released onto the new queues).
  double transient = 0;
  SpreadController::Level last{1, false};
  int boosted_steps = 0;  // steps of the transient left
  uint64_t seed = 1;
  std::map<size_t, int> steps_at;  // steps spent at each home set size
  int steps_without_spills = 0;

  void Run(int epochs, const std::function<double(SpreadController::Level)>& rate) {
    for (int i = 0; i < epochs * kStepsPerEpoch; ++i) {
      const SpreadController::Level level = controller.Spread(now);
      ++steps_at[level.queues];
      if (!level.spill) ++steps_without_spills;
      // idle_share of the 10 placements × 8 queues were empty, the first
      // placements seeing them.
      const double idle = idle_cycle.empty()
                              ? idle_share
                              : idle_cycle[static_cast<size_t>(i / kStepsPerEpoch) % idle_cycle.size()];
      size_t empty = static_cast<size_t>(idle * 80);
      const int spills = level.spill ? static_cast<int>(spill_share * 10) : 0;
      for (int p = 0; p < 10; ++p) {
        controller.OnPlaced(homed, std::min<size_t>(empty, 8), p < spills);
        empty -= std::min<size_t>(empty, 8);
      }
      if (level.queues != last.queues || level.spill != last.spill) {
        const bool wider = level.queues > last.queues || (level.queues == last.queues && level.spill);
        boosted_steps = wider ? kStepsPerEpoch : 0;
        last = level;
      }
      double commits = rate(level);
      if (boosted_steps > 0) {
        --boosted_steps;
        commits *= 1 + transient;
      }
      if (noise > 0) {
        const double u = static_cast<double>(SplitMix64::Mix(seed++) >> 11) * 0x1.0p-53;  // [0, 1)
        commits *= 1 + noise * (2 * u - 1);
      }
      for (int c = 0; c < static_cast<int>(commits); ++c) controller.OnCommit();
      now += kEpoch / kStepsPerEpoch;
    }
  }
};

// Commits per step by home set size: the most at `best`, falling off
// either side; spills change nothing.
std::function<double(SpreadController::Level)> PeakAt(size_t best) {
  return [best](SpreadController::Level level) {
    const size_t spread = level.queues;
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
  // Dwells double up to kMaxDwell epochs, per direction (wider, and no
  // spills): then about one probe per kMaxDwell / 2 epochs.
  const uint64_t late = stats.probes - early;
  EXPECT_GE(late, 400u / (SpreadController::kMaxDwell + 2)) << "it keeps probing, rarely";
  EXPECT_LE(late, 2 * 400u / SpreadController::kMaxDwell + 2);
  EXPECT_LE(sim.steps_at[2], static_cast<int>(stats.probes) * kStepsPerEpoch);
}

TEST(SpreadControllerTest, StartsWithoutSpillsSpillsWhenSpillsWinAndStopsWhenTheyLose) {
  // Spills change nothing: they only add conflicts (TPC-C 8 warehouses, 64
  // clients: abort rate 0.047 with them, 0.016 without, measured), so the
  // start is one queue without spills, and it stays there.
  Simulation sim;
  sim.Run(60, [](SpreadController::Level level) { return 100.0 / static_cast<double>(level.queues); });
  ASSERT_EQ(sim.controller.GetStats().spread, 1u);
  EXPECT_FALSE(sim.controller.GetStats().spill);
  EXPECT_EQ(sim.controller.GetStats().adopted, 0u) << "spills must win by kMargin";
  // Spills win (a home whose idle neighbours can take its overflow).
  sim.Run(3 * (SpreadController::kMaxDwell + 4), [](SpreadController::Level level) {
    return level.spill ? 120.0 / static_cast<double>(level.queues) : 100.0;
  });
  ASSERT_EQ(sim.controller.GetStats().spread, 1u);
  EXPECT_TRUE(sim.controller.GetStats().spill);
  // More workers than cores: an empty queue's worker is no spare capacity,
  // and spills only add conflicts. A tie is enough to stop them (as with a
  // narrower home set: as many commits for fewer conflicts).
  sim.Run(3 * (SpreadController::kMaxDwell + 4), [](SpreadController::Level level) {
    return level.spill ? 100.0 / static_cast<double>(level.queues) : 100.0;
  });
  EXPECT_EQ(sim.controller.GetStats().spread, 1u);
  EXPECT_FALSE(sim.controller.GetStats().spill);
}

TEST(SpreadControllerTest, HomeSetsThatCommitAlikeGoToTheNarrowest) {
  // Every level commits as much (2PL at TPC-C warehouses = workers, within
  // noise): the narrower the home set, the fewer the conflicts, so it comes
  // down to one queue and stays there.
  Simulation sim;
  sim.Run(60, PeakAt(4));
  ASSERT_EQ(sim.controller.GetStats().spread, 4u);
  sim.Run(100, [](SpreadController::Level) { return 100.0; });
  EXPECT_EQ(sim.controller.GetStats().spread, 1u);
  const uint64_t adopted = sim.controller.GetStats().adopted;
  sim.Run(100, [](SpreadController::Level) { return 100.0; });
  EXPECT_EQ(sim.controller.GetStats().adopted, adopted) << "a wider level that commits no more is not adopted";
}

TEST(SpreadControllerTest, ClimbsFromOneQueueWithoutSpillsWhereSpillsChangeNothing) {
  // First spills lose and wider sets lose more: one queue without spills.
  // Then the workload changes: spills change nothing at one queue, but
  // wider sets commit more (a hot key whose spills are refused for their
  // cost, with idle queues beside its home). The climb goes from one
  // queue straight to two: spilling is a switch, not a step on the way.
  Simulation sim;
  sim.Run(60, [](SpreadController::Level level) {
    return level.queues > 1 ? 30.0 : level.spill ? 40.0 : 50.0;
  });
  ASSERT_EQ(sim.controller.GetStats().spread, 1u);
  ASSERT_FALSE(sim.controller.GetStats().spill);
  sim.Run(3 * (SpreadController::kMaxDwell + 4), PeakAt(4));
  EXPECT_EQ(sim.controller.GetStats().spread, 4u);
}

TEST(SpreadControllerTest, ProbesUpwardStraightToTheSetThatOccupiesTheIdleWorkers) {
  // TPC-C 2 warehouses, 2PL: one queue each leaves 66% of the queues
  // empty; two queues commit a little more (+5-15%, measured: under the
  // bar), four much more (+40%). The first upward probe goes to four.
  const auto rate = [](SpreadController::Level level) {
    switch (level.queues) {
      case 1: return 100.0;
      case 2: return 103.0;
      case 4: return 140.0;
      default: return 120.0;
    }
  };
  Simulation sim;
  sim.idle_share = 0.66;
  for (int epoch = 0; epoch < 20 && sim.controller.GetStats().adopted == 0; ++epoch) sim.Run(1, rate);
  EXPECT_EQ(sim.controller.GetStats().spread, 4u) << "1 → 4 at once";
  EXPECT_EQ(sim.steps_at[2], 0) << "two queues not tried on the way";
  sim.Run(60, rate);
  EXPECT_EQ(sim.controller.GetStats().spread, 4u);
  EXPECT_EQ(sim.controller.GetStats().reverted, 0u);
}

TEST(SpreadControllerTest, NeverProbesUpwardWithoutIdleWorkers) {
  // Half the queues empty at one placement in ten, none at the others:
  // 5% of the workers idle on average, less than a wider spread would
  // have to win by. (TPC-C 8 warehouses, 64 clients: some queue empty at
  // 20-80% of placements, 5-9% idle on average.)
  Simulation sim;
  sim.idle_share = 0.05;
  sim.Run(100, PeakAt(8));
  const SpreadController::Stats stats = sim.controller.GetStats();
  EXPECT_EQ(stats.spread, 1u);
  EXPECT_GT(stats.probes, 0u) << "without spills is narrower: probed";
  EXPECT_EQ(sim.steps_at.size(), 1u) << "never a home set wider than one queue";
}

TEST(SpreadControllerTest, IdleWorkersAreAnAverageOverEpochsNotOneEpoch) {
  // A closed loop's fluctuation: one epoch in three finds 20% of the queues
  // empty, the others 5%; 10% on average, under kMinIdleShare. (TPC-C 8
  // warehouses, 64 clients, one queue each: 9-10% on average, 3-22% epoch
  // by epoch, and a home set of two did not lower it: 13%. Each probe of
  // it cost 2PL a 400 ms abort storm at 0.3-0.4, measured.) Judged by the
  // last epoch before a probe, the controller probed upward whenever that
  // epoch was an idle one; the moving average peaks under 14%.
  Simulation sim;
  sim.idle_cycle = {0.2, 0.05, 0.05};
  sim.Run(200, PeakAt(8));
  EXPECT_EQ(sim.steps_at.size(), 1u) << "never a home set wider than one queue";
  // Idle capacity that lasts (two epochs in four at 30%: 17.5%) is used.
  Simulation lasting;
  lasting.idle_cycle = {0.3, 0.3, 0.05, 0.05};
  lasting.Run(200, PeakAt(8));
  EXPECT_EQ(lasting.controller.GetStats().spread, 8u);
}

TEST(SpreadControllerTest, SpillsCountAsIdleWorkers) {
  // TPC-C 2 warehouses, OCC, one queue each with spills: the spills keep
  // the other six queues fed (5% of them empty on average) with 40% of
  // the work, and wider home sets commit more. The climb starts.
  const auto rate = [](SpreadController::Level level) {
    if (level.queues == 1) return level.spill ? 40.0 : 25.0;  // spills win at one queue
    return PeakAt(4)(level);                                   // 50 at 2, 100 at 4
  };
  Simulation sim;
  sim.idle_share = 0.05;
  sim.spill_share = 0.4;
  sim.Run(100, rate);
  EXPECT_EQ(sim.controller.GetStats().spread, 4u);
  // A few spills (TPC-C 8 warehouses: 3-5%) are not idle capacity.
  Simulation few;
  few.idle_share = 0.05;
  few.spill_share = 0.1;
  few.Run(100, rate);
  EXPECT_TRUE(few.controller.GetStats().spill);
  EXPECT_EQ(few.steps_at.size(), 1u) << "never a home set wider than one queue";
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

TEST(SpreadControllerTest, OneLuckyEpochDoesNotSwitchSpillsOn) {
  // Spills change nothing, and one epoch's throughput varies (TPC-C 8
  // warehouses: ±15%). A spill probe that wins by kMargin once is probed
  // again and adopted only if it wins again; adopted after one win, spills
  // came and went by chance (each time costing conflicts): in these ten
  // simulations spills were on 40% of the time (29 adoptions), against 16%
  // (11) now.
  uint64_t adopted = 0, probes = 0;
  int spilling = 0;  // steps at a level that spills
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Simulation sim;
    sim.seed = seed * 1'000'003;
    sim.idle_share = 0.05;  // no idle workers: only the spill switch is probed
    sim.noise = 0.6;        // ±60% per step: ±9% per epoch of 16 measured steps
    sim.Run(400, [](SpreadController::Level) { return 100.0; });
    adopted += sim.controller.GetStats().adopted;
    probes += sim.controller.GetStats().probes;
    spilling += 400 * kStepsPerEpoch - sim.steps_without_spills;
  }
  EXPECT_LT(spilling, 10 * 400 * kStepsPerEpoch / 4) << adopted << " adoptions";
  EXPECT_GT(probes, 100u);
}

TEST(SpreadControllerTest, ALevelThatWinsOnlyWhileItIsNewIsNotKept) {
  // Every level commits as much, but the first epoch at a wider one
  // commits 10% more (TPC-C 16 warehouses, 2PL: probes beat their
  // neighbours' median by 5%, and 6 of 19 beat both by kMargin, where
  // probes that kept the level did not — measured). Each probe wins; the
  // audit of each adoption finds no gain and restores the level left.
  Simulation sim;
  sim.transient = 0.1;
  sim.Run(400, [](SpreadController::Level) { return 100.0; });
  const SpreadController::Stats stats = sim.controller.GetStats();
  EXPECT_EQ(stats.spread, 1u);
  EXPECT_FALSE(stats.spill);
  EXPECT_GT(stats.adopted, 0u) << "the probes do win";
  EXPECT_EQ(stats.reverted, stats.adopted) << sim.steps_at[1];
  EXPECT_GE(sim.steps_at[1], 400 * kStepsPerEpoch * 8 / 10)
      << stats.adopted << " adoptions: one queue, but for probes and audits";
  // Where the wider level gains for good, it is kept.
  Simulation gains;
  gains.transient = 0.1;
  gains.Run(100, [](SpreadController::Level level) { return level.queues >= 2 ? 110.0 : 100.0; });
  EXPECT_GE(gains.controller.GetStats().spread, 2u);
}

TEST(SpreadControllerTest, NoisyEpochsDoNotAdoptAWorseSpread) {
  Simulation sim;
  sim.noise = 0.3;  // ±30% per step: a few % per epoch of 16 measured steps
  sim.Run(400, [](SpreadController::Level level) { return level.queues == 1 && level.spill ? 100.0 : 85.0; });
  EXPECT_EQ(sim.controller.GetStats().spread, 1u);
  EXPECT_TRUE(sim.controller.GetStats().spill);
  EXPECT_EQ(sim.controller.GetStats().adopted, 1u) << "spills, which win by 18%; nothing after";
}

}  // namespace
}  // namespace paceline::scheduler
