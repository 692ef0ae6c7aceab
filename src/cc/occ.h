// Occ ("occ"): optimistic concurrency control in the style of Silo
// (Tu et al., SOSP 2013).
//
// Each row's cc_word is [lock bit | pending bit | 62-bit version].
//   Read:   read the word, the image and the word again; record (row,
//           version) in the read set. No locks, no shared writes.
//   Write:  buffered by the engine until commit. A new row is marked
//           pending (an uncommitted insert: invisible to readers, and a
//           conflict for a concurrent insert of the same unique key).
//   Commit: (1) lock the write set in a global order (row address), waiting
//           by yielding for a committer that holds one; (2) check that every
//           unique key entry added is still ours; (3) validate: every read
//           row still has its version and is not locked by another
//           committer, and every predicate (scanned range, missed key, whole
//           table) gives the same visible rows as before — rescanned, since
//           a new row in a scanned range is a phantom; (4) install the
//           images; (5) publish: version + 1, unlock.
// The serialization point is the moment the write set is locked and
// validation starts. Aborts never wait: a failed validation releases the
// locks and returns 40001.
//
// Thread-safety: as ConcurrencyControl.
#pragma once

#include "cc/concurrency_control.h"

namespace paceline::cc {

class Occ : public ConcurrencyControl {
 public:
  explicit Occ(const CcOptions& options) : options_(options) {}
  std::string_view Name() const override { return "occ"; }

  std::unique_ptr<TransactionContext> Begin(uint64_t timestamp) override;
  Status Read(TransactionContext* ctx, storage::Row* row, bool for_update, const storage::Tuple** image) override;
  Status ReadForUniqueCheck(TransactionContext* ctx, storage::Row* row, const storage::Tuple** image) override;
  Status ConfirmTakeover(TransactionContext* ctx, storage::Row* previous) override;
  Status PrepareWrite(TransactionContext* ctx, storage::Row* row) override;
  Status PrepareInsert(TransactionContext* ctx, storage::Row* row) override;
  Status InsertedKey(TransactionContext* ctx, const storage::Table* table, const storage::Index* index,
                     const std::string& entry_key) override;
  Status LockPredicate(TransactionContext* ctx, Predicate predicate, size_t* handle) override;
  void NarrowPredicate(TransactionContext* ctx, size_t handle, const std::string& last) override;
  Status Validate(TransactionContext* ctx, const std::vector<storage::Row*>& own_writes) override;
  Status Commit(TransactionContext* ctx, CommitHooks* hooks) override;
  void Abort(TransactionContext* ctx) override;

  static constexpr uint64_t kLockBit = uint64_t{1} << 63;
  static constexpr uint64_t kPendingBit = uint64_t{1} << 62;
  static constexpr uint64_t kVersionMask = kPendingBit - 1;

 private:
  CcOptions options_;
};

}  // namespace paceline::cc
