// EpochManager: safe memory reclamation for lock-free readers (epoch-based
// reclamation, as in Silo and Masstree).
//
// Readers reach tuples and rows through atomic pointers and index entries
// without latches, so a tuple replaced by a commit, or a row whose insert was
// undone, may still be in use by a concurrent transaction. Such garbage is
// Retire()d instead of freed: it is tagged with the current global epoch,
// and the epoch advances. A transaction Pin()s the global epoch when it
// starts and unpins when it ends; garbage tagged e is reclaimed once every
// pinned epoch is greater than e (every transaction that could have seen it
// has ended). Reclamation runs in batches on the retiring threads: a
// collection scans every pin slot in use, so Retire collects again only
// after another kBatch objects were retired since the last collection left
// what it could not reclaim (a transaction pinned for long — a worker
// descheduled mid-transaction — would otherwise make every Retire scan:
// 8.5% of CPU-bound TPC-C's samples). Pins probe from a per-thread start
// among the first kPinSpread slots, so the slots in use stay few.
//
// Thread-safety: every method may be called concurrently. Ownership: the
// Database owns one; garbage callbacks must stay valid until reclaimed (the
// Database reclaims everything before dropping a table, under its exclusive
// gate, and when it is destroyed).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace paceline::storage {

class EpochManager {
 public:
  // At most `max_pins` transactions may be pinned at once.
  explicit EpochManager(size_t max_pins = 4096);
  ~EpochManager();  // reclaims everything
  EpochManager(const EpochManager&) = delete;
  EpochManager& operator=(const EpochManager&) = delete;

  static constexpr size_t kNoSlot = static_cast<size_t>(-1);
  // Pins the current epoch; returns the pin's slot, or kNoSlot when
  // max_pins transactions are already pinned.
  size_t Pin();
  void Unpin(size_t slot);

  // Calls fn(a, b) once no pinned transaction can still reach the object.
  using ReclaimFn = void (*)(void* a, void* b);
  void Retire(ReclaimFn fn, void* a, void* b);
  // Reclaims all garbage now. Only when nothing is pinned.
  void ReclaimAll();
  // Reclaims now what no pinned transaction can reach any more (Retire
  // does so only in batches: a quiet database would keep the last garbage,
  // a dropped table's rows among it).
  void Collect();

  size_t pending() const;
  uint64_t collections() const { return collections_.load(std::memory_order_relaxed); }  // scans of the pins

 private:
  struct alignas(64) Slot {
    std::atomic<uint64_t> epoch{0};  // 0: free
  };
  struct Garbage {
    uint64_t epoch;
    ReclaimFn fn;
    void* a;
    void* b;
  };
  static constexpr size_t kBatch = 128;
  static constexpr size_t kPinSpread = 64;  // pins start probing among this many slots

  // The smallest pinned epoch (UINT64_MAX when nothing is pinned).
  uint64_t MinPinned() const;

  std::unique_ptr<Slot[]> slots_;
  const size_t max_pins_;
  std::atomic<size_t> slots_in_use_{0};  // high-water mark of slot indexes used
  std::atomic<uint64_t> global_{1};
  mutable std::mutex garbage_mu_;
  std::deque<Garbage> garbage_;  // in epoch order
  size_t collect_at_ = kBatch;   // guarded by garbage_mu_: Retire collects when garbage_ reaches it
  std::atomic<uint64_t> collections_{0};
  std::mutex collect_mu_;
};

}  // namespace paceline::storage
