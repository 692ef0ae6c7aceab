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
//   - An index entry the transaction added is taken back (a rollback, whole
//     or to a savepoint) inside UndoBesideCommits for its row.
//   - Commit or Abort exactly once, at the end. A Commit that fails keeps
//     what the transaction holds (OCC: its write set's commit locks) until
//     the Abort that follows it, after the engine has undone the writes.
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
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cc/abort_reason.h"
#include "cc/row_lock.h"
#include "common/cancel_token.h"
#include "common/status.h"
#include "storage/index.h"
#include "storage/row.h"
#include "storage/table.h"

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
  // Whole table only: the scan covers the first `positions` rows in the
  // table's row order (narrowed when it stopped early).
  size_t positions = ~size_t{0};
};

// The `predicate` of a Read that no declared predicate's scan made.
inline constexpr size_t kNoPredicate = ~size_t{0};

// Per-transaction state of an algorithm.
class TransactionContext {
 public:
  explicit TransactionContext(TxnTimestamp timestamp) : timestamp_(timestamp) {}
  virtual ~TransactionContext() = default;
  TransactionContext(const TransactionContext&) = delete;
  TransactionContext& operator=(const TransactionContext&) = delete;

  // The transaction's age: smaller is older. Kept across retries.
  TxnTimestamp timestamp() const { return timestamp_; }
  AbortReason abort_reason() const { return abort_reason_; }
  // The table of the row or range that caused the conflict (Table::id()),
  // kNoCulpritTable when the algorithm could not name it. Set with the
  // conflict, for the scheduler's attribution (Scheduler::OnAbort).
  TableId culprit_table() const { return culprit_table_; }
  // The token that cancels this transaction's running statement (borrowed,
  // may be null): algorithms that wait for locks wake up and fail with
  // 57014 when it is canceled (not a conflict: abort_reason() stays kNone).
  void set_cancel_token(const CancelToken* token) { cancel_ = token; }
  const CancelToken* cancel_token() const { return cancel_; }
  bool canceled() const { return cancel_ != nullptr && cancel_->canceled(); }

 protected:
  // The conflict status for `reason`, remembering the reason.
  Status Conflict(AbortReason reason, std::string message);
  // The same, naming the table whose row or range caused it.
  Status Conflict(AbortReason reason, std::string message, TableId culprit_table) {
    culprit_table_ = culprit_table;
    return Conflict(reason, std::move(message));
  }

 private:
  const TxnTimestamp timestamp_;
  AbortReason abort_reason_ = AbortReason::kNone;
  TableId culprit_table_ = kNoCulpritTable;
  const CancelToken* cancel_ = nullptr;
};

// What the engine does at commit, called by the algorithm.
class CommitHooks {
 public:
  virtual ~CommitHooks() = default;
  // The rows the transaction writes (updates, deletes, inserts).
  virtual const std::vector<storage::Row*>& WriteRows() = 0;
  // Whether every index entry the transaction's final images rely on (one
  // it added, or found on its row when another transaction had added it)
  // is on its row, after putting back any that went missing (another
  // transaction's rollback took it back); false when another row holds
  // such a unique key (it took over a key whose old row looked stale).
  // Called with the write set locked; an entry put back stays (stale, as
  // readers allow) if the commit then fails.
  virtual bool StillOwnsKeys() = 0;
  // Installs the new images and maintains the indexes.
  virtual void Install() = 0;
};

// One row lock held or awaited now (ConcurrencyControl::RowLocks), for
// pg_locks.
struct RowLockState {
  TableId table_id;  // storage::Row::table_id
  uint64_t row_id = 0;    // storage::Row::row_id
  bool exclusive = false;
  bool granted = false;               // held, or waiting in the row's queue
  const CancelToken* owner = nullptr;  // the transaction's token (TransactionContext::cancel_token): whose it is
};

// One transaction's key-range locks on one index (or on one table's
// whole-table scans) held now, or an insert waiting for them
// (ConcurrencyControl::RangeLocks), for pg_locks.
struct RangeLockState {
  uint32_t relation_oid = 0;  // pg_class OID of the index, or of the table for a whole-table scan
  bool exclusive = false;     // an inserter's request; a scan's ranges are shared
  bool granted = false;       // held, or an insert waiting for the ranges that cover its key
  const CancelToken* owner = nullptr;
};

class ConcurrencyControl {
 public:
  virtual ~ConcurrencyControl() = default;
  // The name used to select it (--cc=NAME): "occ", "2pl", ...
  virtual std::string_view Name() const = 0;

  virtual std::unique_ptr<TransactionContext> Begin(TxnTimestamp timestamp) = 0;
  // The committed image of `row` (nullptr: absent or not yet committed).
  // `for_update`: the transaction will write it (2PL locks exclusively now).
  // `predicate`: the handle (from LockPredicate) of the scan that reached
  // the row, kNoPredicate for a read under no declared predicate; OCC
  // counts a row as seen by a predicate only when that scan read it.
  virtual Status Read(TransactionContext* ctx, storage::Row* row, bool for_update, size_t predicate,
                      const storage::Tuple** image) = 0;
  virtual Status ReadForUniqueCheck(TransactionContext* ctx, storage::Row* row, const storage::Tuple** image) = 0;
  // Read under a row-locking clause: the row is locked (2PL) or claimed
  // (OCC) in `lock`'s mode until the transaction ends, then read as Read
  // reads it. When another transaction holds it in a conflicting mode and
  // lock.wait is not kBlock, *available is false and nothing is locked,
  // read or waited for (the caller fails with 55P03 or skips the row);
  // otherwise *available is true.
  virtual Status ReadLocked(TransactionContext* ctx, storage::Row* row, RowLock lock, size_t predicate,
                            const storage::Tuple** image, bool* available) = 0;
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
  // A whole-table scan stopped early after the first `positions` rows of
  // the table's row order (Table::ForEachRow): the rest was not read.
  virtual void NarrowTableScan(TransactionContext* ctx, size_t handle, size_t positions) {
    (void)ctx;
    (void)handle;
    (void)positions;
  }

