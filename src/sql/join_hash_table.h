// JoinHashTable: the rows of one join source by key, for a hash join.
//
// The executor reads the source once, adds each row that passes the
// source's own filters under its key values (a key with a NULL is never
// added: NULL = anything is not true), then finds the rows for each row of
// the earlier sources. Keys are equal as SQL `=` has them (Value::Compare ==
// 0; the planner pairs only types whose equal values hash alike).
//
// Ownership: it holds pointers to tuples and rows that the transaction keeps
// alive for the statement (its epoch pin, or the statement's cache of
// derived rows). Thread-safety: one executor, one thread.
#pragma once

#include <unordered_map>
#include <vector>

#include "common/value.h"
#include "storage/row.h"
#include "storage/tuple.h"

namespace paceline::sql {

class JoinHashTable {
 public:
  struct Entry {
    const storage::Tuple* tuple;
    storage::Row* row;  // null for a derived source's row
  };

  // Whether the executor has added every row (MarkBuilt).
  bool built() const { return built_; }
  void MarkBuilt() { built_ = true; }

  // Adds a row under `key` (none of its values NULL).
  void Add(std::vector<Value> key, Entry entry);
  // The rows added under a key equal to `key`; null when none.
  const std::vector<Entry>* Find(const std::vector<Value>& key) const;

 private:
  struct KeyHash {
    size_t operator()(const std::vector<Value>& key) const;
  };
  struct KeyEqual {
    bool operator()(const std::vector<Value>& a, const std::vector<Value>& b) const;
  };
  std::unordered_map<std::vector<Value>, std::vector<Entry>, KeyHash, KeyEqual> buckets_;
  bool built_ = false;
};

}  // namespace paceline::sql
