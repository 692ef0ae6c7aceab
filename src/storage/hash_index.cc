// HashIndex over libcuckoo (see hash_index.h).
#include "storage/hash_index.h"

namespace paceline::storage {

Row* HashIndex::Find(const std::string& key) const {
  Row* row = nullptr;
  map_.find_fn(key, [&](Row* const& r) { row = r; });
  return row;
}

void HashIndex::Put(const std::string& key, Row* row) { map_.insert_or_assign(key, row); }

bool HashIndex::CompareAndSet(const std::string& key, Row* expected, Row* desired) {
  if (expected == nullptr) return map_.insert(key, desired);
  bool done = false;
  map_.update_fn(key, [&](Row*& r) {
    if (r == expected) {
      r = desired;
      done = true;
    }
  });
  return done;
}

void HashIndex::Erase(const std::string& key, Row* row) {
  map_.erase_fn(key, [&](Row*& r) { return r == row; });
}

}  // namespace paceline::storage
