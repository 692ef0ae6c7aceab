// LockManager: shared/exclusive row locks for two-phase locking, with the
// conflict rule of a DeadlockRule (locking_context.h).
//
// Lock state lives in 1024 buckets chosen by row address, each a mutex, a
// map row → owners and queued requests, and the transactions waiting on rows
// of the bucket. A request compatible with every other owner and with the
// requests queued before it is granted (S with S; an S owner alone upgrades
// to X); otherwise the rule decides — with the queued requests counting as
// holders — abort, or queue and wait until a release in the bucket (or a
// wound, or lock_timeout: 55P03, or a cancel of the context's CancelToken:
// 57014).
//
// Thread-safety: every method may be called concurrently; one context's
// calls come from one thread at a time. Ownership: contexts are borrowed
// and must release everything (ReleaseAll) before they are destroyed.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <unordered_map>
#include <vector>

#include "cc/locking_context.h"

namespace paceline::cc {

class LockManager {
 public:
  // `waiting` counts the transactions waiting at any moment (borrowed).
  LockManager(DeadlockRule rule, std::chrono::milliseconds lock_timeout, std::atomic<size_t>* waiting);
  // `granted` null: waits under the rule as above. Otherwise never waits:
  // *granted says whether the lock was granted at once (NOWAIT, SKIP
  // LOCKED), and the status is an error only for a wounded `ctx`.
  Status Lock(LockingContext* ctx, storage::Row* row, LockMode mode, bool* granted = nullptr);
  // Releases every row lock of ctx.
  void ReleaseAll(LockingContext* ctx);
  // Every lock owned and every request queued, bucket by bucket (each
  // bucket's at one instant under its mutex).
  std::vector<RowLockState> Snapshot() const;

 private:
  struct Entry {
    std::vector<std::pair<LockingContext*, LockMode>> owners;
    std::vector<std::pair<LockingContext*, LockMode>> waiting;  // in arrival order
  };
  struct alignas(64) Bucket {
    std::mutex mu;
    std::unordered_map<storage::Row*, Entry> entries;
    std::vector<LockingContext*> waiters;
  };
  static constexpr size_t kBuckets = 1024;
  Bucket& BucketOf(const storage::Row* row);

  const DeadlockRule rule_;
  const std::chrono::milliseconds lock_timeout_;
  std::atomic<size_t>* waiting_;
  std::unique_ptr<Bucket[]> buckets_;
};

}  // namespace paceline::cc
