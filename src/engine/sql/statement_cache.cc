// StatementCache: lookup, invalidation by catalog version, insertion and
// CLOCK eviction (statement_cache.h).
#include "engine/sql/statement_cache.h"

#include <algorithm>

namespace paceline::sql {

Status StatementCache::Get(std::string_view text, const catalog::Catalog& catalog, const std::vector<Type>& declared,
                           std::shared_ptr<const PreparedStatement>* out) {
  std::string key(text);
  for (const Type& t : declared) {
    key.push_back('\0');
    key += std::to_string(t.Oid());
  }
  const uint64_t version = catalog.version();
  bool found = map_.find_fn(key, [&](const std::shared_ptr<Entry>& e) {
    if (e->prepared->catalog_version == version) {
      *out = e->prepared;
      const uint64_t now = misses_.load(std::memory_order_relaxed);
      if (e->last_used.load(std::memory_order_relaxed) != now) e->last_used.store(now, std::memory_order_relaxed);
    }
  });
  if (found && *out) {
    hits_.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  const uint64_t now = misses_.fetch_add(1, std::memory_order_relaxed) + 1;
  std::shared_ptr<PreparedStatement> prepared;
  PL_RETURN_IF_ERROR(PreparedStatement::Prepare(text, catalog, declared, &prepared));
  auto entry = std::make_shared<Entry>();
  entry->prepared = prepared;
  entry->bytes = key.size() + kBytesPerTextByte * text.size() + kBytesPerEntry;
  entry->last_used.store(now, std::memory_order_relaxed);
  const size_t added = entry->bytes;
  size_t replaced = 0;
  bool inserted = true;
  map_.upsert(
      key,
      [&](std::shared_ptr<Entry>& existing) {  // a stale version (or a racing insert): replaced
        replaced = existing->bytes;
        existing = entry;
        inserted = false;
      },
      entry);
  if (inserted) entries_.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(pending_mu_);
    if (pending_.size() < kMaxPendingKeys) {
      pending_.push_back(key);
    } else if (!walk_all_) {
      walk_all_ = true;
      pending_ = {};
    }
  }
  if (bytes_.fetch_add(added, std::memory_order_relaxed) + added - replaced > capacity_bytes_) Sweep();
  if (replaced > 0) bytes_.fetch_sub(replaced, std::memory_order_relaxed);
  *out = std::move(prepared);
  return Status::OK();
}

void StatementCache::DropStale(uint64_t version) {
  std::vector<std::string> pending;
  bool walk_all;
  {
    std::lock_guard lock(pending_mu_);
    pending.swap(pending_);
    walk_all = walk_all_;
    walk_all_ = false;
  }
  if (!walk_all) {
    std::vector<std::string> current;  // inserted at `version` meanwhile: listed again
    for (std::string& key : pending) {
      size_t freed = 0;
      bool keep = false;
      map_.erase_fn(key, [&](const std::shared_ptr<Entry>& e) {
        if (e->prepared->catalog_version == version) {
          keep = true;
          return false;
        }
        freed = e->bytes;
        return true;
      });
      if (freed > 0) {
        bytes_.fetch_sub(freed, std::memory_order_relaxed);
        entries_.fetch_sub(1, std::memory_order_relaxed);
      }
      if (keep) current.push_back(std::move(key));
    }
    std::lock_guard lock(pending_mu_);
    for (std::string& key : current) {
      if (pending_.size() >= kMaxPendingKeys) {
        walk_all_ = true;
        pending_ = {};
        break;
      }
      pending_.push_back(std::move(key));
    }
    return;
  }
  auto table = map_.lock_table();
  for (auto it = table.begin(); it != table.end();) {
    if (it->second->prepared->catalog_version == version) {
      ++it;
      continue;
    }
    bytes_.fetch_sub(it->second->bytes, std::memory_order_relaxed);
    entries_.fetch_sub(1, std::memory_order_relaxed);
    it = table.erase(it);
  }
}

void StatementCache::Sweep() {
  std::unique_lock sweeping(sweep_mu_, std::try_to_lock);
  if (!sweeping.owns_lock()) return;  // another thread sweeps now
  const size_t target = capacity_bytes_ / 10 * 9;
  auto table = map_.lock_table();
  struct Aged {
    uint64_t last_used;
    size_t bytes;
    const std::string* key;
    bool operator<(const Aged& o) const { return last_used < o.last_used; }
  };
  std::vector<Aged> by_age;
  by_age.reserve(table.size());
  for (const auto& [key, entry] : table) {
    by_age.push_back({entry->last_used.load(std::memory_order_relaxed), entry->bytes, &key});
  }
  std::sort(by_age.begin(), by_age.end());
  // The oldest go until the total is under the target (keys copied first:
  // erasing moves the table's entries).
  std::vector<std::string> victims;
  size_t freed = 0;
  for (const Aged& a : by_age) {
    if (bytes_.load(std::memory_order_relaxed) - freed <= target) break;
    freed += a.bytes;
    victims.push_back(*a.key);
  }
  for (const std::string& key : victims) table.erase(key);
  bytes_.fetch_sub(freed, std::memory_order_relaxed);
  entries_.fetch_sub(victims.size(), std::memory_order_relaxed);
  evictions_.fetch_add(victims.size(), std::memory_order_relaxed);
}

}  // namespace paceline::sql
