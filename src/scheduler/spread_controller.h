// SpreadController: how far the transactions of one hot reference spread
// beyond its home queue — not at all, onto idle queues (spills), or over a
// home set of 2, 4, ... queues — chosen by measured commit throughput, not
// by aborts.
//
// Why: a hot reference on one queue runs its transactions one at a time.
// That wins when they conflict often and other hot references keep the
// other queues busy (TPC-C, warehouses ≥ workers: 1.3× random), and loses
// when there are fewer hot references than workers: two warehouses on
// eight workers leave six idle while their two queues hold every client,
// and random placement, aborting three attempts per commit, still commits
// 1.5× more (measured). Spilling to an idle queue is the same trade made
// one transaction at a time, and with more workers than cores an empty
// queue is no spare capacity at all: at TPC-C 8 warehouses CPU-bound,
// spills took the abort rate from 0.0003 to 0.07 and lost 15% to
// partition (measured). Aborts cannot tell which side of that trade a
// workload is on; throughput can.
//
// The algorithm (hill climbing on throughput, as adaptive load control
// does for the multiprogramming level):
//  - The levels, from narrow to wide: one home queue without spills (the
//    start), one home queue with spills, then home sets of 2, 4, ... up to
//    `queues` queues (with spills). Spilling is a switch at one queue, not
//    a step between one and two: both one-queue levels have 2 queues as
//    their wider neighbour, and 2 queues has the one-queue level last
//    adopted as its narrower one, while at one queue "narrower" switches
//    spills. (As a line, one queue without spills was a trap: where spills
//    change nothing, the climb to wider sets had to cross a plateau it
//    could not see past — TPC-C 2 warehouses stayed at 0.65× random, all
//    three repeats, measured.) Spills are the wider side of the switch:
//    where they change nothing they only add conflicts (TPC-C 8
//    warehouses, 64 clients, OCC: abort rate 0.047 with them, 0.016
//    without, at the same throughput — measured), so the start is without.
//  - Time runs in epochs of `epoch_ns`. The first fifth of an epoch
//    settles (queues still hold work placed under the previous spread);
//    commits in the rest measure it.
//  - Dwell at the current level for `dwell` epochs, then *probe* a
//    neighbouring level (up and down by turns) for one epoch, then go back
//    for one epoch. A wider probe, or one that switches spills on, is
//    adopted only if its throughput beats both the epoch before and the
//    epoch after it by kMargin; spills, in two probes in a row: one
//    epoch's throughput varies by ±15% (measured, TPC-C 8 warehouses), and
//    where spills change nothing a single win switched them on by chance.
//    (Wider home sets are probed only where workers idle, below, and
//    there the first step can be a small gain on the way to a large one:
//    TPC-C 2 warehouses under 2PL, 2 queues +5–15%, 4 queues +40%; asked
//    to win twice, the climb stopped at one queue in 3 runs of 3.) So an
//    upward probe goes straight to the home set that would occupy the
//    idle workers: the current size ÷ the busy share of the queues (1 −
//    the idle share below), to the level within kMargin of it or above —
//    at 2 warehouses, one queue with 66% of the queues empty, to four
//    queues at once. (Step by step, each step audited, 2 warehouses under
//    2PL stayed at one queue in 3 runs of 3, at 0.7× the runs that
//    reached four — measured.) A narrower home set, or spills switched
//    off, is adopted if it commits at least as much as both, once (ties
//    go to the narrower: as many commits for fewer conflicts). Adopted
//    and kept by its audit (below): probe on in the same direction at
//    once. Refused: that direction's dwell doubles, up to kMaxDwell
//    epochs, so a settled workload spends ~1 epoch in 33 probing (each
//    probe of a worse spread costs a fraction of an epoch's commits: at
//    TPC-C 8 warehouses, probing spread 2 every other epoch cost 5% and
//    took 2PL's abort rate from 0.01 to 0.5 — measured). A workload that
//    changes is probed again within kMaxDwell epochs.
//  - A wider spread only adds capacity where workers idle while homes hold
//    work; with every queue busy it adds only conflicts. What it can add
//    is at most the idle share of the workers: so an upward probe needs
//    the queues to have been empty on average (over the placements, as a
//    moving average over the last ~kIdleEpochs epochs at the current
//    level, from zero) for at least kMinIdleShare = 3 × kMargin of them.
//    (Whether any queue was empty would not do: in a closed loop of 64
//    clients over 8 homes, some queue is empty at 20–80% of placements.
//    Nor would the last epoch alone: at TPC-C 8 warehouses, 64 clients,
//    one queue each, 9–10% of the queues are empty on average and 3–22%
//    epoch by epoch; a home set of two did not lower it (13%), and each
//    probe of it cost 2PL a 400 ms abort storm at 0.3–0.4 — measured.
//    Measured averages where wider sets win: 66% at 2 warehouses, ~48% at
//    4, 71% with 2 hot warehouses of 8, 22–30% at 8 with 16 clients; 2–5%
//    at 16.)
//    Spills hide idle workers: they run on the queues that would be empty.
//    So spills of at least kMinSpillShare of the placements (the same
//    moving average) count as idle capacity too: the homes cannot keep up, and a
//    wider set would run that work at home instead of speculatively. (At
//    TPC-C 2 warehouses, one queue with spills: 46% spilled while 5% of
//    the queues were empty, and the climb to the wider sets that commit
//    25% more never started. Measured spill shares elsewhere: 3–5% at 8
//    warehouses, 1–13% CPU-bound.)
//  - An adopted level is audited: a probe epoch measures a change as
//    well as a level (queued work released onto the new queues, or an
//    abort storm left behind for the epoch after), so one epoch can win
//    where the level, held, does not. (TPC-C 16 warehouses, 2PL: probes
//    committed 5% more than their neighbours' median and 6 of 19 beat
//    both by kMargin, while probes that kept the level beat them by
//    nothing and none of 16 did; the levels adopted did not commit more
//    in the epochs after — measured. Those adoptions of two queues with
//    spills took the abort rate from 0.01 to 0.13.) So kAuditEpochs
//    epochs at an adopted level, after one that settles (it follows the
//    probe's return to the old level: a change again), must commit on
//    average kMargin more than the level it left did in the epochs either
//    side of the probe (the bar the probe cleared), or for a narrower
//    level at most kAuditTolerance less (ties go to the narrower);
//    otherwise the old level is restored, as if the probe had lost. No
//    probe runs during an audit. (Asked for half of kMargin, the audit kept two queues with
//    spills at 16 warehouses in 2 runs of 3: 2.5% more commits, at an
//    abort rate of 0.14 against 0.04 — measured.)
//  - Epochs in which few placements were the spread's to decide (at a
//    home or spilled from it: under kMinHomedShare of them) do not count:
//    the spread changes nothing there, and its measurements would be
//    noise.
//
// Thread-safety: every method may be called concurrently. Spread() and
// the counters are lock-free on the common path; an epoch's end is
// handled by whichever caller sees it first, under a mutex.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace paceline::scheduler {

