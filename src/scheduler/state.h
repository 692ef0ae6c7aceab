// State: where the transactions of each reference have been queued — per
// reference and run queue, how many transactions containing the reference
// were placed on that queue (the paper's Table I "queue" columns); per queue
// the sum of those counts over all references (the Table's "total" row:
// every reference of every transaction placed there); and per queue how many
// transactions were placed and have not finished (the scheduler's own view
// of queue length, kept in both modes).
//
// Modes (SchedulerOptions::state):
//   kCumulative  Add counts for ever, as in the paper's Table I; Remove only
//                lowers the in-flight count.
//   kInflight    Remove undoes Add: counts and totals describe the
//                transactions placed and not yet finished, and an entry is
//                erased when all its counts reach 0, so State stays as small
//                as the set of in-flight references.
//
// Layout: one libcuckoo entry per reference and group of kQueuesPerEntry
// consecutive queues, holding that group's counts inline as 32-bit integers
// (no allocation per entry, one map operation per reference to place a
// transaction; reading a reference for scoring costs one lookup per group).
// A count saturates at 2^31 - 1 (cumulative mode only: billions of
// placements of one reference on one queue); inflight counts are bounded by
// what is in flight. The table starts at 2^10 buckets and doubles as it
// fills; its lock array has its full 2^16 stripes (4 MB) from the start, for
// the reason given in history.h.
//
// Capacity (cumulative mode only; inflight State is bounded by what is in
// flight): when there are more than `capacity` entries, one thread at a time
// calls Forget with a predicate from its owner (the conflict-aware scheduler
// keeps the references that have aborted in History) and erases the entries
// of the other references, which no policy weighs. A forgotten reference that
// later aborts starts again from zero counts. Totals are not reduced by
// forgetting: they keep counting every reference ever placed. As in History,
// the sweep locks the whole table for its duration, and the next one is due
// when the table has grown by a quarter of `capacity` past what was kept.
//
// Thread-safety: every method may be called concurrently; counts change
// under libcuckoo's per-bucket locks, totals are atomics. Readers see each
// entry as of some instant, not a snapshot across entries or totals.
// Ownership: plain member of its scheduler.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "scheduler/bounded_table.h"
#include "scheduler/footprint.h"
#include "scheduler/reference_hash.h"
#include "scheduler/scheduler.h"

namespace paceline::scheduler {

class State {
 public:
  static constexpr size_t kQueuesPerEntry = 8;

  // Requires queues >= 1.
  State(size_t queues, StateMode mode, size_t capacity);

  State(const State&) = delete;
  State& operator=(const State&) = delete;

  // A transaction with these (distinct) references was placed on `queue`.
  void Add(std::span<const ReferenceKey> references, size_t queue);
  // The transaction placed on `queue` by a matching Add has finished.
  void Remove(std::span<const ReferenceKey> references, size_t queue);

  // scores[q] += weight * Count(key, q) for every queue q, reading the
  // counts in place. `scores` has queues() elements.
  void Accumulate(ReferenceKey key, double weight, double* scores) const;
  int64_t Count(ReferenceKey key, size_t queue) const;
  std::vector<int64_t> Counts(ReferenceKey key) const;  // queues() elements
  // The "total" row: the counts of every reference on `queue`.
  int64_t Total(size_t queue) const { return totals_[queue].value.load(std::memory_order_relaxed); }
  // Transactions placed on `queue` and not finished.
  int64_t InFlight(size_t queue) const { return in_flight_[queue].value.load(std::memory_order_relaxed); }

  size_t queues() const { return queues_; }
  StateMode mode() const { return mode_; }

  // Cumulative mode: whether there are more entries than the bound allows.
  bool OverCapacity() const;
  // When OverCapacity(): erases the entries of every reference for which
  // keep(reference) is false, unless another thread is already doing so.
  // Returns the entries erased.
  size_t Forget(const std::function<bool(ReferenceKey)>& keep);

  // Bookkeeping (exact when quiescent, approximate under concurrent calls).
  size_t entries() const;
  size_t forgotten() const { return table_.forgotten(); }
  // Memory held: allocated cuckoo slots, lock stripes, per-queue counters.
  size_t ApproximateBytes() const;

 private:
  struct Key {
    ReferenceKey reference = 0;
    uint64_t group = 0;  // queues [group * kQueuesPerEntry, (group + 1) * kQueuesPerEntry)
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const {
      return ReferenceHash()(key.reference ^ (key.group * 0xc2b2ae3d27d4eb4fULL));
    }
  };
  struct Counts8 {
    std::array<int32_t, kQueuesPerEntry> count{};
  };
  struct alignas(64) PaddedCounter {  // one cache line each: queues are updated by different threads
    std::atomic<int64_t> value{0};
  };

  const size_t queues_;
  const size_t groups_;
  const StateMode mode_;
  BoundedTable<Key, Counts8, KeyHash> table_;
  std::unique_ptr<PaddedCounter[]> totals_;
  std::unique_ptr<PaddedCounter[]> in_flight_;
};

}  // namespace paceline::scheduler
