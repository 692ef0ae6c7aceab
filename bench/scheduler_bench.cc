// Microbenchmarks of the conflict-aware scheduler's hot path (Google
// Benchmark), on footprints the size of a TPC-C NewOrder: ~30 distinct
// references, of which 4 are warehouse-like keys from a hot set of 32 with
// a heavy abort History (the conflicts), and 26 item-like keys from 100,000,
// all in History with commits and only 1% with any aborts. 8 run queues.
// History is filled before the measured runs; no warm-up.
//
//   BM_Pick/<policy>/inflight      Pick alone (timed by hand around the
//                                  call), inflight State (the default): each
//                                  thread keeps 16 transactions in flight,
//                                  finishing the oldest (untimed) before each
//                                  Pick, so State holds ~16 footprints per
//                                  thread and most item entries are new.
//   BM_Pick/<policy>/cumulative    Pick alone, cumulative State: it grows to
//                                  every reference ever placed (100k items).
//   BM_Pick/adaptive/inflight      the same for "adaptive" (same evidence,
//                                  a frozen clock so it does not decay).
//   BM_CommitFinish/<policy>       OnCommit then OnFinish of the oldest
//                                  transaction in flight (timed by hand; the
//                                  Pick replacing it is not), inflight State.
//   BM_Transaction/<policy>        Pick, OnCommit, OnFinish: the whole
//                                  bookkeeping per transaction, inflight.
// Each with 1 and 2 threads sharing one scheduler (the machine has 2 cores),
// 5 repetitions, reporting mean, median and spread. With N threads Google
// Benchmark divides each thread's time by the iterations of all N threads:
// the latency of one call on one thread is N × Time; items_per_second is the
// total rate. BM_Pick also reports the size of History (references, bytes
// per reference) and State (entries, MB), and Stats().bytes in MB.
//
//   build-rel/bench/scheduler_bench --benchmark_filter=BM_Pick/ --benchmark_min_time=0.3
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/split_mix64.h"
#include "scheduler/adaptive_scheduler.h"
#include "scheduler/conflict_aware_scheduler.h"
#include "scheduler/scheduling_policy.h"

