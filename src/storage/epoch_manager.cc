// EpochManager: pins, retirement and batched reclamation (epoch_manager.h).
//
// Why a pinned reader never sees reclaimed memory: a reader stores its pin
// (seq_cst compare-exchange) before it loads any pointer; a retirer unlinks
// the object (a seq_cst exchange, Table::ExchangeTuple, or index erasures
// under their latches) before it tags it (seq_cst fetch_add of the global
// epoch); the collector reads the pins (seq_cst) after the tagging. If the collector missed a pin, that pin's
// store came after the collector's read, hence after the unlink, so the
// reader can only find the new pointer. If it saw the pin, the pinned epoch
// is ≤ the tag (the reader read the global before the retirer advanced it)
// and the garbage is kept.
#include "storage/epoch_manager.h"

#include <algorithm>
#include <functional>
#include <thread>

namespace paceline::storage {

EpochManager::EpochManager(size_t max_pins) : slots_(new Slot[max_pins]), max_pins_(max_pins) {}

EpochManager::~EpochManager() { ReclaimAll(); }

size_t EpochManager::Pin() {
  // Start probing at a per-thread place among the first kPinSpread slots,
  // so threads rarely meet on a slot and MinPinned scans few.
  size_t start = std::hash<std::thread::id>()(std::this_thread::get_id()) % std::min(max_pins_, kPinSpread);
  for (size_t i = 0; i < max_pins_; ++i) {
    size_t s = (start + i) % max_pins_;
    uint64_t expected = 0;
    uint64_t epoch = global_.load(std::memory_order_seq_cst);
    if (slots_[s].epoch.load(std::memory_order_relaxed) == 0 &&
        slots_[s].epoch.compare_exchange_strong(expected, epoch, std::memory_order_seq_cst)) {
      size_t used = slots_in_use_.load(std::memory_order_relaxed);
      while (used < s + 1 && !slots_in_use_.compare_exchange_weak(used, s + 1, std::memory_order_seq_cst)) {
      }
      return s;
    }
  }
  return kNoSlot;
}

void EpochManager::Unpin(size_t slot) { slots_[slot].epoch.store(0, std::memory_order_release); }

uint64_t EpochManager::MinPinned() const {
  uint64_t min = UINT64_MAX;
  size_t used = slots_in_use_.load(std::memory_order_seq_cst);
  for (size_t i = 0; i < used; ++i) {
    uint64_t e = slots_[i].epoch.load(std::memory_order_seq_cst);
    if (e != 0 && e < min) min = e;
  }
  return min;
}

void EpochManager::Retire(ReclaimFn fn, void* a, void* b) {
  bool collect;
  {
    std::lock_guard lock(garbage_mu_);
    uint64_t epoch = global_.fetch_add(1, std::memory_order_seq_cst);
    garbage_.push_back(Garbage{epoch, fn, a, b});
    collect = garbage_.size() >= collect_at_;
  }
  if (collect) Collect();
}

void EpochManager::Collect() {
  std::unique_lock collecting(collect_mu_, std::try_to_lock);
  if (!collecting.owns_lock()) return;  // another thread is collecting
  collections_.fetch_add(1, std::memory_order_relaxed);
  uint64_t min = MinPinned();
  std::vector<Garbage> ready;
  {
    std::lock_guard lock(garbage_mu_);
    while (!garbage_.empty() && garbage_.front().epoch < min) {
      ready.push_back(garbage_.front());
      garbage_.pop_front();
    }
    collect_at_ = garbage_.size() + kBatch;  // what is left waits for a pin; scan again a batch later
  }
  for (const Garbage& g : ready) g.fn(g.a, g.b);
}

void EpochManager::ReclaimAll() {
  std::deque<Garbage> all;
  {
    std::lock_guard lock(garbage_mu_);
    all.swap(garbage_);
    collect_at_ = kBatch;
  }
  for (const Garbage& g : all) g.fn(g.a, g.b);
}

size_t EpochManager::pending() const {
  std::lock_guard lock(garbage_mu_);
  return garbage_.size();
}

}  // namespace paceline::storage
