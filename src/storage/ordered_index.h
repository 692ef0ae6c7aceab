// OrderedIndex: encoded key → Row* in key order, for range scans over a key
// prefix (all order lines of one order; the oldest new order of a district),
// over an absl::btree_map guarded by a reader-writer latch.
//
// Scans copy a batch of entries under the shared latch and call the visitor
// with the latch released, so a visitor may block (a 2PL lock wait) or use
// other indexes without holding this one; a scan sees each entry that stayed
// in the index for its whole duration, and may or may not see entries
// inserted or erased meanwhile (callers validate what they read: see row.h).
//
// Thread-safety: every method may be called concurrently.
#pragma once

#include <absl/container/btree_map.h>

#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "storage/row.h"

namespace paceline::storage {

class OrderedIndex {
 public:
  Row* Find(const std::string& key) const;
  // Stores key → row, replacing any previous entry.
  void Put(const std::string& key, Row* row);
  // Sets key → desired when the entry currently maps to `expected` (nullptr:
  // absent). Returns whether it did.
  bool CompareAndSet(const std::string& key, Row* expected, Row* desired);
  // Removes the entry for `key` if it maps to `row`.
  void Erase(const std::string& key, Row* row);

  // Calls fn(key, row) for entries with lower ≤ key < upper (upper "" means
  // no bound) in ascending key order until fn returns false.
  template <typename Fn>
  void Scan(const std::string& lower, const std::string& upper, Fn fn) const {
    std::vector<std::pair<std::string, Row*>> batch;
    std::string from = lower;
    bool first = true;
    for (;;) {
      CollectBatch(from, upper, /*skip_from=*/!first, &batch);
      first = false;
      for (const auto& [key, row] : batch) {
        if (!fn(key, row)) return;
      }
      if (batch.size() < kScanBatch) return;
      from = std::move(batch.back().first);
    }
  }
  void Clear();
  size_t size() const;

 private:
  static constexpr size_t kScanBatch = 64;
  // Up to kScanBatch entries from `from` (excluded when skip_from) below upper.
  void CollectBatch(const std::string& from, const std::string& upper, bool skip_from,
                    std::vector<std::pair<std::string, Row*>>* out) const;

  mutable std::shared_mutex latch_;
  absl::btree_map<std::string, Row*> map_;
};

}  // namespace paceline::storage
