// LockingContext signalling and the deadlock rules (locking_context.h).
#include "cc/locking_context.h"

namespace paceline::cc {

void LockingContext::ArmSignal() {
  std::lock_guard lock(signal_mu_);
  signaled_ = false;
}

void LockingContext::Signal() {
  std::lock_guard lock(signal_mu_);
  signaled_ = true;
  signal_cv_.notify_one();
}

void LockingContext::Wound() {
  if (WoundHere() && cancel_token() != nullptr) cancel_token()->Wake();
}

bool LockingContext::WoundHere() {
  int expected = kActive;
  if (!phase.compare_exchange_strong(expected, kWounded, std::memory_order_acq_rel)) return false;
  Signal();
  return true;
}

Status LockingContext::WoundedStatus() {
  return Conflict(AbortReason::kWounded,
                  "could not serialize access: an older transaction needed a lock this one held (2PL WOUND_WAIT)");
}

bool LockingContext::WaitSignal(std::chrono::steady_clock::time_point deadline) {
  // Registered before the predicate is first tested: a Cancel either set
  // the flag before (the predicate sees it) or finds the wakeup.
  CancelToken::Wakeup wakeup(
      cancel_token(), [](void* self) { static_cast<LockingContext*>(self)->Signal(); }, this);
  std::unique_lock lock(signal_mu_);
  return signal_cv_.wait_until(lock, deadline, [&] { return signaled_ || wounded() || canceled(); });
}

Status Arbitrate(DeadlockRule rule, LockingContext* me, const std::vector<LockingContext*>& holders,
                 const std::string& what, TableId table, bool* wounded_here) {
  switch (rule) {
    case DeadlockRule::kNoWait:
      return me->Conflict(AbortReason::kLockConflict,
                          std::string("could not serialize access: ") + what +
                              " is locked by another transaction (2PL NO_WAIT aborts the requester)",
                          table);
    case DeadlockRule::kWaitDie:
      for (const LockingContext* h : holders) {
        if (h->timestamp() < me->timestamp()) {
          return me->Conflict(AbortReason::kDie, std::string("could not serialize access: ") + what +
                                                     " is locked by an older transaction (2PL WAIT_DIE)",
                                table);
        }
      }
      return Status::OK();
    case DeadlockRule::kWoundWait:
      for (LockingContext* h : holders) {
        if (h->timestamp() <= me->timestamp()) continue;
        if (wounded_here == nullptr) h->Wound();
        else if (h->WoundHere()) *wounded_here = true;
      }
      return Status::OK();
  }
  return Status::OK();
}

}  // namespace paceline::cc
