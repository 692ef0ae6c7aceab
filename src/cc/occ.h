// Occ ("occ"): optimistic concurrency control in the style of Silo
// (Tu et al., SOSP 2013).
//
// Each row's cc_word is [lock bit | pending bit | 62-bit version].
//   Read:   read the word, the image and the word again; record (row,
//           version) in the read set. No locks, no shared writes.
//   Write:  buffered by the engine until commit. A new row is marked
//           pending (an uncommitted insert: invisible to readers, and a
//           conflict for a concurrent insert of the same unique key).
//   Scan:   a predicate (an index range, a missed unique key, or the whole
//           table, narrowed to what was read when a LIMIT stops the scan)
//           is recorded, and every row its scan reads is tagged with it.
//   Commit: (1) lock the write set in a global order (row address), waiting
//           by yielding for a committer that holds one; (2) check that every
//           unique key entry added is still ours; (3) validate: every read
//           row still has its version and is not locked by another
//           committer, and every predicate is rescanned: each row visible
//           in it now must have been read by that predicate's own scan (or
//           be our own write). A row inserted, moved into the range, or
//           revived since is a phantom, even when a later statement of the
//           same transaction read it (a predicate evaluated twice around a
//           committed insert, Hermitage's PMP); a row deleted or changed
//           since fails (3)'s version check. (4) install the images;
//           (5) publish: version + 1, unlock.
// The serialization point is the moment the write set is locked and
// validation starts. A failed validation returns 40001 at once; the locks
// are released by the Abort that follows, after the engine's undo. A
// rollback that takes back an index entry it added for a row it wrote
// holds that row's commit lock around the undo (UndoBesideCommits),
// yielding as a committer does while another holds it: another writer of
// the row that found the entry may be committing in reliance on it,
// between its step (2) and its install. For those microseconds the row
// looks as it does beside a commit: readers yield, validations and unique
// checks that meet it fail.
//
// No statement result contradicts the transaction's earlier reads: OCC
// reads without locks, so a statement may meet a row or range that changed
// since an earlier statement read it (BenchBase's Delivery: SELECT the
// oldest new_order row, then DELETE it and find it gone). After every
// statement that read something, when earlier statements read too, the
// engine runs (3) without the locks (Validate with predicates): any change
// fails the statement with 40001 at once, before its result reaches the
// client; the transaction then aborts (and is retried where it is
// submitted whole). Versions only grow, so reads still current at the end
// of the statement were current throughout it. The cost is one pass over
// the read set and the predicates per such statement, unless nothing was
// installed since the last pass that found them current (a quiet stretch:
// below). A statement that
// fails on an error after earlier statements read is checked the same way,
// against the predicates of the statements before it (its own scan may
// have stopped half way): an INSERT that meets the unique key an earlier
// SELECT found absent, after another transaction inserted it, fails with
// 40001 (retried), not 23505, as under PostgreSQL SERIALIZABLE. The 2PL variants
// guarantee the same by holding every read lock (rows and ranges) to the
// end: what a transaction read cannot change before it ends.
//
// Quiet stretches: a committer counts its install as started (after its
// validation, before it installs) and as ended (after it publishes); a
// check reads both counts before it passes over the reads. When they are
// equal (no install under way) the check's pass proves the reads current
// at that count, and a later check that finds both counts still equal to
// it skips the pass: no install started since, and every visible change
// but one (below) is made by an install (an image, a version, a pending
// insert made visible). Soundness of the skip: a read that saw any effect
// of an install happens after that install's start was counted (the count
// precedes the install, the read acquires what the install released), so
// a count that has not moved means the reads saw no such effect and none
// happened since. The one change made outside an install: an INSERT that
// takes over a unique key's entry from a row it judged stale, when that
// row's commit gave it the key meanwhile, points the entry at its
// uncommitted row until its confirmation fails and the entry is restored;
// a lookup of the key in between finds no row. Such a lookup meets the
// uncommitted row, so a transaction whose reads ever met another's
// uncommitted insert never skips. Commit's own validation never skips (two
// committers could each find the counts quiet before the other counts its
// start: write skew). With one transaction at a time this removes every
// statement check; with many, a check skips only when no other transaction
// installed a write meanwhile.
//
// Row-locking clauses (SELECT .. FOR UPDATE / SHARE): OCC has no row locks,
// so a locking clause *claims* the rows it reads (RowClaimTable: exclusive
// for FOR UPDATE and NO KEY UPDATE, shared for SHARE and KEY SHARE) until
// the transaction commits or aborts; the claim is released after the
// commit publishes, so whoever claims the row next reads the new version.
// NOWAIT fails with 55P03, and SKIP LOCKED skips the row, when another
// in-flight transaction's claim conflicts. A plain locking clause neither
// waits for nor fails on another's claim: it reads on, and validation at
// commit decides as for any read. UPDATE and DELETE claim nothing (their
// writes stay buffered until commit): a SKIP LOCKED may return a row
// another transaction is about to write, and then validation aborts
// whichever commits second (40001, retried). Claims never decide
// correctness, only what NOWAIT and SKIP LOCKED see.
//
// Thread-safety: as ConcurrencyControl.
#pragma once

