// HashIndex: encoded key → Row*, for point lookups, over libcuckoo's
// concurrent cuckoo hash map (fine-grained bucket locks, no global lock).
//
// Thread-safety: every method may be called concurrently.
#pragma once

#include <libcuckoo/cuckoohash_map.hh>

#include <string>

#include "engine/storage/row.h"

namespace paceline::storage {

class HashIndex {
 public:
  // The row stored under `key`, or nullptr.
  Row* Find(const std::string& key) const;
  // Stores key → row, replacing any previous entry.
  void Put(const std::string& key, Row* row);
  // Sets key → desired when the entry currently maps to `expected` (nullptr:
  // absent). Returns whether it did.
  bool CompareAndSet(const std::string& key, Row* expected, Row* desired);
  // Removes the entry for `key` if it maps to `row`.
  void Erase(const std::string& key, Row* row);
  void Clear() { map_.clear(); }
  size_t size() const { return map_.size(); }

 private:
  libcuckoo::cuckoohash_map<std::string, Row*> map_;
};

}  // namespace paceline::storage
