// The paper's Table I, reproduced through the public API, and the scores of
// its running example under the four weight × aggregation choices.
//
// Table I (queues numbered 1..3 in the paper, 0..2 here):
//
//   History                          State         queue 1  2  3
//   s_quantity=6   aborts 20  commits 60   s_i_id=1          2  0  0
//   s_quantity=7          40          20   s_w_id=5          2  1  1
//   s_i_id=1              20          20   s_i_id=2          0  1  1
//   s_i_id=2               0          20   s_quantity=7      2  1  1
//   s_w_id=5              20          20   s_quantity=6      0  1  1
//                                          total             6  4  4
//
// The arriving transaction is {s_quantity=6, s_i_id=2, s_w_id=5} (the text
// misprints the last one as s_d_id=5). The text says count-sum-literal
// scores it "20·0 + 0·0 + 2·2 = 24" on queue 1 and "20·1 + 0·1 + 2·1 = 22"
// on queues 2 and 3, and picks queue 1. That arithmetic does not follow from
// the printed tables: it weighs s_w_id=5 by 2 aborts where History says 20,
// and 20·0 + 0·0 + 2·2 is 4, not 24. With the printed tables the formula
// score(q) = Σ aborts(r)·State[r][q] gives
//   queue 1: 20·0 + 0·0 + 20·2 = 40,  queue 2: 20·1 + 0·1 + 20·1 = 40,
//   queue 3: 40,
// a three-way tie, which the tie rule (smallest total: queues 2 and 3 at 4;
// then fewest in flight: equal; then lowest index) sends to queue 2 (index
// 1). We assert what the formula gives from the printed tables, and, as a
// second History, the paper's arithmetic (s_w_id=5 at 2 aborts), which gives
// 4, 22, 22: still not the text's choice of queue 1, since 22 > 4.
//
// The other policies on the printed tables:
//   count-max:     s_quantity=6 and s_w_id=5 both have 20 aborts; the tie
//                  goes to the first in the footprint, s_quantity=6:
//                  20·(0, 1, 1) = 0, 20, 20 → index 1.
//   fraction-sum:  s_quantity=6 weighs 20/80 = 0.25, s_i_id=2 0/20 = 0,
//                  s_w_id=5 20/40 = 0.5:
//                  0.25·(0, 1, 1) + 0.5·(2, 1, 1) = 1, 0.75, 0.75 → index 0.
//   fraction-max:  s_w_id=5 (0.5): 0.5·(2, 1, 1) = 1, 0.5, 0.5 → index 0.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/conflict_aware_scheduler.h"
#include "scheduler/scheduling_policy.h"

