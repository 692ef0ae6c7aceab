// Plans: the executable form of a bound DML statement.
//
// A SelectPlan is a left-deep join over its sources in FROM order (outer
// joins mark groups of sources NULL-extended together); each source is read
// through an AccessPath (a unique-index point lookup, an ordered-index range
// over a key prefix, or a full scan) whose key values may use columns of
// earlier sources (index nested loop), or, when no index serves a source
// joined by equalities, through a hash table of its rows (hash join). Then come
// aggregation, HAVING, projection, DISTINCT, ORDER BY and LIMIT/OFFSET.
// UPDATE and DELETE read their target through one SourcePlan; INSERT has
// VALUES rows or a SelectPlan. Plans are immutable after binding and shared by
// every execution of a prepared statement.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cc/row_lock.h"
#include "common/query_result.h"
#include "storage/catalog/sequence.h"
#include "sql/prepared_slot.h"
#include "sql/bound_expr.h"
#include "storage/table.h"

namespace paceline::sql {

enum class AccessKind { kFullScan, kIndexPoint, kIndexRange };

struct AccessPath {
  AccessKind kind = AccessKind::kFullScan;
  storage::Index* index = nullptr;
  std::vector<BoundExprPtr> equal;  // values of the leading index columns
  // `col IN (a, b, ..)` on the column after `equal`: one probe per distinct
  // value (a point lookup each when that completes a unique key, else a
  // prefix scan each). Empty when not used.
  std::vector<BoundExprPtr> in_list;
  BoundExprPtr lower;               // bound on the next column (range; may be null)
  BoundExprPtr upper;
  bool lower_inclusive = true;
  bool upper_inclusive = true;
};

struct SelectPlan;
struct InsertPlan;
struct UpdatePlan;
struct DeletePlan;

// A set-returning function in FROM: generate_series, unnest, the json
// functions that return rows. Its arguments bind as a query of their own
// that may read the FROM items before it (LATERAL). `name` is the name it
// was called by (jsonb_each or json_each), for its errors.
struct SystemRelation;
struct TableFunction {
  TableFunctionKind kind = TableFunctionKind::kNone;
  std::string name;
  std::vector<BoundExprPtr> args;
  const SystemRelation* system = nullptr;  // kSystemRelation: the relation (static)
  std::shared_ptr<catalog::Sequence> sequence;  // kSequenceRelation
};

// A FROM source that is not a stored table: a subquery in FROM, a WITH
// query, VALUES rows, a set-returning function, or the rows of a set operation (UNION/INTERSECT/EXCEPT [ALL] of two
// derived arms). Its rows are computed when its scan starts and held as
// tuples of `layout` for the scan; an uncorrelated one is computed once per
// statement and shared by every scan of it (a WITH query named twice).
// kRecursiveUnion: WITH RECURSIVE's `left UNION [ALL] right`, where right
// reads `working` (see DerivedPlan::working).
enum class SetOpKind { kNone, kUnion, kIntersect, kExcept, kRecursiveUnion };

struct DerivedPlan {
  std::vector<ResultColumn> columns;  // names and types of its rows
  std::unique_ptr<storage::TupleLayout> layout;
  // SetOpKind::kNone: the rows of `query`; else `left` op [ALL] `right`
  // (their columns already converted to `columns`' types).
  std::unique_ptr<SelectPlan> query;
  SetOpKind set_op = SetOpKind::kNone;
  bool all = false;
  std::shared_ptr<const DerivedPlan> left;
  std::shared_ptr<const DerivedPlan> right;
  // kRecursiveUnion: the source the recursive term (right) names the query
  // by (function.kind kWorkingTable). Its rows are left's, then each step's
  // new rows, until a step adds none.
  std::shared_ptr<const DerivedPlan> working;
  // VALUES (..), (..) (when query is null and set_op is kNone): each row's
  // expressions, converted to `columns`' types.
  std::vector<std::vector<BoundExprPtr>> values;
  // A set-returning function in FROM (when function.kind is not kNone):
  // its rows, of `columns`' types, computed from its arguments.
  TableFunction function;
  // ROWS FROM (f(..), g(..)) (when function.kind is kNone): each
  // function's rows (a DerivedPlan of its own), zipped: row i holds row i
  // of each, NULLs for a function that has fewer.
  std::vector<std::shared_ptr<const DerivedPlan>> rows_from;
  // WITH ORDINALITY on a function in FROM: a last bigint column numbering the rows from 1.
  bool ordinality = false;
  // It reads columns of earlier FROM items (LATERAL) or of enclosing
  // queries: computed again for every row it is joined to.
  bool correlated = false;
  // A data-modifying WITH query (one of these set): its rows are what its
  // RETURNING returns. It runs once per statement, before the statement
  // itself (PreparedStatement::modifying_ctes), named in FROM or not.
  std::shared_ptr<const InsertPlan> insert;
  std::shared_ptr<const UpdatePlan> update;
  std::shared_ptr<const DeletePlan> del;
  bool no_returning = false;  // such a query without RETURNING: not a FROM item
  bool Modifies() const { return insert || update || del; }
};

struct SourcePlan {
  std::shared_ptr<storage::Table> table;  // null for a derived source
  std::shared_ptr<const DerivedPlan> derived;  // set when table is null
  std::string alias;
  AccessPath access;
  // A locking clause's lock on the rows read (SELECT .. FOR UPDATE ..).
  // Under SKIP LOCKED the scan declares no predicate and reads rows without
  // a lock or a read-set entry (it skips rows of its range by design, so it
  // claims nothing about the range); only the rows the query returns are
  // locked and read (SelectPlan::skips_locked).
  std::optional<cc::RowLock> lock;
  // Conjuncts checked once this source's row is bound (they may use earlier
  // sources). They include the ones the access path uses: those its key
  // proves are marked in `proved_by_key` and not evaluated again.
  std::vector<BoundExprPtr> filters;
  // Per filter (empty: none): a `column = value` the access path's key
  // equality already proves for every row it yields (the index holds the
  // column, the value probes it exactly, and key equality is the type's
  // equality: AccessPathPlanner). Still a filter for everything else that
  // reads filters (references, EXPLAIN, a partial index's implication).
  std::vector<bool> proved_by_key;
  bool ProvedByKey(size_t filter) const { return filter < proved_by_key.size() && proved_by_key[filter]; }
  // Outer joins. An outer-joined group is the sources [k, group_end] of
  // `a LEFT JOIN (b JOIN c ..)`, or one source: `left_join` is set on its
  // first source k; when no row of the group passes the group's filters for
  // the current row of the sources before it, the group is read as NULLs.
  bool left_join = false;
  int group_end = -1;  // left_join: the group's last source (k itself for one)
  // left_join: conditions of the group that read a group nested in it
  // (`a LEFT JOIN (b FULL JOIN c ..) ON c.x = a.x`), checked once a row of
  // the whole group is formed, the nested group NULL-extended or not.
  std::vector<BoundExprPtr> group_filters;
  // The groups that end here (their first sources, innermost first): a row
  // reaching past this source matched them, once it passes their
  // group_filters.
  std::vector<int> closes_groups;
  // Its columns may be NULL-extended (in an outer-joined group, or the
  // left side of a FULL JOIN): WHERE conjuncts reading it run last.
  bool nullable = false;
  // FULL JOIN: set on its right side (one source, also left_join), naming
  // the first source of its left side. After the left side's rows are all
  // read, the right side's rows that matched none of them come once each,
  // with the left side NULL.
  int full_join_left = -1;
  std::vector<int> full_joins_here;  // the FULL JOINs whose left side starts here
  // Hash join, for a source that no index serves and that is not
  // correlated, joined by equalities `hash_build[i] = hash_probe[i]`
  // (hash_build reads this source alone; hash_probe reads earlier sources
  // or an enclosing query's row: a correlated subquery's `inner = outer`
  // makes a hash semi-join). Its rows that pass `local_filters` (the
  // filters that read neither earlier sources nor enclosing queries) are
  // read once per statement into a hash table on hash_build, shared by
  // every run of the query (a correlated subquery runs once per outer
  // row); each row of the earlier sources or the enclosing query then
  // visits only the rows whose key equals its hash_probe values, and
  // filters them as usual. Empty: none.
  std::vector<BoundExprPtr> hash_build;
  std::vector<BoundExprPtr> hash_probe;
  std::vector<int> local_filters;  // indexes into `filters`
};

enum class AggregateKind { kCount, kCountStar, kSum, kMin, kMax, kAvg, kStringAgg, kBoolAnd, kBoolOr, kArrayAgg };

struct SortKey {
  BoundExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
};

struct AggregateSpec {
  AggregateKind kind = AggregateKind::kCount;
  bool distinct = false;
  BoundExprPtr arg;  // null for count(*)
  BoundExprPtr separator;  // string_agg's second argument (text)
  Type type;         // result type
  // array_agg(x ORDER BY k), string_agg(x, s ORDER BY k): the group's
  // values are gathered with their keys, sorted, then accumulated.
  std::vector<SortKey> order;
};

// A window function `f(..) OVER (PARTITION BY .. ORDER BY .. frame)`,
// computed after grouping and HAVING over the rows that remain, before
// DISTINCT, ORDER BY and LIMIT. Its expressions read the row of slots the
// window stage works on (see SelectPlan::windows).
enum class WindowFunctionKind {
  kRowNumber, kRank, kDenseRank, kPercentRank, kCumeDist, kNtile, kLag, kLead, kFirstValue, kLastValue, kNthValue,
  kAggregate,
};
enum class FrameBound { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };

struct WindowSpec {
  WindowFunctionKind kind = WindowFunctionKind::kRowNumber;
  AggregateSpec aggregate;  // kAggregate: the aggregate over the frame
  // lag/lead (value, offset, default), ntile (buckets), first/last_value
  // (value), nth_value (value, n).
  std::vector<BoundExprPtr> args;
  std::vector<BoundExprPtr> partition_by;
  std::vector<SortKey> order_by;
  // The frame: ROWS counts rows; RANGE (without offsets) treats ORDER BY
  // peers as one position. Default: RANGE UNBOUNDED PRECEDING to CURRENT ROW.
  bool rows_frame = false;
  FrameBound start = FrameBound::kUnboundedPreceding;
  FrameBound end = FrameBound::kCurrentRow;
  BoundExprPtr start_offset;  // kPreceding / kFollowing: the row count
  BoundExprPtr end_offset;
  Type type;  // result type
};

struct SelectPlan {
  std::vector<SourcePlan> sources;
  std::vector<BoundExprPtr> post_filters;  // WHERE conjuncts on nullable sources
  bool aggregate = false;
  std::vector<BoundExprPtr> group_by;      // slots [0, G)
  std::vector<AggregateSpec> aggregates;   // slots [G, G + A)
  BoundExprPtr having;
  // Window functions. The window stage keeps a row of slots per row that
  // remains: the group row in an aggregated query, else the values of
  // `window_inputs` (the columns read above the windows). Window w's value
  // is the slot after those, at (base + w); outputs and ORDER BY read slots.
  std::vector<WindowSpec> windows;
  std::vector<BoundExprPtr> window_inputs;
  std::vector<BoundExprPtr> outputs;
  std::vector<ResultColumn> columns;
  std::vector<SortKey> order_by;
  // The single source's access path already yields rows in ORDER BY order
  // (index order): no sort, and LIMIT stops the scan early.
  bool ordered_by_index = false;
  bool distinct = false;
  BoundExprPtr limit;
  BoundExprPtr offset;
  // Some source is read under a locking clause (SELECT .. FOR UPDATE ..).
  bool for_update() const {
    return std::any_of(sources.begin(), sources.end(), [](const SourcePlan& s) { return s.lock.has_value(); });
  }
  // Some source is read under SKIP LOCKED: its rows are locked as they
  // leave the query (after filters, sorting and OFFSET, up to LIMIT), not
  // as they are scanned (Executor::TakeRowLocks).
  bool skips_locked() const {
    return std::any_of(sources.begin(), sources.end(),
                       [](const SourcePlan& s) { return s.lock && s.lock->wait == cc::LockWait::kSkip; });
  }
  bool has_outer_join = false;  // some source has left_join set
  bool has_full_join = false;   // some source has full_join_left set
  // An aggregated query whose outputs, HAVING or ORDER BY hold a subquery
  // reading its (grouped) columns: each group keeps its first row's tuples
  // for it to read.
  bool keeps_group_rows = false;
  // It reads columns of an enclosing query (kOuterColumn, at any depth):
  // as a subquery it runs again for each outer row.
  bool correlated = false;

