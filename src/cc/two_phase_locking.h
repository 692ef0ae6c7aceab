// TwoPhaseLocking ("2pl", "2pl-wait-die", "2pl-wound-wait"): strict
// two-phase locking. Every row read is share-locked (exclusively when the
// statement will write it: UPDATE, DELETE, SELECT ... FOR UPDATE), every
// row written is exclusively locked, scanned key ranges are range-locked
// (PredicateLockTable), and every lock is held until the transaction commits
// or aborts. A conflicting request follows the DeadlockRule of the variant
// (locking_context.h): NO_WAIT aborts the requester — the 2PL of the
// reference paper's Peloton —, WAIT_DIE and WOUND_WAIT wait by age.
// Commit installs the buffered writes with all locks held, then releases.
// Row-locking clauses: FOR SHARE / KEY SHARE take the shared lock any read
// takes; NOWAIT and SKIP LOCKED take a lock only when it is free at once
// (no owner or earlier request in a conflicting mode), never waiting or
// aborting for it.
//
// Thread-safety: as ConcurrencyControl.
#pragma once

#include <libcuckoo/cuckoohash_map.hh>

#include <atomic>
#include <memory>
#include <string>

#include "cc/lock_manager.h"
#include "cc/predicate_lock_table.h"

namespace paceline::cc {

class TwoPhaseLocking : public ConcurrencyControl {
 public:
  TwoPhaseLocking(DeadlockRule rule, const CcOptions& options);
  std::string_view Name() const override;

  std::unique_ptr<TransactionContext> Begin(TxnTimestamp timestamp) override;
  Status Read(TransactionContext* ctx, storage::Row* row, bool for_update, size_t predicate,
              const storage::Tuple** image) override;
  Status ReadForUniqueCheck(TransactionContext* ctx, storage::Row* row, const storage::Tuple** image) override;
  Status ReadLocked(TransactionContext* ctx, storage::Row* row, RowLock lock, size_t predicate,
                    const storage::Tuple** image, bool* available) override;
  Status PrepareWrite(TransactionContext* ctx, storage::Row* row) override;
  Status PrepareInsert(TransactionContext* ctx, storage::Row* row) override;
  Status InsertedKey(TransactionContext* ctx, const storage::Table* table, const storage::Index* index,
                     const std::string& entry_key) override;
  Status LockPredicate(TransactionContext* ctx, Predicate predicate, size_t* handle) override;
  void NarrowPredicate(TransactionContext* ctx, size_t handle, const std::string& last) override;
  Status Commit(TransactionContext* ctx, CommitHooks* hooks) override;
  void Abort(TransactionContext* ctx) override;
  size_t Waiting() const override { return waiting_.load(std::memory_order_acquire); }
  std::vector<RowLockState> RowLocks() const override { return locks_.Snapshot(); }
  std::vector<RangeLockState> RangeLocks() const override;
  // Wait-die: `me` dies when one of `ahead` is older; wound-wait: the
  // younger of `ahead` are wounded and `me` waits; NO_WAIT: it waits (no
  // lock wait exists that an outside wait could close a cycle with).
  Status ArbitrateOutsideWait(TransactionContext* me, const std::vector<TransactionContext*>& ahead,
                              const std::string& what, bool* wounded) override;
  bool HoldsLocks(TransactionContext* me) const override;
  Status OutsideWaitStatus(TransactionContext* me) override;

 private:
  // The range locks of an index (or, for nullptr, of the table's scans).
  PredicateLockTable* TableFor(const storage::Table* table, const storage::Index* index);
  void ReleaseAll(TransactionContext* ctx);

  const DeadlockRule rule_;
  const CcOptions options_;
  std::atomic<size_t> waiting_{0};  // shared with the lock tables
  LockManager locks_;
  // Mutable: RangeLocks (const) reads it through lock_table().
  mutable libcuckoo::cuckoohash_map<const void*, std::shared_ptr<PredicateLockTable>> predicate_tables_;
};

}  // namespace paceline::cc
