// Table: row allocation, tuple replacement and index maintenance (table.h).
#include "engine/storage/table.h"

namespace paceline::storage {

std::vector<Type> ColumnTypes(const catalog::TableSchema& schema) {
  std::vector<Type> types;
  for (const auto& c : schema.columns) types.push_back(c.type);
  return types;
}

Table::Table(uint32_t id, catalog::TableSchema schema)
    : id_(id), schema_(std::move(schema)), layout_(ColumnTypes(schema_)) {}

Table::~Table() {
  FreeGraveyard();
  for (Row* row : rows_) {
    TupleDeleter()(row->tuple.load(std::memory_order_relaxed));
    delete row;
  }
}

Row* Table::AllocateRow() {
  Row* row = nullptr;
  if (free_rows_.try_pop(row)) return row;
  row = new Row(next_row_id_.fetch_add(1, std::memory_order_relaxed));
  rows_.push_back(row);
  return row;
}

TuplePtr Table::ExchangeTuple(Row* row, TuplePtr tuple) {
  return TuplePtr(row->tuple.exchange(tuple.release(), std::memory_order_acq_rel));
}

size_t Table::LiveRowCount() const {
  size_t n = 0;
  ForEachRow([&](Row* r) {
    if (r->tuple.load(std::memory_order_acquire) != nullptr) ++n;
    return true;
  });
  return n;
}

Index* Table::FindIndex(std::string_view name) const {
  for (const auto& index : indexes_) {
    if (index->schema().name == name) return index.get();
  }
  return nullptr;
}

Status Table::AddIndex(catalog::IndexSchema schema) {
  auto index = std::make_unique<Index>(schema, schema_, &layout_);
  Status status;
  std::string key;
  ForEachRow([&](Row* row) {
    const Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (t == nullptr) return true;
    bool has_null = false;
    status = index->KeyOf(*t, &key, &has_null);
    if (!status.ok()) return false;
    Index::InsertResult result;
    auto all_live = [](Row*, const std::string&, bool* live) {
      *live = true;
      return Status::OK();
    };
    status = index->Insert(key, has_null, row, all_live, &result);
    if (!status.ok()) return false;
    if (result.blocking != nullptr) {
      status = Status(sqlstate::kUniqueViolation,
                      "could not create unique index \"" + schema.name + "\": key is duplicated");
      return false;
    }
    return true;
  });
  PL_RETURN_IF_ERROR(status);
  if (schema.primary) {
    indexes_.insert(indexes_.begin(), std::move(index));
    has_primary_ = true;
  } else {
    indexes_.push_back(std::move(index));
  }
  return Status::OK();
}

void Table::DropIndex(std::string_view name) {
  for (auto it = indexes_.begin(); it != indexes_.end(); ++it) {
    if ((*it)->schema().name == name) {
      if ((*it)->schema().primary) has_primary_ = false;
      indexes_.erase(it);
      return;
    }
  }
}

void Table::Truncate() {
  for (Row* row : rows_) graveyard_.push_back(row);
  rows_.clear();
  free_rows_.clear();
  for (auto& index : indexes_) index->Clear();
}

void Table::FreeGraveyard() {
  for (Row* row : graveyard_) {
    TupleDeleter()(row->tuple.load(std::memory_order_relaxed));
    delete row;
  }
  graveyard_.clear();
}

}  // namespace paceline::storage
