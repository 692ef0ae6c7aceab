// PreparedSlot: a statement a plan runs by its text (a foreign key's check
// or action, ForeignKeyRule), prepared on its first run and kept for the
// plan's life, so later runs skip the statement cache (building its key,
// hashing it, its shard latch and counters).
//
// Kept statements stay right because a plan runs only at the catalog
// version it was prepared at (a changed catalog prepares the plan again,
// with new, empty slots), and its statements are prepared at that version
// too. Copying a slot gives an empty one.
//
// Thread-safety: Get and Keep may be called concurrently (the plan is
// shared by every session running it); the first Keep wins, later ones
// leave it. Ownership: the slot shares ownership of what it keeps.
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

  // The kept statement, or nullptr before the first Keep.
  const PreparedStatement* Get() const { return kept_.load(std::memory_order_acquire); }
  void Keep(std::shared_ptr<const PreparedStatement> statement) const {
    std::lock_guard lock(mu_);
    if (owner_ != nullptr) return;
    owner_ = std::move(statement);
    kept_.store(owner_.get(), std::memory_order_release);
  }

 private:
  mutable std::mutex mu_;
  mutable std::shared_ptr<const PreparedStatement> owner_;
  mutable std::atomic<const PreparedStatement*> kept_{nullptr};
};

}  // namespace paceline::sql
