// Executor: runs a bound plan (plan.h) inside a transaction (TransactionAccess).
//
// SELECT is a nested-loop join over the sources, each read through its
// access path (or probed in a hash table of its rows, read once: a hash
// join) and filtered, feeding either the projection directly (with
// early stop for LIMIT without ORDER BY) or a hash aggregation; then HAVING,
// window functions, DISTINCT, ORDER BY, OFFSET/LIMIT. UPDATE and DELETE first collect the rows
// they change (so a row moved within an index is not visited twice), then
// write. INSERT .. SELECT materializes the query before inserting. All writes
// go through the transaction, so a failing statement leaves nothing behind
// once the caller rolls back to its mark.
//
// Subqueries and derived sources: a subquery in an expression and a
// subquery, WITH query or set operation in FROM run in a child Executor on
// the same transaction (so their reads are validated or locked like any
// other read), whose EvalContext::outer is the row being evaluated. An
// uncorrelated one runs once per statement: its result is kept in the
// statement's cache, shared by every child.
//
// Cancellation: the row loops of scans (so of joins, aggregation and sort
// input) and of UPDATE/DELETE poll the transaction's CancelToken every
// kCancelCheckRows rows and stop with 57014; lock waits wake up on it.
//
// Memory: with a limit, the root executor meters the heap its thread takes
// (AllocationMeter: derived rows, hash tables, sort and aggregation input,
// result rows) from the first check point on, and the later ones stop the
// statement with 54000 program_limit_exceeded once it holds more than the
// limit: growth a statement would otherwise have without bound (a cross
// join of series in a derived table, an unbounded result) fails instead.
// A statement that never reaches a check point (a point read) is not
// metered and pays nothing; what one allocated before its first check
// point is not counted. Both that and the overshoot are bounded by
// kCancelCheckRows rows' worth.
//
// Thread-safety: an Executor runs one statement on one thread.
#pragma once

#include <absl/container/inlined_vector.h>

#include <climits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/allocation_meter.h"
#include "common/cancel_token.h"
#include "common/status.h"
#include "common/value.h"
#include "common/query_result.h"
#include "sql/deferred_constraints.h"
#include "sql/explain/plan_counters.h"
#include "sql/expression_evaluator.h"
#include "sql/join_hash_table.h"
#include "sql/plan.h"
#include "sql/transaction_access.h"

namespace paceline::sql {

class Executor : public SubqueryRunner {
 public:
  // `params` must already be cast to the statement's parameter types.
  // `memory_limit_bytes` > 0 bounds what the statement holds (see Memory
  // above); construct and run the executor on one thread.
  Executor(TransactionAccess* txn, const std::vector<Value>* params, int64_t statement_time,
           size_t memory_limit_bytes = 0);

  Status Select(const SelectPlan& plan, QueryResult* result);
  Status Insert(const InsertPlan& plan, QueryResult* result);
  Status Update(const UpdatePlan& plan, QueryResult* result);
  Status Delete(const DeletePlan& plan, QueryResult* result);
  // Runs a statement's data-modifying WITH queries, in order, each once:
  // their RETURNING rows are kept for the statement to read.
  Status RunModifyingCtes(const std::vector<std::shared_ptr<const DerivedPlan>>& ctes);

  // SubqueryRunner: evaluates a kSubquery node for the row of `ctx`.
  Status Run(const BoundExpr& node, const EvalContext& ctx, Value* out) override;

  // After a statement that wrote (Insert, Update, Delete and the
  // data-modifying WITH queries before it), as PostgreSQL at the end of a
  // statement: enforces the foreign keys of the rows written, running the
  // checks and referential actions queued (and those the actions queue in
  // turn), or deferring them. 23503 for the first check that fails.
  Status RunForeignKeyEvents();
  // Runs the transaction's deferred foreign key checks that are due: every
  // one (`all`, before commit), or those SET CONSTRAINTS made immediate.
  // 23503 for the first that fails.
  Status CheckDeferredForeignKeys(bool all);

 private:
  // Receives each joined row (the tuples are in the executor's context).
  struct RowSink {
    virtual ~RowSink() = default;
    virtual Status Consume() = 0;
  };
  // Results of uncorrelated subqueries and derived sources, per statement.
  struct StatementCache {
    std::unordered_map<const BoundSubquery*, std::vector<Value>> subquery_rows;  // first column of each row
    std::unordered_map<const DerivedPlan*, std::shared_ptr<const std::vector<storage::TuplePtr>>> derived;
    std::unordered_map<const SourcePlan*, JoinHashTable> hash_tables;  // per hash-joined source
    // WITH RECURSIVE: each running recursive query's working table.
    std::unordered_map<const DerivedPlan*, std::vector<std::vector<Value>>> working_rows;
  };

