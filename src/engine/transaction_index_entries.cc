// Transaction, index entries: the entries a write adds at its statement
// (unique keys taken, duplicates found, stale entries taken over, keys
// handed from one row of the transaction to another), their undo, and the
// check at commit that the unique entries the transaction relies on are
// still its own (transaction.h).
#include "engine/transaction.h"

#include <algorithm>
#include <string>

namespace paceline::engine {

using storage::Index;
using storage::Row;
using storage::Table;
using storage::Tuple;

namespace {

// Puts the entry key → row back if it is gone (one probe when it is
// there); false when another row holds the unique key.
bool PutBackEntry(Index* index, const std::string& key, bool has_null, Row* row) {
  if (index->unique() && !has_null && index->Find(key) == row) return true;
  auto held = [](Row*, const std::string&, bool* live) {
    *live = true;
    return Status::OK();
  };
  Index::InsertResult result;
  return index->Insert(key, has_null, row, held, &result).ok() && result.blocking == nullptr;
}

// Whether the committed image of `row` has `key` in `index`.
bool CommittedHolds(const Index& index, const Row& row, const std::string& key, bool has_null) {
  const Tuple* committed = row.tuple.load(std::memory_order_seq_cst);
  std::string held;
  bool held_null = false;
  return committed != nullptr && index.KeyOf(*committed, &held, &held_null).ok() && held == key &&
         held_null == has_null;
}

// "Key (a, b)=(1, 2)" as PostgreSQL words a duplicate key.
std::string DescribeKey(const Table& table, const Index& index, const Tuple& tuple) {
  std::string cols, vals;
  for (int column : index.schema().columns) {
    if (!cols.empty()) {
      cols += ", ";
      vals += ", ";
    }
    cols += table.schema().columns[column].name;
    vals += table.layout().Get(tuple, column).ToString();
  }
  return "Key (" + cols + ")=(" + vals + ") already exists.";
}

}  // namespace

Status Transaction::AddIndexEntries(Table* table, Row* row, const Tuple& image, const Tuple* old_image,
                                    std::span<const Index* const> arbiters, Row** holder) {
  std::string key, old_key;
  // Two passes: the arbiters first, so that their conflict is found before
  // another index's duplicate would be a 23505; then the other indexes
  // (the only pass without arbiters).
  for (int pass = arbiters.empty() ? 1 : 0; pass < 2; ++pass) {
    for (const auto& index_ptr : table->indexes()) {
      Index* index = index_ptr.get();
      const bool arbiter = std::find(arbiters.begin(), arbiters.end(), index) != arbiters.end();
      if (arbiter != (pass == 0)) continue;
      bool has_null = false, old_has_null = false;
      PL_RETURN_IF_ERROR(index->KeyOf(image, &key, &has_null));
      if (old_image != nullptr) {
        PL_RETURN_IF_ERROR(index->KeyOf(*old_image, &old_key, &old_has_null));
        if (old_key == key && old_has_null == has_null) continue;
      }
      // A partial index that does not cover the image: no entry (an old
      // image's entry goes at commit, as a changed key's does).
      if (key.empty()) continue;
      // Whether another row's entry for this unique key is live: the image
      // this transaction sees of it still has the key. A row this
      // transaction moved off the key still holds it for everybody else:
      // repointing the entry now would hide that committed row from them
      // until this transaction commits, so it keeps the entry (reported
      // live, and noted in `moved_off`) and Publish hands the key over
      // (see HandedOverRow). (A deleted row's key inserted again reuses the
      // row instead: see InsertUnlessHeld.)
      Row* moved_off = nullptr;
      auto classify = [&](Row* existing, const std::string& k, bool* live) -> Status {
        const Tuple* t = nullptr;
        auto own = writes_.find(existing);
        if (own != writes_.end()) {
          if (MovedOffKey(index, k, existing)) {
            moved_off = existing;
            *live = true;
            return Status::OK();
          }
          t = own->second.image.get();
        } else {
          PL_RETURN_IF_ERROR(cc_->ReadForUniqueCheck(ctx_.get(), existing, &t));
        }
        std::string existing_key;
        bool existing_null = false;
        *live = t != nullptr && index->KeyOf(*t, &existing_key, &existing_null).ok() && !existing_null &&
                existing_key == k;
        return Status::OK();
      };
      Index::InsertResult result;
      Row* taker = index->unique() && !has_null ? HandedOverRow(index, key) : nullptr;
      if (taker != nullptr && taker != row) {
        result.blocking = taker;  // this transaction gave the key to another row already
      } else {
        PL_RETURN_IF_ERROR(index->Insert(key, has_null, row, classify, &result));
      }
      const bool handover = moved_off != nullptr && result.blocking == moved_off;
      if (handover) {
        result.blocking = nullptr;
        result.replaced = moved_off;
      }
      if (result.blocking != nullptr && arbiter) {
        *holder = result.blocking;
        return Status::OK();
      }
      if (result.blocking != nullptr) {
        return Status(sqlstate::kUniqueViolation,
                      "duplicate key value violates unique constraint \"" + index->schema().name + "\"")
            .WithDetail(DescribeKey(*table, *index, image));
      }
      if (!result.added && !handover && result.blocking == nullptr) {
        Undo kept;
        kept.kind = Undo::Kind::kKeptEntry;
        kept.row = row;
        kept.index = index;
        kept.key = key;
        kept.has_null = has_null;
        undo_.push_back(std::move(kept));
      }
      if (result.added || handover) {
        Undo undo;
        undo.kind = handover ? Undo::Kind::kHandover : Undo::Kind::kIndexEntry;
        undo.row = row;
        undo.index = index;
        undo.key = key;
        undo.has_null = has_null;
        undo.replaced = result.replaced;
        undo_.push_back(std::move(undo));
        if (handover) {
          ++handovers_;
        } else if (result.replaced != nullptr && writes_.find(result.replaced) == writes_.end()) {
          PL_RETURN_IF_ERROR(cc_->ConfirmTakeover(ctx_.get(), result.replaced));
        }
      }
      PL_RETURN_IF_ERROR(cc_->InsertedKey(ctx_.get(), table, index, index->EntryKey(key, has_null, row)));
    }
  }
  return Status::OK();
}

bool Transaction::MovedOffKey(const Index* index, const std::string& key, Row* existing) const {
  auto own = writes_.find(existing);
  if (own == writes_.end()) return false;
  std::string held;
  bool has_null = false;
  const Tuple* committed = existing->tuple.load(std::memory_order_acquire);
  if (committed == nullptr || !index->KeyOf(*committed, &held, &has_null).ok() || has_null || held != key) {
    return false;
  }
  const Tuple* mine = own->second.image.get();
  return mine == nullptr || !index->KeyOf(*mine, &held, &has_null).ok() || has_null || held != key;
}

Row* Transaction::HandedOverRow(const Index* index, const std::string& key) const {
  if (handovers_ == 0) return nullptr;
  std::string held;
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    if (it->kind != Undo::Kind::kHandover || it->index != index || it->key != key) continue;
    auto own = writes_.find(it->row);
    bool has_null = false;
    if (own != writes_.end() && own->second.image != nullptr && index->KeyOf(*own->second.image, &held, &has_null).ok() &&
        !has_null && held == key) {
      return it->row;
    }
  }
  return nullptr;
}

