// BoundedTable: a libcuckoo map as History and State keep it — with its
// lock array at full size from the start, an entry count, and a size bound
// kept by sweeps.
//
// Lock array: libcuckoo (0.3.1) grows its lock array along with the table
// while the table has fewer than 2^16 buckets, and publishes the new array
// to concurrent callers without synchronisation (a data race
// ThreadSanitizer reports). The map is therefore created at 2^16 buckets,
// which allocates the full lock array (2^16 stripes, 4 MB), and shrunk to
// 2^10 buckets before any use: later growth never touches the lock array.
//
// Bound: the owner counts what it inserts and erases (CountInserted,
// CountErased). Once the table holds more than `capacity` entries, Sweep
// erases the entries a predicate drops, in one thread at a time (a try-flag:
// the others go on); it locks the whole table while it runs. If what is kept
// still exceeds `capacity`, the next sweep is due when the table has grown
// by a quarter of `capacity` past it, so sweeps stay amortised.
//
// Thread-safety: every method may be called concurrently; the counts are
// approximate while insertions and sweeps race (exact when quiescent).
// Ownership: a plain member of its owner.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <libcuckoo/cuckoohash_map.hh>

namespace paceline::scheduler {

template <typename Key, typename Value, typename Hash>
class BoundedTable {
 public:
  using Map = libcuckoo::cuckoohash_map<Key, Value, Hash>;

  // Bytes of the lock array (2^16 stripes, one 64-byte spinlock each).
  static constexpr size_t kLockArrayBytes = (size_t{1} << 16) * 64;

  explicit BoundedTable(size_t capacity)
      : capacity_(capacity),
        map_((size_t{1} << 16) * libcuckoo::DEFAULT_SLOT_PER_BUCKET),
        sweep_threshold_(ClampToInt64(capacity)) {
    map_.rehash(10);
  }

  // The map, for the owner's lookups and updates (also from const methods:
  // a whole-table read needs lock_table()).
  Map& map() const { return map_; }

  void CountInserted(int64_t n) {
    if (n != 0) entries_.fetch_add(n, std::memory_order_relaxed);
  }
  void CountErased(int64_t n) {
    if (n != 0) entries_.fetch_sub(n, std::memory_order_relaxed);
  }
  size_t entries() const { return static_cast<size_t>(std::max<int64_t>(entries_.load(std::memory_order_relaxed), 0)); }
  size_t forgotten() const { return forgotten_.load(std::memory_order_relaxed); }

  bool OverCapacity() const {
    return entries_.load(std::memory_order_relaxed) > sweep_threshold_.load(std::memory_order_relaxed);
  }

  // When over capacity and no other thread sweeps: erases every entry for
  // which drop(key, value) is true; returns how many it erased.
  template <typename Drop>
  size_t Sweep(Drop drop) {
    if (!OverCapacity()) return 0;
    if (sweeping_.exchange(true, std::memory_order_acquire)) return 0;  // another thread sweeps
    size_t dropped = 0;
    size_t kept = 0;
    {
      auto locked = map_.lock_table();
      for (auto it = locked.begin(); it != locked.end();) {
        if (drop(it->first, it->second)) {
          it = locked.erase(it);
          ++dropped;
        } else {
          ++it;
          ++kept;
        }
      }
    }
    CountErased(static_cast<int64_t>(dropped));
    forgotten_.fetch_add(dropped, std::memory_order_relaxed);
    const size_t threshold = std::max(capacity_, kept + std::max<size_t>(capacity_ / 4, 1));
    sweep_threshold_.store(ClampToInt64(threshold), std::memory_order_relaxed);
    sweeping_.store(false, std::memory_order_release);
    return dropped;
  }

  // The allocated slots (`slot_bytes` each) and the lock array.
  size_t ApproximateBytes(size_t slot_bytes) const { return map_.capacity() * slot_bytes + kLockArrayBytes; }

 private:
  static int64_t ClampToInt64(size_t n) {
    return static_cast<int64_t>(std::min<size_t>(n, static_cast<size_t>(std::numeric_limits<int64_t>::max())));
  }

  const size_t capacity_;
  mutable Map map_;
  // Signed: a sweep may count out an insertion before its inserter counts it in.
  std::atomic<int64_t> entries_{0};
  std::atomic<size_t> forgotten_{0};
  std::atomic<int64_t> sweep_threshold_;  // sweep when entries_ exceeds it
  std::atomic<bool> sweeping_{false};
};

}  // namespace paceline::scheduler
