// AdaptiveScheduler, evidence and homes: no evidence → shortest queue;
// blame follows the culprit table; eight equally hot keys land on eight
// different queues; a home is sticky, and an overloaded one moves only
// where that evens the load or nothing of it is in flight there; evidence
// decays (injected clock), and a reference gone cold gives its home up; the
// exploration share stays within bounds; a long home is kept while its work
// is in flight; concurrent callers lose no update. Home sets wider than one
// queue: adaptive_scheduler_spread_test.cc; spills, away work, retries and
// stealing: adaptive_scheduler_spill_test.cc.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "common/split_mix64.h"
#include "scheduler/adaptive_scheduler.h"
#include "test/scheduler/adaptive_scheduler_fixture.h"

namespace paceline::scheduler {
namespace {

TEST_F(AdaptiveSchedulerTest, NoEvidenceGoesToTheShortestQueue) {
  auto s = Make(4);
  std::set<size_t> used;
  for (int i = 0; i < 4; ++i) used.insert(s->Pick(Refs({100 + static_cast<ReferenceKey>(i)})));
  EXPECT_EQ(used.size(), 4u) << "four unfinished transactions without evidence fill four queues";
  const size_t q = s->Pick(Footprint{});
  s->OnFinish(Footprint{}, q);
  EXPECT_EQ(s->Stats().default_picks, 5u);
}

// A transaction without a hot reference may run where it arrived; one with
// a hot reference is placed (at its home), also when its other references
// are cold; a conflict of a here-run (events with kNoQueue) makes its
// reference hot, so the next one is placed; with run_here off nothing runs
// here. Excluded: a hot key's transactions escaping their home by running
// on their connections' threads.
TEST_F(AdaptiveSchedulerTest, OnlyTransactionsWithoutEvidenceMayRunHere) {
  auto s = Make(4);
  EXPECT_TRUE(s->MayRunHere(Refs({1, 2})));
  EXPECT_TRUE(s->MayRunHere(Footprint{}));
  Conflict(s.get(), Refs({7}), 4);
  EXPECT_FALSE(s->MayRunHere(Refs({7})));
  EXPECT_FALSE(s->MayRunHere(Refs({1, 7})));
  EXPECT_TRUE(s->MayRunHere(Refs({1, 2})));
  EXPECT_EQ(s->Stats().ran_here, 3u);
  const uint64_t picks = s->Stats().picks;
  EXPECT_EQ(picks, 8u) << "MayRunHere places nothing (only Conflict's picks)";

  // A here-run of 9 that conflicts, reported as an interactive block's is:
  // one blamed abort of a transaction with company is evidence.
  ASSERT_TRUE(s->MayRunHere(Refs({9})));
  s->OnAbort(Refs({9}), kNoQueue, AbortCulprit{kTableA}, nullptr);
  s->OnCommit(Refs({9}), kNoQueue);
  s->OnFinish(Refs({9}), kNoQueue);
  EXPECT_FALSE(s->MayRunHere(Refs({9}))) << "its conflict made 9 hot: placed from now on";
  EXPECT_TRUE(s->MayRunHere(Refs({10})));

  SchedulerOptions options;
  options.queues = 4;
  options.run_here = false;
  AdaptiveScheduler off(options);
  EXPECT_FALSE(off.MayRunHere(Refs({1, 2})));
  EXPECT_EQ(off.Stats().ran_here, 0u);
}

TEST_F(AdaptiveSchedulerTest, AbortBlamesOnlyTheCulpritTablesReferences) {
  auto s = Make(4);
  Footprint f;
  f.references = {1, 2};
  f.reference_tables = {kTableA, kTableB};
  Conflict(s.get(), f, 5, AbortCulprit{kTableB});
  EXPECT_EQ(s->Rate(1), 0.0) << "reference 1 located rows of table A only";
  EXPECT_GT(s->Rate(2), 0.0);
  // An unknown culprit blames every reference.
  Conflict(s.get(), f, 5, AbortCulprit{});
  EXPECT_GT(s->Rate(1), 0.0);
}

TEST_F(AdaptiveSchedulerTest, EightHotKeysLandOnEightQueues) {
  auto s = Make(8);
  for (ReferenceKey k = 1; k <= 8; ++k) Conflict(s.get(), Refs({k}), 10);
  std::set<size_t> homes;
  for (ReferenceKey k = 1; k <= 8; ++k) {
    const size_t q = s->Pick(Refs({k}));
    EXPECT_EQ(static_cast<int>(q), s->Home(k));
    homes.insert(q);
    s->OnCommit(Refs({k}), q);
    s->OnFinish(Refs({k}), q);
  }
  EXPECT_EQ(homes.size(), 8u) << "never two hot keys on one queue while another idles";
}

// EvidenceFor (EXPLAIN's view) reports, per reference of a footprint, what
// placement decides by: a conflicting key's blamed aborts, hot and its
// home; nothing for a key never blamed. Excluded: a report that disagrees
// with where Pick sends the key's transactions.
TEST_F(AdaptiveSchedulerTest, EvidenceForReportsWhatPlacementDecidesBy) {
  auto s = Make(4);
  Conflict(s.get(), Refs({7}), 10);
  const std::vector<ReferenceEvidence> e = s->EvidenceFor(Refs({7, 99}));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_TRUE(e[0].known);
  EXPECT_TRUE(e[0].hot);
  EXPECT_GE(e[0].blamed_aborts, 9.0);
  EXPECT_GT(e[0].exposures, 0.0);
  const size_t q = s->Pick(Refs({7}));
  s->OnFinish(Refs({7}), q);
  ASSERT_EQ(s->EvidenceFor(Refs({7}))[0].homes, std::vector<int>{static_cast<int>(q)});
  EXPECT_FALSE(e[1].known);
  EXPECT_FALSE(e[1].hot);
  EXPECT_EQ(e[1].blamed_aborts, 0.0);
}

TEST_F(AdaptiveSchedulerTest, AKeyThatRarelyHasCompanyIsNotHot) {
  // Key 7 conflicts whenever two of its transactions overlap (10 of 10
  // exposures abort), but then 400 of its transactions run one at a time.
  // Per exposure it is as hot as ever; per attempt it conflicts under 5%
  // of the time, so a home would buy little and cost its transactions the
  // idle workers: it is not hot, and it gives its home up. (pgbench's
  // tellers: 0.06-0.08 aborts per exposure, another transaction of the
  // same teller in flight about half the time; homed, 0.94x random.)
  auto s = Make(4);
  const Footprint f = Refs({7});
  Conflict(s.get(), f, 10);
  ASSERT_NE(s->Home(7), -1);
  for (int i = 0; i < 400; ++i) {
    const Placement p = s->Place(f);
    s->OnCommit(f, p.queue);
    s->OnFinish(f, p.queue);
  }
  const Placement p = s->Place(f);
  EXPECT_FALSE(p.pinned);
  EXPECT_EQ(s->Home(7), -1);
  s->OnFinish(f, p.queue);
}

TEST_F(AdaptiveSchedulerTest, HotKeyIsStickyAndTheHottestReferenceWins) {
  auto s = Make(4);
  Conflict(s.get(), Refs({7}), 10);
  Conflict(s.get(), Refs({8}), 2);
  const size_t home7 = s->Pick(Refs({7}));
  s->OnFinish(Refs({7}), home7);
  // Transactions carrying 7 and 8 follow 7, the one with more blamed
  // aborts, even while 7's home holds unfinished work.
  std::vector<size_t> picked;
  for (int i = 0; i < 3; ++i) picked.push_back(s->Pick(Refs({7, 8})));
  for (size_t q : picked) EXPECT_EQ(q, home7);
  for (size_t q : picked) s->OnFinish(Refs({7, 8}), q);
}

TEST_F(AdaptiveSchedulerTest, EvidenceDecays) {
  auto s = Make(4);
  Conflict(s.get(), Refs({7}), 4);
  const size_t home = s->Pick(Refs({7}));
  const size_t again = s->Pick(Refs({7}));  // home holds one unfinished: still home
  EXPECT_EQ(again, home);
  s->OnFinish(Refs({7}), again);
  // Ten half-lives later the evidence is ~1/1000 of what it was: 7 is not
  // hot any more and goes to a shortest queue, not to its busy home.
  now_ns_ += 10'000'000'000;
  const size_t later = s->Pick(Refs({7}));
  EXPECT_NE(later, home);
  s->OnFinish(Refs({7}), later);
  s->OnFinish(Refs({7}), home);
}

TEST_F(AdaptiveSchedulerTest, ExplorationShareWithinBoundsAndOnlyOnThinEvidence) {
  auto s = Make(8, /*exploration=*/0.1);
  // Away-from-home picks of 20,000 transactions carrying `key`.
  auto away_share = [&](ReferenceKey key) {
    const size_t first = s->Pick(Refs({key}));  // assigns the home (or explores)
    s->OnFinish(Refs({key}), first);
    const size_t home = static_cast<size_t>(s->Home(key));
    int away = 0;
    constexpr int kPicks = 20000;
    for (int i = 0; i < kPicks; ++i) {
      const size_t q = s->Pick(Refs({key}));
      if (q != home) ++away;
      s->OnFinish(Refs({key}), q);
    }
    return static_cast<double>(away) / kPicks;
  };
  // Hot on thin evidence (2 blamed aborts < kThinEvidence): explored
  // picks land on a random queue, away from home 7 times in 8.
  Conflict(s.get(), Refs({7}), 2);
  const double thin = away_share(7);
  EXPECT_GT(thin, 0.1 * 7 / 8 * 0.7);
  EXPECT_LT(thin, 0.1 * 7 / 8 * 1.3);
  // Ample evidence: no exploration.
  Conflict(s.get(), Refs({8}), 20);
  EXPECT_EQ(away_share(8), 0.0);
}

TEST_F(AdaptiveSchedulerTest, LongHomeIsKeptWhileItsWorkIsInFlight) {
  auto s = Make(4);
  Conflict(s.get(), Refs({7}), 10);
  // Eight unfinished transactions of 7 (the home's backlog far over twice
  // the mean + 2). Moving the home now would run the next ones beside
  // them: the home stays (what does not wait there spills, one by one).
  const size_t home = s->Pick(Refs({7}));
  for (int i = 0; i < 7; ++i) (void)s->Pick(Refs({7}));
  EXPECT_EQ(s->Home(7), static_cast<int>(home));
  EXPECT_EQ(s->Stats().home_moves, 0u);
  EXPECT_EQ(s->Backlog(home) + static_cast<int64_t>(s->Stats().spilled), 8);
}

// Interleaving excluded: a home moved at a backlog peak from a queue of two
// equal homes to one that then holds three (TPC-C 16 warehouses on 8
// queues moved ~190 times in 5 s, 2PL's abort rate 0.19).
TEST_F(AdaptiveSchedulerTest, EqualHomesTwoToAQueueStayWhenABacklogPeaks) {
  auto s = Make(4);
  const MoveSetup m = PlaceOverTwoToAQueue(s.get(), 1);
  EXPECT_EQ(m.next.queue, m.heavy) << "moving would leave three homes' traffic against one";
  EXPECT_TRUE(m.next.pinned);
  EXPECT_EQ(s->Stats().home_moves, 0u);
  EXPECT_EQ(s->Stats().spilled, 0u);
}

// The same peak with nothing of x in flight at its home: moving it would
// cost no conflicts now, but every other queue holds two homes too, and
// the move would leave one home alone on a queue and three on another
// (TPC-C 16 warehouses, 2PL: 30% of the queues empty after 6 such moves,
// abort rate 0.13). It stays.
TEST_F(AdaptiveSchedulerTest, AHomeWithNothingInFlightStaysWhereEveryQueueHasAsManyHomes) {
  auto s = Make(4);
  const MoveSetup m = PlaceOverTwoToAQueue(s.get(), 1, /*x_in_flight=*/0);
  EXPECT_EQ(m.next.queue, m.heavy);
  EXPECT_EQ(s->Home(m.x), static_cast<int>(m.heavy));
  EXPECT_EQ(s->Stats().home_moves, 0u);
}

// Seven homes on four queues (one queue holds one), and a backlog peak on
// a queue of two with nothing of x in flight there: x's home moves to the
// queue with one, at no cost in conflicts.
TEST_F(AdaptiveSchedulerTest, AHomeWithNothingInFlightMovesOffABacklogPeakToAQueueWithFewerHomes) {
  auto s = Make(4, /*exploration=*/0, /*spill_at_start=*/false);  // the peak stays at home
  std::vector<std::vector<ReferenceKey>> on(4);
  for (ReferenceKey k = 1; k <= 7; ++k) {
    Conflict(s.get(), Refs({k}), 10);
    on[static_cast<size_t>(s->Home(k))].push_back(k);
  }
  size_t single = 0, heavy = 0;
  for (size_t q = 0; q < 4; ++q) (on[q].size() == 1 ? single : heavy) = q;
  ASSERT_EQ(on[single].size(), 1u);
  ASSERT_EQ(on[heavy].size(), 2u);
  const ReferenceKey x = on[heavy][0];
  const Footprint fy = Refs({on[heavy][1]});
  for (int i = 0; i < 7; ++i) EXPECT_EQ(s->Pick(fy), heavy);  // the peak: 7 > 2 × 7/4 + 2
  const Placement next = s->Place(Refs({x}));
  EXPECT_EQ(next.queue, single);
  EXPECT_EQ(s->Home(x), static_cast<int>(single));
  EXPECT_EQ(s->Stats().home_moves, 1u);
}

// Interleaving excluded: a queue without a home while another holds two
// and most of the clients (TPC-C 8 warehouses, OCC: 52 of 64 clients on
// one queue of two homes, no home on another, for a whole run). Five hot
// keys on four queues (two share one); a key alone on its queue goes cold
// and gives its home up; at the next backlog peak of the queue of two, with
// transactions of x in flight there, x's home moves to the queue with
// none, although that queue's recent arrivals (the cold key's, while it
// was hot) and x's traffic pass the queue of two's (the arrivals test
// alone would keep it there).
TEST_F(AdaptiveSchedulerTest, AHomeMovesFromAQueueOfTwoToOneWithoutAHome) {
  auto s = Make(4, /*exploration=*/0, /*spill_at_start=*/false);
  for (ReferenceKey k = 1; k <= 5; ++k) Conflict(s.get(), Refs({k}), 10);
  const size_t heavy = static_cast<size_t>(s->Home(5));
  ReferenceKey partner = 0, alone = 0;
  for (ReferenceKey k = 1; k <= 4; ++k) (static_cast<size_t>(s->Home(k)) == heavy ? partner : alone) = k;
  ASSERT_NE(partner, 0u);
  const size_t empty = static_cast<size_t>(s->Home(alone));
  // Two half-lives; then every key but `alone` gets fresh evidence, and
  // two more: `alone` is cold (10 / 16 blamed aborts < 1), the others not.
  now_ns_ += 2'000'000'000;
  for (ReferenceKey k = 1; k <= 5; ++k) {
    if (k != alone) Conflict(s.get(), Refs({k}), 10);
  }
  const Footprint fa = Refs({alone});
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(s->Place(fa).queue, empty) << "still hot";
    s->OnFinish(fa, empty);
  }
  now_ns_ += 2'000'000'000;
  ASSERT_EQ(s->Home(5), static_cast<int>(heavy));
  s->OnFinish(fa, s->Pick(fa));
  EXPECT_EQ(s->Home(alone), -1) << "cold: its home given up";
  const Footprint fx = Refs({5});
  const Footprint fp = Refs({partner});
  std::vector<size_t> placed;
  for (int i = 0; i < 2; ++i) placed.push_back(s->Pick(fx));
  for (int i = 0; i < 7; ++i) placed.push_back(s->Pick(fp));
  for (size_t q : placed) ASSERT_EQ(q, heavy);
  const Placement next = s->Place(fx);  // backlog 9 > 2 × 9/4 + 2, x's 2 under half of it
  EXPECT_EQ(next.queue, empty);
  EXPECT_EQ(s->Home(5), static_cast<int>(empty));
  EXPECT_EQ(s->Stats().home_moves, 1u);
}

// The same peak where the homes of another queue bring a quarter of the
// traffic: x's home moves there (its arrivals plus x's stay under the
// heavy queue's), and x's next transactions follow it.
TEST_F(AdaptiveSchedulerTest, AnOverloadedHomeMovesToAQueueWhoseHomesBringLess) {
  auto s = Make(4);
  const MoveSetup m = PlaceOverTwoToAQueue(s.get(), 4);
  EXPECT_EQ(m.next.queue, m.light);
  EXPECT_EQ(s->Home(m.x), static_cast<int>(m.light));
  EXPECT_EQ(s->Stats().home_moves, 1u);
  const Placement after = s->Place(Refs({m.x}));
  EXPECT_EQ(after.queue, m.light);
  EXPECT_TRUE(after.pinned);
}

// Four threads call Pick, OnAbort (culprit table A, B or unknown), OnCommit
// and OnFinish on overlapping footprints (hot keys 1–8 shared by all, cold
// keys of their own), as the engine's workers do, while a fifth reads
// Stats and TopReferences. Interleavings are left to the OS; what is
// excluded is a lost update of a queue's backlog or a reference's in-flight
// count (each pick's increment must meet its finish's decrement: every
// backlog is exactly 0 afterwards) and a data race (run under
// ThreadSanitizer, PACELINE_TSAN).
TEST_F(AdaptiveSchedulerTest, EntriesStayWithinTheCapacityEvenWhenAllHaveEvidence) {
  // 1,000 references each blamed once (too much evidence to be forgotten
  // as cold): the sweep drops the idle ones with the least evidence, so
  // the table stays within its capacity and the hottest stays.
  SchedulerOptions options;
  options.queues = 4;
  options.history_capacity = 64;
  options.history_half_life = std::chrono::milliseconds(1000);
  AdaptiveScheduler s(options, [this] { return now_ns_; });
  Conflict(&s, Refs({7}), 20);
  for (ReferenceKey k = 1000; k < 2000; ++k) {
    Conflict(&s, Refs({k}), 1);
    ASSERT_LE(s.Stats().history_references, options.history_capacity) << "after key " << k;
  }
  EXPECT_GT(s.Stats().history_forgotten, 900u);
  EXPECT_GT(s.Rate(7), 0.0) << "the reference with the most evidence is kept";
}

TEST_F(AdaptiveSchedulerTest, ConcurrentCallersLoseNoUpdate) {
  SchedulerOptions options;
  options.queues = 8;
  options.history_capacity = 64;  // sweeps run beside the other calls too
  AdaptiveScheduler s(options);
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done.load()) {
      (void)s.Stats();
      (void)s.TopReferences(5);
    }
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&s, t] {
      SplitMix64 random(static_cast<uint64_t>(t) + 1);
      for (int i = 0; i < 20000; ++i) {
        Footprint f;
        f.references = {1 + random.Below(8), 1000 + static_cast<ReferenceKey>(t) * 100000 + random.Below(5000)};
        f.reference_tables = {kTableA | kTableB, kTableB};
        const size_t q = s.Pick(f);
        const uint64_t r = random.Below(4);
        if (r == 0) s.OnAbort(f, q, AbortCulprit{kTableA}, nullptr);
        if (r == 1) s.OnAbort(f, q, AbortCulprit{}, nullptr);
        s.OnCommit(f, q);
        s.OnFinish(f, q);
      }
    });
  }
  for (std::thread& w : workers) w.join();
  done = true;
  reader.join();
  for (size_t q = 0; q < 8; ++q) EXPECT_EQ(s.Backlog(q), 0) << "queue " << q;
  EXPECT_EQ(s.Stats().picks, 80000u);
  EXPECT_GT(s.Rate(1), 0.0);
}

}  // namespace
}  // namespace paceline::scheduler
