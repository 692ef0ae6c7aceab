// PartitionScheduler ("partition"): what it asks of the engine, and the
// queue each partition value maps to.
#include "scheduler/partition_scheduler.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "scheduler/scheduler_registry.h"

namespace paceline::scheduler {
namespace {

Footprint Partitioned(uint64_t value) {
  Footprint footprint;
  footprint.has_partition_value = true;
  footprint.partition_value = value;
  return footprint;
}

TEST(PartitionSchedulerTest, AsksForThePartitionValueOfTheConfiguredDomainOnly) {
  PartitionScheduler by_warehouse(SchedulerOptions{.queues = 4});
  EXPECT_EQ(by_warehouse.Name(), "partition");
  FootprintSpec spec = by_warehouse.Needs();
  EXPECT_EQ(spec.partition_domain, "w_id");
  EXPECT_FALSE(spec.references);

  PartitionScheduler by_district(SchedulerOptions{.queues = 4, .partition_domain = "d_id"});
  EXPECT_EQ(by_district.Needs().partition_domain, "d_id");
}

TEST(PartitionSchedulerTest, ThePartitionValueModuloTheQueuesPicksTheQueue) {
  PartitionScheduler scheduler(SchedulerOptions{.queues = 4});
  for (uint64_t w = 1; w <= 12; ++w) {
    EXPECT_EQ(scheduler.Pick(Partitioned(w)), w % 4) << "w_id " << w;
    EXPECT_EQ(scheduler.Pick(Partitioned(w)), w % 4) << "w_id " << w << " again";
  }
  // A negative integer arrives as its two's complement.
  EXPECT_EQ(scheduler.Pick(Partitioned(static_cast<uint64_t>(int64_t{-1}))), (~uint64_t{0}) % 4);
  // Outcomes change nothing.
  scheduler.OnAbort(Partitioned(5), 1, {}, nullptr);
  scheduler.OnCommit(Partitioned(5), 1);
  scheduler.OnFinish(Partitioned(5), 1);
  EXPECT_EQ(scheduler.Pick(Partitioned(5)), 1u);
}

TEST(PartitionSchedulerTest, WithoutAPartitionValueTheQueueIsRandom) {
  constexpr size_t kQueues = 5;
  PartitionScheduler scheduler(SchedulerOptions{.queues = kQueues});
  std::set<size_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const size_t q = scheduler.Pick(Footprint{});
    ASSERT_LT(q, kQueues);
    seen.insert(q);
  }
  EXPECT_EQ(seen.size(), kQueues);
}

TEST(PartitionSchedulerTest, TheRegistryCreatesIt) {
  SchedulerRegistry registry;
  RegisterBuiltinSchedulers(&registry);
  std::unique_ptr<Scheduler> scheduler;
  ASSERT_TRUE(registry.Create("partition", SchedulerOptions{.queues = 2}, &scheduler).ok());
  EXPECT_EQ(scheduler->Name(), "partition");
  EXPECT_EQ(scheduler->Pick(Partitioned(3)), 1u);
}

}  // namespace
}  // namespace paceline::scheduler
