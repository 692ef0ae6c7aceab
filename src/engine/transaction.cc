// Transaction: buffered writes, reads through concurrency control, undo to a
// statement mark, commit and abort (transaction.h); the index entries a
// write adds, their undo and their check at commit: transaction_index_entries.cc.
#include "engine/transaction.h"

#include <algorithm>
#include <set>

#include "engine/durability/redo_record.h"
#include "sql/deferred_constraints.h"
#include "engine/log/log_frame.h"

namespace paceline::engine {

using storage::Index;
using storage::Row;
using storage::Table;
using storage::Tuple;
using storage::TuplePtr;

namespace {

void FreeTuple(void* tuple, void*) { storage::TupleDeleter()(static_cast<Tuple*>(tuple)); }
void ReleaseRow(void* table, void* row) { static_cast<Table*>(table)->ReleaseRow(static_cast<Row*>(row)); }

}  // namespace

Transaction::Transaction(cc::ConcurrencyControl* cc, storage::EpochManager* epoch, TxnTimestamp timestamp)
    : cc_(cc), epoch_(epoch), timestamp_(timestamp) {}

Transaction::~Transaction() {
  if (!finished_) Abort();
}

Status Transaction::Start() {
  pin_ = epoch_->Pin();
  if (pin_ == storage::EpochManager::kNoSlot) {
    finished_ = true;
    return Status(sqlstate::kTooManyConnections, "too many concurrent transactions");
  }
  ctx_ = cc_->Begin(timestamp_);
  ctx_->set_cancel_token(cancel_);
  return Status::OK();
}

void Transaction::Finish() {
  if (pin_ != storage::EpochManager::kNoSlot) epoch_->Unpin(pin_);
  pin_ = storage::EpochManager::kNoSlot;
  finished_ = true;
}

void Transaction::RetireRow(Table* table, Row* row) { epoch_->Retire(&ReleaseRow, table, row); }

void Transaction::RetireTuple(TuplePtr tuple) {
  if (tuple != nullptr) epoch_->Retire(&FreeTuple, tuple.release(), nullptr);
}

bool Transaction::OwnImage(Row* row, const Tuple** image) const {
  if (writes_.empty()) return false;
  auto it = writes_.find(row);
  if (it == writes_.end()) return false;
  *image = it->second.image.get();
  return true;
}

Status Transaction::Read(Row* row, bool for_update, const Tuple** image, size_t predicate) {
  if (OwnImage(row, image)) return Status::OK();
  return cc_->Read(ctx_.get(), row, for_update, predicate, image);
}

const Tuple* Transaction::Peek(Row* row) const {
  const Tuple* image = nullptr;
  return OwnImage(row, &image) ? image : row->tuple.load(std::memory_order_acquire);
}

Status Transaction::ReadLocked(Row* row, cc::RowLock lock, const Tuple** image, size_t predicate, bool* available) {
  *available = true;
  if (OwnImage(row, image)) return Status::OK();
  return cc_->ReadLocked(ctx_.get(), row, lock, predicate, image, available);
}

void Transaction::RecordWrite(Table* table, Row* row, TuplePtr image, bool inserted) {
  if (image == nullptr) deleted_rows_ = true;
  Undo undo;
  undo.kind = Undo::Kind::kWrite;
  undo.row = row;
  auto it = writes_.find(row);
  if (it != writes_.end()) {
    undo.had_write = true;
    undo.previous = std::move(it->second);
    inserted = undo.previous.inserted;
    it->second = Write{table, std::move(image), inserted};
  } else {
    writes_.emplace(row, Write{table, std::move(image), inserted});
  }
  undo_.push_back(std::move(undo));
}

Row* Transaction::DeletedHolderOf(Table* table, const Tuple& tuple) {
  if (!deleted_rows_) return nullptr;  // the common insert: no lookups
  std::string key;
  for (const auto& index : table->indexes()) {
    bool has_null = false;
    if (!index->unique() || !index->KeyOf(tuple, &key, &has_null).ok() || has_null || key.empty()) continue;
    Row* existing = index->Find(key);
    if (existing == nullptr) continue;
    auto own = writes_.find(existing);
    if (own == writes_.end() || own->second.image != nullptr || own->second.inserted) continue;
    const Tuple* committed = existing->tuple.load(std::memory_order_acquire);
    std::string committed_key;
    bool committed_null = false;
    if (committed != nullptr && index->KeyOf(*committed, &committed_key, &committed_null).ok() &&
        committed_key == key) {
      return existing;
    }
  }
  return nullptr;
}

Status Transaction::Insert(Table* table, TuplePtr tuple, Row** inserted) {
  Row* row = nullptr;
  Status status = InsertUnlessHeld(table, &tuple, {}, nullptr, &row);
  if (inserted != nullptr) *inserted = row;
  return status;
}

sql::DeferredConstraints& Transaction::deferred_constraints() {
  if (!deferred_) deferred_ = std::make_unique<sql::DeferredConstraints>();
  return *deferred_;
}

bool Transaction::has_deferred_checks() const { return deferred_ && !deferred_->empty(); }

void Transaction::Notify(std::string channel, std::string payload) {
  notifications_.emplace_back(std::move(channel), std::move(payload));
  Undo undo;
  undo.kind = Undo::Kind::kNotification;
  undo_.push_back(std::move(undo));
}

std::vector<std::pair<std::string, std::string>> Transaction::TakeNotifications() {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (auto& n : notifications_) {
    if (seen.insert(n).second) out.push_back(std::move(n));
  }
  notifications_.clear();
  return out;
}

Status Transaction::InsertOrFindHolder(Table* table, TuplePtr* tuple, std::span<const Index* const> arbiters,
                                       Row** holder, Row** inserted) {
  *holder = nullptr;
  return InsertUnlessHeld(table, tuple, arbiters, holder, inserted);
}

Status Transaction::InsertUnlessHeld(Table* table, TuplePtr* tuple, std::span<const Index* const> arbiters,
                                     Row** holder, Row** inserted) {
  *inserted = nullptr;
  if (Row* deleted = DeletedHolderOf(table, **tuple)) {
    // The row this transaction deleted still holds the key for everybody
    // else until commit; the new image takes that row's place (as an update
    // of it), so the index entry never points at an uncommitted row while a
    // committed one holds its key.
    PL_RETURN_IF_ERROR(
        WriteOver(table, deleted, tuple, deleted->tuple.load(std::memory_order_acquire), arbiters, holder));
    if (holder == nullptr || *holder == nullptr) *inserted = deleted;
    return Status::OK();
  }
  Row* row = table->AllocateRow();
  Status status = cc_->PrepareInsert(ctx_.get(), row);
  if (!status.ok()) {
    RetireRow(table, row);
    return status;
  }
  size_t mark = Mark();
  // The row joins the write set first (absent to others until commit), so
  // that an undo of this statement finds and releases it.
  RecordWrite(table, row, std::move(*tuple), /*inserted=*/true);
  const Tuple& image = *writes_[row].image;
  status = AddIndexEntries(table, row, image, nullptr, arbiters, holder);
  if (status.ok() && holder != nullptr && *holder != nullptr) {
    *tuple = std::move(writes_[row].image);  // the caller's again: nothing inserted
    RollbackTo(mark);
    return Status::OK();
  }
  if (status.ok()) status = cc_->InsertedKey(ctx_.get(), table, nullptr, std::string());
  if (!status.ok()) {
    RollbackTo(mark);
    return status;
  }
  *inserted = row;
  return Status::OK();
}

Status Transaction::Update(Table* table, Row* row, TuplePtr tuple, const Tuple* old_image) {
  PL_RETURN_IF_ERROR(cc_->PrepareWrite(ctx_.get(), row));
  return WriteOver(table, row, &tuple, old_image, {}, nullptr);
}

Status Transaction::WriteOver(Table* table, Row* row, TuplePtr* tuple, const Tuple* old_image,
                              std::span<const Index* const> arbiters, Row** holder) {
  size_t mark = Mark();
  Status status = AddIndexEntries(table, row, **tuple, old_image, arbiters, holder);
  if (!status.ok() || (holder != nullptr && *holder != nullptr)) {
    RollbackTo(mark);
    return status;
  }
  RecordWrite(table, row, std::move(*tuple), /*inserted=*/false);
  return Status::OK();
}

Status Transaction::Delete(Table* table, Row* row) {
  PL_RETURN_IF_ERROR(cc_->PrepareWrite(ctx_.get(), row));
  RecordWrite(table, row, nullptr, /*inserted=*/false);
  return Status::OK();
}

bool Transaction::HasWritesTo(const Table* table) const {
  for (const auto& [row, write] : writes_) {
    if (write.table == table) return true;
  }
  return false;
}

void Transaction::RollbackTo(size_t mark) {
  if (deferred_) deferred_->RollbackTo(mark);
  // Rows this transaction inserted and now forgets go back to their table
  // (after the epoch) once their index entries are gone too.
  std::vector<std::pair<Table*, Row*>> created;
  while (undo_.size() > mark) {
    Undo& undo = undo_.back();
    if (undo.kind == Undo::Kind::kWrite) {
      if (undo.had_write) {
        writes_[undo.row] = std::move(undo.previous);
      } else {
        auto it = writes_.find(undo.row);
        if (it != writes_.end() && it->second.inserted) {
          created.emplace_back(it->second.table, undo.row);
        } else if (it != writes_.end()) {
          undone_rows_.push_back(undo.row);  // see WriteRows
        }
        writes_.erase(undo.row);
      }
    } else if (undo.kind == Undo::Kind::kNotification) {
      notifications_.pop_back();
    } else if (undo.kind == Undo::Kind::kHandover) {
      --handovers_;  // the entry never moved
    } else if (undo.kind == Undo::Kind::kIndexEntry) {
      RestoreEntry(undo);
    }  // kKeptEntry: not this transaction's entry
    undo_.pop_back();
  }
  for (auto [table, row] : created) RetireRow(table, row);
}

const std::vector<Row*>& Transaction::WriteRows() {
  write_rows_.clear();
  for (const auto& [row, write] : writes_) write_rows_.push_back(const_cast<Row*>(row));
  // Rows whose write was undone (ROLLBACK TO SAVEPOINT) count as written,
  // unchanged: a scan before the undo saw this transaction's image of them,
  // which no other transaction's write can contradict, and their committed
  // version was read (and is validated) before they were written.
  write_rows_.insert(write_rows_.end(), undone_rows_.begin(), undone_rows_.end());
  return write_rows_;
}

size_t Transaction::EncodeRedo(bool deltas) {
  redo_.clear();
  redo_bases_.clear();
  size_t whole = 0;
  for (const auto& [row, write] : writes_) {
    whole += durability::RowImageBytes(write.table->name(), write.image.get());
    const storage::Tuple* base = nullptr;
    if (deltas && !write.inserted && write.image != nullptr) base = row->tuple.load(std::memory_order_acquire);
    if (base == nullptr) {
      durability::AppendRowImage(write.table->name(), row->row_id, write.image.get(), &redo_);
      continue;
    }
    durability::AppendRowUpdate(write.table->name(), row->row_id, write.table->layout(), *base, *write.image, &redo_);
    redo_bases_.emplace_back(row, base);
  }
  return whole;
}

void Transaction::Install() {
  // With a redo log: the record is appended before anything is published,
  // under the install guard and while the write set is still locked or
  // validated (durability.h says why in this order).
  if (!redo_.empty()) {
    // An update's delta holds against the image it was computed from, which
    // the locked or validated write set keeps committed; should one have
    // changed all the same, whole images say it instead.
    for (const auto& [row, base] : redo_bases_) {
      if (row->tuple.load(std::memory_order_acquire) != base) {
        EncodeRedo(/*deltas=*/false);
        break;
      }
    }
    std::shared_lock<std::shared_mutex> guard = durability_->InstallGuard();
    commit_lsn_ = durability_->AppendRowImages(redo_);
    Publish();
    return;
  }
  Publish();
}

void Transaction::Publish() {
  // Index entries this transaction added that its final images no longer
  // match (a key updated twice, a row inserted then deleted) are removed; so
  // are the entries of committed images whose key changed or that were
  // deleted. Then the images are installed; replaced images and deleted
  // rows are retired.
  std::string key;
  for (const Undo& undo : undo_) {
    if (undo.kind == Undo::Kind::kIndexEntry && !FinalImageHasKey(undo, &key)) {
      undo.index->Erase(undo.key, undo.has_null, undo.row);
    }
  }
  // Keys handed to another row (see HandedOverRow) move to it now, before
  // the old row's entries are erased (their Erase then finds the entry
  // gone from it): the entry is never absent in between.
  for (const Undo& undo : undo_) {
    if (undo.kind != Undo::Kind::kHandover || HandedOverRow(undo.index, undo.key) != undo.row ||
        !MovedOffKey(undo.index, undo.key, undo.replaced)) {
      continue;
    }
    auto from_old_row = [&](Row* existing, const std::string&, bool* live) {
      *live = existing != undo.replaced;  // still the old row: the commit holds it (OCC also checked StillOwnsKeys)
      return Status::OK();
    };
    Index::InsertResult handed;
    (void)undo.index->Insert(undo.key, /*has_null=*/false, undo.row, from_old_row, &handed);
  }
  std::string new_key;
  for (auto& [const_row, write] : writes_) {
    Row* row = const_cast<Row*>(const_row);
    const Tuple* committed = row->tuple.load(std::memory_order_acquire);
    if (committed != nullptr) {
      for (const auto& index : write.table->indexes()) {
        bool has_null = false, new_has_null = false;
        if (!index->KeyOf(*committed, &key, &has_null).ok()) continue;
        if (write.image != nullptr && index->KeyOf(*write.image, &new_key, &new_has_null).ok() &&
            new_key == key && new_has_null == has_null) {
          continue;
        }
        index->Erase(key, has_null, row);
      }
    }
    const bool gone = write.image == nullptr;
    if (committed != nullptr || !gone) {  // (inserted and deleted again: no change)
      write.table->CountCommitted(committed == nullptr ? storage::Table::Change::kInsert
                                  : gone               ? storage::Table::Change::kDelete
                                                       : storage::Table::Change::kUpdate);
    }
    RetireTuple(write.table->ExchangeTuple(row, std::move(write.image)));
    if (gone) RetireRow(write.table, row);
  }
}

void Transaction::SetCancelToken(const CancelToken* token) {
  cancel_ = token;
  if (ctx_) ctx_->set_cancel_token(token);
}

Status Transaction::Explain(Status failure) {
  if (ctx_->abort_reason() != cc::AbortReason::kNone) return failure;
  // A canceled statement stopped at the user's request: however stale its
  // reads, it is not a conflict and must not be retried.
  if (failure.Is(sqlstate::kQueryCanceled) && canceled()) return failure;
  Status stale = cc_->Validate(ctx_.get(), WriteRows(), /*predicates=*/0);
  return stale.ok() ? failure : stale;
}

Status Transaction::Commit() {
  if (ctx_->abort_reason() != cc::AbortReason::kNone) {
    // A statement met a conflict and the caller went on anyway: the
    // transaction cannot commit.
    Abort();
    return Status(sqlstate::kSerializationFailure,
                  "could not serialize access: the transaction met a conflict (" +
                      std::string(cc::AbortReasonName(ctx_->abort_reason())) + ") and cannot commit");
  }
  if (durability_ != nullptr && !writes_.empty()) {
    // The redo record, encoded from the final images before the commit
    // decision, so that one too large for the log fails the commit: as
    // large as it may become (whole images, should Install fall back).
    const size_t whole = EncodeRedo(/*deltas=*/true);
    const size_t bytes = std::max(redo_.size(), whole);
    if (bytes > log::kMaxFramePayload) {
      redo_.clear();
      Abort();
      return Status(sqlstate::kProgramLimitExceeded,
                    "the transaction wrote " + std::to_string(bytes >> 20) + " MiB of rows, over the redo log's limit of " +
                        std::to_string(log::kMaxFramePayload >> 20) + " MiB for one transaction");
    }
  }
  Status status = cc_->Commit(ctx_.get(), this);
  redo_.clear();
  redo_bases_.clear();
  if (!status.ok()) {
    Abort();
    return status;
  }
  writes_.clear();
  undo_.clear();
  Finish();
  return Status::OK();
}

void Transaction::Abort() {
  if (finished_) return;
  // The undo first, then the algorithm's Abort: 2PL's row locks and a
  // failed OCC commit's locks keep other writers of the rows out until the
  // undo is done (cc::ConcurrencyControl::UndoBesideCommits).
  RollbackTo(0);
  writes_.clear();
  if (ctx_) cc_->Abort(ctx_.get());
  Finish();
}

}  // namespace paceline::engine
