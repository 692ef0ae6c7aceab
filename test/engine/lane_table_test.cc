// LaneTable on its own: who holds a lane, who waits, in which order they
// get it, and how every wait ends (hand-over, 40P01 on a cycle, 55P03 at
// the deadline, 57014 on cancel). Waits run on helper threads; the test
// waits on the table's own state (Snapshot: the waiter is queued), never on
// a sleep.
//
// | schedule                     | interleaving                                          | excluded                        |
// |------------------------------|-------------------------------------------------------|---------------------------------|
// | HandOverInArrivalOrder       | 1 holds k=7; 2, then 3 wait; 1 ends → 2 holds; 2 ends  | a freed lane taken by a later   |
// |                              | → 3 holds; then no lane is left                        | waiter (starvation)             |
// | CycleFailsAtOnce             | 1 holds a=1, 2 holds a=2; 1 waits for a=2; 2 asks a=1  | two blocks waiting for each     |
// |                              | → 40P01 at once; 2 ends → 1 holds both                 | other until lock_timeout        |
// | DeadlineAndCancelEndAWait    | 2 waits for k=7 with a past deadline → 55P03; 3 waits | a wait that hangs               |
// |                              | and is canceled → 57014; neither is left queued        |                                 |
// | ContentionIsRemembered       | 2 waits for k=7 held by 1 → k=7 is remembered; k=8,    | a reference laned by contention |
// |                              | taken free, is not                                     | that never met another block    |
// | WaitDieRuleForHoldersOnly    | 2PL wait-die; 1 (oldest) holds k=7; 3 (youngest, holds | a younger block that holds      |
// |                              | nothing) waits for it; 2 (younger than 1) holds k=8,   | nothing dying at a lane; a      |
// |                              | asks k=7 → 40001 at once; 1 ends → 3 holds k=7         | younger holder waiting (cycle)  |
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "cc/two_phase_locking.h"
#include "engine/lane_table.h"

