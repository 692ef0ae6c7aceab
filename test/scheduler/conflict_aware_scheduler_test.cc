// ConflictAwareScheduler: placement rules (default, ties, max), warm-up by
// transactions and by time, frozen and continuous learning, cumulative and
// inflight State, introspection, the capacity bound, and names. Table I
// itself is in table_one_test.cc; concurrent use in
// conflict_aware_scheduler_concurrency_test.cc.
#include "scheduler/conflict_aware_scheduler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "scheduler/scheduler_registry.h"
#include "scheduler/scheduling_policy.h"

namespace paceline::scheduler {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Footprint Refs(std::vector<ReferenceKey> references) { return Footprint{.references = std::move(references)}; }

std::unique_ptr<ConflictAwareScheduler> Make(std::string_view name, SchedulerOptions options,
                                             ConflictAwareScheduler::Clock clock = nullptr) {
  std::optional<SchedulingPolicy> policy = SchedulingPolicy::Parse(name);
  EXPECT_TRUE(policy.has_value()) << name;
  return std::make_unique<ConflictAwareScheduler>(*policy, options, std::string(name), std::move(clock));
}

// Names reference k as "r<k>" and counts how often it was asked.
class CountingNamer : public ReferenceNamer {
 public:
  explicit CountingNamer(const Footprint& footprint) : footprint_(footprint) {}
  std::string Name(size_t i) const override {
    ++calls_;
    return "r" + std::to_string(footprint_.references[i]);
  }
  int calls() const { return calls_; }

 private:
  const Footprint& footprint_;
  mutable int calls_ = 0;
};

TEST(ConflictAwareSchedulerTest, WithoutEvidenceTheSmallestTotalThenFewestInFlightThenLowestIndexWins) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = Make("count-sum-literal", {.queues = 3});
  EXPECT_EQ(scheduler->Pick(Refs({1, 2})), 0u);  // all equal: lowest index; totals 2, 0, 0
  EXPECT_EQ(scheduler->Pick(Refs({})), 1u);      // totals 0, 0 on 1 and 2: lowest; in flight 1, 1, 0
  EXPECT_EQ(scheduler->Pick(Refs({3})), 2u);     // totals 0, 0 on 1 and 2: fewer in flight on 2
  EXPECT_EQ(scheduler->Pick(Refs({4})), 1u);     // totals 2, 0, 1
  EXPECT_EQ(scheduler->Pick(Refs({5, 6})), 2u);  // totals 2, 1, 1; in flight 1, 2, 1: queue 2
  const SchedulerStats stats = scheduler->Stats();
  EXPECT_EQ(stats.picks, 5u);
  EXPECT_EQ(stats.default_picks, 5u);
  EXPECT_EQ(stats.warmup_picks, 0u);
  EXPECT_FALSE(stats.warming_up);
}

TEST(ConflictAwareSchedulerTest, HighestScoreWinsWhateverTheLoad) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = Make("count-sum-literal", {.queues = 3});
  scheduler->OnAbort(Refs({7}), kNoQueue, {}, nullptr);
  scheduler->Place(Refs({7, 10, 11, 12}), 2);  // the heaviest queue holds reference 7
  EXPECT_EQ(scheduler->Pick(Refs({7, 13})), 2u);
  EXPECT_EQ(scheduler->Stats().default_picks, 0u);
}

TEST(ConflictAwareSchedulerTest, TiesAmongTheBestScoresGoToTheSmallestTotalThenFewestInFlightThenLowestIndex) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = Make("count-sum-literal", {.queues = 4});
  scheduler->OnAbort(Refs({7}), kNoQueue, {}, nullptr);
  // Score 1 on queues 1, 2, 3 (0 on queue 0, the emptiest).
  scheduler->Place(Refs({7, 8}), 1);  // total 2, 1 in flight
  scheduler->Place(Refs({7}), 2);     // total 1, 2 in flight
  scheduler->Place(Refs({}), 2);
  scheduler->Place(Refs({7}), 3);     // total 1, 1 in flight
  std::vector<double> scores;
  EXPECT_TRUE(scheduler->Score(Refs({7}), &scores));
  EXPECT_THAT(scores, ElementsAre(0, 1, 1, 1));
  EXPECT_EQ(scheduler->Pick(Refs({7})), 3u);  // totals 2, 1, 1 → queues 2 and 3; fewer in flight: 3
  // Now queue 3 scores 2 and wins alone.
  EXPECT_EQ(scheduler->Pick(Refs({7})), 3u);
  // Lowest index among fully tied queues.
  std::unique_ptr<ConflictAwareScheduler> tied = Make("count-sum-literal", {.queues = 4});
  tied->OnAbort(Refs({7}), kNoQueue, {}, nullptr);
  tied->Place(Refs({7}), 3);
  tied->Place(Refs({7}), 1);
  EXPECT_EQ(tied->Pick(Refs({7})), 1u);
}

