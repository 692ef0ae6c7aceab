// StatementCache: SQL text → PreparedStatement, so each distinct text is
// parsed, bound and planned once and later executions only bind parameter
// values. An entry bound against an older catalog version is rebuilt on its
// next use (DDL invalidates what it affects). Texts with declared parameter
// types (wire-protocol Parse) are keyed by text and types together.
//
// Bounded by the bytes it really holds: each entry is charged what
// preparing its statement kept, measured by an AllocationMeter (the heap
// blocks of its AST, plan and texts, at the allocator's usable sizes), plus
// its key and map slot. An estimate per byte of text undercounted: a
// 100 KB SELECT list keeps about 4 MB. The budget is split: a tenth for the
// key copies DropStale's list holds (below), the rest for the entries. When
// an insert takes the entries over theirs, the least recently used are
// evicted until the total is under 90% of it; a statement that alone would
// take more than a sixteenth of it (kMaxEntryShare) is prepared and
// returned but not kept. So bytes() + pending_bytes() never exceeds the
// capacity once an insert's sweep is done (concurrent inserts may pass it
// for the time of their sweeps). Recency is counted in misses (a miss is
// what inserts): a hit stamps its entry with the miss count, a relaxed
// load and store of words that only misses write, so hits on different
// cores do not contend.
// Statements in use stay alive through their shared_ptr, whatever the cache
// does.
//
// DropStale after DDL erases only what was inserted since the previous
// DropStale (a list of those keys), so a DDL costs what it invalidates, not
// a walk over the whole table. Entries older than that were current at the
// previous DropStale, which erased every entry not current then; the list
// is bounded, in keys and in bytes (past kMaxPendingKeys keys, or keys
// totalling a tenth of the budget, it is dropped and the next DropStale
// walks the table instead): the keys are copies of texts, charged to that
// tenth of the budget.
//
// Why not libcuckoo (as History and the hash indexes): every worker and
// connection looks up the same few hot texts, and libcuckoo's bucket locks
// are spinlocks taken even to read. With more threads than cores, a holder
// preempted inside one made the others spin out their time slices: 24% of
// paceline-server's CPU under pgbench (64 clients, 2 cores; measured with
// perf). Here a lookup takes its shard's reader lock, which readers share
// and nobody spins on.
//
// Thread-safety: Get may be called concurrently (kShards maps, each under a
// reader-writer lock: hits share it, inserts and erases take it alone; one
// sweep runs at a time); binding reads the catalog, which the caller keeps
// stable meanwhile.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "sql/prepared_statement.h"

namespace paceline::sql {

class StatementCache {
 public:
  // A map slot, beside what the meter sees: the key's and the entry
  // pointer's inline parts, and the table's spare room, rounded up.
  static constexpr size_t kBytesPerSlot = sizeof(std::string) + sizeof(std::shared_ptr<int>) + 64;
  static constexpr size_t kMaxEntryShare = 16;
  static constexpr size_t kMaxPendingKeys = 1 << 16;
  static constexpr size_t kShards = 16;

  // At most about `capacity_bytes` of statements (see above).
  explicit StatementCache(size_t capacity_bytes = size_t{128} << 20) : capacity_bytes_(capacity_bytes) {}

  Status Get(std::string_view text, const catalog::Catalog& catalog, const std::vector<Type>& declared,
             std::shared_ptr<const PreparedStatement>* out);

  // Drops every entry bound against a catalog version other than `version`
  // (after DDL: a stale plan holds the tables it names, so a dropped
  // table's rows would live on until its texts ran again).
  void DropStale(uint64_t version);

  // Entries and the bytes they hold now; the bytes of DropStale's key list.
  size_t size() const { return entries_.load(std::memory_order_relaxed); }
  size_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  size_t pending_bytes() const { return pending_bytes_shown_.load(std::memory_order_relaxed); }
  size_t capacity_bytes() const { return capacity_bytes_; }
  // Statements prepared but not kept: larger than max_entry_bytes().
  uint64_t too_large() const { return too_large_.load(std::memory_order_relaxed); }
  size_t max_entry_bytes() const { return entry_budget() / kMaxEntryShare; }
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  uint64_t evictions() const { return evictions_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::shared_ptr<const PreparedStatement> prepared;
    size_t bytes = 0;
    std::atomic<uint64_t> last_used{0};  // the miss count at its last use
  };
  struct Shard {
    std::shared_mutex mu;
    absl::flat_hash_map<std::string, std::shared_ptr<Entry>> map;
  };
  Shard& ShardOf(std::string_view key);
  // The budget's parts: DropStale's key list, and the entries.
  size_t pending_budget() const { return capacity_bytes_ / 10; }
  size_t entry_budget() const { return capacity_bytes_ - pending_budget(); }
  // What a key copy in pending_ holds.
  static size_t KeyBytes(const std::string& key) { return sizeof(std::string) + key.capacity() + 1; }
  // Erases `key` if its entry was bound against another version than
  // `version`; true if it is kept (current).
  bool EraseIfStale(const std::string& key, uint64_t version);
  // An entry of `bytes` left the map: the totals follow (callers hold its shard).
  void Forget(size_t bytes);
  // Evicts the least recently used until the total is under 90% of the
  // budget.
  void Sweep();

  const size_t capacity_bytes_;
  std::array<Shard, kShards> shards_;
  std::mutex sweep_mu_;
  // Keys inserted since the last DropStale (see above); walk_all_ when the
  // list overflowed.
  // Adds `key` to pending_, or gives the list up (walk_all_) when it is
  // full. Caller holds pending_mu_.
  void ListPending(std::string key);
  std::mutex pending_mu_;
  std::vector<std::string> pending_;
  size_t pending_bytes_ = 0;  // of the keys in pending_ (KeyBytes)
  std::atomic<size_t> pending_bytes_shown_{0};  // a copy of it, read without pending_mu_
  bool walk_all_ = false;
  // Totals across the shards.
  std::atomic<size_t> entries_{0};
  std::atomic<size_t> bytes_{0};
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> evictions_{0};
  std::atomic<uint64_t> too_large_{0};
};

}  // namespace paceline::sql
