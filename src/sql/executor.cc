// Executor: scans through access paths, nested-loop and hash joins (see
// executor.h). SELECT's aggregation, sorting and LIMIT: execute_select.cc;
// subqueries and derived sources: execute_derived.cc; INSERT / UPDATE /
// DELETE: execute_modify.cc; foreign keys: execute_foreign_keys.cc.
#include "sql/executor.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/array_value.h"
#include "common/stack_depth.h"
#include "common/steady_clock.h"
#include "sql/aggregate_state.h"
#include "sql/executor_internal.h"
#include "sql/expression_evaluator.h"
#include "storage/key_encoder.h"

namespace paceline::sql {

using storage::Row;
using storage::Tuple;

Executor::Executor(TransactionAccess* txn, const std::vector<Value>* params, int64_t statement_time,
                   size_t memory_limit_bytes)
    : memory_limit_bytes_(memory_limit_bytes), txn_(txn) {
  ctx_.params = params;
  ctx_.statement_time = statement_time;
  ctx_.transaction_id = txn != nullptr ? txn->timestamp() : TxnTimestamp();
  ctx_.subqueries = this;
  ctx_.cancel = txn != nullptr ? txn->cancel_token() : nullptr;
  ctx_.sequences = txn != nullptr ? txn->sequences() : nullptr;
  ctx_.advisory_locks = txn != nullptr ? txn->advisory_locks() : nullptr;
  ctx_.system = txn != nullptr ? txn->system_info() : nullptr;
  ctx_.notifications = txn;
  counters_ = txn != nullptr ? txn->plan_counters() : nullptr;
}

Executor::Executor(Executor* parent, const EvalContext* outer)
    : root_(parent->root_), txn_(parent->txn_), counters_(parent->counters_), fk_events_(parent->fk_events_) {
  ctx_.params = parent->ctx_.params;
  ctx_.statement_time = parent->ctx_.statement_time;
  ctx_.transaction_id = parent->ctx_.transaction_id;
  ctx_.subqueries = this;
  ctx_.cancel = parent->ctx_.cancel;
  ctx_.sequences = parent->ctx_.sequences;
  ctx_.advisory_locks = parent->ctx_.advisory_locks;
  ctx_.system = parent->ctx_.system;
  ctx_.notifications = parent->ctx_.notifications;
  ctx_.outer = outer;
}

Status Executor::CheckMemory() {
  if (root_->memory_limit_bytes_ == 0) return Status::OK();
  if (!root_->meter_) {
    root_->meter_.emplace();  // on this thread, the statement's (one thread runs it)
    return Status::OK();
  }
  if (root_->meter_->net_bytes() <= root_->memory_limit_bytes_) return Status::OK();
  return Status(sqlstate::kProgramLimitExceeded,
                "the statement holds more than " + std::to_string(root_->memory_limit_bytes_ >> 20) +
                    " MB of memory (statement_memory_bytes)");
}

template <typename Fn>
Status Executor::Scan(const SourcePlan& source, const AccessPath& path, Fn fn) {
  storage::Table* table = source.table.get();
  PL_RETURN_IF_ERROR(Tick());
  if (source.derived) {
    std::shared_ptr<const std::vector<storage::TuplePtr>> rows;
    PL_RETURN_IF_ERROR(Materialize(*source.derived, &rows));
    for (const auto& t : *rows) {
      PL_RETURN_IF_ERROR(Tick());
      if (!fn(t.get(), nullptr)) break;
    }
    return Status::OK();
  }
  // A locking clause's rows are read locked; under NOWAIT a row another
  // transaction holds fails the statement. SKIP LOCKED's rows are locked
  // when the query returns them (TakeRowLocks).
  const bool skip_locked = source.lock && source.lock->wait == cc::LockWait::kSkip;
  auto read = [&](Row* row, size_t handle, const Tuple** t) -> Status {
    if (!source.lock) return txn_->Read(row, for_update_, t, handle);
    if (skip_locked) {  // locked later, if it is returned: see SourcePlan::lock
      *t = txn_->Peek(row);
      return Status::OK();
    }
    bool available = true;
    PL_RETURN_IF_ERROR(txn_->ReadLocked(row, *source.lock, t, handle, &available));
    if (available) return Status::OK();
    return Status(sqlstate::kLockNotAvailable, "could not obtain lock on row in relation \"" + table->name() + "\"");
  };
  if (path.kind == AccessKind::kFullScan) {
    // The whole table is the predicate: a concurrent insert anywhere in it
    // is a phantom for this scan.
    size_t handle = cc::kNoPredicate;
    if (!skip_locked) {
      cc::Predicate predicate;
      predicate.table = table;
      PL_RETURN_IF_ERROR(txn_->LockPredicate(std::move(predicate), &handle));
    }
    Status status;
    size_t positions = 0;
    table->ForEachRow([&](Row* row) {
      const Tuple* t = nullptr;
      ++positions;
      status = Tick();
      if (!status.ok()) return false;
      status = read(row, handle, &t);
      if (!status.ok()) return false;
      if (t == nullptr || fn(t, row)) return true;
      if (handle != cc::kNoPredicate) txn_->NarrowTableScan(handle, positions);  // stopped early (LIMIT)
      return false;
    });
    return status;
  }
  absl::InlinedVector<Value, 4> values(path.equal.size());  // a key of up to 4 columns: no allocation
  for (size_t i = 0; i < path.equal.size(); ++i) {
    PL_RETURN_IF_ERROR(Evaluate(*path.equal[i], ctx_, &values[i]));
    if (values[i].is_null()) return Status::OK();  // col = NULL matches nothing
  }
  std::string prefix;
  bool exact = true;
  PL_RETURN_IF_ERROR(path.index->KeyOfValues(values.data(), static_cast<int>(values.size()), &prefix, &exact));
  if (!exact) return Status::OK();  // e.g. an int4 key probed with 2^40
  const int next = static_cast<int>(path.equal.size());

  // Scans [lower, upper), skipping stale entries (the row's current image
  // must still have the entry's key); `stopped` when fn asked to stop.
  Status status;
  bool stopped = false;
  std::string key;
  // The range is declared to concurrency control before it is read (2PL
  // locks it; OCC rescans it at commit), and narrowed to what was read when
  // the consumer stops early (LIMIT).
  auto declare = [&](const std::string& lower, const std::string& upper, bool point, size_t* handle) {
    *handle = cc::kNoPredicate;
    if (skip_locked) return Status::OK();  // see SourcePlan::lock
    cc::Predicate predicate;
    predicate.table = table;
    predicate.index = path.index;
    predicate.lower = lower;
    predicate.upper = upper;
    predicate.point = point;
    return txn_->LockPredicate(std::move(predicate), handle);
  };
  auto scan_range = [&](const std::string& lower, const std::string& upper) {
    size_t handle = 0;
    status = declare(lower, upper, /*point=*/false, &handle);
    if (!status.ok()) {
      stopped = true;
      return;
    }
    path.index->Scan(lower, upper, [&](const std::string& entry, Row* row) {
      const Tuple* t = nullptr;
      status = Tick();
      if (!status.ok()) return false;
      // A stale entry (its row moved to another key) is skipped, unless
      // this transaction handed the key to another row (Transaction::
      // HandedOverRow): that row is read in its place.
      for (int hop = 0;; ++hop) {
        status = read(row, handle, &t);
        if (!status.ok()) return false;
        bool has_null = false;
        if (t != nullptr) status = path.index->KeyOf(*t, &key, &has_null);
        if (!status.ok()) return false;
        if (t != nullptr && path.index->EntryKey(key, has_null, row) == entry) break;
        row = hop == 0 ? txn_->HandedOverRow(path.index, entry) : nullptr;
        if (row == nullptr) return true;
      }
      if (!fn(t, row)) {
        stopped = true;
        if (handle != cc::kNoPredicate) txn_->NarrowPredicate(handle, entry);
      }
      return !stopped;
    });
    if (!status.ok()) stopped = true;
  };
  // A unique lookup. When no live row holds the key, the missing key is a
  // predicate (an insert of it would be a phantom): declared, then looked
  // up again, so that an insert racing with the first lookup is seen either
  // by the lookup or by the insert's check of the declared predicates.
  auto point = [&](const std::string& probe) {
    // `handle`: the declared predicate of the second lookup, if any.
    auto lookup = [&](bool* found, size_t handle) {
      *found = false;
      Row* row = path.index->Find(probe);
      const Tuple* t = nullptr;
      // A stale entry (the row moved to another key) is skipped, unless
      // this transaction handed the key to another row, read in its place
      // (also when the entry is gone: a concurrent commit took the old row
      // off the key, which dooms this transaction at its commit).
      if (row == nullptr) row = txn_->HandedOverRow(path.index, probe);
      for (int hop = 0; row != nullptr; ++hop) {
        status = read(row, handle, &t);
        if (!status.ok()) return;
        bool has_null = false;
        if (t != nullptr) status = path.index->KeyOf(*t, &key, &has_null);
        if (!status.ok()) return;
        if (t != nullptr && !has_null && key == probe) break;
        row = hop == 0 ? txn_->HandedOverRow(path.index, probe) : nullptr;
      }
      if (row == nullptr) return;
      *found = true;
      if (!fn(t, row)) stopped = true;
    };
    bool found = false;
    lookup(&found, cc::kNoPredicate);
    if (found || !status.ok()) {
      if (!status.ok()) stopped = true;
      return;
    }
    if (skip_locked) return;  // no second lookup: see SourcePlan::lock
    size_t handle = 0;
    status = declare(probe, std::string(), /*point=*/true, &handle);
    if (status.ok()) lookup(&found, handle);
    if (!status.ok()) stopped = true;
  };

  if (!path.in_list.empty()) {
    // One probe per distinct IN value, in key order, so each row comes once.
    std::vector<std::string> probes;
    for (const auto& e : path.in_list) {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e, ctx_, &v));
      if (v.is_null()) continue;
      std::string probe = prefix;
      storage::KeyFit fit;
      PL_RETURN_IF_ERROR(path.index->AppendColumn(next, v, &probe, &fit));
      if (fit == storage::KeyFit::kExact) probes.push_back(std::move(probe));
    }
    std::sort(probes.begin(), probes.end());
    probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
    for (const auto& probe : probes) {
      if (path.kind == AccessKind::kIndexPoint) point(probe);
      else scan_range(probe, storage::PrefixSuccessor(probe));
      if (!status.ok() || stopped) break;
    }
    return status;
  }
  if (path.kind == AccessKind::kIndexPoint) {
    point(prefix);
    return status;
  }
  // Range over the prefix, narrowed by bounds on the next key column. A
  // bound outside the column's range either empties the range or drops.
  std::string lower = prefix, upper = storage::PrefixSuccessor(prefix);
  if (path.lower) {
    Value v;
    PL_RETURN_IF_ERROR(Evaluate(*path.lower, ctx_, &v));
    if (v.is_null()) return Status::OK();
    std::string bound = prefix;
    storage::KeyFit fit;
    PL_RETURN_IF_ERROR(path.index->AppendColumn(next, v, &bound, &fit));
    if (fit == storage::KeyFit::kAbove) return Status::OK();
    if (fit == storage::KeyFit::kExact) lower = path.lower_inclusive ? bound : storage::PrefixSuccessor(bound);
  }
  if (path.upper) {
    Value v;
    PL_RETURN_IF_ERROR(Evaluate(*path.upper, ctx_, &v));
    if (v.is_null()) return Status::OK();
    std::string bound = prefix;
    storage::KeyFit fit;
    PL_RETURN_IF_ERROR(path.index->AppendColumn(next, v, &bound, &fit));
    if (fit == storage::KeyFit::kBelow) return Status::OK();
    if (fit == storage::KeyFit::kExact) upper = path.upper_inclusive ? storage::PrefixSuccessor(bound) : bound;
  }
  scan_range(lower, upper);
  return status;
}