TEST(ConflictAwareSchedulerTest, MaxTakesTheHeaviestReferenceThenMoreAbortsThenFootprintOrder) {
  // Fraction: a = 1/2, b = 2/4 weigh the same; b has more aborts.
  std::unique_ptr<ConflictAwareScheduler> fraction = Make("fraction-max-literal", {.queues = 2});
  fraction->OnAbort(Refs({1, 2}), kNoQueue, {}, nullptr);
  fraction->OnCommit(Refs({1, 2}), kNoQueue);
  fraction->OnAbort(Refs({2}), kNoQueue, {}, nullptr);
  fraction->OnCommit(Refs({2}), kNoQueue);
  fraction->Place(Refs({1}), 0);
  fraction->Place(Refs({2}), 1);
  std::vector<double> scores;
  fraction->Score(Refs({1, 2}), &scores);
  EXPECT_THAT(scores, ElementsAre(0, 0.5));
  EXPECT_EQ(fraction->Pick(Refs({1, 2})), 1u);

  // Count: equal aborts; the first in footprint order decides.
  std::unique_ptr<ConflictAwareScheduler> count = Make("count-max-literal", {.queues = 2});
  count->OnAbort(Refs({1, 2}), kNoQueue, {}, nullptr);
  count->Place(Refs({1}), 0);
  count->Place(Refs({2}), 1);
  EXPECT_EQ(count->Pick(Refs({1, 2})), 0u);
  EXPECT_EQ(count->Pick(Refs({2, 1})), 1u);

  // Sum would have counted both: 1·1 on each queue at first.
  std::unique_ptr<ConflictAwareScheduler> sum = Make("count-sum-literal", {.queues = 2});
  sum->OnAbort(Refs({1, 2}), kNoQueue, {}, nullptr);
  sum->Place(Refs({1}), 0);
  sum->Place(Refs({2}), 1);
  sum->Score(Refs({1, 2}), &scores);
  EXPECT_THAT(scores, ElementsAre(1, 1));
}

TEST(ConflictAwareSchedulerTest, ScoresCoverMoreQueuesThanOneStateEntryHolds) {
  // State keeps 8 queues per entry; queue 9 is in the second.
  std::unique_ptr<ConflictAwareScheduler> scheduler = Make("count-sum-canonical", {.queues = 10});
  scheduler->OnAbort(Refs({5}), kNoQueue, {}, nullptr);
  scheduler->OnAbort(Refs({5}), kNoQueue, {}, nullptr);
  scheduler->Place(Refs({5}), 9);
  scheduler->Place(Refs({5}), 3);
  scheduler->Place(Refs({5}), 9);
  std::vector<double> scores;
  EXPECT_TRUE(scheduler->Score(Refs({5}), &scores));
  EXPECT_THAT(scores, ElementsAre(0, 0, 0, 2, 0, 0, 0, 0, 0, 4));  // aborts 2 · counts
  EXPECT_THAT(scheduler->state().Counts(5), ElementsAre(0, 0, 0, 1, 0, 0, 0, 0, 0, 2));
  EXPECT_EQ(scheduler->Pick(Refs({5})), 9u);
  EXPECT_EQ(scheduler->state().Count(5, 9), 3);
  EXPECT_EQ(scheduler->state().Total(9), 3);
}