#include <atomic>
#include <cstdint>

#include "cc/concurrency_control.h"
#include "cc/row_claim_table.h"

namespace paceline::cc {

class Occ : public ConcurrencyControl {
 public:
  explicit Occ(const CcOptions& options) : options_(options) {}
  std::string_view Name() const override { return "occ"; }

  std::unique_ptr<TransactionContext> Begin(TxnTimestamp timestamp) override;
  Status Read(TransactionContext* ctx, storage::Row* row, bool for_update, size_t predicate,
              const storage::Tuple** image) override;
  Status ReadForUniqueCheck(TransactionContext* ctx, storage::Row* row, const storage::Tuple** image) override;
  Status ReadLocked(TransactionContext* ctx, storage::Row* row, RowLock lock, size_t predicate,
                    const storage::Tuple** image, bool* available) override;
  Status ConfirmTakeover(TransactionContext* ctx, storage::Row* previous) override;
  Status PrepareWrite(TransactionContext* ctx, storage::Row* row) override;
  Status PrepareInsert(TransactionContext* ctx, storage::Row* row) override;
  Status InsertedKey(TransactionContext* ctx, const storage::Table* table, const storage::Index* index,
                     const std::string& entry_key) override;
  Status LockPredicate(TransactionContext* ctx, Predicate predicate, size_t* handle) override;
  void NarrowPredicate(TransactionContext* ctx, size_t handle, const std::string& last) override;
  void NarrowTableScan(TransactionContext* ctx, size_t handle, size_t positions) override;
  Status Validate(TransactionContext* ctx, const std::vector<storage::Row*>& own_writes, size_t predicates) override;
  size_t Predicates(const TransactionContext* ctx) const override;
  size_t Observations(const TransactionContext* ctx) const override;
  Status Commit(TransactionContext* ctx, CommitHooks* hooks) override;
  void Abort(TransactionContext* ctx) override;
  void UndoBesideCommits(TransactionContext* ctx, storage::Row* row, const std::function<void()>& undo) override;

  static constexpr uint64_t kLockBit = uint64_t{1} << 63;
  static constexpr uint64_t kPendingBit = uint64_t{1} << 62;
  static constexpr uint64_t kVersionMask = kPendingBit - 1;
  // An install count meaning "not quiet" (see "Quiet stretches" above).
  static constexpr uint64_t kNotQuiet = UINT64_MAX;

 private:
  void ReleaseClaims(TransactionContext* ctx);
  // The install count when no install is under way, else kNotQuiet.
  uint64_t QuietPoint() const;

  CcOptions options_;
  RowClaimTable claims_;
  // Installs counted as started and as ended, on cache lines of their own
  // (every committer that writes touches both).
  alignas(64) std::atomic<uint64_t> installs_started_{0};
  alignas(64) std::atomic<uint64_t> installs_ended_{0};
};

}  // namespace paceline::cc
