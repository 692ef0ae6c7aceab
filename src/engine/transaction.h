// Transaction: one transaction's private write set, its reads through
// concurrency control, and its commit/abort.
//
// Writes are buffered: INSERT, UPDATE and DELETE build new tuple images that
// only this transaction sees (Read returns them) until Commit installs them.
// So a failed statement or a ROLLBACK leaves nothing behind, and the same
// structure serves every algorithm of src/cc: the ConcurrencyControl is
// told of every read, write and scanned predicate, and decides at Commit
// (calling back Install with the write set locked or validated). Inserts
// enter the indexes at once, pointing at a row that stays absent for
// everybody else until commit, so the transaction finds its own rows and a
// duplicate unique key is caught at the statement that makes it.
//
// It is the sql::TransactionAccess the SQL executor runs statements on.
//
// Mark()/RollbackTo() give statement-level atomicity: a statement that fails
// half-way is undone to the mark taken before it.
//
// Memory: a transaction pins the database's epoch from Start to its end, so
// tuples and rows replaced or released meanwhile by others stay readable;
// what it replaces itself is retired to the EpochManager.
//
// Thread-safety: a Transaction is used by one thread at a time (it may move
// between threads). Ownership: borrows the ConcurrencyControl and the
// EpochManager, which outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "cc/concurrency_control.h"
#include "common/cancel_token.h"
#include "common/ids.h"
#include "common/status.h"
#include "engine/durability/durability.h"
#include "sql/transaction_access.h"
#include "storage/epoch_manager.h"
#include "storage/table.h"

namespace paceline::engine {

class Transaction final : private cc::CommitHooks, public sql::TransactionAccess {
 public:
  // `timestamp` orders transactions by age for the 2PL waiting rules
  // (smaller is older; a retried transaction keeps its first timestamp).
  Transaction(cc::ConcurrencyControl* cc, storage::EpochManager* epoch, TxnTimestamp timestamp);
  ~Transaction() override;  // aborts if neither committed nor aborted
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Pins the epoch and begins the concurrency-control context; 53300 when
  // too many transactions are open.
  Status Start();

  // Row access (sql::TransactionAccess, whose header states each contract).
  Status Read(storage::Row* row, bool for_update, const storage::Tuple** image,
              size_t predicate = cc::kNoPredicate) override;
  const storage::Tuple* Peek(storage::Row* row) const override;
  Status ReadLocked(storage::Row* row, cc::RowLock lock, const storage::Tuple** image, size_t predicate,
                    bool* available) override;
  Status LockPredicate(cc::Predicate predicate, size_t* handle) override {
    return cc_->LockPredicate(ctx_.get(), std::move(predicate), handle);
  }
  void NarrowPredicate(size_t handle, const std::string& last) override {
    cc_->NarrowPredicate(ctx_.get(), handle, last);
  }
  void NarrowTableScan(size_t handle, size_t positions) override {
    cc_->NarrowTableScan(ctx_.get(), handle, positions);
  }
  Status Insert(storage::Table* table, storage::TuplePtr tuple, storage::Row** inserted = nullptr) override;
  Status InsertOrFindHolder(storage::Table* table, storage::TuplePtr* tuple,
                            std::span<const storage::Index* const> arbiters, storage::Row** holder,
                            storage::Row** inserted) override;
  Status Update(storage::Table* table, storage::Row* row, storage::TuplePtr tuple,
                const storage::Tuple* old_image) override;
  Status Delete(storage::Table* table, storage::Row* row) override;

  bool has_writes() const { return !writes_.empty(); }
  // Whether this transaction has a pending write (insert, update, delete) to `table`.
  bool HasWritesTo(const storage::Table* table) const;
  size_t write_count() const { return writes_.size(); }

