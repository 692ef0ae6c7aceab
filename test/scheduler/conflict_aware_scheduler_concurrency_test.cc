// ConflictAwareScheduler used from several threads at once, as the engine's
// workers use it: Pick, OnAbort (with a namer), OnCommit and OnFinish on
// overlapping footprints, while another thread reads Stats, TopReferences
// and scores. No lock serialises these calls, yet afterwards every counter
// must be exact: History holds precisely the events reported, cumulative
// State precisely the placements, and inflight State is empty again. Run
// under ThreadSanitizer (PACELINE_TSAN) to check the absence of data races.
//
// Interleavings are left to the scheduler of the OS (the calls are too short
// for scripted schedules to add anything); what is excluded is a lost
// update — two threads incrementing or decrementing the same reference's
// counters, or the same queue's totals, with one increment lost — and an
// inflight entry erased while a concurrent placement still counts on it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/split_mix64.h"
#include "scheduler/conflict_aware_scheduler.h"
#include "scheduler/scheduling_policy.h"

namespace paceline::scheduler {
namespace {

constexpr int kThreads = 4;
constexpr int kTransactionsPerThread = 3000;
constexpr size_t kQueues = 3;
constexpr ReferenceKey kHotKeys = 4;      // keys 1..4: in most transactions
constexpr ReferenceKey kSharedKeys = 64;  // keys 100..163: a few per transaction

class KeyNamer : public ReferenceNamer {
 public:
  explicit KeyNamer(const Footprint& footprint) : footprint_(footprint) {}
  std::string Name(size_t i) const override { return "k=" + std::to_string(footprint_.references[i]); }