  // The layout of source i's tuples.
  const storage::TupleLayout& Layout(size_t i) const {
    return sources[i].table ? sources[i].table->layout() : *sources[i].derived->layout;
  }
};

// A CHECK constraint of a written table, bound over source 0 = the new row.
struct CheckPlan {
  std::string name;
  BoundExprPtr condition;
};

// One foreign key a data-changing statement enforces, bound from the catalog
// by Binder::BindForeignKeys and run by the executor at the end of the
// statement (execute_foreign_keys.cc), or at commit when it is deferred.
// What it runs is SQL text, prepared like any statement (StatementPreparer),
// so its reads and writes are validated or locked as any other; parameters
// $1..$n are a key, in `columns` order.
struct ForeignKeyRule {
  // kReferencing: the statement's table holds the foreign key; a key it
  // writes must be present in the referenced table. kReferenced: the
  // statement's table is the referenced one; a key it deletes or changes
  // takes `action` on the rows that reference it.
  enum class Side { kReferencing, kReferenced };
  Side side = Side::kReferencing;
  std::string constraint;
  std::string referencing_table;
  std::string referenced_table;
  std::vector<int> columns;               // the key's columns in the statement's table
  std::vector<std::string> column_names;  // and their names (for messages)
  catalog::ForeignKeyAction action = catalog::ForeignKeyAction::kNoAction;  // kReferenced: ON DELETE's or ON UPDATE's
  bool deferrable = false;
  bool initially_deferred = false;
  // SELECT 1 FROM referenced WHERE key = $..: whether a key is present.
  std::string lookup_sql;
  std::vector<Type> lookup_types;         // the referenced columns' types
  // kReferenced: SELECT 1 FROM referencing WHERE foreign key = $.. LIMIT 1.
  std::string referencing_sql;
  std::vector<Type> referencing_types;    // the referencing columns' types
  // kReferenced with CASCADE, SET NULL or SET DEFAULT: the DELETE or UPDATE
  // of the referencing rows (an ON UPDATE CASCADE's new key is $n+1..$2n).
  std::string action_sql;
  // The three statements as prepared at their first run.
  PreparedSlot lookup_prepared;
  PreparedSlot referencing_prepared;
  PreparedSlot action_prepared;
};
using ForeignKeyRules = std::vector<std::shared_ptr<const ForeignKeyRule>>;

// INSERT .. ON CONFLICT.
struct OnConflictPlan {
  // The unique indexes whose conflicts the clause handles (compared with
  // the table's indexes, never dereferenced).
  std::vector<const storage::Index*> arbiters;
  bool update = false;  // DO UPDATE; false: DO NOTHING
  // DO UPDATE SET, over source 0 = the row holding the key and source 1 =
  // the row proposed for insertion (`excluded`); null value = DEFAULT.
  std::vector<int> set_columns;
  std::vector<BoundExprPtr> set_values;
  BoundExprPtr where;  // DO UPDATE .. WHERE, over the same sources; null: always
  ForeignKeyRules foreign_keys;  // for the rows DO UPDATE changes
};

struct InsertPlan {
  std::shared_ptr<storage::Table> table;
  std::vector<int> target_columns;                  // table position of each supplied value
  std::vector<std::vector<BoundExprPtr>> rows;      // VALUES, cast to column types
  std::unique_ptr<SelectPlan> query;                // INSERT .. SELECT (outputs cast)
  std::vector<BoundExprPtr> column_defaults;        // per table column, for those not supplied
  // OVERRIDING USER VALUE: the identity columns among target_columns, whose
  // supplied values give way to their DEFAULT.
  std::vector<int> overridden_columns;
  std::unique_ptr<OnConflictPlan> on_conflict;      // null: no ON CONFLICT clause
  std::vector<CheckPlan> checks;                    // the table's, for every row written
  ForeignKeyRules foreign_keys;                     // for the rows inserted
  std::vector<BoundExprPtr> returning;              // over source 0 = the new (or updated) row
  std::vector<ResultColumn> returning_columns;
};

struct UpdatePlan {
  SourcePlan target;
  // UPDATE .. FROM: the target joined with the FROM items (its source 0 is
  // the target; `target` is then unused). Each target row is updated once,
  // with the values of the first joined row that reaches it.
  std::unique_ptr<SelectPlan> join;
  std::vector<int> set_columns;
  std::vector<BoundExprPtr> set_values;  // cast to column types; null = DEFAULT
  std::vector<CheckPlan> checks;         // the table's, for every new image
  ForeignKeyRules foreign_keys;          // those whose key columns SET changes
  // Over source 0 = the new row; with `join`, also over its other sources
  // as the target row's first joined row had them.
  std::vector<BoundExprPtr> returning;
  std::vector<ResultColumn> returning_columns;
};

struct DeletePlan {
  SourcePlan target;
  // DELETE .. USING: as UpdatePlan::join; a target row with any joined row goes.
  std::unique_ptr<SelectPlan> join;
  ForeignKeyRules foreign_keys;          // the foreign keys that reference the table
  std::vector<BoundExprPtr> returning;   // over source 0 = the deleted row (and the join's, as UpdatePlan's)
  std::vector<ResultColumn> returning_columns;
};

}  // namespace paceline::sql
