// StatementCache: SQL text → PreparedStatement, so each distinct text is
// parsed, bound and planned once and later executions only bind parameter
// values. An entry bound against an older catalog version is rebuilt on its
// next use (DDL invalidates what it affects). Texts with declared parameter
// types (wire-protocol Parse) are keyed by text and types together.
//
// Thread-safety: Get may be called concurrently (libcuckoo map); binding reads
// the catalog, which the caller keeps stable meanwhile.
#pragma once

#include <libcuckoo/cuckoohash_map.hh>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engine/sql/prepared_statement.h"

namespace paceline::sql {

class StatementCache {
 public:
  // At most `capacity` entries; when full, the cache is cleared (statements
  // in use stay alive through their shared_ptr).
  explicit StatementCache(size_t capacity = 10000) : capacity_(capacity) {}

  Status Get(std::string_view text, const catalog::Catalog& catalog, const std::vector<Type>& declared,
             std::shared_ptr<const PreparedStatement>* out);

  size_t size() const { return entries_.load(std::memory_order_relaxed); }
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  const size_t capacity_;
  libcuckoo::cuckoohash_map<std::string, std::shared_ptr<const PreparedStatement>> map_;
  std::atomic<size_t> entries_{0};
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

}  // namespace paceline::sql
