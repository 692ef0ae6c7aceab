// Occ: Silo-style optimistic concurrency control (see occ.h).
#include "cc/occ.h"

#include <algorithm>
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
  };
  std::vector<ReadEntry> reads;
  std::vector<Predicate> predicates;
  std::vector<Row*> inserted;  // rows marked pending by this transaction
  std::vector<Row*> locked;    // write set rows locked at commit
};

OccContext* Cast(TransactionContext* ctx) { return static_cast<OccContext*>(ctx); }

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

std::unique_ptr<TransactionContext> Occ::Begin(uint64_t timestamp) {
  return std::make_unique<OccContext>(timestamp);
}

Status Occ::Read(TransactionContext* ctx, Row* row, bool /*for_update*/, const Tuple** image) {
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
      *image = nullptr;
      return Status::OK();
    }
    c->reads.push_back({row, before & kVersion});
    *image = t;
    return Status::OK();
  }
}

Status Occ::ReadForUniqueCheck(TransactionContext* ctx, Row* row, const Tuple** image) {
  uint64_t word = row->cc_word.load(std::memory_order_acquire);
  if (word & (kLock | kPending)) {
    return Cast(ctx)->Conflict(AbortReason::kUniqueConflict,
                               "could not serialize access: a concurrent transaction is writing the same unique key");
  }
  return Read(ctx, row, false, image);
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
                     "could not serialize access: a concurrent transaction is writing the same unique key");
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

// The read set: every row read still has its version and is not being
// installed by another committer. `writes` (sorted) are the transaction's
// own rows, which it may have locked itself.
static Status ValidateReadSet(OccContext* c, const std::vector<Row*>& writes) {
  for (const auto& r : c->reads) {
    uint64_t word = r.row->cc_word.load(std::memory_order_seq_cst);
    if ((word & kVersion) != r.version || ((word & kLock) && !Contains(writes, r.row))) {
      return c->Conflict(AbortReason::kReadValidation, "could not serialize access due to concurrent update");
    }
  }
  return Status::OK();
}

// Step (3) of the commit: the read set and the predicates.
static Status ValidateReads(OccContext* c, const std::vector<Row*>& writes) {
  PL_RETURN_IF_ERROR(ValidateReadSet(c, writes));
  // Predicates: every row visible in a predicate now must have been read
  // (so its version was validated above) or be our own write.
  std::vector<Row*> read_rows;
  read_rows.reserve(c->reads.size());
  for (const auto& r : c->reads) read_rows.push_back(r.row);
  std::sort(read_rows.begin(), read_rows.end());
  bool phantom = false;
  auto check = [&](Row* row, const storage::Index* index, const std::string& entry_key) {
    if (Contains(writes, row)) return true;
    uint64_t word = row->cc_word.load(std::memory_order_seq_cst);
    const Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (word & kLock) {
      phantom = true;  // a committer is installing it: it may become visible
      return false;
    }
    bool visible = index == nullptr ? t != nullptr : VisibleUnder(*index, t, row, entry_key);
    if (visible && !Contains(read_rows, row)) phantom = true;
    return !phantom;
  };
  for (const Predicate& p : c->predicates) {
    if (p.index == nullptr) {
      p.table->ForEachRow([&](Row* row) { return check(row, nullptr, ""); });
    } else if (p.point) {
      Row* row = p.index->Find(p.lower);
      if (row != nullptr) check(row, p.index, p.lower);
    } else {
      p.index->Scan(p.lower, p.upper, [&](const std::string& entry, Row* row) { return check(row, p.index, entry); });
    }
    if (phantom) {
      return c->Conflict(AbortReason::kPhantom,
                         "could not serialize access: a concurrent transaction inserted a row this one's scan would see");
    }
  }
  return Status::OK();
}

// Only the read set: a statement that failed may have stopped a scan half
// way, and the rows it never reached would look like phantoms.
Status Occ::Validate(TransactionContext* ctx, const std::vector<Row*>& own_writes) {
  std::vector<Row*> writes = own_writes;
  std::sort(writes.begin(), writes.end());
  return ValidateReadSet(Cast(ctx), writes);
}

Status Occ::Commit(TransactionContext* ctx, CommitHooks* hooks) {
  OccContext* c = Cast(ctx);
  std::vector<Row*> writes = hooks->WriteRows();
  std::sort(writes.begin(), writes.end());
  writes.erase(std::unique(writes.begin(), writes.end()), writes.end());

  // (1) Lock the write set in address order (no deadlock). Holders are
  // committers between this step and publication: short, so yield. The
  // locks and the validation loads below are seq_cst: two committers that
  // each lock a row the other read must not both miss the other's lock
  // (the store-load pattern of write skew; Silo puts a fence here).
  for (Row* row : writes) {
    for (;;) {
      uint64_t word = row->cc_word.load(std::memory_order_relaxed);
      if (!(word & kLock) &&
          row->cc_word.compare_exchange_weak(word, word | kLock, std::memory_order_seq_cst, std::memory_order_relaxed)) {
        break;
      }
      std::this_thread::yield();
    }
    c->locked.push_back(row);
  }

  // (2) Unique entries still ours.
  if (!hooks->StillOwnsKeys()) {
    return c->Conflict(AbortReason::kUniqueConflict,
                       "could not serialize access: a concurrent transaction inserted the same unique key");
  }

  // (3) Validate.
  PL_RETURN_IF_ERROR(ValidateReads(c, writes));

  // (4) Install, (5) publish.
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
  return Status::OK();
}

void Occ::Abort(TransactionContext* ctx) {
  OccContext* c = Cast(ctx);
  for (Row* row : c->locked) row->cc_word.fetch_and(~kLock, std::memory_order_release);
  c->locked.clear();
  for (Row* row : c->inserted) row->cc_word.fetch_and(~kPending, std::memory_order_acq_rel);
  c->inserted.clear();
}

}  // namespace paceline::cc
