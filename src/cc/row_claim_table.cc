// RowClaimTable: OCC's row claims for row-locking clauses (row_claim_table.h).
#include "cc/row_claim_table.h"

#include <algorithm>

namespace paceline::cc {

RowClaimTable::RowClaimTable() : buckets_(new Bucket[kBuckets]) {}

RowClaimTable::Bucket& RowClaimTable::BucketOf(const storage::Row* row) {
  return buckets_[storage::HashRowAddress(row) % kBuckets];
}

bool RowClaimTable::Conflicts(const Owners& owners, const void* owner, bool exclusive) {
  return std::any_of(owners.begin(), owners.end(),
                     [&](const auto& o) { return o.first != owner && (exclusive || o.second); });
}

bool RowClaimTable::TryClaim(const void* owner, storage::Row* row, bool exclusive, bool* added) {
  *added = false;
  Bucket& b = BucketOf(row);
  std::lock_guard lock(b.mu);
  Owners& owners = b.claims[row];
  if (Conflicts(owners, owner, exclusive)) {
    if (owners.empty()) b.claims.erase(row);
    return false;
  }
  auto mine = std::find_if(owners.begin(), owners.end(), [&](const auto& o) { return o.first == owner; });
  if (mine == owners.end()) {
    owners.emplace_back(owner, exclusive);
    *added = true;
  } else {
    mine->second = mine->second || exclusive;
  }
  return true;
}

void RowClaimTable::Release(const void* owner, const std::vector<storage::Row*>& rows) {
  for (const storage::Row* row : rows) {
    Bucket& b = BucketOf(row);
    std::lock_guard lock(b.mu);
    auto it = b.claims.find(row);
    if (it == b.claims.end()) continue;
    Owners& owners = it->second;
    owners.erase(std::remove_if(owners.begin(), owners.end(), [&](const auto& o) { return o.first == owner; }),
                 owners.end());
    if (owners.empty()) b.claims.erase(it);
  }
}

}  // namespace paceline::cc
