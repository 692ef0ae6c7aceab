// Transaction: buffered writes, undo to a statement mark, commit and abort
// with index maintenance (see transaction.h).
#include "engine/transaction.h"

namespace paceline::engine {

using storage::Index;
using storage::Row;
using storage::Table;
using storage::Tuple;
using storage::TuplePtr;

namespace {

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

Transaction::~Transaction() {
  if (!finished_) Abort();
}

void Transaction::RecordWrite(Table* table, Row* row, TuplePtr image, bool inserted) {
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

Status Transaction::AddIndexEntries(Table* table, Row* row, const Tuple& image, const Tuple* old_image) {
  std::string key, old_key;
  for (const auto& index_ptr : table->indexes()) {
    Index* index = index_ptr.get();
    bool has_null = false, old_has_null = false;
    PL_RETURN_IF_ERROR(index->KeyOf(image, &key, &has_null));
    if (old_image != nullptr) {
      PL_RETURN_IF_ERROR(index->KeyOf(*old_image, &old_key, &old_has_null));
      if (old_key == key && old_has_null == has_null) continue;
    }
    auto is_live = [&](Row* existing, const std::string& k) {
      const Tuple* t = Read(existing);
      if (t == nullptr) return false;
      std::string existing_key;
      bool existing_null = false;
      return index->KeyOf(*t, &existing_key, &existing_null).ok() && existing_key == k;
    };
    Index::InsertResult result = index->Insert(key, has_null, row, is_live);
    if (result.blocking != nullptr) {
      return Status(sqlstate::kUniqueViolation,
                    "duplicate key value violates unique constraint \"" + index->schema().name + "\"")
          .WithDetail(DescribeKey(*table, *index, image));
    }
    if (!result.added) continue;  // the entry was there already: nothing to undo
    Undo undo;
    undo.kind = Undo::Kind::kIndexEntry;
    undo.row = row;
    undo.index = index;
    undo.key = key;
    undo.has_null = has_null;
    undo.replaced = result.replaced;
    undo_.push_back(std::move(undo));
  }
  return Status::OK();
}

Status Transaction::Insert(Table* table, TuplePtr tuple) {
  Row* row = table->AllocateRow();
  size_t mark = Mark();
  Status status = AddIndexEntries(table, row, *tuple, nullptr);
  if (!status.ok()) {
    RollbackTo(mark);
    table->ReleaseRow(row);  // never recorded, no entries left
    return status;
  }
  RecordWrite(table, row, std::move(tuple), /*inserted=*/true);
  return Status::OK();
}

Status Transaction::Update(Table* table, Row* row, TuplePtr tuple) {
  const Tuple* old_image = Read(row);
  size_t mark = Mark();
  Status status = AddIndexEntries(table, row, *tuple, old_image);
  if (!status.ok()) {
    RollbackTo(mark);
    return status;
  }
  RecordWrite(table, row, std::move(tuple), /*inserted=*/false);
  return Status::OK();
}

bool Transaction::HasWritesTo(const Table* table) const {
  for (const auto& [row, write] : writes_) {
    if (write.table == table) return true;
  }
  return false;
}

void Transaction::Delete(Table* table, Row* row) { RecordWrite(table, row, nullptr, /*inserted=*/false); }

void Transaction::RollbackTo(size_t mark) {
  // Rows this transaction inserted and now forgets go back to their table
  // once their index entries are gone too (after the loop).
  std::vector<std::pair<Table*, Row*>> created;
  while (undo_.size() > mark) {
    Undo& undo = undo_.back();
    if (undo.kind == Undo::Kind::kWrite) {
      if (undo.had_write) {
        writes_[undo.row] = std::move(undo.previous);
      } else {
        auto it = writes_.find(undo.row);
        if (it != writes_.end() && it->second.inserted) created.emplace_back(it->second.table, undo.row);
        writes_.erase(undo.row);
      }
    } else if (undo.replaced != nullptr) {
      undo.index->Restore(undo.key, undo.replaced);
    } else {
      undo.index->EraseUnsafe(undo.key, undo.has_null, undo.row);
    }
    undo_.pop_back();
  }
  for (auto [table, row] : created) table->ReleaseRow(row);
}

void Transaction::Commit() {
  // Index entries this transaction added that its final images no longer
  // match (a key updated twice, a row inserted then deleted) are removed; so
  // are the entries of committed images whose key changed or that were
  // deleted. Then the images are installed.
  std::string key;
  for (const Undo& undo : undo_) {
    if (undo.kind != Undo::Kind::kIndexEntry) continue;
    const Tuple* final_image = writes_.count(undo.row) ? writes_[undo.row].image.get() : nullptr;
    bool has_null = false;
    if (final_image == nullptr || !undo.index->KeyOf(*final_image, &key, &has_null).ok() || key != undo.key) {
      undo.index->EraseUnsafe(undo.key, undo.has_null, undo.row);
    }
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
        index->EraseUnsafe(key, has_null, row);
      }
    }
    write.table->ReplaceTuple(row, std::move(write.image));
  }
  writes_.clear();
  undo_.clear();
  finished_ = true;
}

void Transaction::Abort() {
  RollbackTo(0);
  writes_.clear();
  finished_ = true;
}

}  // namespace paceline::engine
