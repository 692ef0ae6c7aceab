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
// A partial index (an IndexPredicate) has entries only for the images its
// condition covers: KeyOf gives an image it does not cover the empty key,
// which no entry has (every real key has a byte per column), so such an
// image never matches an entry, and Insert, Erase and Restore ignore it.
//
// Thread-safety: lookups, scans, Insert, Restore and Erase may run
// concurrently; changes of one unique key's entry are atomic across the hash
// and ordered structures. Clear needs exclusive use of the table.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "common/status.h"
#include "storage/catalog/schema.h"
#include "storage/hash_index.h"
#include "storage/index_predicate.h"
#include "storage/key_encoder.h"
#include "storage/ordered_index.h"
#include "storage/tuple.h"

namespace paceline::storage {

class Index {
 public:
  // `table` gives the key columns' types and nullability (fixed for the
  // index's life: the key format depends on them). `predicate` (shared,
  // immutable): the rows a partial index covers; nullptr: every row.
  Index(catalog::IndexSchema schema, const catalog::TableSchema& table, const TupleLayout* layout,
        std::shared_ptr<const IndexPredicate> predicate = nullptr);

  const catalog::IndexSchema& schema() const { return schema_; }
  // Exclusive use (DDL): the catalog assigns the OIDs in it.
  catalog::IndexSchema& mutable_schema() { return schema_; }
  // The table's columns moved (ALTER TABLE, exclusive use): key column at
  // old position p is now at `position[p]`; the key format stays.
  // ALTER TABLE .. RENAME CONSTRAINT (exclusive use).
  void Rename(std::string name) { schema_.name = std::move(name); }
  void MoveColumns(const std::vector<int>& position) {
    for (int& column : schema_.columns) column = position[column];
  }
  bool unique() const { return schema_.unique; }
  bool ordered() const { return ordered_ != nullptr; }
  // A partial index's condition (nullptr: the index covers every row).
  const std::shared_ptr<const IndexPredicate>& predicate() const { return predicate_; }
  bool partial() const { return predicate_ != nullptr; }
  // Unique over every row of the table: a key a foreign key may reference
  // and a constraint name may name (a partial unique index is neither).
  bool unique_key() const { return unique() && !partial(); }

  // The key of `tuple` (index columns only, no row id). `has_null` is set
  // when a key column is NULL. Empty when a partial index does not cover
  // `tuple` (an error evaluating its condition is returned).
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
  // Adds the entry for (key, row). For a unique key without NULLs the index
  // holds one entry per key, and an existing entry for another row is
  // handed to `classify(existing_row, key, &live)`: live (the row still
  // holds the key: a duplicate) leaves everything unchanged and names the
  // row in `blocking`; stale (it does not) lets the entry be repointed at
  // `row`, and the previous row is returned as `replaced` so an undo can put
  // it back. A non-OK status from classify (a concurrency-control conflict)
  // is returned as is. The repointing is a compare-and-set: a concurrent
  // change of the entry makes Insert look again. `added` is false when the
  // very entry already existed: then there is nothing to undo.
  struct InsertResult {
    Row* blocking = nullptr;
    Row* replaced = nullptr;
    bool added = false;
  };
  template <typename ClassifyFn>
  Status Insert(const std::string& key, bool has_null, Row* row, ClassifyFn classify, InsertResult* result) {
    *result = InsertResult();
    if (key.empty()) return Status::OK();  // an image a partial index does not cover
    if (unique() && !has_null) {
      // A new key (the common insert) takes one compare-and-set; an
      // existing entry is classified below.
      if (SetUnique(key, nullptr, row)) {
        result->added = true;
        return Status::OK();
      }
      for (;;) {
        Row* existing = Find(key);
        if (existing == row) return Status::OK();
        if (existing != nullptr) {
          bool live = false;
          PL_RETURN_IF_ERROR(classify(existing, key, &live));
          if (live) {
            result->blocking = existing;
            return Status::OK();
          }
        }
        if (SetUnique(key, existing, row)) {
          result->replaced = existing;
          result->added = true;
          return Status::OK();
        }
      }
    }
    std::string entry = EntryKey(key, has_null, row);
    if (ordered_) {
      if (ordered_->Find(entry) == row) return Status::OK();
      ordered_->Put(entry, row);
    } else {
      if (hash_->Find(entry) == row) return Status::OK();
      hash_->Put(entry, row);
    }
    result->added = true;
    return Status::OK();
  }
  // Undoes an Insert that added (key, row): the entry goes back to
  // `replaced` (nullptr: it is removed), if it still maps to `row`. An
  // empty key (an uncovered image) has no entry: Restore and Erase ignore it.
  void Restore(const std::string& key, bool has_null, Row* row, Row* replaced);
  // Removes the entry for (key, row) if present.
  void Erase(const std::string& key, bool has_null, Row* row);

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
  std::shared_ptr<const IndexPredicate> predicate_;
  std::vector<bool> nullable_;  // per key column
  std::unique_ptr<HashIndex> hash_;
  std::unique_ptr<OrderedIndex> ordered_;
  // Serialises changes of unique entries when both structures hold them.
  std::mutex unique_latch_;

  // Compare-and-set of a unique key's entry in every structure.
  bool SetUnique(const std::string& key, Row* expected, Row* desired);
};

}  // namespace paceline::storage