  // Whether what the transaction has read so far is still current: OCC
  // lets a transaction read a mix of versions until it validates, so the
  // engine asks after each statement of a multi-statement transaction
  // (every row read and every predicate scanned, so no statement result
  // contradicts an earlier read), when a statement fails on an error (rows
  // read, and the predicates of the statements before it: the failure may
  // come from acting on a stale view, as an INSERT that meets the key an
  // earlier SELECT found absent), and before a transaction ends without
  // committing on an error or a business rollback (rows read only). The
  // first `predicates` predicates recorded are checked (kAllPredicates:
  // all): a failed statement may have stopped a scan half way, and the rows
  // it never reached would look like phantoms. A conflict status (and
  // abort_reason) when not current; `own_writes` are the rows the
  // transaction writes. Algorithms whose reads are always consistent (2PL)
  // return OK.
  static constexpr size_t kAllPredicates = SIZE_MAX;
  virtual Status Validate(TransactionContext* ctx, const std::vector<storage::Row*>& own_writes, size_t predicates) {
    (void)ctx;
    (void)own_writes;
    (void)predicates;
    return Status::OK();
  }
  // How many predicates the transaction has recorded so far (0 for
  // algorithms that do not record them).
  virtual size_t Predicates(const TransactionContext* ctx) const {
    (void)ctx;
    return 0;
  }
  // How many reads and predicates the transaction has made so far (0 for
  // algorithms that do not record them): the engine validates after a
  // statement only when earlier statements observed something and this one
  // observed more.
  virtual size_t Observations(const TransactionContext* ctx) const {
    (void)ctx;
    return 0;
  }
  // Commits: OK, or a conflict (then the engine undoes its writes and calls
  // Abort; what the transaction holds is kept until then).
  virtual Status Commit(TransactionContext* ctx, CommitHooks* hooks) = 0;
  // Ends a transaction that does not commit (after the engine undid its
  // writes).
  virtual void Abort(TransactionContext* ctx) = 0;
  // Runs `undo`, the engine taking back an index entry this transaction
  // added for `row` (a row it writes), never inside another transaction's
  // commit of `row`: that commit may rely on the entry (StillOwnsKeys puts
  // a missing one back before it installs), so the undo sees the row either
  // before that commit's check or after its install. Called by the
  // transaction's own thread, outside Commit or after Commit failed. The
  // base, for algorithms in which a writer holds the row's lock until it
  // ends (no other transaction commits the row meanwhile): runs `undo`.
  virtual void UndoBesideCommits(TransactionContext* ctx, storage::Row* row, const std::function<void()>& undo) {
    (void)ctx, (void)row;
    undo();
  }

  // Transactions waiting for a lock right now (0 for algorithms that never
  // wait). For tests and monitoring.
  virtual size_t Waiting() const { return 0; }
  // The row locks held and awaited right now (empty for algorithms that
  // take none). Taken part by part: not one instant across all rows. For
  // monitoring (pg_locks).
  virtual std::vector<RowLockState> RowLocks() const { return {}; }
  // The key-range locks held and awaited right now, one entry per
  // transaction and index (empty for algorithms that take none). Taken
  // index by index. For monitoring (pg_locks).
  virtual std::vector<RangeLockState> RangeLocks() const { return {}; }

  // Waits outside the algorithm (the engine's conflict lanes: a transaction
  // block waits for other blocks to end) keep its deadlock rule, so that
  // they and its lock waits never wait for each other in a cycle.
  // What `me` does before it waits behind `ahead` (the transactions it
  // would wait for, named `what` in an error): OK to wait, or its abort.
  // Called with the mutex held that such waits sleep on; a transaction
  // wounded here is not woken (the caller wakes its waits when
  // `*wounded`). The base, for algorithms that never wait for a lock (OCC,
  // 2PL NO_WAIT), so that no cycle can pass through one: OK, nobody
  // wounded. (OCC's commit locks are waited for, but only by committers and
  // rollbacks that wait for nothing else: no cycle passes through them.)
  virtual Status ArbitrateOutsideWait(TransactionContext* me, const std::vector<TransactionContext*>& ahead,
                                      const std::string& what, bool* wounded) {
    (void)me, (void)ahead, (void)what;
    *wounded = false;
    return Status::OK();
  }
  // Whether `me` holds locks another transaction may wait for (called by
  // `me`'s own thread). A transaction that holds none, and nothing outside
  // the algorithm either, can wait outside it without the rule: nothing
  // waits for it, so no cycle passes through it. The base: false.
  virtual bool HoldsLocks(TransactionContext* me) const {
    (void)me;
    return false;
  }
  // OK, or the abort an outside wait of `me` must end with now (it was
  // wounded). The base: OK.
  virtual Status OutsideWaitStatus(TransactionContext* me) {
    (void)me;
    return Status::OK();
  }
};

}  // namespace paceline::cc
