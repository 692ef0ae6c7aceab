// StatementCache: lookup, invalidation by catalog version, insertion and
// least-recently-used eviction (statement_cache.h).
#include "sql/statement_cache.h"

#include <algorithm>

#include <absl/hash/hash.h>

#include "common/allocation_meter.h"

namespace paceline::sql {

StatementCache::Shard& StatementCache::ShardOf(std::string_view key) {
  return shards_[absl::Hash<std::string_view>{}(key) % kShards];
}

Status StatementCache::Get(std::string_view text, const catalog::Catalog& catalog, const std::vector<Type>& declared,
                           std::shared_ptr<const PreparedStatement>* out) {
  std::string key(text);
  for (const Type& t : declared) {
    key.push_back('\0');
    key += std::to_string(t.Oid());
  }
  const uint64_t version = catalog.version();
  Shard& shard = ShardOf(key);
  {
    std::shared_lock lock(shard.mu);
    auto it = shard.map.find(key);
    if (it != shard.map.end() && it->second->prepared->catalog_version == version) {
      Entry& e = *it->second;
      *out = e.prepared;
      const uint64_t now = misses_.load(std::memory_order_relaxed);
      if (e.last_used.load(std::memory_order_relaxed) != now) e.last_used.store(now, std::memory_order_relaxed);
      hits_.fetch_add(1, std::memory_order_relaxed);
      return Status::OK();
    }
  }
  const uint64_t now = misses_.fetch_add(1, std::memory_order_relaxed) + 1;
  std::shared_ptr<PreparedStatement> prepared;
  std::shared_ptr<Entry> entry;
  size_t kept;
  {
    AllocationMeter meter;  // what preparing keeps: the entry's charge
    PL_RETURN_IF_ERROR(PreparedStatement::Prepare(text, catalog, declared, &prepared));
    entry = std::make_shared<Entry>();
    kept = meter.net_bytes();
  }
  entry->prepared = prepared;
  entry->bytes = kept + key.capacity() + 1 + kBytesPerSlot;
  entry->last_used.store(now, std::memory_order_relaxed);
  if (entry->bytes > max_entry_bytes()) {  // used once, never kept
    too_large_.fetch_add(1, std::memory_order_relaxed);
    *out = std::move(prepared);
    return Status::OK();
  }
  const size_t added = entry->bytes;
  size_t replaced = 0;
  {
    std::unique_lock lock(shard.mu);
    auto [it, inserted] = shard.map.try_emplace(key, entry);
    if (inserted) {
      entries_.fetch_add(1, std::memory_order_relaxed);
    } else {  // a stale version (or a racing insert): replaced
      replaced = it->second->bytes;
      it->second = entry;
    }
  }
  {
    std::lock_guard lock(pending_mu_);
    ListPending(key);
  }
  if (bytes_.fetch_add(added, std::memory_order_relaxed) + added - replaced > entry_budget()) Sweep();
  if (replaced > 0) bytes_.fetch_sub(replaced, std::memory_order_relaxed);
  *out = std::move(prepared);
  return Status::OK();
}

void StatementCache::ListPending(std::string key) {
  if (walk_all_) return;
  if (pending_.size() >= kMaxPendingKeys || pending_bytes_ + KeyBytes(key) > pending_budget()) {
    walk_all_ = true;
    pending_ = {};
    pending_bytes_ = 0;
    pending_bytes_shown_.store(0, std::memory_order_relaxed);
    return;
  }
  pending_bytes_ += KeyBytes(key);
  pending_.push_back(std::move(key));
  pending_bytes_shown_.store(pending_bytes_, std::memory_order_relaxed);
}

void StatementCache::Forget(size_t bytes) {
  bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  entries_.fetch_sub(1, std::memory_order_relaxed);
}

bool StatementCache::EraseIfStale(const std::string& key, uint64_t version) {
  Shard& shard = ShardOf(key);
  std::unique_lock lock(shard.mu);
  auto it = shard.map.find(key);
  if (it == shard.map.end()) return false;
  if (it->second->prepared->catalog_version == version) return true;
  Forget(it->second->bytes);
  shard.map.erase(it);
  return false;
}

void StatementCache::DropStale(uint64_t version) {
  std::vector<std::string> pending;
  bool walk_all;
  {
    std::lock_guard lock(pending_mu_);
    pending.swap(pending_);
    pending_bytes_ = 0;
    pending_bytes_shown_.store(0, std::memory_order_relaxed);
    walk_all = walk_all_;
    walk_all_ = false;
  }
  if (!walk_all) {
    std::vector<std::string> current;  // inserted at `version` meanwhile: listed again
    for (std::string& key : pending) {
      if (EraseIfStale(key, version)) current.push_back(std::move(key));
    }
    std::lock_guard lock(pending_mu_);
    for (std::string& key : current) ListPending(std::move(key));
    return;
  }
  for (Shard& shard : shards_) {
    std::unique_lock lock(shard.mu);
    absl::erase_if(shard.map, [&](const auto& kv) {
      if (kv.second->prepared->catalog_version == version) return false;
      Forget(kv.second->bytes);
      return true;
    });
  }
}

void StatementCache::Sweep() {
  std::unique_lock sweeping(sweep_mu_, std::try_to_lock);
  if (!sweeping.owns_lock()) return;  // another thread sweeps now
  const size_t target = entry_budget() / 10 * 9;
  struct Aged {
    uint64_t last_used;
    size_t bytes;
    std::string key;
    bool operator<(const Aged& o) const { return last_used < o.last_used; }
  };
  std::vector<Aged> by_age;
  for (Shard& shard : shards_) {
    std::shared_lock lock(shard.mu);
    for (const auto& [key, entry] : shard.map) {
      by_age.push_back({entry->last_used.load(std::memory_order_relaxed), entry->bytes, key});
    }
  }
  std::sort(by_age.begin(), by_age.end());
  // The oldest go until the total is under the target. An entry replaced
  // or used since the look above goes too: this is a cache.
  for (const Aged& a : by_age) {
    if (bytes_.load(std::memory_order_relaxed) <= target) break;
    Shard& shard = ShardOf(a.key);
    std::unique_lock lock(shard.mu);
    auto it = shard.map.find(a.key);
    if (it == shard.map.end()) continue;  // dropped meanwhile
    Forget(it->second->bytes);
    evictions_.fetch_add(1, std::memory_order_relaxed);
    shard.map.erase(it);
  }
}

}  // namespace paceline::sql