TEST(ConflictAwareSchedulerTest, WarmupByTransactionsPlacesAtRandomThenHandsOverToThePolicy) {
  constexpr uint64_t kWarmup = 200;
  constexpr size_t kQueues = 4;
  std::unique_ptr<ConflictAwareScheduler> scheduler =
      Make("count-max-canonical", {.queues = kQueues, .history_warmup_transactions = kWarmup});
  const Footprint hot = Refs({42});
  scheduler->OnAbort(hot, kNoQueue, {}, nullptr);  // evidence the policy would act on at once
  EXPECT_TRUE(scheduler->Stats().warming_up);
  std::set<size_t> warmup_queues;
  for (uint64_t i = 0; i < kWarmup; ++i) warmup_queues.insert(scheduler->Pick(hot));
  // Random: every queue got some (the policy would have put all on one).
  EXPECT_EQ(warmup_queues.size(), kQueues);
  SchedulerStats stats = scheduler->Stats();
  EXPECT_FALSE(stats.warming_up);
  EXPECT_EQ(stats.warmup_picks, kWarmup);
  // Then the policy: the queue holding most of reference 42, every time.
  const std::vector<int64_t> counts = scheduler->state().Counts(42);
  const size_t heaviest = static_cast<size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(scheduler->Pick(hot), heaviest);
  stats = scheduler->Stats();
  EXPECT_EQ(stats.picks, kWarmup + 50);
  EXPECT_EQ(stats.warmup_picks, kWarmup);
  EXPECT_EQ(stats.default_picks, 0u);
}

// A clock the test moves by hand.
struct ManualClock {
  std::atomic<int64_t> millis{1000};
  ConflictAwareScheduler::Clock AsClock() {
    return [this] { return std::chrono::steady_clock::time_point(std::chrono::milliseconds(millis.load())); };
  }
};

TEST(ConflictAwareSchedulerTest, WarmupByTimeStartsAtTheFirstPickAndEndsWhenTheTimeHasPassed) {
  ManualClock clock;
  std::unique_ptr<ConflictAwareScheduler> scheduler = Make(
      "count-sum-literal", {.queues = 2, .history_warmup_time = std::chrono::milliseconds(100)}, clock.AsClock());
  clock.millis = 5000;  // time before the first pick does not count
  EXPECT_TRUE(scheduler->Stats().warming_up);
  scheduler->Pick(Refs({1}));  // the clock starts: t = 5000
  clock.millis = 5099;
  scheduler->Pick(Refs({1}));
  EXPECT_TRUE(scheduler->Stats().warming_up);
  EXPECT_EQ(scheduler->Stats().warmup_picks, 2u);
  clock.millis = 5100;
  EXPECT_FALSE(scheduler->Stats().warming_up);
  scheduler->Pick(Refs({1}));
  EXPECT_EQ(scheduler->Stats().warmup_picks, 2u);
  EXPECT_EQ(scheduler->Stats().default_picks, 1u);
}

TEST(ConflictAwareSchedulerTest, WarmupLastsUntilBothTheTransactionsAndTheTimeHavePassed) {
  ManualClock clock;
  std::unique_ptr<ConflictAwareScheduler> scheduler =
      Make("count-sum-literal",
           {.queues = 2, .history_warmup_transactions = 3, .history_warmup_time = std::chrono::milliseconds(10)},
           clock.AsClock());
  for (int i = 0; i < 5; ++i) scheduler->Pick(Refs({1}));  // time stands still: all warm-up
  EXPECT_EQ(scheduler->Stats().warmup_picks, 5u);
  clock.millis += 10;
  EXPECT_FALSE(scheduler->Stats().warming_up);
  scheduler->Pick(Refs({1}));
  EXPECT_EQ(scheduler->Stats().warmup_picks, 5u);

  // And the time alone is not enough before the 3rd pick.
  ManualClock clock2;
  std::unique_ptr<ConflictAwareScheduler> counted =
      Make("count-sum-literal",
           {.queues = 2, .history_warmup_transactions = 3, .history_warmup_time = std::chrono::milliseconds(10)},
           clock2.AsClock());
  counted->Pick(Refs({1}));
  clock2.millis += 1000;
  counted->Pick(Refs({1}));
  counted->Pick(Refs({1}));
  counted->Pick(Refs({1}));
  EXPECT_EQ(counted->Stats().warmup_picks, 3u);
}

TEST(ConflictAwareSchedulerTest, WarmupByTimeOnTheSteadyClock) {
  // The real clock: a 20 ms warm-up, picking until it reports the end.
  std::unique_ptr<ConflictAwareScheduler> scheduler =
      Make("count-sum-literal", {.queues = 2, .history_warmup_time = std::chrono::milliseconds(20)});
  const auto start = std::chrono::steady_clock::now();
  scheduler->Pick(Refs({1}));
  while (scheduler->Stats().warming_up) {
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    scheduler->Pick(Refs({1}));
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));
  const uint64_t warmup = scheduler->Stats().warmup_picks;
  EXPECT_GE(warmup, 1u);
  scheduler->Pick(Refs({1}));
  EXPECT_EQ(scheduler->Stats().warmup_picks, warmup);
}