  // Select's work (Select adds EXPLAIN ANALYZE's count of its rows).
  Status SelectRows(const SelectPlan& plan, QueryResult* result);
  // A child for a subquery or derived source, evaluated within `outer`.
  Executor(Executor* parent, const EvalContext* outer);
  Executor* root_ = this;
  // The rows of a derived source (computed, or from the cache).
  Status Materialize(const DerivedPlan& derived, std::shared_ptr<const std::vector<storage::TuplePtr>>* out);
  // The rows of a set-returning function in FROM (derived.function), its
  // arguments evaluated in `ctx`; generate_series's by SeriesRows.
  Status FunctionRows(const DerivedPlan& derived, const EvalContext& ctx, std::vector<std::vector<Value>>* out);
  // WITH RECURSIVE's rows (derived.set_op kRecursiveUnion).
  Status RecursiveRows(const DerivedPlan& derived, std::vector<std::vector<Value>>* out);
  Status SeriesRows(const DerivedPlan& derived, const EvalContext& ctx, std::vector<std::vector<Value>>* out);
  // The rows of a derived source as values, set operations applied.
  Status DerivedRows(const DerivedPlan& derived, std::vector<std::vector<Value>>* out);

  // The window stage (execute_window.cc): appends the value of each of
  // plan.windows to every row of slots in `rows`.
  Status ComputeWindows(const SelectPlan& plan, std::vector<std::vector<Value>>* rows);
  // Points the evaluation context at `plan`'s sources (no rows yet).
  void StartJoin(const SelectPlan& plan);
  // SKIP LOCKED (SelectPlan::skips_locked): locks the rows of an output
  // row (`rows`, `tuples`: per source, as Join had them) in each
  // skip-locked source's mode. *taken is false, and the output row is to
  // be dropped, when another transaction holds one of them or one changed
  // since it was read.
  Status TakeRowLocks(const SelectPlan& plan, storage::Row* const* rows, const storage::Tuple* const* tuples,
                      bool* taken);
  // Runs the join from `level` on, calling sink for each joined row.
  // `nulled_from`: the sources from there to level - 1 were just
  // NULL-extended as an outer-joined group.
  Status Join(const SelectPlan& plan, int level, RowSink& sink, int nulled_from = INT_MAX);
  // Calls fn(tuple, row) for each row of `source` that `path` (its access
  // path, or a full scan) yields; fn returns false to stop.
  template <typename Fn>
  Status Scan(const SourcePlan& source, const AccessPath& path, Fn fn);
  // A hash-joined source (hash_build set) at `level`: its rows whose key
  // equals the current hash_probe values (null: none), read into its hash
  // table (in the statement's cache) first if this statement has not yet.
  Status ProbeHash(const SourcePlan& source, int level, const std::vector<JoinHashTable::Entry>** rows);
  // A FULL JOIN's right-side row, as remembered among those that matched:
  // the stored row, or the tuple of a derived source (held for the statement).
  static const void* FullJoinKey(const storage::Tuple* t, const storage::Row* row) {
    return row != nullptr ? static_cast<const void*>(row) : static_cast<const void*>(t);
  }
  // 23514 when a condition of `checks` is false for `tuple`, a new image of
  // a row of `table` (NULL passes).
  Status CheckConstraints(const std::vector<CheckPlan>& checks, const storage::Table& table,
                          const storage::Tuple& tuple);
  // One row of INSERT .. ON CONFLICT: inserts `tuple`, or, when an arbiter
  // index's key is held by a live row, does nothing (DO NOTHING, or DO
  // UPDATE whose WHERE is false) or updates that row (21000 when this
  // statement already inserted or updated it). `touched` holds the rows the
  // statement wrote; `*written` is the new image (nullptr when nothing was).
  Status InsertOnConflict(const InsertPlan& plan, storage::TuplePtr tuple, std::unordered_set<storage::Row*>* touched,
                          const storage::Tuple** written);
  // Rows of the single source of UPDATE/DELETE that pass its filters.
  Status CollectTargets(const SourcePlan& target, std::vector<std::pair<storage::Row*, const storage::Tuple*>>* out);
  // UPDATE .. FROM / DELETE .. USING: the target rows (source 0 of `join`)
  // that join, each once, with `set_values` evaluated on its first joined
  // row and, when `joined` is given, that row's other tuples (for RETURNING).
  Status CollectJoinTargets(const SelectPlan& join, const std::vector<BoundExprPtr>& set_values,
                            std::vector<std::pair<storage::Row*, const storage::Tuple*>>* out,
                            std::vector<std::vector<Value>>* values,
                            std::vector<std::vector<const storage::Tuple*>>* joined);
  // Appends the RETURNING row of `tuple` (of `layout`); with `joined`, the
  // expressions also read the join's other sources (their layouts are still
  // in layouts_ from StartJoin).
  Status Returning(const std::vector<BoundExprPtr>& exprs, const storage::TupleLayout& layout,
                   const storage::Tuple* tuple, const std::vector<const storage::Tuple*>* joined,
                   QueryResult* result);
  Status CheckNotNull(const storage::Table& table, const std::vector<Value>& values);

