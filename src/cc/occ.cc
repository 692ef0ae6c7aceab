// Occ: Silo-style optimistic concurrency control (see occ.h).
#include "cc/occ.h"

#include <algorithm>
#include <cassert>
#include <thread>

namespace paceline::cc {

using storage::Row;
using storage::Tuple;

namespace {

constexpr uint64_t kLock = Occ::kLockBit;
constexpr uint64_t kPending = Occ::kPendingBit;
constexpr uint64_t kVersion = Occ::kVersionMask;
// A reader that finds a row locked by a committer yields this many times for
// a clean read before it records the old version (and so fails validation
// if the commit completes).
constexpr int kReadYields = 64;

class OccContext : public TransactionContext {
 public:
  using TransactionContext::TransactionContext;
  using TransactionContext::Conflict;

  struct ReadEntry {
    Row* row;
    uint64_t version;
    size_t predicate;  // the handle of the scan that read it, or kNoPredicate
  };
  std::vector<ReadEntry> reads;
  std::vector<Predicate> predicates;
  std::vector<Row*> inserted;  // rows marked pending by this transaction
  std::vector<Row*> locked;    // write set rows locked at commit
  std::vector<Row*> claimed;   // rows claimed by a row-locking clause
  // The install count at which every read was last known current with no
  // install under way (Occ::kNotQuiet: not known).
  uint64_t current_at = Occ::kNotQuiet;
  // Met another transaction's uncommitted insert (see Validate).
  bool met_pending = false;
};

OccContext* Cast(TransactionContext* ctx) { return static_cast<OccContext*>(ctx); }

// Takes `row`'s commit lock, yielding while another holds it (a committer
// between its step (1) and publication, or its failed commit's undo, or a
// rollback's UndoBesideCommits: each short, and waiting for nothing but
// other commit locks, taken in address order).
void LockForCommit(Row* row) {
  for (;;) {
    uint64_t word = row->cc_word.load(std::memory_order_relaxed);
    if (!(word & kLock) &&
        row->cc_word.compare_exchange_weak(word, word | kLock, std::memory_order_seq_cst, std::memory_order_relaxed)) {
      return;
    }
    std::this_thread::yield();
  }
}

bool Contains(const std::vector<Row*>& sorted, const Row* row) {
  return std::binary_search(sorted.begin(), sorted.end(), row);
}

// Whether `row` is visible under `entry_key` of `index` (its committed
// image is present and has that key).
bool VisibleUnder(const storage::Index& index, const Tuple* image, const Row* row, const std::string& entry_key) {
  if (image == nullptr) return false;
  std::string key;
  bool has_null = false;
  if (!index.KeyOf(*image, &key, &has_null).ok()) return false;
  return index.EntryKey(key, has_null, row) == entry_key;
}

}  // namespace

std::unique_ptr<TransactionContext> Occ::Begin(TxnTimestamp timestamp) {
  auto c = std::make_unique<OccContext>(timestamp);
  c->current_at = QuietPoint();  // no reads yet: current whenever it is quiet
  return c;
}

uint64_t Occ::QuietPoint() const {
  // Started first: an install that starts after this load leaves the count
  // above the point returned, so a later check cannot take it as quiet.
  const uint64_t started = installs_started_.load(std::memory_order_seq_cst);
  const uint64_t ended = installs_ended_.load(std::memory_order_seq_cst);
  return started == ended ? started : kNotQuiet;
}

Status Occ::Read(TransactionContext* ctx, Row* row, bool /*for_update*/, size_t predicate, const Tuple** image) {
  OccContext* c = Cast(ctx);
  for (int attempt = 0;; ++attempt) {
    uint64_t before = row->cc_word.load(std::memory_order_acquire);
    if ((before & kLock) && attempt < kReadYields) {
      std::this_thread::yield();
      continue;
    }
    const Tuple* t = row->tuple.load(std::memory_order_acquire);
    uint64_t after = row->cc_word.load(std::memory_order_acquire);
    if (before != after) continue;
    if ((before & kPending) && t == nullptr) {
      // Another transaction's uncommitted insert: invisible. Predicates
      // (rescanned at validation) cover it if it commits first.
      c->met_pending = true;
      *image = nullptr;
      return Status::OK();
    }
    c->reads.push_back({row, before & kVersion, predicate});
    *image = t;
    return Status::OK();
  }
}

Status Occ::ReadLocked(TransactionContext* ctx, Row* row, RowLock lock, size_t predicate, const Tuple** image,
                       bool* available) {
  OccContext* c = Cast(ctx);
  bool added = false;
  const bool claimed = claims_.TryClaim(c, row, lock.exclusive, &added);
  if (added) c->claimed.push_back(row);
  *available = claimed || lock.wait == LockWait::kBlock;
  if (!*available) {
    *image = nullptr;
    return Status::OK();
  }
  return Read(ctx, row, lock.exclusive, predicate, image);
}

Status Occ::ReadForUniqueCheck(TransactionContext* ctx, Row* row, const Tuple** image) {
  uint64_t word = row->cc_word.load(std::memory_order_acquire);
  if (word & (kLock | kPending)) {
    return Cast(ctx)->Conflict(AbortReason::kUniqueConflict,
                               "could not serialize access: a concurrent transaction is writing the same unique key",
                               row->table_id);
  }
  return Read(ctx, row, false, kNoPredicate, image);
}

Status Occ::ConfirmTakeover(TransactionContext* ctx, Row* previous) {
  // seq_cst, paired with the committer's seq_cst lock of `previous` before
  // its StillOwnsKeys check: one of the two sees the other.
  OccContext* c = Cast(ctx);
  uint64_t word = previous->cc_word.load(std::memory_order_seq_cst);
  for (auto it = c->reads.rbegin(); it != c->reads.rend(); ++it) {
    if (it->row != previous) continue;
    if (!(word & (kLock | kPending)) && (word & kVersion) == it->version) return Status::OK();
    break;
  }
  return c->Conflict(AbortReason::kUniqueConflict,
                     "could not serialize access: a concurrent transaction is writing the same unique key",
                     previous->table_id);
}

Status Occ::PrepareWrite(TransactionContext*, Row*) { return Status::OK(); }

Status Occ::PrepareInsert(TransactionContext* ctx, Row* row) {
  // A fresh or released row: nobody else writes its word now.
  row->cc_word.fetch_or(kPending, std::memory_order_acq_rel);
  Cast(ctx)->inserted.push_back(row);
  return Status::OK();
}

Status Occ::InsertedKey(TransactionContext*, const storage::Table*, const storage::Index*, const std::string&) {
  return Status::OK();
}

Status Occ::LockPredicate(TransactionContext* ctx, Predicate predicate, size_t* handle) {
  OccContext* c = Cast(ctx);
  *handle = c->predicates.size();
  c->predicates.push_back(std::move(predicate));
  return Status::OK();
}

void Occ::NarrowPredicate(TransactionContext* ctx, size_t handle, const std::string& last) {
  Predicate& p = Cast(ctx)->predicates[handle];
  p.upper = last;
  p.upper.push_back('\0');  // the smallest key after `last`
}

void Occ::NarrowTableScan(TransactionContext* ctx, size_t handle, size_t positions) {
  Cast(ctx)->predicates[handle].positions = positions;
}

// The read set: every row read still has its version and is not being
// installed by another committer. `writes` (sorted) are the transaction's
// own rows, which it may have locked itself.
static Status ValidateReadSet(OccContext* c, const std::vector<Row*>& writes) {
  for (const auto& r : c->reads) {
    uint64_t word = r.row->cc_word.load(std::memory_order_seq_cst);
    if ((word & kVersion) != r.version || ((word & kLock) && !Contains(writes, r.row))) {
      return c->Conflict(AbortReason::kReadValidation, "could not serialize access due to concurrent update",
                         r.row->table_id);
    }
  }
  return Status::OK();
}

// The predicates: every row visible in a predicate's range now must have
// been read by that predicate's own scan (so its version was validated with
// the read set, and the scan saw it as it is now) or be our own write. A
// row that only a later statement read is a phantom for the earlier scan:
// the two statements saw different sets (Hermitage's PMP).
static Status ValidatePredicates(OccContext* c, const std::vector<Row*>& writes, size_t limit) {
  limit = std::min(limit, c->predicates.size());
  if (limit == 0) return Status::OK();
  std::vector<std::pair<size_t, const Row*>> seen;  // (predicate, row), sorted
  seen.reserve(c->reads.size());
  for (const auto& r : c->reads) {
    if (r.predicate != kNoPredicate) seen.emplace_back(r.predicate, r.row);
  }
  std::sort(seen.begin(), seen.end());
  bool phantom = false;
  size_t handle = 0;
  auto check = [&](Row* row, const storage::Index* index, const std::string& entry_key) {
    if (Contains(writes, row)) return true;
    uint64_t word = row->cc_word.load(std::memory_order_seq_cst);
    const Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (word & kLock) {
      phantom = true;  // a committer is installing it: it may become visible
      return false;
    }
    bool visible = index == nullptr ? t != nullptr : VisibleUnder(*index, t, row, entry_key);
    if (visible && !std::binary_search(seen.begin(), seen.end(), std::make_pair(handle, static_cast<const Row*>(row)))) {
      phantom = true;
    }
    return !phantom;
  };
  for (handle = 0; handle < limit; ++handle) {
    const Predicate& p = c->predicates[handle];
    if (p.index == nullptr) {
      size_t position = 0;
      p.table->ForEachRow([&](Row* row) { return position++ < p.positions && check(row, nullptr, ""); });
    } else if (p.point) {
      Row* row = p.index->Find(p.lower);
      if (row != nullptr) check(row, p.index, p.lower);
    } else {
      p.index->Scan(p.lower, p.upper, [&](const std::string& entry, Row* row) { return check(row, p.index, entry); });
    }
    if (phantom) {
      return c->Conflict(AbortReason::kPhantom,
                         "could not serialize access: a concurrent transaction changed the rows of a predicate this "
                         "one read",
                         p.table->id());
    }
  }
  return Status::OK();
}

Status Occ::Validate(TransactionContext* ctx, const std::vector<Row*>& own_writes, size_t predicates) {
  OccContext* c = Cast(ctx);
  const uint64_t quiet = QuietPoint();
  // Nothing installed since the reads were last current: they still are
  // (occ.h, "Quiet stretches") — unless a read met an uncommitted insert.
  if (quiet != kNotQuiet && quiet == c->current_at && !c->met_pending) return Status::OK();
  std::vector<Row*> writes = own_writes;
  std::sort(writes.begin(), writes.end());
  PL_RETURN_IF_ERROR(ValidateReadSet(c, writes));
  PL_RETURN_IF_ERROR(ValidatePredicates(c, writes, predicates));
  // Current at `quiet` only if every predicate was checked (a failed
  // statement's check leaves its own scans out).
  if (predicates >= c->predicates.size()) c->current_at = quiet;
  return Status::OK();
}

size_t Occ::Predicates(const TransactionContext* ctx) const {
  return static_cast<const OccContext*>(ctx)->predicates.size();
}

size_t Occ::Observations(const TransactionContext* ctx) const {
  const auto* c = static_cast<const OccContext*>(ctx);
  return c->reads.size() + c->predicates.size();
}

Status Occ::Commit(TransactionContext* ctx, CommitHooks* hooks) {
  OccContext* c = Cast(ctx);
  std::vector<Row*> writes = hooks->WriteRows();
  std::sort(writes.begin(), writes.end());
  writes.erase(std::unique(writes.begin(), writes.end()), writes.end());

  // (1) Lock the write set in address order (no deadlock; LockForCommit
  // says who else holds such locks). The locks and the validation loads
  // below are seq_cst: two committers that
  // each lock a row the other read must not both miss the other's lock
  // (the store-load pattern of write skew; Silo puts a fence here).
  for (Row* row : writes) {
    LockForCommit(row);
    c->locked.push_back(row);
  }

  // (2) Unique entries still ours.
  if (!hooks->StillOwnsKeys()) {
    return c->Conflict(AbortReason::kUniqueConflict,
                       "could not serialize access: a concurrent transaction inserted the same unique key");
  }

  // (3) Validate.
  PL_RETURN_IF_ERROR(ValidateReadSet(c, writes));
  PL_RETURN_IF_ERROR(ValidatePredicates(c, writes, kAllPredicates));

  // (4) Install, (5) publish, counted as one install (quiet stretches,
  // occ.h) when it changes what others see.
  const bool installs = !writes.empty() || !c->inserted.empty();
  if (installs) installs_started_.fetch_add(1, std::memory_order_seq_cst);
  hooks->Install();
  for (Row* row : c->locked) {
    uint64_t word = row->cc_word.load(std::memory_order_relaxed);
    row->cc_word.store(((word & kVersion) + 1) & kVersion, std::memory_order_release);
  }
  c->locked.clear();
  // Inserted rows undone before commit are not in the write set: they stop
  // being pending (the engine has released them to their table's reuse).
  for (Row* row : c->inserted) row->cc_word.fetch_and(~kPending, std::memory_order_acq_rel);
  c->inserted.clear();
  if (installs) installs_ended_.fetch_add(1, std::memory_order_seq_cst);
  ReleaseClaims(c);
  return Status::OK();
}

void Occ::Abort(TransactionContext* ctx) {
  OccContext* c = Cast(ctx);
  for (Row* row : c->locked) row->cc_word.fetch_and(~kLock, std::memory_order_release);
  c->locked.clear();
  for (Row* row : c->inserted) row->cc_word.fetch_and(~kPending, std::memory_order_acq_rel);
  c->inserted.clear();
  ReleaseClaims(c);
}

void Occ::UndoBesideCommits(TransactionContext* ctx, Row* row, const std::function<void()>& undo) {
  OccContext* c = Cast(ctx);
  // After a failed commit the transaction still holds its write set's
  // locks, `row`'s among them: no other commit of it can be under way.
  if (!c->locked.empty()) {
    assert(Contains(c->locked, row));
    undo();
    return;
  }
  // Otherwise it holds no commit lock, so waiting for one cannot close a
  // cycle. The version stays: nothing is installed. (A reader validating
  // meanwhile sees the lock and fails, as beside a commit.)
  LockForCommit(row);
  undo();
  row->cc_word.fetch_and(~kLock, std::memory_order_release);
}

void Occ::ReleaseClaims(TransactionContext* ctx) {
  OccContext* c = Cast(ctx);
  if (c->claimed.empty()) return;
  claims_.Release(c, c->claimed);
  c->claimed.clear();
}

}  // namespace paceline::cc