namespace paceline::engine {
namespace {

using std::chrono::steady_clock;

constexpr auto kLongWait = std::chrono::seconds(60);

// Waits (bounded) until the lane of `reference` has `n` waiters.
bool WaitersReach(const LaneTable& table, const std::string& reference, size_t n) {
  const auto deadline = steady_clock::now() + std::chrono::seconds(30);
  while (steady_clock::now() < deadline) {
    for (const auto& s : table.Snapshot()) {
      if (s.reference == reference && s.waiting.size() >= n) return true;
    }
    std::this_thread::yield();
  }
  return false;
}

uint64_t HolderOf(const LaneTable& table, const std::string& reference) {
  for (const auto& s : table.Snapshot()) {
    if (s.reference == reference) return s.holder;
  }
  return 0;
}

TEST(LaneTableTest, HandOverInArrivalOrder) {
  LaneTable table(std::chrono::milliseconds(1000));
  ASSERT_TRUE(table.Acquire(1, 7, "k=7", steady_clock::now() + kLongWait, nullptr).ok());
  EXPECT_FALSE(table.TryAcquire(2, 7, "k=7"));
  auto second = std::async(std::launch::async, [&] {
    return table.Acquire(2, 7, "k=7", steady_clock::now() + kLongWait, nullptr);
  });
  ASSERT_TRUE(WaitersReach(table, "k=7", 1));
  auto third = std::async(std::launch::async, [&] {
    return table.Acquire(3, 7, "k=7", steady_clock::now() + kLongWait, nullptr);
  });
  ASSERT_TRUE(WaitersReach(table, "k=7", 2));
  const auto snapshot = table.Snapshot();
  ASSERT_EQ(snapshot.size(), 1u);
  EXPECT_EQ(snapshot[0].holder, 1u);
  EXPECT_EQ(snapshot[0].reference, "k=7");
  EXPECT_EQ(snapshot[0].waiting, (std::vector<uint64_t>{2, 3}));

  table.ReleaseAll(1);
  EXPECT_TRUE(second.get().ok());
  EXPECT_EQ(HolderOf(table, "k=7"), 2u);
  EXPECT_TRUE(table.Holds(2, 7));
  table.ReleaseAll(2);
  EXPECT_TRUE(third.get().ok());
  EXPECT_EQ(HolderOf(table, "k=7"), 3u);
  table.ReleaseAll(3);
  EXPECT_TRUE(table.Snapshot().empty());
  EXPECT_EQ(table.waits(), 2u);
}

TEST(LaneTableTest, CycleFailsAtOnce) {
  LaneTable table(std::chrono::milliseconds(1000));
  ASSERT_TRUE(table.TryAcquire(1, 10, "a=1"));
  ASSERT_TRUE(table.TryAcquire(2, 20, "a=2"));
  auto first = std::async(std::launch::async, [&] {
    return table.Acquire(1, 20, "a=2", steady_clock::now() + kLongWait, nullptr);
  });
  ASSERT_TRUE(WaitersReach(table, "a=2", 1));
  const auto before = steady_clock::now();
  Status s = table.Acquire(2, 10, "a=1", steady_clock::now() + kLongWait, nullptr);
  EXPECT_TRUE(s.Is(sqlstate::kDeadlockDetected)) << s.ToString();
  EXPECT_LT(steady_clock::now() - before, kLongWait / 2);  // at once, not at the deadline
  EXPECT_EQ(table.deadlocks(), 1u);
  EXPECT_EQ(HolderOf(table, "a=1"), 1u);  // the failed request changed nothing
  table.ReleaseAll(2);                // its block fails and gives its lanes back
  EXPECT_TRUE(first.get().ok());
  EXPECT_TRUE(table.Holds(1, 10));
  EXPECT_TRUE(table.Holds(1, 20));
  table.ReleaseAll(1);
  EXPECT_TRUE(table.Snapshot().empty());
}

TEST(LaneTableTest, DeadlineAndCancelEndAWait) {
  LaneTable table(std::chrono::milliseconds(1000));
  ASSERT_TRUE(table.TryAcquire(1, 7, "k=7"));
  Status late = table.Acquire(2, 7, "k=7", steady_clock::now(), nullptr);
  EXPECT_TRUE(late.Is(sqlstate::kLockNotAvailable)) << late.ToString();

  CancelToken token;
  auto canceled = std::async(std::launch::async, [&] {
    return table.Acquire(3, 7, "k=7", steady_clock::now() + kLongWait, &token);
  });
  ASSERT_TRUE(WaitersReach(table, "k=7", 1));
  token.Cancel();
  Status s = canceled.get();
  EXPECT_TRUE(s.Is(sqlstate::kQueryCanceled)) << s.ToString();
  const auto snapshot = table.Snapshot();
  ASSERT_EQ(snapshot.size(), 1u);
  EXPECT_TRUE(snapshot[0].waiting.empty());  // neither is left queued
  table.ReleaseAll(1);
  EXPECT_TRUE(table.Snapshot().empty());
}

TEST(LaneTableTest, ContentionIsRemembered) {
  LaneTable table(std::chrono::milliseconds(60000));
  ASSERT_TRUE(table.TryAcquire(1, 7, "k=7"));
  ASSERT_TRUE(table.TryAcquire(1, 8, "k=8"));
  EXPECT_FALSE(table.Remembered(7));  // taken free: no contention yet
  auto waiter = std::async(std::launch::async, [&] {
    return table.Acquire(2, 7, "k=7", steady_clock::now() + kLongWait, nullptr);
  });
  ASSERT_TRUE(WaitersReach(table, "k=7", 1));
  EXPECT_TRUE(table.Remembered(7));
  EXPECT_FALSE(table.Remembered(8));
  EXPECT_FALSE(table.Remembered(9));
  table.ReleaseAll(1);
  EXPECT_TRUE(waiter.get().ok());
  table.ReleaseAll(2);
}

TEST(LaneTableTest, WaitDieRuleForHoldersOnly) {
  cc::TwoPhaseLocking cc(cc::DeadlockRule::kWaitDie, cc::CcOptions{});
  auto t1 = cc.Begin(TxnTimestamp(1)), t2 = cc.Begin(TxnTimestamp(2)), t3 = cc.Begin(TxnTimestamp(3));  // 1 the oldest
  LaneTable table(std::chrono::milliseconds(1000), &cc);
  ASSERT_TRUE(table.TryAcquire(1, 7, "k=7", t1.get()));
  auto youngest = std::async(std::launch::async, [&] {
    return table.Acquire(3, 7, "k=7", steady_clock::now() + kLongWait, nullptr, t3.get());
  });
  ASSERT_TRUE(WaitersReach(table, "k=7", 1));  // it holds nothing: it waits, though younger
  ASSERT_TRUE(table.TryAcquire(2, 8, "k=8", t2.get()));
  const auto before = steady_clock::now();
  Status s = table.Acquire(2, 7, "k=7", steady_clock::now() + kLongWait, nullptr, t2.get());
  EXPECT_TRUE(s.Is(sqlstate::kSerializationFailure)) << s.ToString();  // holds k=8, younger than 1: dies
  EXPECT_LT(steady_clock::now() - before, kLongWait / 2);
  table.ReleaseAll(2);
  table.ReleaseAll(1);
  EXPECT_TRUE(youngest.get().ok());
  EXPECT_EQ(HolderOf(table, "k=7"), 3u);
  table.ReleaseAll(3);
  EXPECT_TRUE(table.Snapshot().empty());
  for (auto* t : {&t1, &t2, &t3}) cc.Abort(t->get());
}

}  // namespace
}  // namespace paceline::engine