  // Foreign keys (execute_foreign_keys.cc). Queues the events of `rules`
  // for one row written: `old_image` null for an insert, `new_image` null
  // for a delete.
  void QueueForeignKeys(const ForeignKeyRules& rules, const std::shared_ptr<storage::Table>& table,
                        storage::Row* row, const storage::Tuple* old_image, const storage::Tuple* new_image);
  // One event: checked, acted on, or deferred (`at_commit`: it was, and is due).
  Status EnforceForeignKey(ForeignKeyEvent event, bool at_commit);
  // 23503 when a row still references `old_key` (kReferenced: RESTRICT, NO
  // ACTION, after SET DEFAULT); with `key_may_return`, none when a row of
  // the referenced table holds the key again.
  Status CheckNotReferenced(const ForeignKeyRule& rule, const std::vector<Value>& old_key, bool key_may_return);
  // Runs one of a rule's statements with `params` (prepared once, kept in
  // `slot`); *found: a SELECT gave a row.
  Status RunForeignKeyStatement(const std::string& text, const std::vector<Type>& types, const PreparedSlot& slot,
                                std::vector<Value> params, bool* found);
  // *found: `plan` gives at least one row. A plan of one table whose access
  // path proves every condition and whose rows stream out (a check's
  // SELECT 1 .. WHERE key = $..) is answered by its scan alone, reading and
  // declaring what the SELECT capped at one row would; its outputs are not
  // evaluated (constants in the checks). Any other plan runs as that
  // SELECT.
  Status AnyRow(const SelectPlan& plan, bool* found);
  // A cancel check point, called per row visited and per scan started; it
  // polls the transaction's CancelToken once per kCancelCheckRows calls
  // (57014 when canceled), so its cost is a decrement.
  Status Tick() {
    if (--until_check_ != 0) return Status::OK();
    until_check_ = kCancelCheckRows;
    PL_RETURN_IF_ERROR(CheckMemory());
    return txn_->CheckCanceled();
  }
  // At a check point: starts the root's meter, or checks it (see Memory).
  Status CheckMemory();

  // The root's, from its first check point (first: it ends last); children
  // use root_'s.
  std::optional<AllocationMeter> meter_;
  size_t memory_limit_bytes_ = 0;
  EvalContext ctx_;
  TransactionAccess* txn_;
  PlanCounters* counters_ = nullptr;  // EXPLAIN ANALYZE (the transaction's): null counts nothing
  // Per source of the running plan; a few sources need no allocation.
  absl::InlinedVector<const storage::Tuple*, 4> tuples_;
  absl::InlinedVector<const storage::TupleLayout*, 4> layouts_;
  storage::Row* row0_ = nullptr;  // the row of source 0 that Join is at
  // Per source, the row Join is at (a derived source's: null).
  absl::InlinedVector<storage::Row*, 4> rows_;
  // Per outer-joined group (by its first source): whether a row of it
  // matched the current row of the sources before it.
  std::vector<char> group_matched_;
  // Per FULL JOIN (by its right source): the right rows that matched a
  // left row since its left side's scan began (plan.has_full_join only).
  std::vector<std::unordered_set<const void*>> full_matched_;
  bool stop_ = false;
  // Rows read will be written (UPDATE, DELETE, SELECT FOR UPDATE): 2PL
  // locks them exclusively at once instead of upgrading later.
  bool for_update_ = false;
  uint32_t until_check_ = kCancelCheckRows;
  // Select stops reading once it has this many rows (>0; EXISTS needs one,
  // a scalar subquery two).
  int64_t row_cap_ = 0;
  // The foreign key events of the running statement: this executor's own,
  // or, running a rule's statement, the one that runs the rule's.
  std::vector<ForeignKeyEvent> fk_events_own_;
  std::vector<ForeignKeyEvent>* fk_events_ = &fk_events_own_;
  // The root executor's cache, made at the first subquery or derived
  // source (a point statement never pays for it); children share it.
  StatementCache& Cache();
  std::shared_ptr<StatementCache> cache_;
};

}  // namespace paceline::sql
