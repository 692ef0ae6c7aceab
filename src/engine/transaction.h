// Transaction: the private write set of one transaction and its commit/abort.
//
// Writes are buffered: INSERT, UPDATE and DELETE build new tuple images that
// only this transaction sees (Read returns them) until Commit installs them.
// So a failed statement or a ROLLBACK leaves nothing behind, and the same
// structure serves optimistic concurrency control, which validates before
// installing. Inserts enter the indexes at once (pointing at a row that stays
// absent for everybody else until commit) so the transaction finds its own
// rows and a duplicate unique key is caught at the statement that makes it.
//
// Mark()/RollbackTo() give statement-level atomicity: a statement that fails
// half-way is undone to the mark taken before it.
//
// Thread-safety: a Transaction is used by one thread at a time. Commit and
// Abort mutate shared tables and indexes; today the Database runs them under
// its exclusive execution lock (the concurrency-control layer replaces that).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "engine/storage/table.h"

namespace paceline::engine {

class Transaction {
 public:
  Transaction() = default;
  ~Transaction();  // aborts if neither committed nor aborted
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // The image of `row` this transaction sees: its own pending write if any
  // (nullptr for its own delete), else the committed tuple (nullptr: absent).
  const storage::Tuple* Read(const storage::Row* row) const {
    if (writes_.empty()) return row->tuple.load(std::memory_order_acquire);
    auto it = writes_.find(row);
    return it != writes_.end() ? it->second.image.get() : row->tuple.load(std::memory_order_acquire);
  }

  // Inserts a new row with image `tuple` into `table`. 23505 (naming the
  // constraint and key) when a unique index already holds the key.
  Status Insert(storage::Table* table, storage::TuplePtr tuple);
  // Replaces the image of a row this transaction can see. 23505 as Insert
  // when an updated unique key collides.
  Status Update(storage::Table* table, storage::Row* row, storage::TuplePtr tuple);
  // Deletes a row this transaction can see.
  void Delete(storage::Table* table, storage::Row* row);

  bool has_writes() const { return !writes_.empty(); }
  // Whether this transaction has a pending write (insert, update, delete) to `table`.
  bool HasWritesTo(const storage::Table* table) const;
  size_t write_count() const { return writes_.size(); }

  // Savepoint for statement-level rollback.
  size_t Mark() const { return undo_.size(); }
  void RollbackTo(size_t mark);

  // Installs every write and cleans index entries that no longer match.
  void Commit();
  // Discards every write and removes the index entries it added.
  void Abort();
  bool finished() const { return finished_; }

 private:
  struct Write {
    storage::Table* table = nullptr;
    storage::TuplePtr image;  // nullptr: deleted
    bool inserted = false;    // the row was created by this transaction
  };
  // One undo record: a change to the write set, or an index entry added.
  struct Undo {
    enum class Kind { kWrite, kIndexEntry };
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

  // Adds index entries for `image` of `row` in every index whose key differs
  // from `old_image`'s (all when old_image is null).
  Status AddIndexEntries(storage::Table* table, storage::Row* row, const storage::Tuple& image,
                         const storage::Tuple* old_image);
  void RecordWrite(storage::Table* table, storage::Row* row, storage::TuplePtr image, bool inserted);

  std::unordered_map<const storage::Row*, Write> writes_;
  std::vector<Undo> undo_;
  bool finished_ = false;
};

}  // namespace paceline::engine
