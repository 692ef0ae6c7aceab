// JoinHashTable: rows by key for a hash join (see join_hash_table.h).
#include "sql/join_hash_table.h"

#include "sql/executor_internal.h"

namespace paceline::sql {

void JoinHashTable::Add(std::vector<Value> key, Entry entry) { buckets_[std::move(key)].push_back(entry); }

const std::vector<JoinHashTable::Entry>* JoinHashTable::Find(const std::vector<Value>& key) const {
  auto it = buckets_.find(key);
  return it == buckets_.end() ? nullptr : &it->second;
}

size_t JoinHashTable::KeyHash::operator()(const std::vector<Value>& key) const { return ValuesHash()(key); }

bool JoinHashTable::KeyEqual::operator()(const std::vector<Value>& a, const std::vector<Value>& b) const {
  for (size_t i = 0; i < a.size(); ++i) {
    if (Value::Compare(a[i], b[i]) != 0) return false;
  }
  return true;
}

}  // namespace paceline::sql