class SpreadController {
 public:
  static constexpr double kSettle = 0.2;         // share of an epoch not measured
  static constexpr double kMargin = 0.05;        // a wider probe must beat both neighbours by this
  static constexpr int kMaxDwell = 32;           // epochs between probes when probes keep losing
  static constexpr double kMinHomedShare = 0.1;  // homed or spilled share of placements for an epoch to count
  static constexpr double kMinIdleShare = 3 * kMargin;  // mean share of empty queues, to probe up
  static constexpr double kMinSpillShare = 0.25;        // or share of placements spilled, to probe up
  static constexpr int kIdleEpochs = 4;                 // the idle and spill averages' memory, in epochs
  static constexpr int kAuditEpochs = 4;                // epochs measured at an adopted level before it is judged
  static constexpr double kAuditTolerance = kMargin / 2;  // what a narrower adopted level may lose in its audit

  struct Level {
    size_t queues = 1;  // the home set's size, 1..queues
    bool spill = false;  // whether a transaction may spill to an idle queue
  };

  // `queues` ≥ 1; `epoch_ns` > 0; `now_ns` the time of construction. It
  // starts at one queue without spills, or with them if `spill_at_start`
  // (for tests of what spilling does).
  SpreadController(size_t queues, int64_t epoch_ns, int64_t now_ns, bool spill_at_start = false);

  // The level at `now_ns`, ending epochs that are due.
  Level Spread(int64_t now_ns) {
    if (now_ns >= next_event_ns_.load(std::memory_order_acquire)) Advance(now_ns);
    return levels_[level_.load(std::memory_order_relaxed)];
  }
  void OnCommit() { commits_.fetch_add(1, std::memory_order_relaxed); }
  // A placement: whether the spread decided it (a hot reference's
  // transaction placed in its home set or spilled from it), and how many
  // queues were empty at the time, and whether it spilled to one of them.
  void OnPlaced(bool decided, size_t empty_queues, bool spilled) {
    placed_.fetch_add(1, std::memory_order_relaxed);
    if (decided) homed_.fetch_add(1, std::memory_order_relaxed);
    if (spilled) spilled_.fetch_add(1, std::memory_order_relaxed);
    if (empty_queues > 0) idle_.fetch_add(empty_queues, std::memory_order_relaxed);
  }

