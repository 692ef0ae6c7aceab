// History: what the scheduler has learnt about each reference — how many
// attempts of transactions that made it aborted, and how many committed (the
// paper's Table I, "History"). Every event counts once for every reference
// of the transaction, or once per statement that made it (the paper's
// multiplicity, Footprint::reference_occurrences); counters never decrease. A reference never seen has
// counts (0, 0).
//
// Names: the first time a reference aborts, History asks the event's
// ReferenceNamer (if one is given) for its text and keeps it, for
// introspection only; scheduling never reads names. They live in a small
// mutex-guarded side table, written once per aborting reference and read
// only by introspection, never on the scheduling path.
//
// Capacity: the table keeps about `capacity` references. When it grows
// beyond that, one thread (whichever first claims the sweep; the others go
// on) forgets every reference that never aborted: it weighs nothing under
// any policy, and if it aborts later it starts again from (1, 0). References
// that have aborted are never forgotten, so a workload with more aborting
// references than `capacity` keeps them all; the next sweep is then due when
// the table has grown by a quarter of `capacity` more. The sweep locks the
// whole table (libcuckoo lock_table) and blocks concurrent events for its
// duration; sweeps are rare by construction.
//
// Memory: a filter of references that may have aborted (MayHaveAborted), of
// about one bit per reference of capacity (2^16 to 2^24 bits, 8 KB to 2 MB);
// the cuckoo table, from 2^10 buckets of 4 slots, doubling as it fills; and
// libcuckoo's lock array at its full 2^16 stripes (4 MB) from the start
// (bounded_table.h says why; State does the same).
//
// Thread-safety: every method may be called concurrently. Counts are updated
// under libcuckoo's per-bucket locks; readers see each reference's pair as it
// was at some instant, not a consistent snapshot across references (stale
// reads are the paper's accepted trade-off). Ownership: plain member of its
// scheduler; the namer is only borrowed during the call.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "scheduler/bounded_table.h"
#include "scheduler/footprint.h"
#include "scheduler/key_filter.h"
#include "scheduler/reference_hash.h"

namespace paceline::scheduler {

struct HistoryCounts {
  uint64_t aborts = 0;
  uint64_t commits = 0;
};

struct HistoryEntry {
  ReferenceKey key = 0;
  HistoryCounts counts;
};

class History {
 public:
  explicit History(size_t capacity);

  History(const History&) = delete;
  History& operator=(const History&) = delete;

  // One aborted attempt of a transaction with these (distinct) references,
  // each counted occurrences[i] times (once when `occurrences` is empty:
  // Footprint::reference_occurrences). `namer` (may be null) names
  // references[i] as Name(i), on its first abort.
  void RecordAbort(std::span<const ReferenceKey> references, const ReferenceNamer* namer,
                   std::span<const uint32_t> occurrences = {});
  // One committed transaction with these (distinct) references, counted
  // as RecordAbort counts them.
  void RecordCommit(std::span<const ReferenceKey> references, std::span<const uint32_t> occurrences = {});

  // The counts of `key`; (0, 0) if never seen or forgotten.
  HistoryCounts Lookup(ReferenceKey key) const;
  // False only if `key` has certainly never aborted, so that Lookup(key)
  // would find no aborts: a filter of one bit per hash slot, set at a
  // reference's first abort and never cleared. It lets the scheduling path
  // skip the table (cache misses) for the many references that never abort.
  // May answer true for a reference that never aborted (another aborted key
  // shares its bit).
  bool MayHaveAborted(ReferenceKey key) const {
    return aborted_.MayContain(key);
  }
  // The text recorded at the first abort of `key`; "" if none.
  std::string Name(ReferenceKey key) const;
  // Every reference with at least one abort, in no particular order. Locks
  // the whole table while copying (introspection, not for the hot path).
  std::vector<HistoryEntry> Aborted() const;

  // Bookkeeping (exact when quiescent, approximate under concurrent events).
  size_t references() const;
  size_t named() const { return named_.load(std::memory_order_relaxed); }
  size_t forgotten() const { return counts_.forgotten(); }
  // Memory held: the allocated cuckoo slots (key, counts, partial key and
  // occupancy byte each), the lock array, the filter, and the names (hash
  // node, string, text).
  size_t ApproximateBytes() const;

 private:
  // Sweeps out never-aborted references if the table is over its bound and
  // no other thread is sweeping.
  void MaybeForget();
  KeyFilter aborted_;  // see MayHaveAborted
  BoundedTable<ReferenceKey, HistoryCounts, ReferenceHash> counts_;
  mutable std::mutex names_mutex_;
  std::unordered_map<ReferenceKey, std::string> names_;  // guarded by names_mutex_
  std::atomic<size_t> named_{0};
  std::atomic<size_t> name_bytes_{0};
};

}  // namespace paceline::scheduler
