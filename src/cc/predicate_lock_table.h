// PredicateLockTable: the key-range locks of two-phase locking for one index
// (or one table's whole-table scans), which keep phantoms out.
//
// A scan takes a shared lock on the entry-key range it reads ([lower,
// upper), or one unique key for a lookup that found nothing, or everything
// for a table scan); shared range locks never conflict with each other. A
// transaction that adds an index entry (an insert, or an update that moves
// a row to a new key) checks the key against the ranges other transactions
// hold and, on a conflict, follows its DeadlockRule (abort, wait, wound).
// Rows already in a range are protected by their row locks; together the
// two make range scans serializable.
//
// Why a scan and an insert cannot miss each other: the inserter adds its
// entry (under the index's latch), then reads the lock count; the scanner
// registers its range (raising the count), then scans (under the latch).
// Whichever comes second sees the other: the inserter sees the range, or
// the scanner sees the entry — whose row the inserter holds exclusively, so
// the scanner's row lock meets it.
//
// Thread-safety: every method may be called concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "cc/locking_context.h"

namespace paceline::cc {

class PredicateLockTable {
 public:
  // Takes a shared lock on `predicate` for ctx; returns its id.
  // `relation_oid` (pg_class) names what the table locks, for Snapshot.
  uint64_t Add(LockingContext* ctx, const Predicate& predicate, uint32_t relation_oid);
  // Shrinks lock `id` to end at entry key `last` (inclusive).
  void Narrow(uint64_t id, const std::string& last);
  // Checks a new entry key of ctx against other transactions' ranges.
  // `waiting` counts transactions waiting (borrowed); `table` (Table::id())
  // is the culprit a conflict names.
  Status CheckInsert(LockingContext* ctx, const std::string& key, DeadlockRule rule,
                     std::chrono::milliseconds lock_timeout, std::atomic<size_t>* waiting, TableId table);
  // Releases every lock of ctx in this table.
  void Release(LockingContext* ctx);
  // Appends one entry per transaction holding ranges here and one per
  // inserter waiting for them.
  void Snapshot(std::vector<RangeLockState>* out) const;

 private:
  struct RangeLock {
    uint64_t id;
    LockingContext* owner;
    std::string lower, upper;  // upper "" = unbounded
    bool point;
    bool all;  // the whole table
    bool Covers(const std::string& key) const {
      if (all) return true;
      if (point) return key == lower;
      return key >= lower && (upper.empty() || key < upper);
    }
  };
  mutable std::mutex mu_;
  // The OID given with the latest Add: DDL (exclusive) runs between the
  // transactions of an index that was dropped and one made at its address.
  uint32_t relation_oid_ = 0;
  std::vector<RangeLock> locks_;
  std::vector<LockingContext*> waiters_;
  std::atomic<size_t> count_{0};
  uint64_t next_id_ = 1;
};

}  // namespace paceline::cc
