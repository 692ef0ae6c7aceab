// TwoPhaseLocking: strict 2PL over the LockManager and PredicateLockTables
// (two_phase_locking.h).
#include "cc/two_phase_locking.h"

namespace paceline::cc {

using storage::Row;
using storage::Tuple;

namespace {
LockingContext* Cast(TransactionContext* ctx) { return static_cast<LockingContext*>(ctx); }
}  // namespace

TwoPhaseLocking::TwoPhaseLocking(DeadlockRule rule, const CcOptions& options)
    : rule_(rule), options_(options), locks_(rule, options.lock_timeout, &waiting_) {}

std::string_view TwoPhaseLocking::Name() const {
  switch (rule_) {
    case DeadlockRule::kNoWait: return "2pl";
    case DeadlockRule::kWaitDie: return "2pl-wait-die";
    case DeadlockRule::kWoundWait: return "2pl-wound-wait";
  }
  return "2pl";
}

std::unique_ptr<TransactionContext> TwoPhaseLocking::Begin(TxnTimestamp timestamp) {
  return std::make_unique<LockingContext>(timestamp);
}

Status TwoPhaseLocking::Read(TransactionContext* ctx, Row* row, bool for_update, size_t /*predicate*/,
                             const Tuple** image) {
  PL_RETURN_IF_ERROR(locks_.Lock(Cast(ctx), row, for_update ? LockMode::kExclusive : LockMode::kShared));
  *image = row->tuple.load(std::memory_order_acquire);
  return Status::OK();
}

Status TwoPhaseLocking::ReadLocked(TransactionContext* ctx, Row* row, RowLock lock, size_t /*predicate*/,
                                   const Tuple** image, bool* available) {
  const LockMode mode = lock.exclusive ? LockMode::kExclusive : LockMode::kShared;
  *available = true;
  PL_RETURN_IF_ERROR(locks_.Lock(Cast(ctx), row, mode, lock.wait == LockWait::kBlock ? nullptr : available));
  *image = *available ? row->tuple.load(std::memory_order_acquire) : nullptr;
  return Status::OK();
}

Status TwoPhaseLocking::ReadForUniqueCheck(TransactionContext* ctx, Row* row, const Tuple** image) {
  return Read(ctx, row, false, kNoPredicate, image);
}

Status TwoPhaseLocking::PrepareWrite(TransactionContext* ctx, Row* row) {
  return locks_.Lock(Cast(ctx), row, LockMode::kExclusive);
}

Status TwoPhaseLocking::PrepareInsert(TransactionContext* ctx, Row* row) {
  return locks_.Lock(Cast(ctx), row, LockMode::kExclusive);
}

PredicateLockTable* TwoPhaseLocking::TableFor(const storage::Table* table, const storage::Index* index) {
  const void* space = index != nullptr ? static_cast<const void*>(index) : static_cast<const void*>(table);
  std::shared_ptr<PredicateLockTable> found;
  if (predicate_tables_.find(space, found)) return found.get();
  predicate_tables_.insert(space, std::make_shared<PredicateLockTable>());
  predicate_tables_.find(space, found);
  return found.get();
}

Status TwoPhaseLocking::InsertedKey(TransactionContext* ctx, const storage::Table* table,
                                    const storage::Index* index, const std::string& entry_key) {
  const void* space = index != nullptr ? static_cast<const void*>(index) : static_cast<const void*>(table);
  std::shared_ptr<PredicateLockTable> found;
  if (!predicate_tables_.find(space, found)) {
    // Nobody ever range-locked this space. A scanner that registers now
    // scans after our entry is in the index, and meets our row lock.
    return Status::OK();
  }
  return found->CheckInsert(Cast(ctx), entry_key, rule_, options_.lock_timeout, &waiting_,
                           table != nullptr ? table->id() : kNoCulpritTable);
}

Status TwoPhaseLocking::LockPredicate(TransactionContext* ctx, Predicate predicate, size_t* handle) {
  LockingContext* c = Cast(ctx);
  PredicateLockTable* table = TableFor(predicate.table, predicate.index);
  const uint32_t oid = predicate.index != nullptr ? predicate.index->schema().oid : predicate.table->schema().oid;
  uint64_t id = table->Add(c, predicate, oid);
  *handle = c->predicate_locks.size();
  c->predicate_locks.emplace_back(table, id);
  return Status::OK();
}

std::vector<RangeLockState> TwoPhaseLocking::RangeLocks() const {
  std::vector<std::shared_ptr<PredicateLockTable>> tables;
  {
    auto locked = predicate_tables_.lock_table();  // only copied under it: each table is read outside
    for (const auto& [space, table] : locked) tables.push_back(table);
  }
  std::vector<RangeLockState> out;
  for (const auto& table : tables) table->Snapshot(&out);
  return out;
}

void TwoPhaseLocking::NarrowPredicate(TransactionContext* ctx, size_t handle, const std::string& last) {
  auto [table, id] = Cast(ctx)->predicate_locks[handle];
  table->Narrow(id, last);
}

void TwoPhaseLocking::ReleaseAll(TransactionContext* ctx) {
  LockingContext* c = Cast(ctx);
  locks_.ReleaseAll(c);
  PredicateLockTable* last = nullptr;
  for (const auto& [table, id] : c->predicate_locks) {
    if (table != last) table->Release(c);  // releases all of c's locks there
    last = table;
  }
  c->predicate_locks.clear();
}

Status TwoPhaseLocking::ArbitrateOutsideWait(TransactionContext* me, const std::vector<TransactionContext*>& ahead,
                                             const std::string& what, bool* wounded) {
  *wounded = false;
  if (rule_ == DeadlockRule::kNoWait) return Status::OK();
  std::vector<LockingContext*> holders;
  for (TransactionContext* h : ahead) holders.push_back(Cast(h));
  return Arbitrate(rule_, Cast(me), holders, what, kNoCulpritTable, wounded);
}

bool TwoPhaseLocking::HoldsLocks(TransactionContext* me) const {
  const LockingContext* c = Cast(me);
  return !c->held.empty() || !c->predicate_locks.empty();
}

Status TwoPhaseLocking::OutsideWaitStatus(TransactionContext* me) {
  LockingContext* c = Cast(me);
  return c->wounded() ? c->WoundedStatus() : Status::OK();
}

Status TwoPhaseLocking::Commit(TransactionContext* ctx, CommitHooks* hooks) {
  LockingContext* c = Cast(ctx);
  int expected = LockingContext::kActive;
  if (!c->phase.compare_exchange_strong(expected, LockingContext::kCommitting, std::memory_order_acq_rel)) {
    return c->WoundedStatus();
  }
  hooks->Install();
  ReleaseAll(ctx);
  return Status::OK();
}

void TwoPhaseLocking::Abort(TransactionContext* ctx) { ReleaseAll(ctx); }

}  // namespace paceline::cc
