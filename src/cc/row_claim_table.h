// RowClaimTable: which transactions have claimed which rows with a
// row-locking clause under OCC (SELECT .. FOR UPDATE / SHARE), so that
// NOWAIT and SKIP LOCKED can tell a row another in-flight transaction holds.
//
// A claim is a lock that nobody waits for: OCC still decides conflicts by
// validation at commit. A claim is exclusive (FOR UPDATE, FOR NO KEY
// UPDATE) or shared (FOR SHARE, FOR KEY SHARE); TryClaim grants it when no
// other owner holds the row in a conflicting mode, else refuses at once.
// Claims live in 256 buckets chosen by row address, each a mutex and a map
// row → owners; a row with no owner has no entry.
//
// Thread-safety: every method may be called concurrently. Ownership: owners
// are opaque keys (their transaction contexts); an owner releases its
// claims (Release) before it is destroyed.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "storage/row.h"

namespace paceline::cc {

class RowClaimTable {
 public:
  RowClaimTable();
  // Claims `row` for `owner` (exclusive or shared), upgrading a shared
  // claim it holds alone; true when granted or already held as strongly.
  // `*added`: whether the row is new to `owner`'s claims (to release).
  bool TryClaim(const void* owner, storage::Row* row, bool exclusive, bool* added);
  // Releases `owner`'s claims on `rows` (each once).
  void Release(const void* owner, const std::vector<storage::Row*>& rows);

 private:
  using Owners = std::vector<std::pair<const void*, bool>>;  // (owner, exclusive)
  struct alignas(64) Bucket {
    std::mutex mu;
    std::unordered_map<const storage::Row*, Owners> claims;
  };
  static constexpr size_t kBuckets = 256;
  Bucket& BucketOf(const storage::Row* row);
  static bool Conflicts(const Owners& owners, const void* owner, bool exclusive);

  std::unique_ptr<Bucket[]> buckets_;
};

}  // namespace paceline::cc