Status Executor::AnyRow(const SelectPlan& plan, bool* found) {
  *found = false;
  // Rows that stream out (no sort, no DISTINCT): the first one stops the
  // SELECT's scan too, so the fast path reads and declares what it would.
  bool scan_answers = plan.sources.size() == 1 && plan.post_filters.empty() && !plan.aggregate &&
                      plan.windows.empty() && plan.offset == nullptr && !plan.correlated && !plan.distinct &&
                      (plan.order_by.empty() || plan.ordered_by_index);
  if (scan_answers) {
    const SourcePlan& source = plan.sources[0];
    scan_answers = source.table != nullptr && !source.lock && source.hash_build.empty() && !source.left_join &&
                   source.full_join_left < 0 && source.full_joins_here.empty();
    for (size_t f = 0; scan_answers && f < source.filters.size(); ++f) scan_answers = source.ProvedByKey(f);
  }
  if (!scan_answers) {
    QueryResult result;
    row_cap_ = 1;
    PL_RETURN_IF_ERROR(Select(plan, &result));
    *found = !result.rows.empty();
    return Status::OK();
  }
  StartJoin(plan);
  int64_t limit = -1;
  PL_RETURN_IF_ERROR(EvaluateCount(plan.limit.get(), ctx_, "LIMIT", sqlstate::kInvalidRowCountInLimitClause, &limit));
  if (limit == 0) return Status::OK();  // LIMIT 0: nothing to read, as SelectRows
  return Scan(plan.sources[0], plan.sources[0].access, [&](const Tuple*, Row*) {
    *found = true;
    return false;  // one row answers: the scan narrows what it declared, as LIMIT 1 would
  });
}

