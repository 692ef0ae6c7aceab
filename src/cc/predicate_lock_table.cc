// PredicateLockTable: range locks against phantoms (predicate_lock_table.h).
#include "cc/predicate_lock_table.h"

#include <algorithm>

namespace paceline::cc {

uint64_t PredicateLockTable::Add(LockingContext* ctx, const Predicate& predicate, uint32_t relation_oid) {
  std::lock_guard lock(mu_);
  relation_oid_ = relation_oid;
  uint64_t id = next_id_++;
  locks_.push_back(RangeLock{id, ctx, predicate.lower, predicate.upper, predicate.point, predicate.index == nullptr});
  count_.fetch_add(1, std::memory_order_seq_cst);
  return id;
}

void PredicateLockTable::Narrow(uint64_t id, const std::string& last) {
  std::lock_guard lock(mu_);
  for (auto& l : locks_) {
    if (l.id == id && !l.point && !l.all) {
      l.upper = last;
      l.upper.push_back('\0');  // the smallest key after `last`
    }
  }
  // An inserter waiting on the part of the range given up may go on.
  for (LockingContext* waiter : waiters_) waiter->Signal();
}

Status PredicateLockTable::CheckInsert(LockingContext* ctx, const std::string& key, DeadlockRule rule,
                                       std::chrono::milliseconds lock_timeout, std::atomic<size_t>* waiting,
                                       TableId table) {
  // The entry is in the index already. An RMW reads the latest count; a
  // scanner that registers after it scans after our entry was added (the
  // index's latch orders the two), so it meets our row lock instead.
  if (count_.fetch_add(0, std::memory_order_seq_cst) == 0) return Status::OK();
  const auto deadline = std::chrono::steady_clock::now() + lock_timeout;
  std::unique_lock lock(mu_);
  std::vector<LockingContext*> holders;
  for (;;) {
    holders.clear();
    for (const auto& l : locks_) {
      if (l.owner != ctx && l.Covers(key) && std::find(holders.begin(), holders.end(), l.owner) == holders.end()) {
        holders.push_back(l.owner);
      }
    }
    if (holders.empty()) return Status::OK();
    PL_RETURN_IF_ERROR(Arbitrate(rule, ctx, holders, "a key range scanned by another transaction", table));
    ctx->ArmSignal();
    waiters_.push_back(ctx);
    lock.unlock();
    waiting->fetch_add(1, std::memory_order_acq_rel);
    bool signaled = ctx->WaitSignal(deadline);
    waiting->fetch_sub(1, std::memory_order_acq_rel);
    lock.lock();
    waiters_.erase(std::find(waiters_.begin(), waiters_.end(), ctx));
    if (ctx->canceled()) return CanceledStatus();  // not a conflict
    if (ctx->wounded()) {
      return ctx->WoundedStatus();
    }
    if (!signaled) {
      return ctx->Conflict(AbortReason::kLockTimeout, "canceling statement due to lock timeout (waited " +
                                                          std::to_string(lock_timeout.count()) +
                                                          " ms for a key range lock)");
    }
  }
}

void PredicateLockTable::Release(LockingContext* ctx) {
  std::lock_guard lock(mu_);
  size_t before = locks_.size();
  locks_.erase(std::remove_if(locks_.begin(), locks_.end(), [&](const RangeLock& l) { return l.owner == ctx; }),
               locks_.end());
  count_.fetch_sub(before - locks_.size(), std::memory_order_seq_cst);
  for (LockingContext* waiter : waiters_) waiter->Signal();
}

void PredicateLockTable::Snapshot(std::vector<RangeLockState>* out) const {
  std::lock_guard lock(mu_);
  std::vector<const LockingContext*> holders;
  for (const RangeLock& l : locks_) {
    if (std::find(holders.begin(), holders.end(), l.owner) != holders.end()) continue;
    holders.push_back(l.owner);
    out->push_back({relation_oid_, false, true, l.owner->cancel_token()});
  }
  for (const LockingContext* waiter : waiters_) out->push_back({relation_oid_, true, false, waiter->cancel_token()});
}

}  // namespace paceline::cc
