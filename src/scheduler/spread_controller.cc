// SpreadController: hill climbing on commit throughput over the spread
// levels (see the header for the algorithm).
#include "scheduler/spread_controller.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>

namespace paceline::scheduler {

SpreadController::SpreadController(size_t queues, int64_t epoch_ns, int64_t now_ns, bool spill_at_start)
    : epoch_ns_(std::max<int64_t>(epoch_ns, 1)), queues_(queues), next_event_ns_(now_ns) {
  assert(queues >= 1);
  levels_.push_back(Level{1, false});
  for (size_t spread = 1; spread < queues; spread *= 2) levels_.push_back(Level{spread, true});
  levels_.push_back(Level{queues, true});
  std::lock_guard lock(mu_);
  current_ = one_ = spill_at_start ? 1 : 0;
  StartEpoch(now_ns, current_);
}

void SpreadController::StartEpoch(int64_t now_ns, size_t level) {
  // Caller holds mu_.
  level_.store(level, std::memory_order_relaxed);
  measuring_ = false;
  measure_start_ns_ = now_ns + static_cast<int64_t>(kSettle * static_cast<double>(epoch_ns_));
  epoch_end_ns_ = now_ns + epoch_ns_;
  next_event_ns_.store(measure_start_ns_, std::memory_order_release);
}

void SpreadController::Advance(int64_t now_ns) {
  std::lock_guard lock(mu_);
  if (now_ns < next_event_ns_.load(std::memory_order_relaxed)) return;  // another caller did it
  if (measuring_) {
    EndEpoch(now_ns);
    return;
  }
  if (now_ns >= epoch_end_ns_) {
    // Nobody asked for the spread for a whole epoch (no traffic): start
    // this one again rather than measure a sliver of it.
    StartEpoch(now_ns, phase_ == Phase::kProbe ? probe_ : current_);
    return;
  }
  measuring_ = true;
  measure_start_ns_ = now_ns;
  commits_at_start_ = commits_.load(std::memory_order_relaxed);
  placed_at_start_ = placed_.load(std::memory_order_relaxed);
  homed_at_start_ = homed_.load(std::memory_order_relaxed);
  spilled_at_start_ = spilled_.load(std::memory_order_relaxed);
  idle_at_start_ = idle_.load(std::memory_order_relaxed);
  next_event_ns_.store(epoch_end_ns_, std::memory_order_release);
}

void SpreadController::EndEpoch(int64_t now_ns) {
  // Caller holds mu_.
  const double elapsed = static_cast<double>(now_ns - measure_start_ns_);
  const uint64_t commits = commits_.load(std::memory_order_relaxed) - commits_at_start_;
  const double placed = static_cast<double>(placed_.load(std::memory_order_relaxed) - placed_at_start_);
  const double homed = static_cast<double>(homed_.load(std::memory_order_relaxed) - homed_at_start_);
  const double spilled = static_cast<double>(spilled_.load(std::memory_order_relaxed) - spilled_at_start_);
  const double idle = static_cast<double>(idle_.load(std::memory_order_relaxed) - idle_at_start_);
  const bool counts = commits > 0 && placed > 0 && homed >= kMinHomedShare * placed &&
                      elapsed <= 3.0 * static_cast<double>(epoch_ns_);
  const double rate = static_cast<double>(commits) * 1e9 / std::max(elapsed, 1.0);
  if (!counts) {
    // The spread mattered little here: abandon a probe, keep the level.
    phase_ = Phase::kDwell;
    confirming_ = false;
    StartEpoch(now_ns, current_);
    return;
  }
  switch (phase_) {
    case Phase::kDwell:
      Dwelt(now_ns, rate, placed, idle, spilled);
      return;
    case Phase::kProbe:
      probe_rate_ = rate;
      phase_ = Phase::kBack;
      StartEpoch(now_ns, current_);
      return;
    case Phase::kBack: {
      ++probes_;
      const int dir = up_ ? 1 : 0;
      phase_ = Phase::kDwell;
      // A narrower level (fewer queues, or spills switched off) that
      // commits as much as both neighbours is taken (fewer aborts for the
      // same commits); a wider one, or spills switched on, must beat both
      // by kMargin, and spills twice in a row: one epoch's throughput
      // varies by ±15% (measured), and where spills change nothing a
      // single win switched them on by chance.
      const bool same_queues = levels_[probe_].queues == levels_[current_].queues;
      const bool narrower = IsNarrower(probe_, current_);
      const bool won = probe_rate_ >= (narrower ? 1 : 1 + kMargin) * std::max(before_, rate);
      if (won && same_queues && !narrower && !confirming_) {
        confirming_ = true;  // probe the same level again at once
        before_ = rate;
        phase_ = Phase::kProbe;
        StartEpoch(now_ns, probe_);
        return;
      }
      confirming_ = false;
      if (won) {
        ++adopted_;
        // What the audit compares with: the level left, in the epochs
        // either side of the probe (the latest it has).
        Adopt(probe_, dir, (before_ + rate) / 2);
        StartEpoch(now_ns, current_);
        return;
      }
      Refused(dir);
      // This epoch, back at the current level, is the first dwell epoch
      // before the next probe.
      dwelt_ = 0;
      Dwelt(now_ns, rate, placed, idle, spilled);
      return;
    }
  }
}

void SpreadController::Adopt(size_t level, int dir, double base) {
  // Caller holds mu_.
  audit_from_ = current_;
  audit_base_ = base;
  audit_dir_ = dir;
  // The first epoch at the adopted level follows the probe's return to
  // the old one: a change again, not counted.
  audit_left_ = kAuditEpochs + 1;
  audit_sum_ = 0;
  current_ = level;
  if (levels_[current_].queues == 1) one_ = current_;
}

bool SpreadController::Audited() {
  // Caller holds mu_.
  const double mean = audit_sum_ / kAuditEpochs;
  const bool narrower = IsNarrower(current_, audit_from_);
  const bool kept = mean >= (narrower ? 1 - kAuditTolerance : 1 + kMargin) * audit_base_;
  const bool same_queues = levels_[current_].queues == levels_[audit_from_].queues;
  dwelt_ = 0;
  if (kept && !same_queues) {
    dwell_[audit_dir_] = 1;  // probe on in the same direction, at once
    up_ = audit_dir_ == 1;
    return true;
  }
  // Refused (or spills switched, where "on in the same direction" would
  // switch them back at once): that direction waits longer, the other
  // comes next.
  Refused(audit_dir_);
  if (kept) return true;
  ++reverted_;
  current_ = audit_from_;
  if (levels_[current_].queues == 1) one_ = current_;
  return false;
}

void SpreadController::Refused(int dir) {
  // Caller holds mu_.
  dwell_[dir] = std::min(2 * dwell_[dir], kMaxDwell);
  up_ = dir == 0;  // the other direction next (Dwelt knows where there is none)
}

bool SpreadController::IsNarrower(size_t level, size_t than) const {
  return levels_[level].queues < levels_[than].queues ||
         (levels_[level].queues == levels_[than].queues && !levels_[level].spill && levels_[than].spill);
}

void SpreadController::Dwelt(int64_t now_ns, double rate, double placed, double idle, double spilled) {
  // Caller holds mu_.
  before_ = rate;
  // Idle capacity as a moving average over the epochs at the current
  // level (from none: capacity is assumed only once measured), not the
  // last epoch alone: one epoch of a closed loop's fluctuation is no
  // capacity a wider set could use.
  constexpr double kWeight = 1.0 / kIdleEpochs;
  idle_avg_ += kWeight * (idle / (placed * static_cast<double>(queues_)) - idle_avg_);
  spill_avg_ += kWeight * (spilled / placed - spill_avg_);
  avg_weight_ += kWeight * (1 - avg_weight_);
  if (audit_left_ > 0) {
    if (audit_left_ <= kAuditEpochs) audit_sum_ += rate;
    // During the audit nothing is probed; at its end the level is kept
    // (and the dwell goes on as after an adoption) or the old one restored.
    if (--audit_left_ > 0 || !Audited()) {
      StartEpoch(now_ns, current_);
      return;
    }
  }
  const bool idle_ok = idle_avg_ >= kMinIdleShare || spill_avg_ >= kMinSpillShare;
  const std::optional<size_t> wider = Wider(current_);
  // No wider set, or too few idle workers: a wider spread would add
  // conflicts, not capacity. Then the probe goes down, after the downward
  // dwell (with the upward one, a workload that never probes up probed
  // its spill switch every other epoch).
  const bool up = up_ && wider.has_value() && idle_ok;
  if (++dwelt_ < dwell_[up ? 1 : 0]) {
    StartEpoch(now_ns, current_);
    return;
  }
  up_ = up;
  dwelt_ = 0;
  probe_ = up_ ? *wider : Narrower(current_);
  phase_ = Phase::kProbe;
  StartEpoch(now_ns, probe_);
}

std::optional<size_t> SpreadController::Wider(size_t level) const {
  // Caller holds mu_.
  size_t to = level <= 1 ? 2 : level + 1;  // both one-queue levels lead to 2 queues at least
  if (to >= levels_.size()) return std::nullopt;
  // As many queues as the busy ones would make busy if the idle ones
  // were busy too; spills that count as idle capacity, as idle. (The
  // averages start from zero so that capacity is assumed only once
  // measured; for how much there is, the start is taken out.)
  const double spill = spill_avg_ >= kMinSpillShare ? spill_avg_ : 0.0;
  const double idle = avg_weight_ > 0 ? std::max(idle_avg_, spill) / avg_weight_ : 0.0;
  const double wanted = static_cast<double>(levels_[level].queues) / std::max(1 - idle, 0.1);
  while (to + 1 < levels_.size() && static_cast<double>(levels_[to].queues) < wanted * (1 - kMargin)) ++to;
  return to;
}

size_t SpreadController::Narrower(size_t level) const {
  if (level <= 1) return 1 - level;  // one queue: spills on or off
  if (level == 2) return one_;       // one queue, spilling as last adopted there
  return level - 1;
}

SpreadController::Stats SpreadController::GetStats() const {
  std::lock_guard lock(mu_);
  Stats stats;
  stats.spread = levels_[current_].queues;
  stats.spill = levels_[current_].spill;
  stats.probes = probes_;
  stats.adopted = adopted_;
  stats.reverted = reverted_;
  return stats;
}

}  // namespace paceline::scheduler