Status Executor::ProbeHash(const SourcePlan& source, int level, const std::vector<JoinHashTable::Entry>** rows) {
  *rows = nullptr;
  JoinHashTable& table = Cache().hash_tables[&source];
  const size_t width = source.hash_build.size();
  if (!table.built()) {
    // Every row of the source that passes its own filters, by key. Reading
    // the whole source declares and reads it as a nested loop's full scan
    // would, once per statement. EXPLAIN ANALYZE counts the build apart,
    // as PostgreSQL's Hash node under the join.
    NodeCounts* counts = counters_ != nullptr ? &counters_->Of(&source, CountedPart::kBuildScan) : nullptr;
    NodeCounts* hashed = counters_ != nullptr ? &counters_->Of(&source, CountedPart::kHashed) : nullptr;
    const uint64_t start = counts != nullptr && counters_->timing() ? SteadyNowNs() : 0;
    if (counts != nullptr) {
      ++counts->loops;
      ++hashed->loops;
    }
    Status status;
    PL_RETURN_IF_ERROR(Scan(source, source.access, [&](const Tuple* t, Row* row) {
      tuples_[level] = t;
      for (int f : source.local_filters) {
        bool pass = false;
        status = EvaluatePredicate(*source.filters[f], ctx_, &pass);
        if (!status.ok()) return false;
        if (!pass) {
          if (counts != nullptr) ++counts->removed;
          return true;
        }
      }
      if (counts != nullptr) ++counts->rows;
      std::vector<Value> key(width);
      for (size_t i = 0; i < width; ++i) {
        status = Evaluate(*source.hash_build[i], ctx_, &key[i]);
        if (!status.ok()) return false;
        if (key[i].is_null()) return true;
      }
      table.Add(std::move(key), {t, row});
      if (hashed != nullptr) ++hashed->rows;
      return true;
    }));
    PL_RETURN_IF_ERROR(status);
    table.MarkBuilt();
    if (start != 0) {
      const uint64_t took = SteadyNowNs() - start;
      counts->startup_ns += took;  // the hash is ready when it is built
      counts->total_ns += took;
      hashed->startup_ns += took;
      hashed->total_ns += took;
    }
  }
  std::vector<Value> key(width);
  for (size_t i = 0; i < width; ++i) {
    PL_RETURN_IF_ERROR(Evaluate(*source.hash_probe[i], ctx_, &key[i]));
    if (key[i].is_null()) return Status::OK();
  }
  *rows = table.Find(key);
  return Status::OK();
}

