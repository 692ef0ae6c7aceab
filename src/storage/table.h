// Table: the rows of one table and its indexes.
//
// Rows are allocated here and live as long as the table (their Row objects
// are stable; see row.h). The first index is the primary key when the table
// has one. Every committed tuple is owned by its Row and freed by the table
// when replaced (ReplaceTuple) or when the table is destroyed.
//
// Thread-safety: AllocateRow, ReleaseRow, ExchangeTuple, row iteration and
// index operations may run concurrently. A tuple or row that concurrent
// readers may still hold is not freed or released directly: it goes through
// the EpochManager (epoch_manager.h). Truncate, AddIndex, DropIndex,
// ChangeColumns and Rename need exclusive use (no statement running).
#pragma once

#include <oneapi/tbb/concurrent_queue.h>
#include <oneapi/tbb/concurrent_vector.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/ids.h"
#include "storage/catalog/schema.h"
#include "storage/index.h"
#include "storage/row.h"
#include "storage/tuple.h"

namespace paceline::storage {

class Table {
 public:
  Table(TableId id, catalog::TableSchema schema);
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  TableId id() const { return id_; }
  const std::string& name() const { return schema_.name; }
  const catalog::TableSchema& schema() const { return schema_; }
  catalog::TableSchema& mutable_schema() { return schema_; }
  const TupleLayout& layout() const { return layout_; }

  // An absent row for an insert: a released one if any, else a new one with
  // a fresh row id, appended to the table's row list.
  Row* AllocateRow();
  // Gives back an absent row that no index entry points at and no reader
  // holds any more (an undone insert or a deleted row, after its epoch):
  // AllocateRow hands it out again. Its cc_word is kept, so versions keep
  // increasing across reuse.
  // A row of a generation that has since been truncated is ignored (it is
  // freed with its graveyard).
  void ReleaseRow(Row* row) {
    if (row->generation == generation_) free_rows_.push(row);
  }
  // Recovery only (exclusive use): a new absent row with the given id, as
  // it was before a restart; later AllocateRow ids are larger.
  Row* RestoreRow(uint64_t row_id);
  // Installs `tuple` (nullptr: absent) as `row`'s committed image and
  // returns the previous one (the caller retires or frees it).
  TuplePtr ExchangeTuple(Row* row, TuplePtr tuple);

  // Calls fn(Row*) for every row allocated so far (absent ones included).
  template <typename Fn>
  void ForEachRow(Fn fn) const {
    size_t n = published_.load(std::memory_order_acquire);
    for (size_t i = 0; i < n; ++i) {
      if (!fn(rows_[i])) break;
    }
  }
  size_t allocated_rows() const { return published_.load(std::memory_order_acquire); }
  // Rows whose committed image is present.
  size_t LiveRowCount() const;
  // The bytes its rows take (pg_relation_size): every row allocated so far
  // (a Row each) and the committed images present; not the versions old
  // readers may still hold. Reads every row: for an administrator's query.
  size_t DataBytes() const;
  // The bytes `index` holds (pg_relation_size of an index): the key of each
  // committed image it covers and a row pointer per entry; the index
  // structures' own nodes are not counted. Reads every row.
  size_t IndexBytes(const Index& index) const;
  // Committed row changes since the table was made (pg_stat_user_tables),
  // counted by the commits that install them: relaxed counters, each on
  // its own cache line (commits on every worker count them).
  enum class Change { kInsert, kUpdate, kDelete };
  void CountCommitted(Change change) {
    changes_[static_cast<int>(change)].n.fetch_add(1, std::memory_order_relaxed);
  }
  int64_t Committed(Change change) const {
    return changes_[static_cast<int>(change)].n.load(std::memory_order_relaxed);
  }

  const std::vector<std::unique_ptr<Index>>& indexes() const { return indexes_; }
  // The primary key index, or nullptr when the table has none.
  Index* primary_index() const { return has_primary_ ? indexes_[0].get() : nullptr; }
  Index* FindIndex(std::string_view name) const;
  // Adds an index (the primary key goes first) and fills it from the
  // committed rows (those `predicate` covers, for a partial index); fails
  // with 23505 if a unique index meets a duplicate.
  Status AddIndex(catalog::IndexSchema schema, std::shared_ptr<const IndexPredicate> predicate = nullptr);
  void DropIndex(std::string_view name);

  // ALTER TABLE's rewrite (exclusive use): the table takes `schema`'s
  // columns and layout. Each present row gets the image made of the values
  // `values_of` gives for its old image (one per new column, each of its
  // column's type or NULL); nothing changes when it fails. An index's key
  // column at old position p moves to `position[p]`: the caller drops the
  // indexes on columns that go (-1) first. An index whose key columns
  // change type is built again from the new images (a partial index keeps
  // its predicate: the caller drops and makes again those whose condition
  // reads a column that moves or changes type). The old images (and
  // rebuilt indexes) are buried under a new stamp, as Truncate's rows: a
  // block idle between its statements may still hold them.
  using RowValues = std::function<Status(const Tuple& old, std::vector<Value>* out)>;
  Status ChangeColumns(catalog::TableSchema schema, const std::vector<int>& position, const RowValues& values_of);
  // ALTER TABLE .. RENAME TO (exclusive use).
  void Rename(std::string name) { schema_.name = std::move(name); }

  // Removes every row (exclusive use). The Row objects move to the
  // graveyard (a transaction still open may hold them), like the index a
  // DropIndex removes, until FreeGraveyard.
  void Truncate();
  // Each Truncate, DropIndex and ChangeColumns buries under the next stamp; stamp() is
  // the latest.
  uint64_t stamp() const { return stamp_; }
  // Frees what was buried under stamps ≤ `stamp` (when no transaction can
  // reach it any more).
  void FreeGraveyard(uint64_t stamp);

 private:
  const TableId id_;
  catalog::TableSchema schema_;
  TupleLayout layout_;
  // Rows in allocation order. concurrent_vector counts an element before it
  // is constructed, so appends are serialised and `published_` tells
  // readers how many are complete.
  tbb::concurrent_vector<Row*> rows_;
  std::mutex append_mu_;
  std::atomic<size_t> published_{0};
  tbb::concurrent_queue<Row*> free_rows_;  // released rows, still in rows_
  std::atomic<uint64_t> next_row_id_{1};
  struct alignas(64) Counter {
    std::atomic<int64_t> n{0};
  };
  Counter changes_[3];
  uint64_t generation_ = 0;  // truncations so far
  struct Buried {
    uint64_t stamp;
    std::vector<Row*> rows;
    std::unique_ptr<Index> index;
    std::vector<TuplePtr> tuples;  // images a ChangeColumns replaced
  };
  std::vector<Buried> graveyard_;
  uint64_t stamp_ = 0;
  std::vector<std::unique_ptr<Index>> indexes_;
  bool has_primary_ = false;
};

// The column types of a schema, in order.
std::vector<Type> ColumnTypes(const catalog::TableSchema& schema);

}  // namespace paceline::storage