  struct Stats {
    size_t spread = 1;  // the adopted level's
    bool spill = true;
    uint64_t probes = 0;   // probe epochs measured
    uint64_t adopted = 0;  // probes that won
    uint64_t reverted = 0;  // adoptions their audit undid
  };
  Stats GetStats() const;

 private:
  enum class Phase { kDwell, kProbe, kBack };
  void Advance(int64_t now_ns);
  // Ends the epoch measured since measure_start_ns_: its commits per second
  // and whether it counts.
  void EndEpoch(int64_t now_ns);
  void StartEpoch(int64_t now_ns, size_t level);
  // A dwell epoch at the current level measured `rate`: probe next when
  // its dwell is over.
  // `placed`, `idle` (empty queues summed over placements) and `spilled`
  // are the epoch's counts.
  void Dwelt(int64_t now_ns, double rate, double placed, double idle, double spilled);
  // The neighbours of level index `level` (see the header comment): the
  // wider home set that would occupy the idle workers (none at the
  // widest), and the next narrower one, or at one queue the same with
  // spills switched.
  std::optional<size_t> Wider(size_t level) const;
  size_t Narrower(size_t level) const;
  // Whether level index `level` is narrower than `than`: fewer queues, or
  // as many without spills where `than` spills.
  bool IsNarrower(size_t level, size_t than) const;
  // Adopts level index `level` (probed in direction `dir`, 0 down, 1 up)
  // and starts its audit, against the old level's commits per second `base`.
  void Adopt(size_t level, int dir, double base);
  // Whether the finished audit keeps the level; if not, restores the old one.
  bool Audited();
  // A probe in direction `dir` (0 down, 1 up) refused, or spills switched:
  // that direction's dwell doubles (up to kMaxDwell), the other comes next.
  void Refused(int dir);

  const int64_t epoch_ns_;
  const size_t queues_;
  std::vector<Level> levels_;  // {1 no spill}, {1}, {2}, {4}, ..., {queues}; immutable
  std::atomic<size_t> level_{0};  // index into levels_ in force
  std::atomic<uint64_t> commits_{0};
  std::atomic<uint64_t> placed_{0}, homed_{0}, spilled_{0};
  std::atomic<uint64_t> idle_{0};  // empty queues summed over placements
  std::atomic<int64_t> next_event_ns_;

  mutable std::mutex mu_;  // guards everything below
  bool measuring_ = false;       // past the settle part of the epoch
  int64_t measure_start_ns_ = 0;
  int64_t epoch_end_ns_ = 0;
  uint64_t commits_at_start_ = 0;
  uint64_t placed_at_start_ = 0, homed_at_start_ = 0, spilled_at_start_ = 0, idle_at_start_ = 0;
  // Moving averages over the epochs at the current level: the share of
  // the queues empty at a placement, and of placements spilled.
  double idle_avg_ = 0, spill_avg_ = 0;
  // The weight the averages have gathered (1 − (1 − 1/kIdleEpochs)^epochs):
  // divided by it, they estimate the shares without the start from zero.
  double avg_weight_ = 0;
  Phase phase_ = Phase::kDwell;
  size_t current_ = 0;  // index into levels_ adopted
  size_t one_ = 0;      // the one-queue level (0 or 1) last adopted
  size_t probe_ = 0;    // index of the level being probed
  bool up_ = true;      // direction of the next probe
  bool confirming_ = false;  // probe_ won once: probing it again
  int dwelt_ = 0;           // dwell epochs since the last probe or adoption
  int dwell_[2] = {1, 1};  // per direction (0 down, 1 up)
  double before_ = 0;      // throughput of the dwell epoch before a probe
  double probe_rate_ = 0;
  // The audit of an adopted level: epochs left (0: none), their rates'
  // sum, the level left, its commits per second, and the probe's direction.
  int audit_left_ = 0;
  double audit_sum_ = 0;
  size_t audit_from_ = 0;
  double audit_base_ = 0;
  int audit_dir_ = 1;
  uint64_t probes_ = 0, adopted_ = 0, reverted_ = 0;
};

}  // namespace paceline::scheduler