namespace paceline::scheduler {
namespace {

using ::testing::ElementsAre;

// Reference keys (the engine's would be hashes; any distinct keys will do).
constexpr ReferenceKey kQuantity6 = 0x5106;  // s_quantity=6
constexpr ReferenceKey kQuantity7 = 0x5107;  // s_quantity=7
constexpr ReferenceKey kItem1 = 0x1101;      // s_i_id=1
constexpr ReferenceKey kItem2 = 0x1102;      // s_i_id=2
constexpr ReferenceKey kItem3 = 0x1103;      // s_i_id=3
constexpr ReferenceKey kWarehouse5 = 0x3305;  // s_w_id=5

Footprint Refs(std::vector<ReferenceKey> references) { return Footprint{.references = std::move(references)}; }

void Repeat(int times, const auto& event) {
  for (int i = 0; i < times; ++i) event();
}

// Table I, built from events and placements. `warehouse_aborts` is 20 for
// the printed History, 2 for the History the paper's arithmetic used.
std::unique_ptr<ConflictAwareScheduler> TableOne(std::string_view policy_name, int warehouse_aborts = 20) {
  std::optional<SchedulingPolicy> policy = SchedulingPolicy::Parse(policy_name);
  EXPECT_TRUE(policy.has_value()) << policy_name;
  SchedulerOptions options{.queues = 3, .state = StateMode::kCumulative};
  auto scheduler = std::make_unique<ConflictAwareScheduler>(*policy, options, std::string(policy_name));
  // History: aborted attempts and commits of transactions, reported without
  // a queue (as for transactions that bypassed Pick).
  Repeat(warehouse_aborts, [&] { scheduler->OnAbort(Refs({kQuantity7, kItem1, kWarehouse5}), kNoQueue, {}, nullptr); });
  Repeat(20 - warehouse_aborts, [&] { scheduler->OnAbort(Refs({kQuantity7, kItem1}), kNoQueue, {}, nullptr); });
  Repeat(20, [&] { scheduler->OnAbort(Refs({kQuantity6}), kNoQueue, {}, nullptr); });
  Repeat(20, [&] { scheduler->OnAbort(Refs({kQuantity7}), kNoQueue, {}, nullptr); });
  Repeat(20, [&] { scheduler->OnCommit(Refs({kQuantity7, kItem1, kWarehouse5}), kNoQueue); });
  Repeat(20, [&] { scheduler->OnCommit(Refs({kQuantity6, kItem2}), kNoQueue); });
  Repeat(40, [&] { scheduler->OnCommit(Refs({kQuantity6}), kNoQueue); });
  // State: two transactions on queue 1; two on each of queues 2 and 3.
  Repeat(2, [&] { scheduler->Place(Refs({kQuantity7, kItem1, kWarehouse5}), 0); });
  for (size_t q : {1, 2}) {
    scheduler->Place(Refs({kQuantity6, kItem2, kWarehouse5}), q);
    scheduler->Place(Refs({kQuantity7}), q);
  }
  return scheduler;
}

const Footprint kArriving = Refs({kQuantity6, kItem2, kWarehouse5});

std::vector<double> Scores(const ConflictAwareScheduler& scheduler, const Footprint& footprint) {
  std::vector<double> scores;
  EXPECT_TRUE(scheduler.Score(footprint, &scores));
  return scores;
}

TEST(TableOneTest, HistoryAndStateAreThePrintedTables) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = TableOne("count-sum-literal");
  const History& history = scheduler->history();
  const auto counts = [&](ReferenceKey key) {
    HistoryCounts c = history.Lookup(key);
    return std::vector<uint64_t>{c.aborts, c.commits};
  };
  EXPECT_THAT(counts(kQuantity6), ElementsAre(20, 60));
  EXPECT_THAT(counts(kQuantity7), ElementsAre(40, 20));
  EXPECT_THAT(counts(kItem1), ElementsAre(20, 20));
  EXPECT_THAT(counts(kItem2), ElementsAre(0, 20));
  EXPECT_THAT(counts(kWarehouse5), ElementsAre(20, 20));

  const State& state = scheduler->state();
  EXPECT_THAT(state.Counts(kItem1), ElementsAre(2, 0, 0));
  EXPECT_THAT(state.Counts(kWarehouse5), ElementsAre(2, 1, 1));
  EXPECT_THAT(state.Counts(kItem2), ElementsAre(0, 1, 1));
  EXPECT_THAT(state.Counts(kQuantity7), ElementsAre(2, 1, 1));
  EXPECT_THAT(state.Counts(kQuantity6), ElementsAre(0, 1, 1));
  EXPECT_EQ(state.Total(0), 6);
  EXPECT_EQ(state.Total(1), 4);
  EXPECT_EQ(state.Total(2), 4);
  for (size_t q = 0; q < 3; ++q) EXPECT_EQ(state.InFlight(q), 2) << "queue " << q;
}

TEST(TableOneTest, CountSumScoresFortyEverywhereAndTheTieGoesToTheSmallerTotal) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = TableOne("count-sum-literal");
  EXPECT_THAT(Scores(*scheduler, kArriving), ElementsAre(40, 40, 40));
  EXPECT_EQ(scheduler->Pick(kArriving), 1u);
  // The chosen queue's State counts every reference of the transaction.
  EXPECT_THAT(scheduler->state().Counts(kQuantity6), ElementsAre(0, 2, 1));
  EXPECT_THAT(scheduler->state().Counts(kItem2), ElementsAre(0, 2, 1));
  EXPECT_THAT(scheduler->state().Counts(kWarehouse5), ElementsAre(2, 2, 1));
  EXPECT_EQ(scheduler->state().Total(1), 7);
  EXPECT_EQ(scheduler->Stats().default_picks, 0u);
}

TEST(TableOneTest, CountMaxUsesTheFirstOfTheTwoHeaviestReferences) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = TableOne("count-max-literal");
  EXPECT_THAT(Scores(*scheduler, kArriving), ElementsAre(0, 20, 20));
  EXPECT_EQ(scheduler->Pick(kArriving), 1u);
}

