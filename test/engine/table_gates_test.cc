// TableGates on their own: shared holders, claims that wait for them and
// hold back newcomers, upgrades, and the three ways a wait ends without
// entering (deadline, cancel, a cycle of waits). A step expected to wait
// runs on another thread; the test waits on the condition "it waits"
// (waiting() / exclusive_claimed()), never on a sleep.
#include "engine/table_gates.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

namespace paceline::engine {
namespace {

using Clock = TableGates::Clock;
using Outcome = TableGates::Outcome;

Clock::time_point Later() { return Clock::now() + std::chrono::seconds(20); }

// Waits (yielding) until `done()` or 20 s; returns done().
template <typename Done>
bool Eventually(Done done) {
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (!done() && Clock::now() < deadline) std::this_thread::yield();
  return done();
}

int a, b, c;  // three owners (their addresses)

TEST(TableGatesTest, SharedHoldersDoNotWaitForEachOther) {
  TableGates gates;
  EXPECT_TRUE(gates.TryEnterShared(&a, TableId(1)));
  EXPECT_TRUE(gates.TryEnterShared(&b, TableId(1)));
  EXPECT_TRUE(gates.TryEnterShared(&a, TableId(1)));  // again: already held
  EXPECT_TRUE(gates.Holds(&a, TableId(1)));
  EXPECT_FALSE(gates.Holds(&c, TableId(1)));
  gates.LeaveAll(&a);
  EXPECT_FALSE(gates.Holds(&a, TableId(1)));
  EXPECT_TRUE(gates.Holds(&b, TableId(1)));
}

// A claim waits for the holders, and newcomers wait behind the claim (the
// schema change is not starved); other tables are not affected.
TEST(TableGatesTest, ClaimWaitsForHoldersAndHoldsBackNewcomers) {
  TableGates gates;
  ASSERT_TRUE(gates.TryEnterShared(&a, TableId(1)));
  auto claim = std::async(std::launch::async, [&] { return gates.EnterExclusive(&b, {TableId(1)}, Later(), nullptr); });
  ASSERT_TRUE(Eventually([&] { return gates.exclusive_claimed() && gates.waiting() == 1; }));
  EXPECT_FALSE(gates.TryEnterShared(&c, TableId(1)));
  EXPECT_TRUE(gates.TryEnterShared(&c, TableId(2)));
  gates.LeaveAll(&a);
  EXPECT_EQ(claim.get(), Outcome::kEntered);
  EXPECT_TRUE(gates.Holds(&b, TableId(1)));
  // A newcomer waits until the change is done.
  auto join = std::async(std::launch::async, [&] { return gates.EnterShared(&c, TableId(1), Later(), nullptr); });
  ASSERT_TRUE(Eventually([&] { return gates.waiting() == 1; }));
  gates.LeaveExclusive(&b);
  EXPECT_EQ(join.get(), Outcome::kEntered);
  EXPECT_FALSE(gates.exclusive_claimed());
}

// DDL inside a block: the block's own shared hold does not make it wait.
TEST(TableGatesTest, SoleHolderUpgradesAtOnceAndKeepsItsSharedHold) {
  TableGates gates;
  ASSERT_TRUE(gates.TryEnterShared(&a, TableId(1)));
  EXPECT_EQ(gates.EnterExclusive(&a, {TableId(1), TableId(2)}, Clock::now(), nullptr), Outcome::kEntered);
  gates.LeaveExclusive(&a);
  EXPECT_TRUE(gates.Holds(&a, TableId(1)));   // still used by its block
  EXPECT_FALSE(gates.Holds(&a, TableId(2)));  // only claimed for the change
  EXPECT_FALSE(gates.exclusive_claimed());
}

// Two blocks that each change a table the other uses: the second claim
// would close the cycle a→b→a and is refused at once; the first then runs.
TEST(TableGatesTest, CycleOfClaimsIsRefusedAtOnce) {
  TableGates gates;
  ASSERT_TRUE(gates.TryEnterShared(&a, TableId(1)));
  ASSERT_TRUE(gates.TryEnterShared(&b, TableId(2)));
  auto first = std::async(std::launch::async, [&] { return gates.EnterExclusive(&a, {TableId(2)}, Later(), nullptr); });
  ASSERT_TRUE(Eventually([&] { return gates.waiting() == 1; }));
  EXPECT_EQ(gates.EnterExclusive(&b, {TableId(1)}, Later(), nullptr), Outcome::kDeadlock);
  EXPECT_TRUE(gates.Holds(&b, TableId(2)));  // its block's hold stays until it ends
  gates.LeaveAll(&b);
  EXPECT_EQ(first.get(), Outcome::kEntered);
}

// A block that waits behind a claim while the claimant (through a third
// party) waits for that block: a→(claim on 1)→b, b→(shared on 1)... the
// cycle runs through a shared waiter.
TEST(TableGatesTest, CycleThroughSharedWaiterIsRefused) {
  TableGates gates;
  ASSERT_TRUE(gates.TryEnterShared(&b, TableId(2)));
  ASSERT_TRUE(gates.TryEnterShared(&c, TableId(1)));
  // a claims 1 and 2: it gets 1's claim, then waits for c (holder of 1).
  auto change = std::async(std::launch::async, [&] { return gates.EnterExclusive(&a, {TableId(1), TableId(2)}, Later(), nullptr); });
  ASSERT_TRUE(Eventually([&] { return gates.exclusive_claimed() && gates.waiting() == 1; }));
  // b, holding 2 (which a will need), now wants 1 shared: b would wait for
  // a, which will wait for b. Not yet a cycle: a waits for c, not b.
  auto use = std::async(std::launch::async, [&] { return gates.EnterShared(&b, TableId(1), Later(), nullptr); });
  ASSERT_TRUE(Eventually([&] { return gates.waiting() == 2; }));
  // c leaves: a gets 1, then waits for b at 2, closing a→b→a: a is refused.
  gates.LeaveAll(&c);
  EXPECT_EQ(change.get(), Outcome::kDeadlock);
  EXPECT_EQ(use.get(), Outcome::kEntered);
  EXPECT_FALSE(gates.exclusive_claimed());
}

TEST(TableGatesTest, DeadlineEndsTheWaitAndDropsTheClaims) {
  TableGates gates;
  ASSERT_TRUE(gates.TryEnterShared(&a, TableId(2)));
  EXPECT_EQ(gates.EnterExclusive(&b, {TableId(1), TableId(2)}, Clock::now() + std::chrono::milliseconds(20), nullptr),
            Outcome::kTimedOut);
  EXPECT_FALSE(gates.exclusive_claimed());
  EXPECT_TRUE(gates.TryEnterShared(&c, TableId(1)));
  EXPECT_FALSE(gates.Holds(&b, TableId(1)));
}

TEST(TableGatesTest, CancelEndsTheWait) {
  TableGates gates;
  CancelToken cancel;
  ASSERT_TRUE(gates.TryEnterShared(&a, TableId(1)));
  auto claim = std::async(std::launch::async, [&] { return gates.EnterExclusive(&b, {TableId(1)}, Later(), &cancel); });
  ASSERT_TRUE(Eventually([&] { return gates.waiting() == 1; }));
  cancel.Cancel();
  EXPECT_EQ(claim.get(), Outcome::kCanceled);
  EXPECT_FALSE(gates.exclusive_claimed());
}

}  // namespace
}  // namespace paceline::engine
