// AccessPathPlanner: chooses how one FROM source is read.
//
// Given the conjuncts that are checked at the source's level (they use only
// this source, earlier sources, parameters and constants), it looks for
// `column = value` and `column <op> value` conjuncts on index columns, and
// picks, in order of preference: a unique index whose every column is bound
// by equality (point lookup); an ordered index with the longest bound prefix,
// plus a range on the next column (range scan); else a full scan. A value's
// type must be of the column's family (integers for integer columns, ...) for
// the index to be used; the conjuncts stay as filters either way.
//
// ChooseHashJoin: for a source that ChooseAccessPath left on a full scan,
// picks its equality conjuncts with earlier sources or with enclosing
// queries (a correlated subquery's `inner = outer`) as hash join keys (see
// SourcePlan::hash_build), when their types hash alike.
//
// Thread-safety: pure functions over their arguments.
#pragma once

#include <vector>

#include "sql/plan.h"

namespace paceline::sql {

void ChooseAccessPath(int source, const std::vector<BoundExprPtr>& conjuncts, SourcePlan* plan);

// After ChooseAccessPath, with plan->filters in place.
void ChooseHashJoin(int source, SourcePlan* plan);

// For the one source of a query sorted by `order_by`, left on a full scan:
// when the sort keys are an ordered index's leading columns, ascending with
// NULLS LAST (the order the index keeps), the source reads that whole index
// in order instead, so the query needs no sort and a LIMIT stops the scan
// at once (a queue's `ORDER BY id LIMIT 1`, as PostgreSQL's index scan).
void ChooseOrderedScan(const std::vector<SortKey>& order_by, SourcePlan* plan);

}  // namespace paceline::sql