Status Executor::Join(const SelectPlan& plan, int level, RowSink& sink, int nulled_from) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // one level per joined table
  if (counters_ != nullptr && level > 0) ++counters_->Of(&plan.sources[level - 1], CountedPart::kJoinOutput).rows;
  // A row got here: the outer-joined groups that ended one level up matched.
  if (level > 0) {
    for (int g : plan.sources[level - 1].closes_groups) {
      // A group NULL-extended just now (and any inside it) has no conditions.
      if (g >= nulled_from) continue;
      for (const auto& f : plan.sources[g].group_filters) {
        bool pass = false;
        PL_RETURN_IF_ERROR(EvaluatePredicate(*f, ctx_, &pass));
        if (!pass) return Status::OK();
      }
      group_matched_[g] = true;
    }
  }
  if (level == static_cast<int>(plan.sources.size())) {
    for (const auto& f : plan.post_filters) {
      bool pass = false;
      PL_RETURN_IF_ERROR(EvaluatePredicate(*f, ctx_, &pass));
      if (!pass) return Status::OK();
    }
    return sink.Consume();
  }
  const SourcePlan& source = plan.sources[level];
  for (int k : source.full_joins_here) full_matched_[k].clear();
  if (source.left_join) group_matched_[level] = false;
  NodeCounts* counts = counters_ != nullptr ? &counters_->Of(&source) : nullptr;
  if (counts != nullptr) ++counts->loops;
  // EXPLAIN ANALYZE's timing: this source's own time, without the levels
  // each of its rows is pushed down to.
  const bool timed = counts != nullptr && counters_->timing();
  const uint64_t start = timed ? SteadyNowNs() : 0;
  uint64_t below_ns = 0;
  bool first = true;
  Status status;
  auto visit = [&](const Tuple* t, Row* row) {
    tuples_[level] = t;
    rows_[level] = row;
    if (level == 0) row0_ = row;
    for (size_t f = 0; f < source.filters.size(); ++f) {
      if (source.ProvedByKey(f)) continue;
      bool pass = false;
      status = EvaluatePredicate(*source.filters[f], ctx_, &pass);
      if (!status.ok()) return false;
      if (!pass) {
        if (counts != nullptr) ++counts->removed;
        return true;
      }
    }
    if (counts != nullptr) ++counts->rows;
    if (source.full_join_left >= 0) full_matched_[level].insert(FullJoinKey(t, row));
    if (!timed) {
      status = Join(plan, level + 1, sink);
      return status.ok() && !stop_;
    }
    const uint64_t before = SteadyNowNs();
    if (first) counts->startup_ns += before - start - below_ns;
    first = false;
    status = Join(plan, level + 1, sink);
    below_ns += SteadyNowNs() - before;
    return status.ok() && !stop_;
  };
  if (source.hash_build.empty()) {
    PL_RETURN_IF_ERROR(Scan(source, source.access, visit));
  } else {
    const std::vector<JoinHashTable::Entry>* rows = nullptr;
    PL_RETURN_IF_ERROR(ProbeHash(source, level, &rows));
    for (size_t i = 0; rows != nullptr && i < rows->size(); ++i) {
      PL_RETURN_IF_ERROR(Tick());
      if (!visit((*rows)[i].tuple, (*rows)[i].row)) break;
    }
  }
  PL_RETURN_IF_ERROR(status);
  if (timed) {
    const uint64_t own = SteadyNowNs() - start - below_ns;
    counts->total_ns += own;
    if (first) counts->startup_ns += own;  // no row: ready when done, as PostgreSQL counts it
  }
  // FULL JOINs whose left side starts here: their right side's rows that
  // matched no left row, with the left side NULL (its ON condition is not
  // a filter for them: a full scan).
  for (int k : source.full_joins_here) {
    if (stop_) break;
    for (int i = level; i < k; ++i) tuples_[i] = nullptr;
    const AccessPath full_scan;
    PL_RETURN_IF_ERROR(Scan(plan.sources[k], full_scan, [&](const Tuple* t, Row* row) {
      if (full_matched_[k].count(FullJoinKey(t, row)) != 0) return true;
      tuples_[k] = t;
      status = Join(plan, k + 1, sink);
      return status.ok() && !stop_;
    }));
    PL_RETURN_IF_ERROR(status);
  }
  if (source.left_join && !group_matched_[level] && !stop_) {
    for (int i = level; i <= source.group_end; ++i) tuples_[i] = nullptr;
    PL_RETURN_IF_ERROR(Join(plan, source.group_end + 1, sink, level));
  }
  return Status::OK();
}