TEST(ConflictAwareSchedulerTest, FrozenHistoryStopsLearningAfterTheWarmupContinuousGoesOn) {
  for (HistoryLearning learning : {HistoryLearning::kFrozen, HistoryLearning::kContinuous}) {
    std::unique_ptr<ConflictAwareScheduler> scheduler =
        Make("count-sum-literal", {.queues = 2, .history_warmup_transactions = 2, .history_learning = learning});
    const Footprint f = Refs({1, 2});
    scheduler->OnAbort(f, kNoQueue, {}, nullptr);  // before any pick: warming up
    const size_t q1 = scheduler->Pick(f);
    scheduler->OnCommit(f, q1);  // 1 pick so far: warming up
    scheduler->OnFinish(f, q1);
    const size_t q2 = scheduler->Pick(f);  // the last warm-up pick
    scheduler->OnAbort(f, q2, {}, nullptr);    // reported after it: the warm-up is over
    scheduler->OnCommit(f, q2);
    scheduler->OnFinish(f, q2);
    const HistoryCounts counts = scheduler->history().Lookup(1);
    if (learning == HistoryLearning::kFrozen) {
      EXPECT_EQ(counts.aborts, 1u);
      EXPECT_EQ(counts.commits, 1u);
    } else {
      EXPECT_EQ(counts.aborts, 2u);
      EXPECT_EQ(counts.commits, 2u);
    }
  }
  // Frozen without a warm-up learns nothing: every placement is a default.
  std::unique_ptr<ConflictAwareScheduler> never =
      Make("count-sum-literal", {.queues = 2, .history_learning = HistoryLearning::kFrozen});
  never->OnAbort(Refs({1}), kNoQueue, {}, nullptr);
  EXPECT_EQ(never->history().Lookup(1).aborts, 0u);
  never->Pick(Refs({1}));
  EXPECT_EQ(never->Stats().default_picks, 1u);
}

TEST(ConflictAwareSchedulerTest, CumulativeStateKeepsCountsInflightStateForgetsFinishedTransactions) {
  for (StateMode mode : {StateMode::kCumulative, StateMode::kInflight}) {
    std::unique_ptr<ConflictAwareScheduler> scheduler = Make("count-sum-literal", {.queues = 2, .state = mode});
    const Footprint a = Refs({1, 2, 3});
    const Footprint b = Refs({3, 4});
    const size_t qa = scheduler->Pick(a);
    const size_t qb = scheduler->Pick(b);
    EXPECT_EQ(qa, 0u);
    EXPECT_EQ(qb, 1u);
    EXPECT_EQ(scheduler->state().InFlight(0), 1);
    EXPECT_EQ(scheduler->state().Total(0), 3);
    EXPECT_THAT(scheduler->state().Counts(3), ElementsAre(1, 1));
    scheduler->OnCommit(a, qa);
    scheduler->OnFinish(a, qa);
    scheduler->OnFinish(b, qb);  // e.g. failed at the retry limit: no commit
    const State& state = scheduler->state();
    EXPECT_EQ(state.InFlight(0), 0);  // both modes
    EXPECT_EQ(state.InFlight(1), 0);
    if (mode == StateMode::kCumulative) {
      EXPECT_THAT(state.Counts(3), ElementsAre(1, 1));
      EXPECT_EQ(state.Total(0), 3);
      EXPECT_EQ(state.Total(1), 2);
      EXPECT_EQ(state.entries(), 4u);  // one per reference (queues 0 and 1 share an entry)
    } else {
      EXPECT_THAT(state.Counts(3), ElementsAre(0, 0));
      EXPECT_EQ(state.Total(0), 0);
      EXPECT_EQ(state.Total(1), 0);
      EXPECT_EQ(state.entries(), 0u);
      EXPECT_EQ(scheduler->Stats().state_references, 0u);
    }
    // OnFinish without a queue (a transaction Pick never placed) changes nothing.
    scheduler->OnFinish(a, kNoQueue);
    EXPECT_EQ(scheduler->state().InFlight(0), 0);
  }
}