TEST(TableOneTest, FractionSumPrefersTheQueueWithTheWarehouse) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = TableOne("fraction-sum-literal");
  std::vector<double> scores = Scores(*scheduler, kArriving);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_DOUBLE_EQ(scores[0], 1.0);
  EXPECT_DOUBLE_EQ(scores[1], 0.75);
  EXPECT_DOUBLE_EQ(scores[2], 0.75);
  EXPECT_EQ(scheduler->Pick(kArriving), 0u);
}

TEST(TableOneTest, FractionMaxUsesTheWarehouseAlone) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = TableOne("fraction-max-literal");
  std::vector<double> scores = Scores(*scheduler, kArriving);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_DOUBLE_EQ(scores[0], 1.0);
  EXPECT_DOUBLE_EQ(scores[1], 0.5);
  EXPECT_DOUBLE_EQ(scores[2], 0.5);
  EXPECT_EQ(scheduler->Pick(kArriving), 0u);
}

TEST(TableOneTest, ThePapersArithmeticWithTheWarehouseAtTwoAborts) {
  // History as the text's sums used it: s_w_id=5 with 2 aborts (20 commits).
  std::unique_ptr<ConflictAwareScheduler> count_sum = TableOne("count-sum-literal", /*warehouse_aborts=*/2);
  ASSERT_EQ(count_sum->history().Lookup(kWarehouse5).aborts, 2u);
  ASSERT_EQ(count_sum->history().Lookup(kWarehouse5).commits, 20u);
  ASSERT_EQ(count_sum->history().Lookup(kQuantity7).aborts, 40u);  // unchanged
  ASSERT_EQ(count_sum->history().Lookup(kItem1).aborts, 20u);      // unchanged
  // 20·0 + 0·0 + 2·2 = 4; 20·1 + 0·1 + 2·1 = 22 twice.
  EXPECT_THAT(Scores(*count_sum, kArriving), ElementsAre(4, 22, 22));
  EXPECT_EQ(count_sum->Pick(kArriving), 1u);

  std::unique_ptr<ConflictAwareScheduler> count_max = TableOne("count-max-literal", 2);
  EXPECT_THAT(Scores(*count_max, kArriving), ElementsAre(0, 20, 20));  // s_quantity=6 alone
  EXPECT_EQ(count_max->Pick(kArriving), 1u);

  // 0.25·(0, 1, 1) + (2/22)·(2, 1, 1).
  std::unique_ptr<ConflictAwareScheduler> fraction_sum = TableOne("fraction-sum-literal", 2);
  std::vector<double> scores = Scores(*fraction_sum, kArriving);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_DOUBLE_EQ(scores[0], 2 * (2.0 / 22));
  EXPECT_DOUBLE_EQ(scores[1], 0.25 + 2.0 / 22);
  EXPECT_DOUBLE_EQ(scores[2], 0.25 + 2.0 / 22);
  EXPECT_EQ(fraction_sum->Pick(kArriving), 1u);

  std::unique_ptr<ConflictAwareScheduler> fraction_max = TableOne("fraction-max-literal", 2);
  EXPECT_THAT(Scores(*fraction_max, kArriving), ElementsAre(0, 0.25, 0.25));  // s_quantity=6 (0.25 > 1/11)
  EXPECT_EQ(fraction_max->Pick(kArriving), 1u);
}

TEST(TableOneTest, AReferenceWithoutHistoryGoesToTheSmallestTotal) {
  // The paper's follow-up: a transaction with s_i_id=3, unknown to History.
  for (const char* name : {"count-sum-literal", "count-max-literal", "fraction-sum-literal", "fraction-max-literal"}) {
    std::unique_ptr<ConflictAwareScheduler> scheduler = TableOne(name);
    std::vector<double> scores;
    EXPECT_FALSE(scheduler->Score(Refs({kItem3}), &scores)) << name;
    EXPECT_THAT(scores, ElementsAre(0, 0, 0)) << name;
    EXPECT_EQ(scheduler->Pick(Refs({kItem3})), 1u) << name;  // totals 6, 4, 4
    EXPECT_EQ(scheduler->Pick(Refs({kItem3})), 2u) << name;  // totals 6, 5, 4
    EXPECT_EQ(scheduler->Stats().default_picks, 2u) << name;
  }
}

}  // namespace
}  // namespace paceline::scheduler
