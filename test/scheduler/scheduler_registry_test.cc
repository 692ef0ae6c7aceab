// SchedulerRegistry and the built-in baselines: names (every built-in, the
// conflict-aware policies included), the unknown-name error, and the queues
// "random" and "round-robin" pick.
#include "scheduler/scheduler_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "scheduler/random_scheduler.h"
#include "scheduler/round_robin_scheduler.h"
#include "scheduler/scheduling_policy.h"

namespace paceline::scheduler {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class SchedulerRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterBuiltinSchedulers(&registry_); }

  std::unique_ptr<Scheduler> Create(std::string_view name, size_t queues, uint64_t seed = 42) {
    std::unique_ptr<Scheduler> scheduler;
    Status status = registry_.Create(name, SchedulerOptions{.queues = queues, .seed = seed}, &scheduler);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return scheduler;
  }

  SchedulerRegistry registry_;
  Footprint footprint_;
};

// Each of `threads` threads picks `picks` times; counts[thread][queue].
std::vector<std::vector<int>> PickFromThreads(Scheduler* scheduler, size_t queues, int threads, int picks) {
  std::vector<std::vector<int>> counts(threads, std::vector<int>(queues, 0));
  std::vector<std::thread> pickers;
  for (int t = 0; t < threads; ++t) {
    pickers.emplace_back([&, t] {
      Footprint footprint;
      for (int i = 0; i < picks; ++i) {
        const size_t q = scheduler->Pick(footprint);
        if (q < queues) ++counts[t][q];  // an out-of-range pick shows as a missing count
      }
    });
  }
  for (std::thread& picker : pickers) picker.join();
  return counts;
}

TEST_F(SchedulerRegistryTest, NamesAreSortedAndEachCreatesTheSchedulerOfThatName) {
  // The baselines, adaptive, the 16 conflict-aware policies, and the 8
  // "-single" aliases of the single-granularity ones.
  std::vector<std::string> expected = {"adaptive", "partition", "random", "round-robin"};
  for (const std::string& name : SchedulingPolicy::AllNames()) {
    expected.push_back(name);
    if (!name.ends_with("-all")) expected.push_back(name + "-single");
  }
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(expected.size(), 28u);
  EXPECT_EQ(registry_.Names(), expected);
  EXPECT_THAT(registry_.Names(), ::testing::Contains("count-max-canonical"));
  EXPECT_THAT(registry_.Names(), ::testing::Contains("fraction-sum-literal-all"));
  EXPECT_THAT(registry_.Names(), ::testing::Contains("count-sum-literal-single"));
  for (const std::string& name : registry_.Names()) {
    std::unique_ptr<Scheduler> scheduler = Create(name, 4);
    ASSERT_NE(scheduler, nullptr);
    EXPECT_EQ(scheduler->Name(), name);
  }
}

TEST_F(SchedulerRegistryTest, UnknownNameIsAnErrorListingTheValidNames) {
  std::unique_ptr<Scheduler> scheduler;
  Status status = registry_.Create("fifo", SchedulerOptions{}, &scheduler);
  EXPECT_TRUE(status.Is(sqlstate::kInvalidParameterValue)) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("\"fifo\""));
  EXPECT_THAT(status.message(), HasSubstr("random, round-robin"));
  EXPECT_EQ(scheduler, nullptr);
}

TEST_F(SchedulerRegistryTest, ZeroQueuesIsAnError) {
  std::unique_ptr<Scheduler> scheduler;
  Status status = registry_.Create("random", SchedulerOptions{.queues = 0}, &scheduler);
  EXPECT_TRUE(status.Is(sqlstate::kInvalidParameterValue)) << status.ToString();
}

TEST_F(SchedulerRegistryTest, RegisteringANameTwiceIsAnError) {
  Status status = registry_.Register("random", [](const SchedulerOptions& o) -> std::unique_ptr<Scheduler> {
    return std::make_unique<RoundRobinScheduler>(o);
  });
  EXPECT_TRUE(status.Is(sqlstate::kDuplicateObject)) << status.ToString();
}

