// The fixture the AdaptiveScheduler tests share (adaptive_scheduler_test.cc,
// adaptive_scheduler_spread_test.cc, adaptive_scheduler_spill_test.cc): a
// scheduler on an injected clock, and the helpers that make references hot
// and run simulated workloads against it. Single-threaded.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "scheduler/adaptive_scheduler.h"

namespace paceline::scheduler {

constexpr uint64_t kTableA = TableBit(TableId(1));
constexpr uint64_t kTableB = TableBit(TableId(2));

inline Footprint Refs(std::vector<ReferenceKey> keys, uint64_t tables = kTableA) {
  Footprint f;
  f.references = std::move(keys);
  f.reference_tables.assign(f.references.size(), tables);
  return f;
}

// What PlaceOverTwoToAQueue (below) set up and the placement it asked for.
struct MoveSetup {
  size_t heavy = 0;
  size_t light = 0;
  ReferenceKey x = 0;  // the key placed
  Placement next;
};

class AdaptiveSchedulerTest : public ::testing::Test {
 protected:
  // Many of these tests are about what spilling does, so by default the
  // SpreadController starts at its level that spills (in production it
  // starts without: AHotHomeStartsWithoutSpillingToIdleQueues).
  std::unique_ptr<AdaptiveScheduler> Make(size_t queues, double exploration = 0, bool spill_at_start = true) {
    SchedulerOptions options;
    options.queues = queues;
    options.exploration = exploration;
    options.history_half_life = std::chrono::milliseconds(1000);
    return std::make_unique<AdaptiveScheduler>(options, [this] { return now_ns_; }, spill_at_start);
  }
  // `n` conflicts of a transaction carrying `f`, each blamed on `culprit`,
  // while another transaction carrying it is in flight on another queue.
  static void Conflict(AdaptiveScheduler* s, const Footprint& f, int n, AbortCulprit culprit = {kTableA}) {
    for (int i = 0; i < n; ++i) {
      const size_t a = s->Pick(f);
      const size_t b = s->Pick(f);
      s->OnAbort(f, b, culprit, nullptr);
      s->OnCommit(f, b);
      s->OnFinish(f, b);
      s->OnCommit(f, a);
      s->OnFinish(f, a);
    }
  }
  // Reference f made hot, then four placements of it on 4 queues: three at
  // its home, the fourth spilled to an idle queue (SpillsToAnIdleQueue...).
  static std::vector<Placement> ThreeAtHomeOneSpilled(AdaptiveScheduler* s, const Footprint& f) {
    Conflict(s, f, 10);
    std::vector<Placement> placed;
    for (int i = 0; i < 4; ++i) placed.push_back(s->Place(f));
    EXPECT_EQ(placed[1].queue, placed[0].queue);
    EXPECT_EQ(placed[2].queue, placed[0].queue);
    EXPECT_NE(placed[3].queue, placed[0].queue);
    return placed;
  }
  // Makes a and b hot on 8 queues and runs a simulated workload that
  // commits in proportion to the spread (up to 4) for 60 epochs.
  void SpreadToFour(AdaptiveScheduler* s, const Footprint& a, const Footprint& b) {
    Conflict(s, a, 10);
    Conflict(s, b, 10);
    ASSERT_NE(s->Home(a.references[0]), s->Home(b.references[0]));
    RunSpreadWorkload(s, a, b, 4, 60);
  }
  // The workload of SpreadToFour for `epochs` epochs, committing in
  // proportion to the spread up to `cap` queues.
  void RunSpreadWorkload(AdaptiveScheduler* s, const Footprint& a, const Footprint& b, size_t cap, int epochs) {
    constexpr int64_t kStep = AdaptiveScheduler::kSpreadEpochNs / 20;
    // A closed loop: each key's next transaction is placed before the last
    // one ends, so every attempt ends beside another carrier (what makes a
    // key hot: AdaptiveScheduler::Hot).
    std::vector<Placement> last = {s->Place(a), s->Place(b)};
    for (int step = 0; step < epochs * 20; ++step) {
      if (step % 2 == 0) {  // conflicts keep coming: the keys stay hot
        Conflict(s, a, 1);
        Conflict(s, b, 1);
      }
      for (size_t k = 0; k < 2; ++k) {
        const Footprint& f = k == 0 ? a : b;
        const Placement p = s->Place(f);
        const size_t spread = s->Homes(f.references[0]).size();
        ASSERT_TRUE(p.pinned || spread == 8) << "pinned unless the home set is every queue";
        for (size_t c = 0; c < std::min(spread, cap); ++c) s->OnCommit(f, last[k].queue);
        s->OnFinish(f, last[k].queue);
        last[k] = p;
      }
      now_ns_ += kStep;
    }
    s->OnFinish(a, last[0].queue);
    s->OnFinish(b, last[1].queue);
  }

  // Step 3's load term. Eight hot keys on four queues, two to a queue,
  // placed in rounds (the two at `light` once in `light_every` rounds); then
  // key x's home holds `x_in_flight` of x and the rest of 8 of its partner y
  // (8 > 2 × 11/4 + 2: over the load test, x under half of it) while a cold
  // transaction waits on each other queue; returns the next placement of x.
  static MoveSetup PlaceOverTwoToAQueue(AdaptiveScheduler* s, int light_every, int x_in_flight = 3) {
    MoveSetup m;
    std::vector<std::vector<ReferenceKey>> on(4);
    for (ReferenceKey k = 1; k <= 8; ++k) {
      Conflict(s, Refs({k}), 10);
      on[static_cast<size_t>(s->Home(k))].push_back(k);
    }
    for (const auto& keys : on) EXPECT_EQ(keys.size(), 2u) << "two homes to a queue";
    m.heavy = static_cast<size_t>(s->Home(1));
    m.light = (m.heavy + 1) % 4;
    for (int round = 0; round < 100; ++round) {
      for (ReferenceKey k = 1; k <= 8; ++k) {
        if (static_cast<size_t>(s->Home(k)) == m.light && round % light_every != 0) continue;
        const Footprint f = Refs({k});
        s->OnFinish(f, s->Pick(f));
      }
    }
    const ReferenceKey x = m.x = on[m.heavy][0];
    const ReferenceKey y = on[m.heavy][1];
    const Footprint fx = Refs({x});
    const Footprint fy = Refs({y});
    EXPECT_EQ(s->Pick(fy), m.heavy);
    for (ReferenceKey cold = 100; cold < 103; ++cold) EXPECT_NE(s->Pick(Refs({cold})), m.heavy);
    for (int i = 0; i < x_in_flight; ++i) EXPECT_EQ(s->Pick(fx), m.heavy);
    for (int i = x_in_flight; i < 7; ++i) EXPECT_EQ(s->Pick(fy), m.heavy);
    EXPECT_EQ(s->Stats().home_moves, 0u);
    m.next = s->Place(fx);
    return m;
  }
  int64_t now_ns_ = 1'000'000'000;
};

}  // namespace paceline::scheduler
