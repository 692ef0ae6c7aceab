// SpreadController: hill climbing on commit throughput over the spread
// levels (see the header for the algorithm).
#include "scheduler/spread_controller.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace paceline::scheduler {

SpreadController::SpreadController(size_t queues, int64_t epoch_ns, int64_t now_ns)
    : epoch_ns_(std::max<int64_t>(epoch_ns, 1)), next_event_ns_(now_ns) {
  assert(queues >= 1);
  levels_.push_back(Level{1, false});
  for (size_t spread = 1; spread < queues; spread *= 2) levels_.push_back(Level{spread, true});
  levels_.push_back(Level{queues, true});
  std::lock_guard lock(mu_);
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
  idle_at_start_ = idle_.load(std::memory_order_relaxed);
  next_event_ns_.store(epoch_end_ns_, std::memory_order_release);
}

void SpreadController::EndEpoch(int64_t now_ns) {
  // Caller holds mu_.
  const double elapsed = static_cast<double>(now_ns - measure_start_ns_);
  const uint64_t commits = commits_.load(std::memory_order_relaxed) - commits_at_start_;
  const double placed = static_cast<double>(placed_.load(std::memory_order_relaxed) - placed_at_start_);
  const double homed = static_cast<double>(homed_.load(std::memory_order_relaxed) - homed_at_start_);
  const double idle = static_cast<double>(idle_.load(std::memory_order_relaxed) - idle_at_start_);
  const bool counts = commits > 0 && placed > 0 && homed >= kMinHomedShare * placed &&
                      elapsed <= 3.0 * static_cast<double>(epoch_ns_);
  idle_ok_ = counts && idle >= kMinIdleShare * placed;
  const double rate = static_cast<double>(commits) * 1e9 / std::max(elapsed, 1.0);
  if (!counts) {
    // The spread mattered little here: abandon a probe, keep the level.
    phase_ = Phase::kDwell;
    dwell_left_ = std::max(dwell_left_, 1);
    StartEpoch(now_ns, current_);
    return;
  }
  switch (phase_) {
    case Phase::kDwell:
      Dwelt(now_ns, rate);
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
      // A wider home set must earn its conflicts; a narrower one that
      // commits as much is taken (fewer aborts for the same commits).
      // Turning spills on or off needs the margin either way (a tie there
      // would leave one queue without spills, where a climb to wider sets
      // must first cross the spill level's plateau).
      const double margin = levels_[probe_].queues < levels_[current_].queues ? 0 : kMargin;
      if (probe_rate_ >= (1 + margin) * std::max(before_, rate)) {
        ++adopted_;
        current_ = probe_;
        dwell_[dir] = 1;
        dwell_left_ = 1;  // then probe on in the same direction
        StartEpoch(now_ns, current_);
        return;
      }
      dwell_[dir] = std::min(2 * dwell_[dir], kMaxDwell);
      // The other direction next, where there is one.
      up_ = current_ == 0 || (current_ + 1 < levels_.size() && !up_);
      // This epoch, back at the current level, is the first dwell epoch
      // before the next probe.
      dwell_left_ = dwell_[up_ ? 1 : 0];
      Dwelt(now_ns, rate);
      return;
    }
  }
}

void SpreadController::Dwelt(int64_t now_ns, double rate) {
  // Caller holds mu_.
  before_ = rate;
  if (--dwell_left_ > 0) {
    StartEpoch(now_ns, current_);
    return;
  }
  if (current_ == 0) up_ = true;
  if (current_ + 1 == levels_.size()) up_ = false;
  if (up_ && !idle_ok_) {
    // No queue idled: a wider spread would add conflicts, not capacity.
    if (current_ == 0) {  // nothing to probe: no idle capacity, and no lower level
      StartEpoch(now_ns, current_);
      dwell_left_ = 1;
      return;
    }
    up_ = false;
  }
  probe_ = up_ ? current_ + 1 : current_ - 1;
  phase_ = Phase::kProbe;
  StartEpoch(now_ns, probe_);
}

SpreadController::Stats SpreadController::GetStats() const {
  std::lock_guard lock(mu_);
  Stats stats;
  stats.spread = levels_[current_].queues;
  stats.spill = levels_[current_].spill;
  stats.probes = probes_;
  stats.adopted = adopted_;
  return stats;
}

}  // namespace paceline::scheduler