TEST_F(SchedulerRegistryTest, FactoryBuildingAnotherNameIsAnInternalError) {
  ASSERT_TRUE(registry_
                  .Register("impostor", [](const SchedulerOptions& o) -> std::unique_ptr<Scheduler> {
                    return std::make_unique<RandomScheduler>(o);
                  })
                  .ok());
  std::unique_ptr<Scheduler> scheduler;
  Status status = registry_.Create("impostor", SchedulerOptions{}, &scheduler);
  EXPECT_TRUE(status.Is(sqlstate::kInternalError)) << status.ToString();
}

TEST_F(SchedulerRegistryTest, RandomPicksAreInRangeAndCoverEveryQueueEvenly) {
  constexpr size_t kQueues = 8;
  constexpr int kPicks = 80000;
  std::unique_ptr<Scheduler> scheduler = Create("random", kQueues);
  std::vector<int> counts(kQueues, 0);
  for (int i = 0; i < kPicks; ++i) {
    size_t q = scheduler->Pick(footprint_);
    ASSERT_LT(q, kQueues);
    ++counts[q];
  }
  for (size_t q = 0; q < kQueues; ++q) {
    // Expected 10000 each; the standard deviation is about 94.
    EXPECT_NEAR(counts[q], kPicks / kQueues, 600) << "queue " << q;
  }
}

TEST_F(SchedulerRegistryTest, RandomIsReproducibleForASeedOnOneThread) {
  std::unique_ptr<Scheduler> a = Create("random", 16, /*seed=*/7);
  std::unique_ptr<Scheduler> b = Create("random", 16, /*seed=*/7);
  std::unique_ptr<Scheduler> c = Create("random", 16, /*seed=*/8);
  std::vector<size_t> from_a, from_b, from_c;
  for (int i = 0; i < 64; ++i) from_a.push_back(a->Pick(footprint_));
  for (int i = 0; i < 64; ++i) from_b.push_back(b->Pick(footprint_));
  for (int i = 0; i < 64; ++i) from_c.push_back(c->Pick(footprint_));
  EXPECT_EQ(from_a, from_b);
  EXPECT_NE(from_a, from_c);
}

TEST_F(SchedulerRegistryTest, RandomPicksConcurrentlyFromManyThreads) {
  constexpr size_t kQueues = 5;
  std::unique_ptr<Scheduler> scheduler = Create("random", kQueues);
  std::vector<std::vector<int>> counts = PickFromThreads(scheduler.get(), kQueues, 4, 5000);
  for (size_t t = 0; t < counts.size(); ++t) {
    int total = 0;
    for (size_t q = 0; q < kQueues; ++q) {
      EXPECT_GT(counts[t][q], 0) << "thread " << t << " queue " << q;
      total += counts[t][q];
    }
    EXPECT_EQ(total, 5000);  // every pick was in range
  }
}

TEST_F(SchedulerRegistryTest, RoundRobinCyclesThroughTheQueues) {
  std::unique_ptr<Scheduler> scheduler = Create("round-robin", 3);
  std::vector<size_t> picks;
  for (int i = 0; i < 7; ++i) picks.push_back(scheduler->Pick(footprint_));
  EXPECT_THAT(picks, ElementsAre(0, 1, 2, 0, 1, 2, 0));
}

TEST_F(SchedulerRegistryTest, RoundRobinGivesConcurrentCallersDistinctTurns) {
  constexpr size_t kQueues = 4;
  std::unique_ptr<Scheduler> scheduler = Create("round-robin", kQueues);
  std::vector<std::vector<int>> counts = PickFromThreads(scheduler.get(), kQueues, 4, 1000);
  for (size_t q = 0; q < kQueues; ++q) {
    int total = 0;
    for (const std::vector<int>& c : counts) total += c[q];
    EXPECT_EQ(total, 1000) << "queue " << q;  // 4000 tickets, exactly 1000 per queue
  }
}

TEST_F(SchedulerRegistryTest, BaselinesIgnoreOutcomes) {
  std::unique_ptr<Scheduler> scheduler = Create("round-robin", 2);
  scheduler->OnAbort(footprint_, 0, {}, nullptr);
  scheduler->OnCommit(footprint_, 0);
  scheduler->OnFinish(footprint_, 0);
  EXPECT_EQ(scheduler->Pick(footprint_), 0u);
}

}  // namespace
}  // namespace paceline::scheduler