  // The token that cancels this transaction's running statement (borrowed,
  // may be null; it must outlive the transaction). Lock waits wake up on a
  // cancel; the executor and the statement runners poll it.
  void SetCancelToken(const CancelToken* token);
  bool canceled() const { return cancel_ != nullptr && cancel_->canceled(); }
  // The token itself (may be null), for waits that a cancel must end (pg_sleep).
  const CancelToken* cancel_token() const override { return cancel_; }
  // nextval & co.'s view of the sequences (borrowed, may be null: the
  // sequence functions then fail); set before the first statement.
  void SetSequences(sql::SequenceAccess* sequences) { sequences_ = sequences; }
  sql::SequenceAccess* sequences() const override { return sequences_; }
  // pg_advisory_lock & co.'s locks (borrowed, may be null: the functions
  // then fail); set before the first statement.
  void SetAdvisoryLocks(sql::AdvisoryLockAccess* locks) { advisory_locks_ = locks; }
  sql::AdvisoryLockAccess* advisory_locks() const override { return advisory_locks_; }
  // The session's view of the catalog and itself, for the system catalogs
  // (borrowed; may stay null outside a session).
  void SetSystemInfo(sql::SystemInfo* info) { system_info_ = info; }
  sql::SystemInfo* system_info() const override { return system_info_; }
  // EXPLAIN ANALYZE: where the statements run now count their plan's rows
  // (borrowed; null, the default, counts nothing).
  void SetPlanCounters(sql::PlanCounters* counters) { plan_counters_ = counters; }
  sql::PlanCounters* plan_counters() const override { return plan_counters_; }
  // What prepares the statements that enforce foreign keys (borrowed, may
  // be null: a statement that must enforce one then fails).
  void SetStatements(sql::StatementPreparer* statements) { statements_ = statements; }
  sql::StatementPreparer* statements() const override { return statements_; }
  sql::DeferredConstraints& deferred_constraints() override;  // RollbackTo drops the later ones
  bool has_deferred_checks() const override;
  // NOTIFY / pg_notify: a notification for listeners of `channel`, sent
  // when this transaction commits (the caller publishes TakeNotifications);
  // RollbackTo drops it with the statement that sent it.
  void Notify(std::string channel, std::string payload) override;
  // After Commit: the notifications to publish, in the order sent, each
  // (channel, payload) once (as PostgreSQL folds duplicates).
  std::vector<std::pair<std::string, std::string>> TakeNotifications();
  Status CheckCanceled() const override {
    return cancel_ != nullptr && cancel_->Poll() ? CanceledStatus() : Status::OK();
  }

  // A unique key moved off a committed row keeps its entry there until
  // commit; Publish hands the entry over (see TransactionAccess).
  storage::Row* HandedOverRow(const storage::Index* index, const std::string& key) const override;

  // Savepoint for statement-level rollback.
  size_t Mark() const override { return undo_.size(); }
  void RollbackTo(size_t mark);

  // After a statement that read, when earlier statements read too: a
  // conflict status when a row or predicate any statement read has changed
  // since (committed by another transaction), so that the statement fails
  // at once instead of returning a result that contradicts the
  // transaction's earlier reads (see ConcurrencyControl::Validate).
  // `predicates`: only the first that many predicates (kAllPredicates: all;
  // after a failed statement, those of the statements before it).
  Status CheckReadsCurrent(size_t predicates = cc::ConcurrencyControl::kAllPredicates) {
    return cc_->Validate(ctx_.get(), WriteRows(), predicates);
  }
  size_t Predicates() const { return cc_->Predicates(ctx_.get()); }
  // Reads and predicates recorded so far (ConcurrencyControl::Observations).
  size_t Observations() const { return cc_->Observations(ctx_.get()); }

  // For a transaction about to end on `failure` (an error or a business
  // rollback, not a conflict): the conflict status instead when the reads
  // it acted on are no longer current (see ConcurrencyControl::Validate),
  // then abort_reason() names it; otherwise `failure`. Aborts nothing.
  Status Explain(Status failure);
  // Validates and installs every write. On a conflict the transaction is
  // aborted and the conflict returned (abort_reason() names it).
  Status Commit();
  // Discards every write and removes the index entries it added.
  void Abort();
  bool finished() const { return finished_; }
  // The redo log its commit appends to (borrowed, may be null: in memory
  // only). Set before Commit.
  void SetDurability(durability::Durability* durability) { durability_ = durability; }
  // After a Commit that wrote: the LSN of its redo record; Lsn() otherwise.
  Lsn commit_lsn() const { return commit_lsn_; }
  cc::AbortReason abort_reason() const { return ctx_ ? ctx_->abort_reason() : cc::AbortReason::kNone; }
  // The table the concurrency control blamed for the conflict (Table::id()),
  // or kNoCulpritTable.
  TableId culprit_table() const { return ctx_ ? ctx_->culprit_table() : cc::kNoCulpritTable; }
  TxnTimestamp timestamp() const override { return timestamp_; }
  // Its concurrency-control context (null before Begin), for waits outside
  // the algorithm that keep its deadlock rule (conflict lanes).
  cc::TransactionContext* context() { return ctx_.get(); }

 private:
  // Whether this transaction wrote `row`; then *image is its pending image
  // (nullptr for its own delete).
  bool OwnImage(storage::Row* row, const storage::Tuple** image) const;

  struct Write {
    storage::Table* table = nullptr;
    storage::TuplePtr image;  // nullptr: deleted
    bool inserted = false;    // the row was created by this transaction
  };
  // One undo record: a change to the write set, an index entry added, or
  // a notification sent (the last of notifications_).
  struct Undo {
    // kHandover: `index`'s entry for `key` stays on `replaced` (a row this
    // transaction moved off the key) until Publish gives it to `row`.
    // kKeptEntry: `index`'s entry for `key` was on `row` already when this
    // transaction's image of it took the key (another transaction's pending
    // change of the row added it, or it is stale): not this transaction's to
    // undo, but one its commit relies on, so StillOwnsKeys puts it back if
    // it is gone (see RestoreEntry for the other side).
    enum class Kind { kWrite, kIndexEntry, kNotification, kHandover, kKeptEntry };
    Kind kind = Kind::kWrite;
    storage::Row* row = nullptr;
    // kWrite: the write-set entry before the change (had_write false: none).
    bool had_write = false;
    Write previous;
    // kIndexEntry: entry added to `index` (restores `replaced` on undo).
    storage::Index* index = nullptr;
    std::string key;
    bool has_null = false;
    storage::Row* replaced = nullptr;
  };

