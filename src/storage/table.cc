// Table: row allocation, tuple replacement and index maintenance (table.h).
#include "storage/table.h"

namespace paceline::storage {

std::vector<Type> ColumnTypes(const catalog::TableSchema& schema) {
  std::vector<Type> types;
  for (const auto& c : schema.columns) types.push_back(c.type);
  return types;
}

Table::Table(TableId id, catalog::TableSchema schema)
    : id_(id), schema_(std::move(schema)), layout_(ColumnTypes(schema_)) {}

Table::~Table() {
  FreeGraveyard(stamp_);
  for (Row* row : rows_) {
    TupleDeleter()(row->tuple.load(std::memory_order_relaxed));
    delete row;
  }
}

Row* Table::AllocateRow() {
  Row* row = nullptr;
  if (free_rows_.try_pop(row)) return row;
  row = new Row(next_row_id_.fetch_add(1, std::memory_order_relaxed), generation_, id_);
  std::lock_guard lock(append_mu_);
  rows_.push_back(row);
  published_.store(rows_.size(), std::memory_order_release);
  return row;
}

Row* Table::RestoreRow(uint64_t row_id) {
  Row* row = new Row(row_id, generation_, id_);
  uint64_t next = next_row_id_.load(std::memory_order_relaxed);
  if (row_id >= next) next_row_id_.store(row_id + 1, std::memory_order_relaxed);
  std::lock_guard lock(append_mu_);
  rows_.push_back(row);
  published_.store(rows_.size(), std::memory_order_release);
  return row;
}

TuplePtr Table::ExchangeTuple(Row* row, TuplePtr tuple) {
  return TuplePtr(row->tuple.exchange(tuple.release(), std::memory_order_seq_cst));  // see epoch_manager.cc
}

size_t Table::LiveRowCount() const {
  size_t n = 0;
  ForEachRow([&](Row* r) {
    if (r->tuple.load(std::memory_order_acquire) != nullptr) ++n;
    return true;
  });
  return n;
}

size_t Table::DataBytes() const {
  size_t bytes = 0;
  ForEachRow([&](Row* r) {
    bytes += sizeof(Row);
    if (const Tuple* t = r->tuple.load(std::memory_order_acquire)) bytes += t->size;
    return true;
  });
  return bytes;
}

size_t Table::IndexBytes(const Index& index) const {
  size_t bytes = 0;
  std::string key;
  ForEachRow([&](Row* r) {
    const Tuple* t = r->tuple.load(std::memory_order_acquire);
    bool has_null = false;
    if (t == nullptr || !index.KeyOf(*t, &key, &has_null).ok() || key.empty()) return true;
    bytes += key.size() + sizeof(Row*);
    return true;
  });
  return bytes;
}

Index* Table::FindIndex(std::string_view name) const {
  for (const auto& index : indexes_) {
    if (index->schema().name == name) return index.get();
  }
  return nullptr;
}

Status Table::AddIndex(catalog::IndexSchema schema, std::shared_ptr<const IndexPredicate> predicate) {
  auto index = std::make_unique<Index>(schema, schema_, &layout_, std::move(predicate));
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
      graveyard_.push_back(Buried{++stamp_, {}, std::move(*it), {}});
      indexes_.erase(it);
      return;
    }
  }
}

Status Table::ChangeColumns(catalog::TableSchema schema, const std::vector<int>& position,
                            const RowValues& values_of) {
  TupleLayout layout(ColumnTypes(schema));
  // Every new image first, so that a failure changes nothing.
  std::vector<std::pair<Row*, TuplePtr>> images;
  std::vector<Value> values;
  Status status;
  ForEachRow([&](Row* row) {
    const Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (t == nullptr) return true;
    values.clear();
    status = values_of(*t, &values);
    if (status.ok() && values.size() != schema.columns.size()) status = InternalError("a rewritten row of the wrong width");
    if (!status.ok()) return false;
    images.emplace_back(row, layout.Build(values));
    return true;
  });
  PL_RETURN_IF_ERROR(status);
  for (const auto& index : indexes_) {
    for (int column : index->schema().columns) {
      if (position[column] < 0) return InternalError("an index on a dropped column");
    }
  }
  // The indexes whose key columns change type are built again.
  std::vector<std::pair<catalog::IndexSchema, std::shared_ptr<const IndexPredicate>>> rebuild;
  for (auto it = indexes_.begin(); it != indexes_.end();) {
    Index& index = **it;
    bool retyped = false;
    for (int column : index.schema().columns) {
      retyped |= !(schema.columns[position[column]].type == schema_.columns[column].type);
    }
    index.MoveColumns(position);
    if (!retyped) {
      ++it;
      continue;
    }
    rebuild.emplace_back(index.schema(), index.predicate());
    if (index.schema().primary) has_primary_ = false;
    graveyard_.push_back(Buried{++stamp_, {}, std::move(*it), {}});
    it = indexes_.erase(it);
  }
  Buried buried{++stamp_, {}, nullptr, {}};
  schema_ = std::move(schema);
  layout_ = std::move(layout);
  for (auto& [row, image] : images) buried.tuples.push_back(ExchangeTuple(row, std::move(image)));
  graveyard_.push_back(std::move(buried));
  for (auto& [index, predicate] : rebuild) PL_RETURN_IF_ERROR(AddIndex(std::move(index), std::move(predicate)));
  return Status::OK();
}

void Table::Truncate() {
  Buried buried{++stamp_, {}, nullptr, {}};
  buried.rows.assign(rows_.begin(), rows_.begin() + static_cast<std::ptrdiff_t>(published_.load()));
  graveyard_.push_back(std::move(buried));
  rows_.clear();
  rows_.shrink_to_fit();
  published_.store(0, std::memory_order_release);
  free_rows_.clear();
  ++generation_;
  for (auto& index : indexes_) index->Clear();
}

void Table::FreeGraveyard(uint64_t stamp) {
  auto keep = graveyard_.begin();
  for (auto it = graveyard_.begin(); it != graveyard_.end(); ++it) {
    if (it->stamp > stamp) {
      if (keep != it) *keep = std::move(*it);
      ++keep;
      continue;
    }
    for (Row* row : it->rows) {
      TupleDeleter()(row->tuple.load(std::memory_order_relaxed));
      delete row;
    }
  }
  graveyard_.erase(keep, graveyard_.end());
}

}  // namespace paceline::storage
