// Index: key building and entry bookkeeping over the hash and ordered
// structures (see index.h).
#include "storage/index.h"

#include "storage/key_encoder.h"

namespace paceline::storage {

Index::Index(catalog::IndexSchema schema, const catalog::TableSchema& table, const TupleLayout* layout,
             std::shared_ptr<const IndexPredicate> predicate)
    : schema_(std::move(schema)), layout_(layout), predicate_(std::move(predicate)) {
  for (int column : schema_.columns) nullable_.push_back(!table.columns[column].not_null);
  if (schema_.method == catalog::IndexMethod::kOrdered) ordered_ = std::make_unique<OrderedIndex>();
  if (schema_.unique || schema_.method == catalog::IndexMethod::kHash) hash_ = std::make_unique<HashIndex>();
}

Status Index::KeyOf(const Tuple& tuple, std::string* key, bool* has_null) const {
  key->clear();
  *has_null = false;
  if (predicate_ != nullptr) {
    bool covered = false;
    PL_RETURN_IF_ERROR(predicate_->Covers(tuple, *layout_, &covered));
    if (!covered) return Status::OK();
  }
  for (size_t i = 0; i < schema_.columns.size(); ++i) {
    const int column = schema_.columns[i];
    const Type& type = layout_->type(column);
    if (layout_->IsNull(tuple, column)) {
      *has_null = true;
      key->push_back('\x02');
    } else if (type.IsInteger() || type.IsTemporal()) {
      AppendKeyInt(type, nullable_[i], layout_->GetInt(tuple, column), key);
    } else if (type.IsVariableLength() && type.id != TypeId::kJsonb) {
      AppendKeyString(type, nullable_[i], layout_->GetString(tuple, column), key);
    } else {
      PL_RETURN_IF_ERROR(AppendKeyColumn(type, nullable_[i], layout_->Get(tuple, column), key));
    }
  }
  return Status::OK();
}

Status Index::AppendColumn(int position, const Value& v, std::string* key, KeyFit* fit) const {
  return AppendKeyColumn(layout_->type(schema_.columns[position]), nullable_[position], v, key, fit);
}

Status Index::KeyOfValues(const Value* values, int count, std::string* key, bool* exact) const {
  key->clear();
  *exact = true;
  for (int i = 0; i < count; ++i) {
    KeyFit fit;
    PL_RETURN_IF_ERROR(AppendColumn(i, values[i], key, &fit));
    if (fit != KeyFit::kExact) *exact = false;
  }
  return Status::OK();
}

std::string Index::EntryKey(const std::string& key, bool has_null, const Row* row) const {
  if (unique() && !has_null) return key;
  std::string entry = key;
  uint64_t id = row->row_id;
  for (int i = 7; i >= 0; --i) entry.push_back(static_cast<char>((id >> (8 * i)) & 0xFF));
  return entry;
}

size_t Index::KeyPart(const std::string& entry_key, bool has_null) const {
  return (unique() && !has_null) ? entry_key.size() : entry_key.size() - 8;
}

Row* Index::Find(const std::string& key) const {
  if (hash_) return hash_->Find(key);
  return ordered_->Find(key);
}

bool Index::SetUnique(const std::string& key, Row* expected, Row* desired) {
  if (!ordered_) {
    if (desired != nullptr) return hash_->CompareAndSet(key, expected, desired);
    hash_->Erase(key, expected);
    return true;
  }
  std::lock_guard lock(unique_latch_);
  if (desired == nullptr) {
    if (hash_->Find(key) != expected) return false;
    hash_->Erase(key, expected);
    ordered_->Erase(key, expected);
  } else {
    if (!hash_->CompareAndSet(key, expected, desired)) return false;
    ordered_->Put(key, desired);
  }
  return true;
}

void Index::Restore(const std::string& key, bool has_null, Row* row, Row* replaced) {
  if (key.empty()) return;
  if (unique() && !has_null) {
    SetUnique(key, row, replaced);
    return;
  }
  Erase(key, has_null, row);
}

void Index::Erase(const std::string& key, bool has_null, Row* row) {
  if (key.empty()) return;
  if (unique() && !has_null) {
    SetUnique(key, row, nullptr);
    return;
  }
  std::string entry = EntryKey(key, has_null, row);
  if (hash_) hash_->Erase(entry, row);
  if (ordered_) ordered_->Erase(entry, row);
}

void Index::Clear() {
  if (hash_) hash_->Clear();
  if (ordered_) ordered_->Clear();
}

size_t Index::entry_count() const { return ordered_ ? ordered_->size() : hash_->size(); }

}  // namespace paceline::storage
