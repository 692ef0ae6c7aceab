// PreparedSlot: a statement a plan runs by its text (a foreign key's check
// or action, ForeignKeyRule), remembered after its first run so that later
// runs skip the statement cache (building its key, hashing it, its shard
// latch and counters).
//
// The slot holds the statement weakly: the statement cache owns it (a
// self-referencing ON DELETE CASCADE's action is the very statement whose
// rule holds the slot, so a strong hold would keep both forever). A caller
// uses what Get returns only when it was prepared at the catalog version
// now (a deferred check at COMMIT runs a rule of a plan older than DDL the
// block ran since), and prepares it afresh otherwise. Copying a slot gives
// an empty one.
//
// Thread-safety: Get and Keep may be called concurrently (the plan is
// shared by every session running it); the first Keep wins, later ones
// leave it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

namespace paceline::sql {

struct PreparedStatement;

class PreparedSlot {
 public:
  PreparedSlot() = default;
  PreparedSlot(const PreparedSlot&) {}
  PreparedSlot& operator=(const PreparedSlot&) { return *this; }

  // The kept statement while the statement cache (or a caller) still owns
  // it; nullptr before the first Keep or after it was dropped.
  std::shared_ptr<const PreparedStatement> Get() const {
    if (!kept_.load(std::memory_order_acquire)) return nullptr;
    return statement_.lock();  // written once, before kept_
  }
  void Keep(const std::shared_ptr<const PreparedStatement>& statement) const {
    std::lock_guard lock(mu_);
    if (kept_.load(std::memory_order_relaxed)) return;
    statement_ = statement;
    kept_.store(true, std::memory_order_release);
  }

 private:
  mutable std::mutex mu_;
  mutable std::weak_ptr<const PreparedStatement> statement_;
  mutable std::atomic<bool> kept_{false};
};

}  // namespace paceline::sql
