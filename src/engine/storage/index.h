// Index: one secondary or primary index of a table, as declared by its
// IndexSchema, over the physical structures that serve it: an OrderedIndex
// (ordered method) and, for unique indexes, a HashIndex for point lookups
// (a hash-method index has only the HashIndex).
//
// Keys are the KeyEncoder bytes of the index columns. A unique index stores
// each key once; a non-unique index (or a unique key containing NULL, since
// NULLs never collide in SQL) appends the 8-byte row id to make entries
// distinct. Entries may be stale (see row.h): readers check that the row's
// current tuple still has the entry's key.
//
// Thread-safety: as the underlying structures (lookups and inserts
// concurrent; EraseUnsafe/Clear need exclusive use of the table).
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "engine/catalog/schema.h"
#include "engine/storage/hash_index.h"
#include "engine/storage/key_encoder.h"
#include "engine/storage/ordered_index.h"
#include "engine/storage/tuple.h"

namespace paceline::storage {

class Index {
 public:
  // `table` gives the key columns' types and nullability (fixed for the
  // index's life: the key format depends on them).
  Index(catalog::IndexSchema schema, const catalog::TableSchema& table, const TupleLayout* layout);

  const catalog::IndexSchema& schema() const { return schema_; }
  bool unique() const { return schema_.unique; }
  bool ordered() const { return ordered_ != nullptr; }

  // The key of `tuple` (index columns only, no row id). `has_null` is set
  // when a key column is NULL.
  Status KeyOf(const Tuple& tuple, std::string* key, bool* has_null) const;
  // The key of explicit values for the leading index columns (a prefix).
  // `exact` is false when a value lies outside its column's range (then no
  // key can equal it).
  Status KeyOfValues(const Value* values, int count, std::string* key, bool* exact) const;
  // Appends the encoding of `v` as the value of key column `position`.
  Status AppendColumn(int position, const Value& v, std::string* key, KeyFit* fit) const;

  // The entry key stored for (key, row): `key` itself for a unique index
  // without NULLs, key + row id otherwise.
  std::string EntryKey(const std::string& key, bool has_null, const Row* row) const;
  // Length of the key part of an entry key (strips the row id suffix).
  size_t KeyPart(const std::string& entry_key, bool has_null) const;

  // Unique lookup of a full key (no NULLs); nullptr when absent.
  Row* Find(const std::string& key) const;
  // Adds the entry. For a unique key without NULLs, an existing entry whose
  // row `is_live(row, key)` says still holds the key blocks the insert:
  // `blocking` names that row and nothing changes. A stale entry for the key
  // is overwritten and its row returned as `replaced` (so an undo can put it
  // back). `added` is false when the very entry already existed (the row
  // returns to a key it still has an entry for): then there is nothing to undo.
  struct InsertResult {
    Row* blocking = nullptr;
    Row* replaced = nullptr;
    bool added = false;
  };
  template <typename LiveFn>
  InsertResult Insert(const std::string& key, bool has_null, Row* row, LiveFn is_live) {
    InsertResult result;
    if (unique() && !has_null) {
      Row* existing = Find(key);
      if (existing == row) return result;
      if (existing != nullptr) {
        if (is_live(existing, key)) {
          result.blocking = existing;
          return result;
        }
        result.replaced = existing;
      }
      if (hash_) hash_->Put(key, row);
      if (ordered_) ordered_->Put(key, row);
      result.added = true;
      return result;
    }
    std::string entry = EntryKey(key, has_null, row);
    if (ordered_) {
      if (ordered_->Find(entry) == row) return result;
      ordered_->Put(entry, row);
    } else {
      if (hash_->Find(entry) == row) return result;
      hash_->Put(entry, row);
    }
    result.added = true;
    return result;
  }
  // Points the entry for a unique key back at `row` (undo of a replacement).
  void Restore(const std::string& key, Row* row) {
    if (hash_) hash_->Put(key, row);
    if (ordered_) ordered_->Put(key, row);
  }
  // Removes the entry for (key, row) if present. Needs exclusive use of the
  // table when the index is ordered.
  void EraseUnsafe(const std::string& key, bool has_null, Row* row);

  // Range scan over entry keys in [lower, upper) ("" upper: unbounded);
  // fn(entry_key, row) returns false to stop. Ordered indexes only.
  template <typename Fn>
  void Scan(const std::string& lower, const std::string& upper, Fn fn) const {
    ordered_->Scan(lower, upper, fn);
  }

  void Clear();
  size_t entry_count() const;

 private:
  catalog::IndexSchema schema_;
  const TupleLayout* layout_;
  std::vector<bool> nullable_;  // per key column
  std::unique_ptr<HashIndex> hash_;
  std::unique_ptr<OrderedIndex> ordered_;
};

}  // namespace paceline::storage
