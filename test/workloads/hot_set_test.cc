// HotSet and HotSetClock: the share of hot draws is the asked fraction
// (within a few percent over 100,000 draws), the hot keys are distinct and
// stay put within an epoch, move between epochs, and the cold draws never
// hit a hot key; YCSB's and TPC-C's moving hot sets likewise.
#include "workloads/hot_set.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "workloads/tpcc/tpcc_workload.h"
#include "workloads/ycsb/ycsb_workload.h"

namespace paceline::workloads {
namespace {

constexpr int kDraws = 100000;

// The share of `kDraws` draws of epoch `epoch` that fell on its hot keys.
double HotShare(const HotSet& hot, uint64_t epoch, uint64_t seed) {
  Random rng(seed);
  int hits = 0;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t key = hot.Draw(rng, epoch);
    EXPECT_LT(key, hot.keys());
    hits += hot.IsHot(key, epoch);
  }
  return static_cast<double>(hits) / kDraws;
}

TEST(HotSetTest, TheHotShareIsTheFractionAndMovesWithTheEpoch) {
  for (double fraction : {0.9, 0.5, 0.0}) {
    HotSet hot(100000, 50, fraction, 7);
    for (uint64_t epoch : {0, 1, 5}) {
      EXPECT_NEAR(HotShare(hot, epoch, epoch + 11), fraction, 0.01) << "fraction " << fraction << " epoch " << epoch;
    }
    const std::vector<uint64_t> first = hot.HotKeys(0);
    ASSERT_EQ(first.size(), 50u);
    EXPECT_EQ(std::set<uint64_t>(first.begin(), first.end()).size(), 50u) << "hot keys are distinct";
    EXPECT_EQ(hot.HotKeys(0), first) << "an epoch's hot set is the same every time";
    const std::vector<uint64_t> second = hot.HotKeys(1);
    std::vector<uint64_t> common;
    std::set_intersection(first.begin(), first.end(), second.begin(), second.end(), std::back_inserter(common));
    EXPECT_LT(common.size(), 3u) << "after a shift the hot keys are (almost all) others";
  }
}

// Every key is reachable, each hot key about equally often, and a cold draw
// is spread over the cold keys (hot = half the keys: the cold mapping's
// binary search is exercised on every draw).
TEST(HotSetTest, DrawsAreUniformWithinTheHotAndTheColdKeys) {
  HotSet hot(20, 10, 0.5, 3);
  Random rng(1);
  std::map<uint64_t, int> count;
  for (int i = 0; i < kDraws; ++i) ++count[hot.Draw(rng, 0)];
  ASSERT_EQ(count.size(), 20u);
  for (const auto& [key, n] : count) EXPECT_NEAR(n, kDraws / 20, kDraws / 20 / 10) << "key " << key;
}

TEST(HotSetTest, DegenerateSetsAndValidation) {
  Random rng(2);
  HotSet all(10, 10, 0.3, 1);  // every key hot
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(all.IsHot(all.Draw(rng, 0), 0));
  HotSet none(10, 0, 0.9, 1);  // uniform
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(none.Draw(rng, 0));
  EXPECT_EQ(seen.size(), 10u);
  Status s = HotSet::Validate(10, "--smallbank-accounts", 11, "--hot-records", 0.5);
  EXPECT_TRUE(s.Is(sqlstate::kInvalidParameterValue));
  EXPECT_NE(s.message().find("--hot-records must be between 0 and 10"), std::string::npos) << s.message();
  s = HotSet::Validate(10, "--smallbank-accounts", 5, "--hot-records", 1.5);
  EXPECT_NE(s.message().find("--hot-fraction must be in [0, 1]"), std::string::npos) << s.message();
  EXPECT_TRUE(HotSet::Validate(10, "--smallbank-accounts", 10, "--hot-records", 1).ok());
}

// Many threads drawing across an epoch change see only keys of the epoch
// they asked for (the cached epoch is replaced atomically).
TEST(HotSetTest, ConcurrentDrawsAcrossEpochsStayInTheirEpoch) {
  HotSet hot(1000, 5, 1.0, 9);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Random rng(t);
      for (int i = 0; i < 20000; ++i) {
        const uint64_t epoch = (i / 100 + t) % 3;
        if (!hot.IsHot(hot.Draw(rng, epoch), epoch)) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(HotSetClockTest, EpochsCountShiftsFromTheStart) {
  using namespace std::chrono_literals;
  HotSetClock never;
  EXPECT_EQ(never.Epoch(), 0u);
  HotSetClock clock(100ms);
  const auto t0 = HotSetClock::Clock::now();
  EXPECT_EQ(clock.EpochAt(t0 + 1s), 0u) << "not started: epoch 0";
  clock.Start(t0);
  EXPECT_EQ(clock.EpochAt(t0 - 1s), 0u) << "before the start (the warm-up): epoch 0";
  EXPECT_EQ(clock.EpochAt(t0 + 99ms), 0u);
  EXPECT_EQ(clock.EpochAt(t0 + 100ms), 1u);
  EXPECT_EQ(clock.EpochAt(t0 + 1050ms), 10u);
  EXPECT_DOUBLE_EQ(clock.shift_seconds(), 0.1);
}

// YCSB: epoch 0 keeps rank r = key r; later epochs permute the keys (a
// bijection), so the hottest ranks land on other keys.
TEST(HotSetTest, YcsbRemapsItsRanksToAFreshPermutationPerEpoch) {
  ycsb::YcsbOptions o;
  o.records = 1000;
  o.hot_shift = std::chrono::seconds(1);
  ycsb::YcsbWorkload w(o);
  std::set<uint64_t> image;
  for (uint64_t r = 0; r < o.records; ++r) {
    EXPECT_EQ(w.KeyOfRank(r, 0), r);
    image.insert(w.KeyOfRank(r, 1));
  }
  EXPECT_EQ(image.size(), o.records) << "epoch 1's mapping is a permutation";
  std::set<uint64_t> hottest1, hottest2;
  for (uint64_t r = 0; r < 10; ++r) {
    hottest1.insert(w.KeyOfRank(r, 1));
    hottest2.insert(w.KeyOfRank(r, 2));
  }
  EXPECT_NE(hottest1, hottest2);
  EXPECT_FALSE(hottest1.count(0) && hottest1.count(1)) << "the hottest keys moved away from 0, 1, ...";
}

// TPC-C with hot warehouses: the share of home warehouses on the hot ones is
// --hot-fraction.
TEST(HotSetTest, TpccHotWarehousesTakeTheirShare) {
  tpcc::TpccOptions o;
  o.warehouses = 8;
  o.hot_warehouses = 2;
  o.hot_fraction = 0.8;
  tpcc::TpccWorkload w(o);
  ASSERT_TRUE(w.hot_warehouses().has_value());
  const HotSet& hot = *w.hot_warehouses();
  Random rng(5);
  int hits = 0;
  GeneratedTransaction t;
  for (int i = 0; i < kDraws; ++i) {
    w.Next(rng, &t);
    const int64_t w_id = t.request.args[0].int_value();  // every TPC-C procedure's first argument
    ASSERT_GE(w_id, 1);
    ASSERT_LE(w_id, 8);
    hits += hot.IsHot(static_cast<uint64_t>(w_id - 1), 0);
  }
  EXPECT_NEAR(static_cast<double>(hits) / kDraws, 0.8, 0.01);
  EXPECT_EQ(w.hot_set_clock(), nullptr) << "no --hot-shift-s: the hot warehouses stay";
}

}  // namespace
}  // namespace paceline::workloads
