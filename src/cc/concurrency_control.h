// ConcurrencyControl: the interface every concurrency-control algorithm
// implements (OCC, 2PL with NO_WAIT, WAIT_DIE or WOUND_WAIT), chosen at run
// time by name (cc_registry.h). The engine's Transaction calls it at each
// access; the algorithm keeps its per-transaction state in a
// TransactionContext it creates.
//
// The engine's side of the contract (engine/transaction.cc):
//   - Writes are buffered in the engine until Commit: installing them is the
//     engine's CommitHooks::Install, which the algorithm calls at the point
//     of its choosing (OCC: after locking and validation; 2PL: with all
//     locks held).
//   - Every committed image read goes through Read (not for rows the
//     transaction itself wrote: those are its own).
//   - Before updating or deleting a row: PrepareWrite. For a new row, before
//     its first index entry exists: PrepareInsert. After adding an index
//     entry for a new key (an insert, or an update that changes the key):
//     InsertedKey.
//   - Before scanning a key range of an index (or the whole table): Lock-
//     Predicate; after a unique lookup that found no live row: Lock-
//     Predicate for that key, then look again (serializable isolation
//     includes phantoms: an insert into a range a concurrent transaction
//     scanned must not let both commit if that breaks serializability).
//   - When a unique key's entry points at another row, ReadForUniqueCheck
//     reads that row, failing with a conflict when the row is another
//     transaction's uncommitted insert or write.
//   - Commit or Abort exactly once, at the end.
// A conflict is a Status with SQLSTATE 40001 (serialization_failure) or
// 40P01 (deadlock_detected), and ctx->abort_reason() names it; lock waits
// longer than lock_timeout fail with 55P03 (reason kLockTimeout); a lock
// wait whose context's CancelToken is canceled fails with 57014 at once
// (reason kNone: not a conflict).
//
// Thread-safety: a ConcurrencyControl is shared by all threads; a
// TransactionContext is used by one thread at a time. Ownership: the
// Database owns the ConcurrencyControl; the engine's Transaction owns its
// context, and rows and indexes outlive every transaction that uses them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cc/abort_reason.h"
#include "common/cancel_token.h"
#include "common/status.h"
#include "engine/storage/index.h"
#include "engine/storage/row.h"
#include "engine/storage/table.h"

namespace paceline::cc {

struct CcOptions {
  // How long a 2PL waiter (WAIT_DIE, WOUND_WAIT) waits before 55P03.
  std::chrono::milliseconds lock_timeout{10000};
};

// A read predicate: a key range of one index, one key of a unique index
// (`point`), or the whole table (index == nullptr).
struct Predicate {
  const storage::Table* table = nullptr;
  const storage::Index* index = nullptr;
  std::string lower;  // entry keys in [lower, upper); upper "" = unbounded
  std::string upper;
  bool point = false;  // lower is one unique key (upper unused)
};

// Per-transaction state of an algorithm.
class TransactionContext {
 public:
  explicit TransactionContext(uint64_t timestamp) : timestamp_(timestamp) {}
  virtual ~TransactionContext() = default;
  TransactionContext(const TransactionContext&) = delete;
  TransactionContext& operator=(const TransactionContext&) = delete;

  // The transaction's age: smaller is older. Kept across retries.
  uint64_t timestamp() const { return timestamp_; }
  AbortReason abort_reason() const { return abort_reason_; }
  // The token that cancels this transaction's running statement (borrowed,
  // may be null): algorithms that wait for locks wake up and fail with
  // 57014 when it is canceled (not a conflict: abort_reason() stays kNone).
  void set_cancel_token(const CancelToken* token) { cancel_ = token; }
  const CancelToken* cancel_token() const { return cancel_; }
  bool canceled() const { return cancel_ != nullptr && cancel_->canceled(); }

 protected:
  // The conflict status for `reason`, remembering the reason.
  Status Conflict(AbortReason reason, std::string message);

 private:
  const uint64_t timestamp_;
  AbortReason abort_reason_ = AbortReason::kNone;
  const CancelToken* cancel_ = nullptr;
};

// What the engine does at commit, called by the algorithm.
class CommitHooks {
 public:
  virtual ~CommitHooks() = default;
  // The rows the transaction writes (updates, deletes, inserts).
  virtual const std::vector<storage::Row*>& WriteRows() = 0;
  // Whether every unique index entry the transaction added still points at
  // its row (another transaction may have taken over a key whose old row
  // looked stale). Called with the write set locked.
  virtual bool StillOwnsKeys() = 0;
  // Installs the new images and maintains the indexes.
  virtual void Install() = 0;
};

class ConcurrencyControl {
 public:
  virtual ~ConcurrencyControl() = default;
  // The name used to select it (--cc=NAME): "occ", "2pl", ...
  virtual std::string_view Name() const = 0;

  virtual std::unique_ptr<TransactionContext> Begin(uint64_t timestamp) = 0;
  // The committed image of `row` (nullptr: absent or not yet committed).
  // `for_update`: the transaction will write it (2PL locks exclusively now).
  virtual Status Read(TransactionContext* ctx, storage::Row* row, bool for_update,
                      const storage::Tuple** image) = 0;
  virtual Status ReadForUniqueCheck(TransactionContext* ctx, storage::Row* row, const storage::Tuple** image) = 0;
  // After the entry of a unique key was repointed from `previous` (found
  // stale by ReadForUniqueCheck) to a row of this transaction: a conflict if
  // `previous` changed since that read (a committer may have given it the
  // key in between). Algorithms that lock what they read return OK.
  virtual Status ConfirmTakeover(TransactionContext* ctx, storage::Row* previous) {
    (void)ctx;
    (void)previous;
    return Status::OK();
  }
  virtual Status PrepareWrite(TransactionContext* ctx, storage::Row* row) = 0;
  virtual Status PrepareInsert(TransactionContext* ctx, storage::Row* row) = 0;
  // `entry_key` was added to `index` of `table` (index nullptr: a new row
  // of the table, for whole-table predicates).
  virtual Status InsertedKey(TransactionContext* ctx, const storage::Table* table, const storage::Index* index,
                             const std::string& entry_key) = 0;
  // Registers a predicate read; returns a handle for NarrowPredicate.
  virtual Status LockPredicate(TransactionContext* ctx, Predicate predicate, size_t* handle) = 0;
  // A range scan stopped early at entry key `last` (inclusive): the rest
  // of the range was not read and need not be protected.
  virtual void NarrowPredicate(TransactionContext* ctx, size_t handle, const std::string& last) = 0;

  // Whether what the transaction has read so far is still current, for a
  // transaction about to end without committing (an error, a business
  // rollback) that may have acted on an inconsistent view: OCC lets a
  // transaction read a mix of versions until it validates. OCC checks the
  // rows read (not the scanned predicates: a failed statement may have
  // stopped a scan half way). A conflict status (and abort_reason) when
  // not; `own_writes` are the rows the transaction writes. Algorithms whose
  // reads are always consistent (2PL) return OK.
  virtual Status Validate(TransactionContext* ctx, const std::vector<storage::Row*>& own_writes) {
    (void)ctx;
    (void)own_writes;
    return Status::OK();
  }
  // Commits: OK, or a conflict (then the engine aborts).
  virtual Status Commit(TransactionContext* ctx, CommitHooks* hooks) = 0;
  // Ends a transaction that does not commit (after the engine undid its
  // writes).
  virtual void Abort(TransactionContext* ctx) = 0;

  // Transactions waiting for a lock right now (0 for algorithms that never
  // wait). For tests and monitoring.
  virtual size_t Waiting() const { return 0; }
};

}  // namespace paceline::cc