TEST(ConflictAwareSchedulerTest, TopReferencesAreTheHeaviestWithNamesCountsAndState) {
  for (const char* name : {"count-sum-literal", "fraction-sum-literal"}) {
    std::unique_ptr<ConflictAwareScheduler> scheduler = Make(name, {.queues = 2});
    // Reference 1: 4 aborts, 9 commits (4/13). Reference 2: 2 aborts, no
    // commits (1). Reference 3: 1 abort, 9 commits (1/10).
    const Footprint f1 = Refs({3, 1});
    CountingNamer namer1(f1);
    for (int i = 0; i < 3; ++i) scheduler->OnAbort(Refs({1}), kNoQueue, {}, nullptr);
    scheduler->OnAbort(f1, kNoQueue, {}, &namer1);  // 1 is not named: it aborted before without a namer
    for (int i = 0; i < 9; ++i) scheduler->OnCommit(f1, kNoQueue);
    const Footprint f2 = Refs({2});
    CountingNamer namer2(f2);
    scheduler->OnAbort(f2, kNoQueue, {}, &namer2);  // first abort: named
    scheduler->OnAbort(f2, kNoQueue, {}, &namer2);  // not asked again
    EXPECT_EQ(namer1.calls(), 1);  // reference 3 on its first abort
    EXPECT_EQ(namer2.calls(), 1);
    scheduler->Place(f2, 1);

    std::vector<HotReference> top = scheduler->TopReferences(10);
    ASSERT_EQ(top.size(), 3u) << name;
    if (std::string_view(name) == "count-sum-literal") {
      // 1 (4 aborts), 2 (2), 3 (1).
      EXPECT_EQ(top[0].key, 1u);
      EXPECT_EQ(top[0].aborts, 4u);
      EXPECT_EQ(top[0].commits, 9u);
      EXPECT_DOUBLE_EQ(top[0].weight, 4);
      EXPECT_EQ(top[0].name, "");
      EXPECT_EQ(top[1].key, 2u);
      EXPECT_EQ(top[2].key, 3u);
    } else {
      // 2 (2/2), 1 (4/13), 3 (1/10).
      EXPECT_EQ(top[0].key, 2u);
      EXPECT_DOUBLE_EQ(top[0].weight, 1.0);
      EXPECT_EQ(top[0].name, "r2");
      EXPECT_THAT(top[0].queued, ElementsAre(0, 1));
      EXPECT_EQ(top[1].key, 1u);
      EXPECT_DOUBLE_EQ(top[1].weight, 4.0 / 13);
      EXPECT_EQ(top[2].key, 3u);
      EXPECT_EQ(top[2].name, "r3");
      EXPECT_DOUBLE_EQ(top[2].weight, 1.0 / 10);
    }
    EXPECT_EQ(scheduler->TopReferences(1).size(), 1u);
    EXPECT_THAT(scheduler->TopReferences(0), IsEmpty());
    const SchedulerStats stats = scheduler->Stats();
    EXPECT_EQ(stats.named_references, 2u);
    EXPECT_EQ(stats.history_references, 3u);
    EXPECT_GT(stats.bytes, 0u);
  }
}

TEST(ConflictAwareSchedulerTest, HistoryCapacityForgetsOnlyReferencesThatNeverAborted) {
  constexpr size_t kCapacity = 16;
  std::unique_ptr<ConflictAwareScheduler> scheduler =
      Make("count-sum-literal", {.queues = 2, .history_capacity = kCapacity});
  for (ReferenceKey hot : {1001, 1002, 1003}) scheduler->OnAbort(Refs({hot}), kNoQueue, {}, nullptr);
  scheduler->OnCommit(Refs({1001}), kNoQueue);
  for (ReferenceKey cold = 1; cold <= 100; ++cold) scheduler->OnCommit(Refs({cold}), kNoQueue);
  const SchedulerStats stats = scheduler->Stats();
  EXPECT_GT(stats.history_forgotten, 0u);
  EXPECT_LE(stats.history_references, kCapacity + 1);
  EXPECT_EQ(stats.history_references + stats.history_forgotten, 103u);
  // The aborted references survive with their counts.
  EXPECT_EQ(scheduler->history().Lookup(1001).aborts, 1u);
  EXPECT_EQ(scheduler->history().Lookup(1001).commits, 1u);
  EXPECT_EQ(scheduler->history().Lookup(1002).aborts, 1u);
  EXPECT_EQ(scheduler->history().Lookup(1003).aborts, 1u);
  // Most cold ones are gone.
  size_t remembered = 0;
  for (ReferenceKey cold = 1; cold <= 100; ++cold) remembered += scheduler->history().Lookup(cold).commits;
  EXPECT_EQ(remembered, stats.history_references - 3);
}

