// Plans: the executable form of a bound DML statement.
//
// A SelectPlan is a left-deep nested-loop join over its sources in FROM
// order; each source is read through an AccessPath (a unique-index point
// lookup, an ordered-index range over a key prefix, or a full scan) whose key
// values may use columns of earlier sources (index nested loop). Then come
// aggregation, HAVING, projection, DISTINCT, ORDER BY and LIMIT/OFFSET.
// UPDATE and DELETE read their target through one SourcePlan; INSERT has
// VALUES rows or a SelectPlan. Plans are immutable after binding and shared by
// every execution of a prepared statement.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/query_result.h"
#include "engine/sql/bound_expr.h"
#include "engine/storage/table.h"

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

struct SourcePlan {
  std::shared_ptr<storage::Table> table;
  std::string alias;
  AccessPath access;
  // Conjuncts checked once this source's row is bound (they may use earlier
  // sources). They include the ones the access path uses, re-checked.
  std::vector<BoundExprPtr> filters;
  bool left_join = false;  // no match → one row of NULLs for this source
};

enum class AggregateKind { kCount, kCountStar, kSum, kMin, kMax, kAvg };

struct AggregateSpec {
  AggregateKind kind = AggregateKind::kCount;
  bool distinct = false;
  BoundExprPtr arg;  // null for count(*)
  Type type;         // result type
};

struct SortKey {
  BoundExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
};

struct SelectPlan {
  std::vector<SourcePlan> sources;
  std::vector<BoundExprPtr> post_filters;  // WHERE conjuncts on left-joined sources
  bool aggregate = false;
  std::vector<BoundExprPtr> group_by;      // slots [0, G)
  std::vector<AggregateSpec> aggregates;   // slots [G, G + A)
  BoundExprPtr having;
  std::vector<BoundExprPtr> outputs;
  std::vector<engine::ResultColumn> columns;
  std::vector<SortKey> order_by;
  // The single source's access path already yields rows in ORDER BY order
  // (index order): no sort, and LIMIT stops the scan early.
  bool ordered_by_index = false;
  bool distinct = false;
  BoundExprPtr limit;
  BoundExprPtr offset;
  bool for_update = false;
};

struct InsertPlan {
  std::shared_ptr<storage::Table> table;
  std::vector<int> target_columns;                  // table position of each supplied value
  std::vector<std::vector<BoundExprPtr>> rows;      // VALUES, cast to column types
  std::unique_ptr<SelectPlan> query;                // INSERT .. SELECT (outputs cast)
  std::vector<BoundExprPtr> column_defaults;        // per table column, for those not supplied
  std::vector<BoundExprPtr> returning;              // over source 0 = the new row
  std::vector<engine::ResultColumn> returning_columns;
};

struct UpdatePlan {
  SourcePlan target;
  std::vector<int> set_columns;
  std::vector<BoundExprPtr> set_values;  // cast to column types; null = DEFAULT
  std::vector<BoundExprPtr> returning;   // over source 0 = the new row
  std::vector<engine::ResultColumn> returning_columns;
};

struct DeletePlan {
  SourcePlan target;
  std::vector<BoundExprPtr> returning;   // over source 0 = the deleted row
  std::vector<engine::ResultColumn> returning_columns;
};

}  // namespace paceline::sql
