// HashIndex: encoded key → Row*, for point lookups, over libcuckoo's
// concurrent cuckoo hash map (fine-grained bucket locks, no global lock).
//
// Thread-safety: every method may be called concurrently.
#pragma once

#include <libcuckoo/cuckoohash_map.hh>
#include <xxhash.h>

#include <string>

#include "storage/row.h"

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
  // Removes every entry and gives the buckets and lock arrays back (clear()
  // alone keeps them: a truncated or dropped table's index would keep its
  // peak size). Exclusive use.
  void Clear() { Map(kInitialSlots).swap(map_); }
  size_t size() const { return map_.size(); }

 private:
  // XXH3: keys are short byte strings (an encoded key of a few columns),
  // where it is several times quicker than std::hash's murmur.
  struct KeyHash {
    size_t operator()(const std::string& key) const noexcept { return XXH3_64bits(key.data(), key.size()); }
  };
  using Map = libcuckoo::cuckoohash_map<std::string, Row*, KeyHash>;
  // A new map starts small and doubles as it fills. (libcuckoo's default,
  // 2^16 buckets, is about 11 MB per index, touched at construction: every
  // table paid it, empty or not.)
  static constexpr size_t kInitialSlots = 64;

  Map map_{kInitialSlots};
};

}  // namespace paceline::storage
