// PredicateImplied: whether what is known true of a row proves a partial
// index's condition, so that every row a query (or ON CONFLICT's target)
// wants is in the index and the index may serve it. A sound subset of
// PostgreSQL's predicate_implied_by (optimizer/util/predtest.c):
//
// - the condition is split at AND and every part must be proved; an OR part
//   is proved when one of its arms is;
// - a part is proved by a fact that is the same expression (the same
//   columns, operators and constants); `b = true` reads as `b` and
//   `b = false` as `NOT b`, on either side;
// - `col IS NOT NULL` is proved by a comparison of col (=, <>, <, <=, >,
//   >=), which is never true of NULL;
// - `col op c1` is proved by `col op' c2`, constants of one type, when
//   every value that satisfies the fact satisfies the part (x > 10 proves
//   x > 5 and x >= 10 and x <> 3; x = 7 proves x <= 7).
//
// Anything else is not proved, and the index is not used: a missed proof
// costs a faster plan, never a wrong answer. Facts with parameters prove
// only parts equal to them (a generic plan cannot compare $1 with 5).
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "sql/bound_expr.h"

namespace paceline::sql {

// The conjuncts of `e` (its AND's children, recursively; else `e` itself).
void BoundConjuncts(const BoundExpr& e, std::vector<const BoundExpr*>* out);

// Whether `facts` (conditions over FROM source `source`) prove `condition`
// (bound over one table as source 0).
bool PredicateImplied(const std::vector<const BoundExpr*>& facts, int source, const BoundExpr& condition);

}  // namespace paceline::sql
