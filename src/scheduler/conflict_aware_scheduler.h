// ConflictAwareScheduler ("{count|fraction}-{sum|max}-{literal|canonical}
// [-{single|all}]"): the paper's intelligent scheduling (Section V). It puts
// a transaction on the run queue that already holds the transactions it is
// most likely to conflict with, so that they run one after the other on one
// worker instead of at the same time on several.
//
// Bookkeeping: History (reference → aborts, commits) learns from OnAbort and
// OnCommit; State (reference → transactions placed per queue, totals, and
// transactions in flight per queue) follows Pick and OnFinish. See
// history.h and state.h.
//
// Scoring a transaction with references r1..rn (SchedulingPolicy):
//   weight(r)  count:    aborts(r)
//              fraction: aborts(r) / (aborts(r) + commits(r)); 0 without aborts
//   sum:  score(q) = Σ_r weight(r) · State[r][q]   (only r with weight > 0
//         are read from State)
//   max:  only r_max, the reference of greatest weight (ties: more aborts,
//         then the first in footprint order):
//         score(q) = weight(r_max) · State[r_max][q]
// The highest score wins. With no evidence — no reference of weight > 0, or
// every score 0 — the default is the queue with the smallest State total,
// ties going to the fewest transactions in flight (picked, not finished),
// then to the lowest index. Ties among the highest scores are broken the
// same way among the tied queues. Scores are compared exactly: equal counts
// give bit-identical sums.
//
// Whatever decided it, the chosen queue's State counts are incremented for
// every reference of the transaction (also during the warm-up, so that
// inflight decrements at OnFinish match).
//
// Cost of a Pick with n references: n bit tests in History's filter of
// references that may have aborted, a History lookup for each of those, a
// State read (one per 8 queues) for each reference of weight > 0 (sum) or
// for r_max alone (max), and n State increments — these dominate.
//
// Warm-up: for the first options.history_warmup_transactions picks, and
// while less than options.history_warmup_time has passed since the first
// pick (if non-zero), Pick draws a queue uniformly at random (as
// RandomScheduler, a per-thread SplitMix64 stream from options.seed) and
// History learns; then the policy decides. HistoryLearning::kContinuous:
// History counts every event. kFrozen: History counts an event only if the
// warm-up is still on when it is reported (so kFrozen without any warm-up
// learns nothing and always places by default).
//
// Events: OnAbort / OnCommit update History only (the queue is not needed,
// and kNoQueue is accepted). OnFinish lowers the queue's in-flight count
// and, in StateMode::kInflight, undoes the transaction's State counts;
// OnFinish with kNoQueue does nothing.
//
// Thread-safety: every method may be called concurrently. No global lock is
// taken on Pick / OnAbort / OnCommit / OnFinish: History and State are
// libcuckoo maps with per-bucket locks, the rest atomics, so a decision may
// read slightly stale counts (the paper's trade-off of accuracy for speed).
// Only the rare capacity sweeps and TopReferences lock a whole table. Pick
// allocates nothing once a thread's scratch buffer has grown to the number
// of queues, except when libcuckoo doubles a table. Ownership: the engine owns the scheduler; footprints and namers
// are borrowed for the call.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/history.h"
#include "scheduler/random_scheduler.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_policy.h"
#include "scheduler/state.h"

namespace paceline::scheduler {

class ConflictAwareScheduler final : public Scheduler {
 public:
  // The time source of the warm-up (tests inject one).
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // Requires options.queues >= 1. Name() returns `name`, the name the
  // scheduler was selected by (policy.Name(), or an alias such as
  // "count-max-canonical-single"). `clock` null: std::chrono::steady_clock.
  ConflictAwareScheduler(const SchedulingPolicy& policy, const SchedulerOptions& options, std::string name,
                         Clock clock = nullptr);

  std::string_view Name() const override { return name_; }
  // References, in the policy's form and granularity.
  FootprintSpec Needs() const override;
  size_t Pick(const Footprint& footprint) override;
  void OnAbort(const Footprint& footprint, size_t queue, const AbortCulprit& culprit,
               const ReferenceNamer* namer) override;
  void OnCommit(const Footprint& footprint, size_t queue) override;
  void OnFinish(const Footprint& footprint, size_t queue) override;
  // The k references of greatest weight under the policy (ties: more
  // aborts, then smaller key), heaviest first; references that never
  // aborted weigh nothing and are not listed. Locks History's table while
  // copying it.
  std::vector<HotReference> TopReferences(size_t k) const override;
  SchedulerStats Stats() const override;

  // --- Beyond the Scheduler interface (tests, tools, introspection) ---

  // The score of every queue for `footprint`, as Pick computes it outside
  // the warm-up (resized to the number of queues). Returns whether any
  // reference has weight > 0. Changes nothing.
  bool Score(const Footprint& footprint, std::vector<double>* scores) const;
  // Records that a transaction with `footprint` was queued on `queue`
  // (< queues) by the caller instead of by Pick: State and the in-flight
  // count change as if Pick had chosen `queue`, nothing else does (it is
  // not a pick, not a warm-up step). Its events then report `queue`.
  void Place(const Footprint& footprint, size_t queue);
  // The weight of a reference with `counts` under the policy.
  double Weight(const HistoryCounts& counts) const;

  const SchedulingPolicy& policy() const { return policy_; }
  const History& history() const { return history_; }
  const State& state() const { return state_; }

 private:
  // Fills scores[0, queues) and returns whether there is evidence.
  bool ScoreInto(const Footprint& footprint, double* scores) const;
  // The winning queue for `scores` (see the summary); *by_default tells
  // whether the default rule decided.
  size_t Choose(const double* scores, bool evidence, bool* by_default) const;
  // Whether the warm-up is still on after `picks` picks. Does not latch.
  bool WarmingUp(uint64_t picks) const;
  // Whether History counts an event reported now.
  bool Learning() const;
  int64_t NowNanos() const;
  void MaybeForgetState();

  static constexpr int64_t kNotStarted = INT64_MIN;

  const SchedulingPolicy policy_;
  const std::string name_;
  const ReferenceSources sources_;
  const ReferenceMultiplicity multiplicity_;
  const size_t queues_;
  const HistoryLearning learning_;
  const uint64_t warmup_transactions_;
  const int64_t warmup_nanos_;
  const Clock clock_;

  History history_;
  State state_;
  RandomScheduler warmup_;  // the random placement during the warm-up

  // False once the warm-up is known to be over (a latch: never true again).
  std::atomic<bool> warm_;
  std::atomic<int64_t> first_pick_nanos_{kNotStarted};
  alignas(64) std::atomic<uint64_t> picks_{0};
  alignas(64) std::atomic<uint64_t> default_picks_{0};
  std::atomic<uint64_t> warmup_picks_{0};
};

}  // namespace paceline::scheduler