  // Undoes an entry this transaction added (Index::Restore), never inside
  // another transaction's commit of the row (cc::UndoBesideCommits); if the
  // row's committed image holds the key (another transaction that found the
  // entry on the row, a kKeptEntry of its own, committed it), the entry
  // stays on the row.
  void RestoreEntry(const Undo& undo);
  // Whether this transaction's final image of undo.row has undo.key in
  // undo.index (`scratch` holds the key it computed).
  bool FinalImageHasKey(const Undo& undo, std::string* scratch) const;
  // Whether `existing`, a row of this transaction's write set, held `key`
  // of `index` when committed but no longer does for this transaction.
  bool MovedOffKey(const storage::Index* index, const std::string& key, storage::Row* existing) const;
  // Adds index entries for `image` of `row` in every index whose key differs
  // from `old_image`'s (all when old_image is null).
  // `arbiters` and `holder` as InsertOrFindHolder (holder nullptr: none;
  // a found holder leaves the entries added so far for the caller to undo).
  Status AddIndexEntries(storage::Table* table, storage::Row* row, const storage::Tuple& image,
                         const storage::Tuple* old_image, std::span<const storage::Index* const> arbiters,
                         storage::Row** holder);
  // Insert and InsertOrFindHolder (`holder` nullptr for Insert); the row
  // written, when it was, in `*inserted`.
  Status InsertUnlessHeld(storage::Table* table, storage::TuplePtr* tuple,
                          std::span<const storage::Index* const> arbiters, storage::Row** holder,
                          storage::Row** inserted);
  void RecordWrite(storage::Table* table, storage::Row* row, storage::TuplePtr image, bool inserted);
  // Makes `tuple` the new image of existing `row` (index entries for keys
  // that differ from `old_image`'s added; undone on error).
  Status WriteOver(storage::Table* table, storage::Row* row, storage::TuplePtr* tuple,
                   const storage::Tuple* old_image, std::span<const storage::Index* const> arbiters,
                   storage::Row** holder);
  // A committed row this transaction deleted whose unique key `tuple`
  // takes again (an insert then reuses that row), or nullptr.
  storage::Row* DeletedHolderOf(storage::Table* table, const storage::Tuple& tuple);
  // Hands a row nobody may reach any more back to its table, after the epoch.
  void RetireRow(storage::Table* table, storage::Row* row);
  void RetireTuple(storage::TuplePtr tuple);
  void Finish();

  // cc::CommitHooks
  const std::vector<storage::Row*>& WriteRows() override;
  bool StillOwnsKeys() override;
  void Install() override;
  // Install's work on the tables: index entries and images.
  void Publish();
  // redo_ from the write set: whole images, or with `deltas` an update of a
  // committed row as its changed columns (redo_record.h), their bases in
  // redo_bases_. Returns the bytes the record has with whole images.
  size_t EncodeRedo(bool deltas);

  cc::ConcurrencyControl* const cc_;
  storage::EpochManager* const epoch_;
  const TxnTimestamp timestamp_;
  std::unique_ptr<cc::TransactionContext> ctx_;
  const CancelToken* cancel_ = nullptr;
  sql::SequenceAccess* sequences_ = nullptr;
  sql::AdvisoryLockAccess* advisory_locks_ = nullptr;
  sql::SystemInfo* system_info_ = nullptr;
  sql::PlanCounters* plan_counters_ = nullptr;
  sql::StatementPreparer* statements_ = nullptr;
  std::unique_ptr<sql::DeferredConstraints> deferred_;
  std::vector<std::pair<std::string, std::string>> notifications_;  // (channel, payload)
  durability::Durability* durability_ = nullptr;
  std::string redo_;  // during Commit: the redo record Install appends
  // The committed images redo_'s deltas were computed from, by row.
  std::vector<std::pair<const storage::Row*, const storage::Tuple*>> redo_bases_;
  Lsn commit_lsn_;
  size_t pin_ = storage::EpochManager::kNoSlot;
  std::unordered_map<const storage::Row*, Write> writes_;
  std::vector<Undo> undo_;
  size_t handovers_ = 0;  // kHandover records in undo_
  bool deleted_rows_ = false;  // a write of an absent image was ever recorded (DeletedHolderOf)
  std::vector<storage::Row*> write_rows_;
  // Existing rows whose write a RollbackTo undid (may repeat; see WriteRows).
  std::vector<storage::Row*> undone_rows_;
  bool finished_ = false;
};

}  // namespace paceline::engine
