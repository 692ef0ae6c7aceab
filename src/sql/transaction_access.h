// TransactionAccess: what a statement does through the transaction it runs
// in — reads and writes of rows under concurrency control, and the
// statement context the transaction carries (cancel token, sequences,
// advisory locks, system catalogs, EXPLAIN ANALYZE counters, the statements
// that enforce foreign keys, the deferred checks). The SQL layer declares
// it and runs on it; the engine's Transaction implements it, so SQL never
// reaches up into the engine (as SequenceAccess and NotificationSink).
//
// Writes are private to the transaction until it commits: Read returns the
// transaction's own pending image. A conflict is an error status (see
// cc::ConcurrencyControl); the caller rolls the statement back to its Mark.
//
// Thread-safety: used by one thread at a time (the thread running the
// statement). Ownership: the engine owns the transaction; the executor
// borrows it for one statement.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cc/concurrency_control.h"
#include "common/cancel_token.h"
#include "common/status.h"
#include "sql/notification_sink.h"
#include "storage/table.h"

namespace paceline::sql {

class SequenceAccess;
class AdvisoryLockAccess;
class SystemInfo;
class PlanCounters;
class StatementPreparer;
class DeferredConstraints;

class TransactionAccess : public NotificationSink {
 public:
  ~TransactionAccess() override = default;

  // The image of `row` this transaction sees: its own pending write if any
  // (nullptr for its own delete), else the committed tuple (nullptr:
  // absent). `for_update`: the statement will write the row. `predicate`:
  // the handle of the declared predicate whose scan reached the row
  // (cc::kNoPredicate: none).
  virtual Status Read(storage::Row* row, bool for_update, const storage::Tuple** image, size_t predicate) = 0;
  Status Read(storage::Row* row, bool for_update, const storage::Tuple** image) {
    return Read(row, for_update, image, cc::kNoPredicate);
  }
  // The image Read would give, read without concurrency control: no lock,
  // no read-set entry, no conflict (SKIP LOCKED's scan, which reads again
  // through ReadLocked what it returns).
  virtual const storage::Tuple* Peek(storage::Row* row) const = 0;
  // Read under a row-locking clause (ConcurrencyControl::ReadLocked): a row
  // this transaction wrote is its own, available; otherwise *available is
  // false, with nothing read, when `lock` does not wait and another
  // transaction holds the row.
  virtual Status ReadLocked(storage::Row* row, cc::RowLock lock, const storage::Tuple** image, size_t predicate,
                            bool* available) = 0;
  // Declares a predicate read (before scanning it); see ConcurrencyControl.
  virtual Status LockPredicate(cc::Predicate predicate, size_t* handle) = 0;
  virtual void NarrowPredicate(size_t handle, const std::string& last) = 0;
  virtual void NarrowTableScan(size_t handle, size_t positions) = 0;

  // Inserts a new row with image `tuple` into `table` (the row, when
  // `inserted` is given, in *inserted). 23505 (naming the constraint and
  // key) when a unique index already holds the key.
  virtual Status Insert(storage::Table* table, storage::TuplePtr tuple, storage::Row** inserted) = 0;
  // INSERT .. ON CONFLICT's insert: as Insert, except that when a live row
  // (committed, or this transaction's own) already holds the new row's key
  // in one of `arbiters` (unique indexes of `table`), nothing is inserted,
  // `*holder` names that row and `*tuple` stays the caller's; otherwise
  // `*holder` is nullptr and the row is inserted. The arbiters are checked
  // before the other indexes, so their conflict wins over a duplicate key in
  // another index (23505). Another transaction's uncommitted row holding the
  // key is a conflict, as for Insert. The holder was read as for a unique
  // check (locked shared under 2PL, validated at commit under OCC).
  // `*inserted` is the row the new image went to (nullptr with a holder).
  virtual Status InsertOrFindHolder(storage::Table* table, storage::TuplePtr* tuple,
                                    std::span<const storage::Index* const> arbiters, storage::Row** holder,
                                    storage::Row** inserted) = 0;
  // Replaces the image of a row this transaction can see; `old_image` is
  // what Read(row) gave it (not read again). 23505 as Insert when an
  // updated unique key collides.
  virtual Status Update(storage::Table* table, storage::Row* row, storage::TuplePtr tuple,
                        const storage::Tuple* old_image) = 0;
  // Deletes a row this transaction can see.
  virtual Status Delete(storage::Table* table, storage::Row* row) = 0;

  // A unique key this transaction moved away from a committed row (an
  // UPDATE of the key, or of a partial index's condition: closing the open
  // job) and then gave to another row keeps its entry on the old row until
  // commit, so that other transactions still find the committed row there.
  // Meanwhile this transaction's own lookups of `key` in `index` find the
  // new row through HandedOverRow (the executor asks it when an entry's row
  // no longer holds the entry's key for this transaction). nullptr: no
  // such row.
  virtual storage::Row* HandedOverRow(const storage::Index* index, const std::string& key) const = 0;

  // A savepoint for statement-level rollback (the engine rolls back to it).
  virtual size_t Mark() const = 0;
  // A check point: 57014 when canceled (counted in CancelToken::checks()).
  virtual Status CheckCanceled() const = 0;

  // The transaction's age (smaller is older), as the 2PL rules order it.
  virtual TxnTimestamp timestamp() const = 0;
  // The token that cancels the running statement (may be null), for waits
  // that a cancel must end (pg_sleep).
  virtual const CancelToken* cancel_token() const = 0;
  // nextval & co.'s view of the sequences (may be null: the sequence
  // functions then fail).
  virtual SequenceAccess* sequences() const = 0;
  // pg_advisory_lock & co.'s locks (may be null: the functions then fail).
  virtual AdvisoryLockAccess* advisory_locks() const = 0;
  // The session's view of the catalog and itself, for the system catalogs
  // (may be null outside a session).
  virtual SystemInfo* system_info() const = 0;
  // EXPLAIN ANALYZE's counters of the plan's rows (null: count nothing).
  virtual PlanCounters* plan_counters() const = 0;
  // What prepares the statements that enforce foreign keys (may be null: a
  // statement that must enforce one then fails).
  virtual StatementPreparer* statements() const = 0;
  // This transaction's deferred foreign keys (made on first use); a
  // rollback to a mark drops the checks deferred after it.
  virtual DeferredConstraints& deferred_constraints() = 0;
  // Whether checks wait for commit (or SET CONSTRAINTS .. IMMEDIATE).
  virtual bool has_deferred_checks() const = 0;
};

}  // namespace paceline::sql
