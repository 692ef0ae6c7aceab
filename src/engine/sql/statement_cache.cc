// StatementCache: lookup, invalidation by catalog version, and insertion.
#include "engine/sql/statement_cache.h"

namespace paceline::sql {

Status StatementCache::Get(std::string_view text, const catalog::Catalog& catalog, const std::vector<Type>& declared,
                           std::shared_ptr<const PreparedStatement>* out) {
  std::string key(text);
  for (const Type& t : declared) {
    key.push_back('\0');
    key += std::to_string(t.Oid());
  }
  const uint64_t version = catalog.version();
  bool found = map_.find_fn(key, [&](const std::shared_ptr<const PreparedStatement>& p) {
    if (p->catalog_version == version) *out = p;
  });
  if (found && *out) {
    hits_.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  std::shared_ptr<PreparedStatement> prepared;
  PL_RETURN_IF_ERROR(PreparedStatement::Prepare(text, catalog, declared, &prepared));
  // libcuckoo's own size() reads its counters without locks (a data race
  // under concurrent inserts): the cache keeps an atomic count instead,
  // approximate when a clear races with inserts, which only moves the next
  // clear a little.
  if (entries_.load(std::memory_order_relaxed) >= capacity_) {
    map_.clear();
    entries_.store(0, std::memory_order_relaxed);
  }
  if (map_.insert_or_assign(std::move(key), prepared)) entries_.fetch_add(1, std::memory_order_relaxed);
  *out = std::move(prepared);
  return Status::OK();
}

}  // namespace paceline::sql
