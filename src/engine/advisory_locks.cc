// AdvisoryLocks: a session's advisory lock requests and how their waits end
// (see advisory_locks.h).
#include "engine/advisory_locks.h"

namespace paceline::engine {

Status AdvisoryLocks::Lock(Key key, bool shared, bool transaction, bool wait, bool* acquired) {
  *acquired = false;
  const auto deadline = AdvisoryLockTable::Clock::now() + lock_timeout_;
  switch (table_->Lock(this, key, shared, transaction, wait, deadline, cancel_)) {
    case AdvisoryLockTable::Outcome::kAcquired:
      *acquired = true;
      (transaction ? took_transaction_ : took_session_) = true;
      if (transaction) transaction_holds_.emplace_back(key, shared);
      return Status::OK();
    case AdvisoryLockTable::Outcome::kBusy:
      return Status::OK();
    case AdvisoryLockTable::Outcome::kCanceled:
      return CanceledStatus();
    case AdvisoryLockTable::Outcome::kDeadlock:
      return Status(sqlstate::kDeadlockDetected, "deadlock detected")
          .WithDetail("This session's advisory lock wait would close a cycle of advisory lock waits.");
    case AdvisoryLockTable::Outcome::kTimedOut:
      break;
  }
  return Status(sqlstate::kLockNotAvailable, "canceling statement due to lock timeout")
      .WithDetail("Waited " + std::to_string(lock_timeout_.count()) + " ms (lock_timeout) for an advisory lock.");
}

void AdvisoryLocks::RollbackTo(size_t mark) {
  while (transaction_holds_.size() > mark) {
    const auto& [key, shared] = transaction_holds_.back();
    table_->Unlock(this, key, shared, /*transaction=*/true);
    transaction_holds_.pop_back();
  }
}

}  // namespace paceline::engine
