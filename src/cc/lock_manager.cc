// LockManager: bucketed row lock table (lock_manager.h).
#include "cc/lock_manager.h"

#include <algorithm>

namespace paceline::cc {

LockManager::LockManager(DeadlockRule rule, std::chrono::milliseconds lock_timeout, std::atomic<size_t>* waiting)
    : rule_(rule), lock_timeout_(lock_timeout), waiting_(waiting), buckets_(new Bucket[kBuckets]) {}

std::vector<RowLockState> LockManager::Snapshot() const {
  std::vector<RowLockState> out, bucket;
  for (size_t i = 0; i < kBuckets; ++i) {
    Bucket& b = buckets_[i];
    {
      std::lock_guard lock(b.mu);  // only copied under it: the result grows outside
      for (const auto& [row, entry] : b.entries) {
        for (bool granted : {true, false}) {
          for (const auto& [ctx, mode] : granted ? entry.owners : entry.waiting) {
            bucket.push_back({row->table_id, row->row_id, mode == LockMode::kExclusive, granted, ctx->cancel_token()});
          }
        }
      }
    }
    out.insert(out.end(), bucket.begin(), bucket.end());
    bucket.clear();
  }
  return out;
}

LockManager::Bucket& LockManager::BucketOf(const storage::Row* row) {
  return buckets_[storage::HashRowAddress(row) % kBuckets];
}

Status LockManager::Lock(LockingContext* ctx, storage::Row* row, LockMode mode, bool* granted) {
  if (granted != nullptr) *granted = true;
  auto held = ctx->held.find(row);
  if (held != ctx->held.end() && (held->second == LockMode::kExclusive || mode == LockMode::kShared)) {
    return Status::OK();
  }
  if (ctx->wounded()) {
    return ctx->WoundedStatus();
  }
  const bool upgrade = held != ctx->held.end();
  Bucket& b = BucketOf(row);
  const auto deadline = std::chrono::steady_clock::now() + lock_timeout_;
  std::unique_lock lock(b.mu);
  std::vector<LockingContext*> holders;
  bool queued = false;
  // Leaves the row's queue; drops the entry when nobody holds or wants it.
  // Requests queued behind this one may have waited for it alone: they
  // are woken to look again.
  auto leave = [&](Entry& e) {
    if (queued) {
      e.waiting.erase(std::find_if(e.waiting.begin(), e.waiting.end(), [&](const auto& w) { return w.first == ctx; }));
      for (LockingContext* waiter : b.waiters) {
        if (waiter != ctx) waiter->Signal();
      }
    }
    if (e.owners.empty() && e.waiting.empty()) b.entries.erase(row);
  };
  for (;;) {
    Entry& e = b.entries[row];
    // Who stands in the way: owners with an incompatible mode and, unless
    // this is an upgrade (whose waiting could deadlock with a waiter that
    // waits for it), incompatible requests queued before this one. Not
    // overtaking the queue is what keeps a waiting older transaction from
    // starving while younger ones re-take a shared lock over and over.
    holders.clear();
    for (const auto& [owner, owner_mode] : e.owners) {
      if (owner != ctx && (mode == LockMode::kExclusive || owner_mode == LockMode::kExclusive)) {
        holders.push_back(owner);
      }
    }
    if (!upgrade) {
      for (const auto& [waiter, waiter_mode] : e.waiting) {
        if (waiter == ctx) break;  // those behind do not count
        if (mode == LockMode::kExclusive || waiter_mode == LockMode::kExclusive) holders.push_back(waiter);
      }
    }
    if (holders.empty()) {
      if (upgrade) {
        for (auto& o : e.owners) {
          if (o.first == ctx) o.second = mode;
        }
      } else {
        e.owners.emplace_back(ctx, mode);
      }
      ctx->held[row] = mode;
      leave(e);
      return Status::OK();
    }
    if (granted != nullptr) {  // NOWAIT, SKIP LOCKED: not a conflict, no wait
      *granted = false;
      leave(e);
      return Status::OK();
    }
    Status status = Arbitrate(rule_, ctx, holders, "a row", row->table_id);
    if (!status.ok()) {
      leave(e);
      return status;
    }
    if (!queued) {
      e.waiting.emplace_back(ctx, mode);
      queued = true;
    }
    ctx->ArmSignal();
    b.waiters.push_back(ctx);
    lock.unlock();
    waiting_->fetch_add(1, std::memory_order_acq_rel);
    bool signaled = ctx->WaitSignal(deadline);
    waiting_->fetch_sub(1, std::memory_order_acq_rel);
    lock.lock();
    b.waiters.erase(std::find(b.waiters.begin(), b.waiters.end(), ctx));
    if (ctx->canceled()) {  // not a conflict: no abort reason, never retried
      leave(b.entries[row]);
      return CanceledStatus();
    }
    if (ctx->wounded()) {
      leave(b.entries[row]);
      return ctx->WoundedStatus();
    }
    if (!signaled) {
      leave(b.entries[row]);
      return ctx->Conflict(AbortReason::kLockTimeout,
                           "canceling statement due to lock timeout (waited " + std::to_string(lock_timeout_.count()) +
                               " ms for a row lock)");
    }
  }
}

void LockManager::ReleaseAll(LockingContext* ctx) {
  for (const auto& [row, mode] : ctx->held) {
    Bucket& b = BucketOf(row);
    std::lock_guard lock(b.mu);
    auto it = b.entries.find(row);
    if (it != b.entries.end()) {
      auto& owners = it->second.owners;
      owners.erase(std::remove_if(owners.begin(), owners.end(), [&](const auto& o) { return o.first == ctx; }),
                   owners.end());
      if (owners.empty() && it->second.waiting.empty()) b.entries.erase(it);
    }
    for (LockingContext* waiter : b.waiters) waiter->Signal();
  }
  ctx->held.clear();
}

}  // namespace paceline::cc