void Executor::StartJoin(const SelectPlan& plan) {
  const size_t n = plan.sources.size();
  tuples_.assign(n, nullptr);
  rows_.assign(n, nullptr);
  if (plan.has_outer_join) group_matched_.assign(n, 0);  // a point query allocates nothing here
  if (plan.has_full_join) full_matched_.assign(n, {});
  layouts_.resize(n);
  for (size_t i = 0; i < n; ++i) layouts_[i] = &plan.Layout(i);
  ctx_.tuples = tuples_.data();
  ctx_.layouts = layouts_.data();
  stop_ = false;
}

Status Executor::CollectTargets(const SourcePlan& target, std::vector<std::pair<Row*, const Tuple*>>* out) {
  tuples_.assign(1, nullptr);
  layouts_.assign(1, &target.table->layout());
  ctx_.tuples = tuples_.data();
  ctx_.layouts = layouts_.data();
  NodeCounts* counts = counters_ != nullptr ? &counters_->Of(&target) : nullptr;
  if (counts != nullptr) ++counts->loops;
  const bool timed = counts != nullptr && counters_->timing();
  const uint64_t start = timed ? SteadyNowNs() : 0;
  bool first = true;
  Status status;
  PL_RETURN_IF_ERROR(Scan(target, target.access, [&](const Tuple* t, Row* row) {
    tuples_[0] = t;
    for (size_t f = 0; f < target.filters.size(); ++f) {
      if (target.ProvedByKey(f)) continue;
      bool pass = false;
      status = EvaluatePredicate(*target.filters[f], ctx_, &pass);
      if (!status.ok()) return false;
      if (!pass) {
        if (counts != nullptr) ++counts->removed;
        return true;
      }
    }
    if (counts != nullptr) ++counts->rows;
    if (timed && first) counts->startup_ns += SteadyNowNs() - start;
    first = false;
    out->emplace_back(row, t);
    return true;
  }));
  if (timed) {
    const uint64_t took = SteadyNowNs() - start;
    counts->total_ns += took;
    if (first) counts->startup_ns += took;
  }
  return status;
}

}  // namespace paceline::sql