 private:
  const Footprint& footprint_;
};

// What one thread reported.
struct Tally {
  std::map<ReferenceKey, uint64_t> aborts, commits;
  std::map<ReferenceKey, std::vector<int64_t>> placed;  // per queue
  int64_t references = 0;
  uint64_t picks = 0;
};

Footprint RandomFootprint(SplitMix64& random, int thread, int i) {
  Footprint footprint;
  const ReferenceKey hot = 1 + random.Below(kHotKeys);
  footprint.references.push_back(hot);
  if (random.Below(2) == 0) footprint.references.push_back(1 + (hot % kHotKeys));  // another hot key
  for (int j = 0; j < 3; ++j) {
    const ReferenceKey shared = 100 + random.Below(kSharedKeys);
    bool seen = false;
    for (ReferenceKey k : footprint.references) seen |= k == shared;
    if (!seen) footprint.references.push_back(shared);
  }
  footprint.references.push_back(1'000'000 + static_cast<ReferenceKey>(thread) * 100'000 + i);  // its own
  return footprint;
}

// Runs kThreads workers on `scheduler` plus a reader; returns the tallies.
std::vector<Tally> RunWorkers(ConflictAwareScheduler* scheduler, int transactions_per_thread = kTransactionsPerThread) {
  std::vector<Tally> tallies(kThreads);
  std::atomic<int> running{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      SplitMix64 random(SplitMix64::Mix(static_cast<uint64_t>(t) + 1));
      Tally& tally = tallies[t];
      for (int i = 0; i < transactions_per_thread; ++i) {
        const Footprint footprint = RandomFootprint(random, t, i);
        const size_t queue = scheduler->Pick(footprint);
        ASSERT_LT(queue, kQueues);
        ++tally.picks;
        tally.references += static_cast<int64_t>(footprint.references.size());
        for (ReferenceKey k : footprint.references) {
          std::vector<int64_t>& placed = tally.placed[k];
          placed.resize(kQueues);
          ++placed[queue];
        }
        const uint64_t attempts_aborted = random.Below(3);
        for (uint64_t a = 0; a < attempts_aborted; ++a) {
          KeyNamer namer(footprint);
          scheduler->OnAbort(footprint, queue, {}, &namer);
          for (ReferenceKey k : footprint.references) ++tally.aborts[k];
        }
        if (random.Below(4) != 0) {
          scheduler->OnCommit(footprint, queue);
          for (ReferenceKey k : footprint.references) ++tally.commits[k];
        }
        scheduler->OnFinish(footprint, queue);
      }
      running.fetch_sub(1);
    });
  }
  std::thread reader([&] {
    Footprint probe;
    probe.references = {1, 2, 100};
    std::vector<double> scores;
    for (uint64_t round = 0; running.load() > 0; ++round) {
      (void)scheduler->Stats();
      scheduler->Score(probe, &scores);
      // TopReferences locks and scans all of History: now and then only.
      if (round % 64 == 0) (void)scheduler->TopReferences(3);
      std::this_thread::yield();
    }
  });
  for (std::thread& thread : threads) thread.join();
  reader.join();
  return tallies;
}

Tally Merge(const std::vector<Tally>& tallies) {
  Tally all;
  for (const Tally& tally : tallies) {
    for (const auto& [k, n] : tally.aborts) all.aborts[k] += n;
    for (const auto& [k, n] : tally.commits) all.commits[k] += n;
    for (const auto& [k, placed] : tally.placed) {
      std::vector<int64_t>& sum = all.placed[k];
      sum.resize(kQueues);
      for (size_t q = 0; q < kQueues; ++q) sum[q] += placed[q];
    }
    all.references += tally.references;
    all.picks += tally.picks;
  }
  return all;
}

std::unique_ptr<ConflictAwareScheduler> Make(std::string_view name, StateMode state) {
  SchedulerOptions options{.queues = kQueues, .history_warmup_transactions = 500, .state = state};
  return std::make_unique<ConflictAwareScheduler>(*SchedulingPolicy::Parse(name), options, std::string(name));
}

void ExpectHistoryIsExact(const ConflictAwareScheduler& scheduler, const Tally& all) {
  for (const auto& [k, placed] : all.placed) {
    const HistoryCounts counts = scheduler.history().Lookup(k);
    EXPECT_EQ(counts.aborts, all.aborts.contains(k) ? all.aborts.at(k) : 0) << "key " << k;
    EXPECT_EQ(counts.commits, all.commits.contains(k) ? all.commits.at(k) : 0) << "key " << k;
  }
  uint64_t commits_reported = 0;
  uint64_t commits_counted = 0;
  for (const auto& [k, n] : all.commits) {
    commits_reported += n;
    commits_counted += scheduler.history().Lookup(k).commits;
  }
  EXPECT_EQ(commits_counted, commits_reported);
  EXPECT_EQ(scheduler.Stats().named_references, all.aborts.size());
  EXPECT_EQ(scheduler.history().Name(1), "k=1");
}

TEST(ConflictAwareSchedulerConcurrencyTest, InflightStateReturnsToEmptyAndHistoryIsExact) {
  for (const char* name : {"count-sum-literal", "fraction-max-canonical"}) {
    std::unique_ptr<ConflictAwareScheduler> scheduler = Make(name, StateMode::kInflight);
    const Tally all = Merge(RunWorkers(scheduler.get()));
    ExpectHistoryIsExact(*scheduler, all);
    const State& state = scheduler->state();
    EXPECT_EQ(state.entries(), 0u) << name;
    for (size_t q = 0; q < kQueues; ++q) {
      EXPECT_EQ(state.Total(q), 0) << name << " queue " << q;
      EXPECT_EQ(state.InFlight(q), 0) << name << " queue " << q;
    }
    for (ReferenceKey k = 1; k <= kHotKeys; ++k) EXPECT_THAT(state.Counts(k), ::testing::Each(0)) << k;
    const SchedulerStats stats = scheduler->Stats();
    EXPECT_EQ(stats.picks, all.picks);
    EXPECT_EQ(stats.warmup_picks, 500u);
    size_t reported = 0;  // keys of transactions that aborted or committed at least once
    for (const auto& [k, placed] : all.placed) reported += all.aborts.contains(k) || all.commits.contains(k);
    EXPECT_EQ(stats.history_references, reported);
  }
}

TEST(ConflictAwareSchedulerConcurrencyTest, CumulativeStateCountsEveryPlacement) {
  std::unique_ptr<ConflictAwareScheduler> scheduler = Make("count-max-literal", StateMode::kCumulative);
  const Tally all = Merge(RunWorkers(scheduler.get()));
  ExpectHistoryIsExact(*scheduler, all);
  const State& state = scheduler->state();
  EXPECT_EQ(state.entries(), all.placed.size());  // 3 queues: one entry per reference
  for (const auto& [k, placed] : all.placed) EXPECT_EQ(state.Counts(k), placed) << "key " << k;
  int64_t total = 0;
  for (size_t q = 0; q < kQueues; ++q) {
    total += state.Total(q);
    EXPECT_EQ(state.InFlight(q), 0);
  }
  EXPECT_EQ(total, all.references);
}

TEST(ConflictAwareSchedulerConcurrencyTest, CapacitySweepsRunConcurrentlyAndKeepAbortingReferences) {
  // A small bound: the threads' own keys (commit-only for most) overflow it
  // again and again, so sweeps of History and cumulative State run while
  // other threads place and report.
  SchedulerOptions options{.queues = kQueues, .state = StateMode::kCumulative, .history_capacity = 1024};
  auto scheduler = std::make_unique<ConflictAwareScheduler>(*SchedulingPolicy::Parse("count-sum-literal"), options,
                                                            "count-sum-literal");
  // The hot and shared keys have aborted before the run: never forgotten.
  for (ReferenceKey k = 1; k <= kHotKeys; ++k) scheduler->OnAbort(Footprint{.references = {k}}, kNoQueue, {}, nullptr);
  for (ReferenceKey k = 100; k < 100 + kSharedKeys; ++k) {
    scheduler->OnAbort(Footprint{.references = {k}}, kNoQueue, {}, nullptr);
  }
  Tally all = Merge(RunWorkers(scheduler.get(), 1000));  // each sweep scans 2^18 slots: fewer transactions
  for (ReferenceKey k = 1; k <= kHotKeys; ++k) ++all.aborts[k];
  for (ReferenceKey k = 100; k < 100 + kSharedKeys; ++k) ++all.aborts[k];
  for (const auto& [k, placed] : all.placed) {
    if (k >= 1'000'000) continue;  // a thread's own key: forgotten unless it aborted
    const HistoryCounts counts = scheduler->history().Lookup(k);
    EXPECT_EQ(counts.aborts, all.aborts[k]) << "key " << k;
    EXPECT_EQ(counts.commits, all.commits[k]) << "key " << k;
    EXPECT_EQ(scheduler->state().Counts(k), placed) << "key " << k;
  }
  const SchedulerStats stats = scheduler->Stats();
  EXPECT_GT(stats.history_forgotten, 0u);
  EXPECT_GT(scheduler->state().forgotten(), 0u);
}

}  // namespace
}  // namespace paceline::scheduler
