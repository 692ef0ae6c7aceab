// OrderedIndex over absl::btree_map under a reader-writer latch (see
// ordered_index.h).
#include "storage/ordered_index.h"

namespace paceline::storage {

Row* OrderedIndex::Find(const std::string& key) const {
  std::shared_lock lock(latch_);
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : it->second;
}

void OrderedIndex::Put(const std::string& key, Row* row) {
  std::unique_lock lock(latch_);
  map_.insert_or_assign(key, row);
}

bool OrderedIndex::CompareAndSet(const std::string& key, Row* expected, Row* desired) {
  std::unique_lock lock(latch_);
  auto it = map_.find(key);
  if (it == map_.end()) {
    if (expected != nullptr) return false;
    map_.emplace(key, desired);
    return true;
  }
  if (it->second != expected) return false;
  it->second = desired;
  return true;
}

void OrderedIndex::Erase(const std::string& key, Row* row) {
  std::unique_lock lock(latch_);
  auto it = map_.find(key);
  if (it != map_.end() && it->second == row) map_.erase(it);
}

void OrderedIndex::CollectBatch(const std::string& from, const std::string& upper, bool skip_from,
                                std::vector<std::pair<std::string, Row*>>* out) const {
  out->clear();
  std::shared_lock lock(latch_);
  auto it = skip_from ? map_.upper_bound(from) : map_.lower_bound(from);
  for (; it != map_.end() && out->size() < kScanBatch; ++it) {
    if (!upper.empty() && it->first >= upper) break;
    out->emplace_back(it->first, it->second);
  }
}

void OrderedIndex::Clear() {
  std::unique_lock lock(latch_);
  map_.clear();
}

size_t OrderedIndex::size() const {
  std::shared_lock lock(latch_);
  return map_.size();
}

}  // namespace paceline::storage
