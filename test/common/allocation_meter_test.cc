// AllocationMeter: counts the heap its thread takes and gives back while it
// lives, at the allocator's usable sizes; nests; ignores other threads.
#include "common/allocation_meter.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace paceline {
namespace {

TEST(AllocationMeterTest, CountsWhatIsKeptNotWhatCameAndWent) {
  AllocationMeter meter;
  auto kept = std::make_unique<std::vector<char>>(1 << 20);
  for (int i = 0; i < 100; ++i) {
    std::string gone(10'000, 'x');  // allocated and freed inside
  }
  EXPECT_GE(meter.net_bytes(), size_t{1} << 20);
  EXPECT_LT(meter.net_bytes(), (size_t{1} << 20) + 8192);  // a mapping of its own: a page more
  EXPECT_GE(meter.allocated_bytes(), size_t{1} << 20);
  kept.reset();
  EXPECT_LT(meter.net_bytes(), 4096u);
}

TEST(AllocationMeterTest, AFreeOfOlderMemoryCountsNegativeAndTheNetStopsAtZero) {
  auto older = std::make_unique<std::vector<char>>(1 << 16);
  AllocationMeter meter;
  older.reset();
  EXPECT_GE(meter.freed_bytes(), size_t{1} << 16);
  EXPECT_EQ(meter.net_bytes(), 0u);
}

TEST(AllocationMeterTest, NestedMetersAddTheirCountsToTheOuterOne) {
  AllocationMeter outer;
  std::unique_ptr<std::vector<char>> a, b;
  a = std::make_unique<std::vector<char>>(1 << 16);
  {
    AllocationMeter inner;
    b = std::make_unique<std::vector<char>>(1 << 18);
    EXPECT_GE(inner.net_bytes(), size_t{1} << 18);
    EXPECT_LT(inner.net_bytes(), (size_t{1} << 18) + 8192);  // mmapped when alone: a page more
  }
  EXPECT_GE(outer.net_bytes(), (size_t{1} << 18) + (size_t{1} << 16));
}

TEST(AllocationMeterTest, OtherThreadsAreNotCounted) {
  AllocationMeter meter;
  std::unique_ptr<std::vector<char>> theirs;
  std::thread t([&] { theirs = std::make_unique<std::vector<char>>(1 << 20); });
  t.join();
  EXPECT_LT(meter.net_bytes(), size_t{64} << 10);  // the thread's own bookkeeping at most
}

}  // namespace
}  // namespace paceline
