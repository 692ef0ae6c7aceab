// Applying redo row images and rebuilding indexes (see recovery_applier.h).
#include "engine/durability/recovery_applier.h"

#include "engine/durability/redo_record.h"

namespace paceline::engine::durability {
namespace {

Status Corrupted(const std::string& message) { return Status(sqlstate::kDataCorrupted, message); }

}  // namespace

RecoveryApplier::TableState* RecoveryApplier::StateOf(std::string_view name) {
  auto it = tables_.find(std::string(name));
  if (it != tables_.end()) return &it->second;
  std::shared_ptr<storage::Table> table = catalog_->FindTable(name);
  if (table == nullptr) return nullptr;
  TableState state;
  state.table = table;
  table->ForEachRow([&](storage::Row* row) {
    state.rows.emplace(row->row_id, row);
    return true;
  });
  return &tables_.emplace(std::string(name), std::move(state)).first->second;
}

Status RecoveryApplier::Apply(std::string_view payload, const std::string& where, bool over_fuzzy_copy) {
  RowImageReader reader(payload);
  RowImage image;
  TableState* state = nullptr;
  while (reader.Next(&image)) {
    if (state == nullptr || state->table->name() != image.table) {
      state = StateOf(image.table);
      if (state == nullptr) {
        return Corrupted("redo record at " + where + " names table \"" + std::string(image.table) +
                         "\", which does not exist at that point; recovery stopped");
      }
    }
    auto it = state->rows.find(image.row_id);
    storage::Row* row = it != state->rows.end() ? it->second : nullptr;
    if (image.deleted) {
      if (row != nullptr) state->table->ExchangeTuple(row, nullptr);  // the old image is freed here
    } else if (image.delta) {
      const storage::Tuple* base = row != nullptr ? row->tuple.load(std::memory_order_relaxed) : nullptr;
      if (base == nullptr) {
        if (!over_fuzzy_copy) {
          return Corrupted("redo record at " + where + " changes columns of row " + std::to_string(image.row_id) +
                           " of table \"" + state->table->name() + "\", which does not exist; recovery stopped");
        }
        ++deltas_skipped_;  // deleted by a later record (redo_record.h)
        continue;
      }
      storage::TuplePtr tuple;
      if (!state->table->layout().ApplyDelta(*base, image.image, &tuple)) {
        return Corrupted("redo record at " + where + " holds changed columns of table \"" + state->table->name() +
                         "\" that do not fit its columns; recovery stopped");
      }
      state->table->ExchangeTuple(row, std::move(tuple));
    } else {
      storage::TuplePtr tuple;
      if (!state->table->layout().FromBytes(image.image, &tuple)) {
        return Corrupted("redo record at " + where + " holds a row image of table \"" + state->table->name() +
                         "\" that does not fit its columns; recovery stopped");
      }
      if (row == nullptr) {
        row = state->table->RestoreRow(image.row_id);
        state->rows.emplace(image.row_id, row);
      }
      state->table->ExchangeTuple(row, std::move(tuple));
    }
    ++images_applied_;
  }
  if (reader.malformed()) return Corrupted("malformed redo record at " + where + "; recovery stopped");
  return Status::OK();
}

Status RecoveryApplier::Flush(bool final) {
  std::string key, existing_key;
  for (auto& [name, state] : tables_) {
    storage::Table& table = *state.table;
    for (const auto& index : table.indexes()) index->Clear();
    Status status;
    table.ForEachRow([&](storage::Row* row) {
      const storage::Tuple* tuple = row->tuple.load(std::memory_order_acquire);
      if (tuple == nullptr) return true;
      for (const auto& index : table.indexes()) {
        bool has_null = false;
        status = index->KeyOf(*tuple, &key, &has_null);
        if (!status.ok()) return false;
        auto live = [&](storage::Row* other, const std::string& k, bool* is_live) {
          const storage::Tuple* t = other->tuple.load(std::memory_order_acquire);
          bool other_null = false;
          *is_live = t != nullptr && index->KeyOf(*t, &existing_key, &other_null).ok() && existing_key == k;
          return Status::OK();
        };
        storage::Index::InsertResult inserted;
        status = index->Insert(key, has_null, row, live, &inserted);
        if (!status.ok()) return false;
        if (inserted.blocking != nullptr) {
          status = Corrupted("recovered rows " + std::to_string(inserted.blocking->row_id) + " and " +
                             std::to_string(row->row_id) + " of table \"" + table.name() +
                             "\" share a key of unique index \"" + index->schema().name + "\"; recovery stopped");
          return false;
        }
      }
      return true;
    });
    PL_RETURN_IF_ERROR(status);
  }
  tables_.clear();
  if (final) {
    // Rows left absent, in every table (also those last touched before a
    // DDL record), go back to their tables for reuse.
    for (const std::string& name : catalog_->TableNames()) {
      std::shared_ptr<storage::Table> table = catalog_->FindTable(name);
      if (table == nullptr) continue;
      table->ForEachRow([&](storage::Row* row) {
        if (row->tuple.load(std::memory_order_acquire) == nullptr) table->ReleaseRow(row);
        return true;
      });
    }
  }
  return Status::OK();
}

}  // namespace paceline::engine::durability