void Transaction::RestoreEntry(const Undo& undo) {
  // Never inside another writer's commit of the row (UndoBesideCommits):
  // one that relies on this entry (found on the row, or added again after
  // it) either checked it already and installed, so that the row's
  // committed image holds the key and the entry, the committed state's
  // now, stays; or checked it and failed (the entry is nobody's then); or
  // it checks after this restore, and puts the entry back (StillOwnsKeys).
  cc_->UndoBesideCommits(ctx_.get(), undo.row, [this, &undo] {
    if (CommittedHolds(*undo.index, *undo.row, undo.key, undo.has_null)) return;
    undo.index->Restore(undo.key, undo.has_null, undo.row, undo.replaced);
  });
}

bool Transaction::FinalImageHasKey(const Undo& undo, std::string* scratch) const {
  auto it = writes_.find(undo.row);
  const Tuple* final_image = it != writes_.end() ? it->second.image.get() : nullptr;
  bool has_null = false;
  return final_image != nullptr && undo.index->KeyOf(*final_image, scratch, &has_null).ok() && *scratch == undo.key;
}

bool Transaction::StillOwnsKeys() {
  std::string key;
  for (const Undo& undo : undo_) {
    // A key to hand over at Publish: its entry must still be on the row
    // this transaction moved off it.
    if (undo.kind == Undo::Kind::kHandover && HandedOverRow(undo.index, undo.key) == undo.row &&
        undo.index->Find(undo.key) != undo.replaced) {
      return false;
    }
    if (undo.kind != Undo::Kind::kIndexEntry && undo.kind != Undo::Kind::kKeptEntry) continue;
    // If the key is still this transaction's for the row, its entry must be
    // on the row at commit. It may have gone missing: the transaction that
    // added an entry found on the row (kKeptEntry) may have rolled back and
    // taken it away; and an entry this transaction added may be one an
    // older writer of the row, still running, added first (a commit
    // between them moved the row off the key and removed it), whose
    // rollback takes back that same entry. So it is put back, unless
    // another row holds the unique key (it took the key over, judging this
    // row's entry stale): then the commit fails.
    if (FinalImageHasKey(undo, &key) && !PutBackEntry(undo.index, undo.key, undo.has_null, undo.row)) return false;
  }
  return true;
}

}  // namespace paceline::engine