TEST(ConflictAwareSchedulerTest, AbortingReferencesAreKeptEvenBeyondCapacity) {
  std::unique_ptr<ConflictAwareScheduler> scheduler =
      Make("count-sum-literal", {.queues = 2, .history_capacity = 4});
  for (ReferenceKey hot = 1; hot <= 20; ++hot) scheduler->OnAbort(Refs({hot}), kNoQueue, {}, nullptr);
  for (ReferenceKey cold = 100; cold < 200; ++cold) scheduler->OnCommit(Refs({cold}), kNoQueue);
  for (ReferenceKey hot = 1; hot <= 20; ++hot) EXPECT_EQ(scheduler->history().Lookup(hot).aborts, 1u) << hot;
  EXPECT_EQ(scheduler->Stats().history_references + scheduler->Stats().history_forgotten, 120u);
}

TEST(ConflictAwareSchedulerTest, CumulativeStateCapacityForgetsReferencesWithoutAborts) {
  constexpr size_t kCapacity = 16;
  std::unique_ptr<ConflictAwareScheduler> scheduler =
      Make("count-sum-literal", {.queues = 2, .state = StateMode::kCumulative, .history_capacity = kCapacity});
  scheduler->OnAbort(Refs({1001}), kNoQueue, {}, nullptr);
  scheduler->Place(Refs({1001}), 1);
  for (ReferenceKey cold = 1; cold <= 100; ++cold) scheduler->Pick(Refs({cold}));
  EXPECT_LE(scheduler->state().entries(), kCapacity + 1);
  EXPECT_GT(scheduler->state().forgotten(), 0u);
  EXPECT_THAT(scheduler->state().Counts(1001), ElementsAre(0, 1));
  // Totals still count every reference ever placed.
  EXPECT_EQ(scheduler->state().Total(0) + scheduler->state().Total(1), 101);
}

TEST(ConflictAwareSchedulerTest, EveryPolicyNameCreatesASchedulerAnsweringToIt) {
  SchedulerRegistry registry;
  RegisterBuiltinSchedulers(&registry);
  std::vector<std::string> names = SchedulingPolicy::AllNames();
  ASSERT_EQ(names.size(), 16u);
  ASSERT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 16u);
  for (const std::string& name : SchedulingPolicy::AllNames()) {
    if (!name.ends_with("-all")) names.push_back(name + "-single");
  }
  ASSERT_EQ(names.size(), 24u);
  for (const std::string& name : names) {
    std::unique_ptr<Scheduler> scheduler;
    Status status = registry.Create(name, SchedulerOptions{.queues = 3}, &scheduler);
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(scheduler->Name(), name);
    const std::optional<SchedulingPolicy> policy = SchedulingPolicy::Parse(name);
    ASSERT_TRUE(policy.has_value()) << name;
    const FootprintSpec spec = scheduler->Needs();
    EXPECT_TRUE(spec.references) << name;
    EXPECT_EQ(spec.form, policy->form) << name;
    EXPECT_EQ(spec.granularity, policy->granularity) << name;
    EXPECT_EQ(spec.partition_domain, "") << name;
    EXPECT_EQ(spec.form == ReferenceForm::kCanonical, name.find("-canonical") != std::string::npos) << name;
    EXPECT_EQ(spec.granularity == ReferenceGranularity::kAll, name.ends_with("-all")) << name;
  }
}

TEST(SchedulingPolicyTest, NamesParseBackAndJunkDoesNot) {
  for (const SchedulingPolicy& policy : SchedulingPolicy::All()) {
    EXPECT_EQ(SchedulingPolicy::Parse(policy.Name()), policy) << policy.Name();
  }
  const SchedulingPolicy fraction_max_canonical_all{.weight = ReferenceWeight::kFraction,
                                                    .aggregation = ScoreAggregation::kMax,
                                                    .form = ReferenceForm::kCanonical,
                                                    .granularity = ReferenceGranularity::kAll};
  EXPECT_EQ(fraction_max_canonical_all.Name(), "fraction-max-canonical-all");
  EXPECT_EQ(SchedulingPolicy{}.Name(), "count-sum-literal");
  EXPECT_EQ(SchedulingPolicy::Parse("count-sum-literal-single"), SchedulingPolicy{});
  for (const char* junk : {"", "count", "count-sum", "sum-count-literal", "count-sum-literal-",
                           "count-sum-literal-many", "count-sum-literal-all-x", "Count-sum-literal", "count--literal",
                           "random"}) {
    EXPECT_FALSE(SchedulingPolicy::Parse(junk).has_value()) << junk;
  }
}

}  // namespace
}  // namespace paceline::scheduler
