// OrderedIndex: encoded key → Row* in key order, for range scans over a key
// prefix (all order lines of one order; the oldest new order of a district),
// over oneTBB's concurrent_map (a lock-free-read concurrent skip list).
//
// Thread-safety: Find, Put and Scan may run concurrently with each other.
// tbb::concurrent_map cannot erase concurrently, so EraseUnsafe requires that
// no other thread uses the index (the caller holds the table exclusively);
// otherwise readers skip stale entries (see row.h) and a later quiet-time
// Vacuum removes them.
#pragma once

#include <oneapi/tbb/concurrent_map.h>

#include <string>

#include "engine/storage/row.h"

namespace paceline::storage {

class OrderedIndex {
 public:
  Row* Find(const std::string& key) const;
  // Stores key → row, replacing any previous entry.
  void Put(const std::string& key, Row* row);
  // Calls fn(key, row) for entries with lower ≤ key < upper (upper "" means
  // no bound) in ascending key order until fn returns false.
  template <typename Fn>
  void Scan(const std::string& lower, const std::string& upper, Fn fn) const {
    for (auto it = map_.lower_bound(lower); it != map_.end(); ++it) {
      if (!upper.empty() && it->first >= upper) break;
      if (!fn(it->first, it->second)) break;
    }
  }
  void EraseUnsafe(const std::string& key) { map_.unsafe_erase(key); }
  void Clear() { map_.clear(); }
  size_t size() const { return map_.size(); }

 private:
  tbb::concurrent_map<std::string, Row*> map_;
};

}  // namespace paceline::storage
