// HotSet: draws keys in [0, keys) so that a share `fraction` of the draws
// falls on `hot` hot keys, and the hot keys can move.
//
// The hot keys of epoch e are `hot` distinct keys sampled uniformly (Robert
// Floyd's algorithm) from a generator seeded by (seed, e), so every epoch has
// its own hot set, and the same (seed, e) always gives the same one. A draw
// is, with probability `fraction`, a uniform choice among the epoch's hot
// keys, and otherwise a uniform choice among the other keys (so the measured
// share of hot draws is `fraction` exactly, not fraction + (1 − fraction) ·
// hot / keys). hot = 0: every draw is uniform over all keys; hot = keys:
// every draw is hot.
//
// The epoch comes from the caller: workloads take it from a HotSetClock
// (--hot-shift-s), tests pass it directly.
//
// Thread-safety: Draw, HotKeys and IsHot are const and may run on many
// threads at once; each caller passes its own Random. The hot keys of the
// last epoch asked for are cached (a shared_ptr behind a mutex held only to
// copy or replace it), so a draw costs a uniform choice and a binary
// search; a new epoch is sampled by the first caller that needs it, outside
// the mutex (racing callers compute the same set).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/status.h"
#include "workloads/workload.h"

namespace paceline::workloads {

// A seed for everything random about `epoch` of a run seeded `seed`
// (well-mixed: neighbouring epochs get unrelated seeds).
uint64_t EpochSeed(uint64_t seed, uint64_t epoch);

class HotSet {
 public:
  // 0 <= hot <= keys, keys >= 1, fraction in [0, 1] (checked by assert;
  // Validate gives the flag-level errors).
  HotSet(uint64_t keys, uint64_t hot, double fraction, uint64_t seed);

  // 22023 naming the flags when hot > keys or fraction is outside [0, 1].
  static Status Validate(uint64_t keys, const char* keys_flag, uint64_t hot, const char* hot_flag, double fraction);

  // A key in [0, keys) for `epoch` (see above).
  uint64_t Draw(Random& rng, uint64_t epoch) const;
  // The hot keys of `epoch`, ascending.
  std::vector<uint64_t> HotKeys(uint64_t epoch) const;
  bool IsHot(uint64_t key, uint64_t epoch) const;

  uint64_t keys() const { return keys_; }
  uint64_t hot() const { return hot_; }
  double fraction() const { return fraction_; }

 private:
  struct Epoch {
    uint64_t number = 0;
    std::vector<uint64_t> hot;        // ascending
    std::vector<uint64_t> cold_rank;  // cold_rank[j] = hot[j] − j: cold keys below hot[j]
  };
  std::shared_ptr<const Epoch> Get(uint64_t epoch) const;
  std::shared_ptr<const Epoch> Sample(uint64_t epoch) const;

  const uint64_t keys_;
  const uint64_t hot_;
  const double fraction_;
  const uint64_t seed_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const Epoch> cached_;  // guarded by mu_
};

// HotSetClock: the epoch of moving hot sets. Epoch 0 until `shift` after
// Start, then one more every `shift` (--hot-shift-s); always 0 when shift is
// 0 or Start was not called. The benchmark driver starts it at the start of
// the measured window, so shifts fall at shift, 2·shift, ... of the window
// (the warm-up runs in epoch 0).
//
// Thread-safety: Epoch may run on many threads, also while Start runs.
class HotSetClock {
 public:
  using Clock = std::chrono::steady_clock;

  explicit HotSetClock(std::chrono::nanoseconds shift = {}) : shift_ns_(shift.count()) {}

  void Start(Clock::time_point epoch_zero) {
    start_ns_.store(Nanoseconds(epoch_zero), std::memory_order_relaxed);
    started_.store(true, std::memory_order_release);
  }
  uint64_t Epoch() const { return EpochAt(Clock::now()); }
  static int64_t Nanoseconds(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }
  uint64_t EpochAt(Clock::time_point t) const;
  // Seconds between shifts; 0: the hot set never moves.
  double shift_seconds() const { return static_cast<double>(shift_ns_) / 1e9; }

 private:
  const int64_t shift_ns_;
  std::atomic<int64_t> start_ns_{0};
  std::atomic<bool> started_{false};
};

}  // namespace paceline::workloads
