// OrderedIndex over tbb::concurrent_map (see ordered_index.h).
#include "engine/storage/ordered_index.h"

namespace paceline::storage {

Row* OrderedIndex::Find(const std::string& key) const {
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : it->second;
}

void OrderedIndex::Put(const std::string& key, Row* row) {
  auto [it, inserted] = map_.emplace(key, row);
  if (!inserted) it->second = row;
}

}  // namespace paceline::storage
