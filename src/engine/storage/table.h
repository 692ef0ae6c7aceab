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
// the EpochManager (epoch_manager.h). Truncate, AddIndex and DropIndex need
// exclusive use (no transaction running).
#pragma once

#include <oneapi/tbb/concurrent_queue.h>
#include <oneapi/tbb/concurrent_vector.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/catalog/schema.h"
#include "engine/storage/index.h"
#include "engine/storage/row.h"
#include "engine/storage/tuple.h"

namespace paceline::storage {

class Table {
 public:
  Table(uint32_t id, catalog::TableSchema schema);
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  uint32_t id() const { return id_; }
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
  void ReleaseRow(Row* row) { free_rows_.push(row); }
  // Installs `tuple` (nullptr: absent) as `row`'s committed image and
  // returns the previous one (the caller retires or frees it).
  TuplePtr ExchangeTuple(Row* row, TuplePtr tuple);

  // Calls fn(Row*) for every row allocated so far (absent ones included).
  template <typename Fn>
  void ForEachRow(Fn fn) const {
    size_t n = rows_.size();
    for (size_t i = 0; i < n; ++i) {
      if (!fn(rows_[i])) break;
    }
  }
  size_t allocated_rows() const { return rows_.size(); }
  // Rows whose committed image is present.
  size_t LiveRowCount() const;

  const std::vector<std::unique_ptr<Index>>& indexes() const { return indexes_; }
  // The primary key index, or nullptr when the table has none.
  Index* primary_index() const { return has_primary_ ? indexes_[0].get() : nullptr; }
  Index* FindIndex(std::string_view name) const;
  // Adds an index (the primary key goes first) and fills it from the
  // committed rows; fails with 23505 if a unique index meets a duplicate.
  Status AddIndex(catalog::IndexSchema schema);
  void DropIndex(std::string_view name);

  // Removes every row (exclusive use). The Row objects move to a graveyard
  // (a transaction still open may hold them) until FreeGraveyard.
  void Truncate();
  // Frees the rows of earlier Truncates (when no transaction can reach them).
  void FreeGraveyard();

 private:
  const uint32_t id_;
  catalog::TableSchema schema_;
  TupleLayout layout_;
  tbb::concurrent_vector<Row*> rows_;
  tbb::concurrent_queue<Row*> free_rows_;  // released rows, still in rows_
  std::atomic<uint64_t> next_row_id_{1};
  std::vector<Row*> graveyard_;  // truncated rows, freed by FreeGraveyard
  std::vector<std::unique_ptr<Index>> indexes_;
  bool has_primary_ = false;
};

// The column types of a schema, in order.
std::vector<Type> ColumnTypes(const catalog::TableSchema& schema);

}  // namespace paceline::storage
