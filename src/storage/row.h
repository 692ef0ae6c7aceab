// Row: the stable identity of one table row, with its current committed image.
//
// A Row never moves and is never freed while its table exists, so indexes and
// transactions hold plain Row pointers. Its content is an immutable Tuple
// (tuple.h) published through an atomic pointer: an UPDATE installs a new
// tuple, a DELETE installs nullptr ("absent"), an INSERT fills an absent row.
// An index entry that points at an absent row, or at a row whose current key
// differs from the entry's key, is stale and is ignored by readers.
//
// `cc_word` is reserved for concurrency control: a version/TID with a lock
// bit under OCC, lock state under 2PL. The storage layer never reads it.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/ids.h"
#include "storage/tuple.h"

namespace paceline::storage {

struct Row {
  Row(uint64_t id, uint64_t table_generation, TableId owner_table)
      : row_id(id), generation(table_generation), table_id(owner_table) {}
  Row(const Row&) = delete;
  Row& operator=(const Row&) = delete;

  std::atomic<uint64_t> cc_word{0};
  std::atomic<Tuple*> tuple{nullptr};  // owned by the row; see Table
  const uint64_t row_id;               // unique within the table, never reused
  const uint64_t generation;           // the table's truncation count when allocated
  const TableId table_id;              // Table::id() of its table (names a conflict's culprit)
};

// A well-mixed hash of a row's address, for tables keyed by row (lock and
// claim buckets): rows are allocated close together, so the low bits alone
// would crowd a few buckets.
inline uint64_t HashRowAddress(const Row* row) {
  uint64_t h = reinterpret_cast<uintptr_t>(row);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

}  // namespace paceline::storage
