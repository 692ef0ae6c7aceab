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
// Thread-safety: pure function over its arguments.
#pragma once

#include <vector>

#include "engine/sql/plan.h"

namespace paceline::sql {

void ChooseAccessPath(int source, const std::vector<BoundExprPtr>& conjuncts, SourcePlan* plan);

}  // namespace paceline::sql