namespace {

using paceline::SplitMix64;
using namespace paceline::scheduler;

constexpr size_t kQueues = 8;
constexpr uint64_t kHotKeys = 32;       // 8 warehouses × 4 warehouse-like columns
constexpr uint64_t kItemKeys = 100'000;
constexpr int kHotPerTransaction = 4;
constexpr int kItemsPerTransaction = 26;
constexpr size_t kFootprints = 4096;    // a pool cycled through by every thread
constexpr int kRepetitions = 5;

// Keys as the engine makes them: well-mixed 64-bit hashes.
ReferenceKey HotKey(uint64_t i) { return SplitMix64::Mix(0x1000'0000 + i); }
ReferenceKey ItemKey(uint64_t i) { return SplitMix64::Mix(0x2000'0000 + i); }

const std::vector<Footprint>& Footprints() {
  static const std::vector<Footprint> footprints = [] {
    SplitMix64 random(7);
    std::vector<Footprint> pool(kFootprints);
    for (Footprint& footprint : pool) {
      const uint64_t warehouse = random.Below(8);
      for (int c = 0; c < kHotPerTransaction; ++c) footprint.references.push_back(HotKey(warehouse * 4 + c));
      while (footprint.references.size() < kHotPerTransaction + kItemsPerTransaction) {
        const ReferenceKey item = ItemKey(random.Below(kItemKeys));
        bool seen = false;
        for (ReferenceKey k : footprint.references) seen |= k == item;
        if (!seen) footprint.references.push_back(item);
      }
    }
    return pool;
  }();
  return footprints;
}

// The same evidence for every scheduler: each hot key with 500–1,500
// aborts and 5,000–10,000 commits, each item with 1–20 commits and, for 1%
// of them, an abort (events outside any queue).
void FillHistory(Scheduler* scheduler) {
  SplitMix64 random(11);
  Footprint one;
  one.references.resize(1);
  for (uint64_t i = 0; i < kHotKeys; ++i) {
    one.references[0] = HotKey(i);
    for (uint64_t a = 0, n = 500 + random.Below(1000); a < n; ++a) scheduler->OnAbort(one, kNoQueue, {}, nullptr);
    for (uint64_t c = 0, n = 5000 + random.Below(5000); c < n; ++c) scheduler->OnCommit(one, kNoQueue);
  }
  for (uint64_t i = 0; i < kItemKeys; ++i) {
    one.references[0] = ItemKey(i);
    for (uint64_t c = 0, n = 1 + random.Below(20); c < n; ++c) scheduler->OnCommit(one, kNoQueue);
    if (random.Below(100) == 0) scheduler->OnAbort(one, kNoQueue, {}, nullptr);
  }
}

// One scheduler per (policy, state mode), History filled, shared by the
// threads and repetitions of a benchmark. "adaptive" keeps its own
// bookkeeping (always in flight, `mode` ignored) and runs on a frozen clock
// so that its evidence does not decay while the benchmark runs.
Scheduler* SchedulerFor(const std::string& name, StateMode mode) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, StateMode>, std::unique_ptr<Scheduler>> schedulers;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Scheduler>& scheduler = schedulers[{name, mode}];
  if (scheduler == nullptr) {
    SchedulerOptions options{.queues = kQueues, .state = mode};
    if (name == AdaptiveScheduler::kName) {
      scheduler = std::make_unique<AdaptiveScheduler>(options, [] { return int64_t{1'000'000'000}; });
    } else {
      scheduler = std::make_unique<ConflictAwareScheduler>(*SchedulingPolicy::Parse(name), options, name);
    }
    FillHistory(scheduler.get());
  }
  return scheduler.get();
}

const Footprint& NextFootprint(size_t* cursor) {
  const std::vector<Footprint>& pool = Footprints();
  const Footprint& footprint = pool[*cursor % pool.size()];
  ++*cursor;
  return footprint;
}

// The calling thread's transactions in flight: each iteration places one
// and finishes the one placed kInFlight iterations earlier, so that inflight
// State holds about kInFlight footprints per thread, as with a few
// transactions queued per worker.
constexpr size_t kInFlight = 16;
struct Ring {
  const Footprint* footprint[kInFlight] = {};
  size_t queue[kInFlight] = {};
  size_t next = 0;
  // Finishes the oldest transaction (if any) and returns its slot.
  size_t Retire(Scheduler* scheduler, bool commit) {
    const size_t slot = next++ % kInFlight;
    if (footprint[slot] != nullptr) {
      if (commit) scheduler->OnCommit(*footprint[slot], queue[slot]);
      scheduler->OnFinish(*footprint[slot], queue[slot]);
    }
    return slot;
  }
  void Drain(Scheduler* scheduler) {
    for (size_t i = 0; i < kInFlight; ++i) Retire(scheduler, false);
  }
};

double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Pick alone, timed by hand around the call (the two clock reads add ~20 ns);
// the OnFinish of the transaction placed kInFlight picks earlier is not timed.
void BM_Pick(benchmark::State& state, const std::string& policy, StateMode mode) {
  Scheduler* scheduler = SchedulerFor(policy, mode);
  size_t cursor = static_cast<size_t>(state.thread_index()) * 997;
  Ring ring;
  for (auto _ : state) {
    const Footprint& footprint = NextFootprint(&cursor);
    const size_t slot = mode == StateMode::kInflight ? ring.Retire(scheduler, false) : 0;
    const auto start = std::chrono::steady_clock::now();
    const size_t queue = scheduler->Pick(footprint);
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(Seconds(end - start));
    if (mode == StateMode::kInflight) {
      ring.footprint[slot] = &footprint;
      ring.queue[slot] = queue;
    }
  }
  ring.Drain(scheduler);
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) {
    const SchedulerStats stats = scheduler->Stats();
    state.counters["history_refs"] = static_cast<double>(stats.history_references);
    state.counters["total_MB"] = static_cast<double>(stats.bytes) / 1e6;
    if (const auto* conflict_aware = dynamic_cast<const ConflictAwareScheduler*>(scheduler)) {
      const double history_bytes = static_cast<double>(conflict_aware->history().ApproximateBytes());
      state.counters["history_B/ref"] = history_bytes / static_cast<double>(stats.history_references);
      state.counters["state_entries"] = static_cast<double>(stats.state_references);
      state.counters["state_MB"] = static_cast<double>(conflict_aware->state().ApproximateBytes()) / 1e6;
    }
  }
}

// OnCommit then OnFinish of a transaction placed kInFlight picks earlier,
// timed by hand; the Pick that replaces it is not timed.
void BM_CommitFinish(benchmark::State& state, const std::string& policy) {
  Scheduler* scheduler = SchedulerFor(policy, StateMode::kInflight);
  size_t cursor = static_cast<size_t>(state.thread_index()) * 997;
  Ring ring;
  for (size_t i = 0; i < kInFlight; ++i) {  // fill the ring
    const Footprint& footprint = NextFootprint(&cursor);
    ring.footprint[i] = &footprint;
    ring.queue[i] = scheduler->Pick(footprint);
  }
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const size_t slot = ring.Retire(scheduler, true);
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(Seconds(end - start));
    const Footprint& footprint = NextFootprint(&cursor);
    ring.footprint[slot] = &footprint;
    ring.queue[slot] = scheduler->Pick(footprint);
  }
  ring.Drain(scheduler);
  state.SetItemsProcessed(state.iterations());
}

// The whole bookkeeping of a transaction: Pick, OnCommit, OnFinish.
void BM_Transaction(benchmark::State& state, const std::string& policy) {
  Scheduler* scheduler = SchedulerFor(policy, StateMode::kInflight);
  size_t cursor = static_cast<size_t>(state.thread_index()) * 997;
  Ring ring;
  for (auto _ : state) {
    const Footprint& footprint = NextFootprint(&cursor);
    const size_t slot = ring.Retire(scheduler, true);
    ring.footprint[slot] = &footprint;
    ring.queue[slot] = scheduler->Pick(footprint);
  }
  ring.Drain(scheduler);
  state.SetItemsProcessed(state.iterations());
}

void Configure(benchmark::internal::Benchmark* benchmark, bool manual_time) {
  benchmark->Threads(1)->Threads(2)->Repetitions(kRepetitions)->ReportAggregatesOnly(true);
  if (manual_time) {
    benchmark->UseManualTime();
  } else {
    benchmark->UseRealTime();
  }
}

void Register() {
  for (const char* policy : {"count-sum-canonical", "count-max-canonical", "fraction-sum-canonical"}) {
    const std::string name(policy);
    Configure(benchmark::RegisterBenchmark(("BM_Pick/" + name + "/inflight").c_str(), BM_Pick, name,
                                           StateMode::kInflight),
              true);
    Configure(benchmark::RegisterBenchmark(("BM_Pick/" + name + "/cumulative").c_str(), BM_Pick, name,
                                           StateMode::kCumulative),
              true);
  }
  Configure(benchmark::RegisterBenchmark("BM_Pick/adaptive/inflight", BM_Pick, std::string(AdaptiveScheduler::kName),
                                         StateMode::kInflight),
            true);
  const std::string name = "count-sum-canonical";
  Configure(benchmark::RegisterBenchmark(("BM_CommitFinish/" + name).c_str(), BM_CommitFinish, name), true);
  Configure(benchmark::RegisterBenchmark(("BM_Transaction/" + name).c_str(), BM_Transaction, name), false);
}

}  // namespace

int main(int argc, char** argv) {
  Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
