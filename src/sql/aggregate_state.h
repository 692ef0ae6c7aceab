// AggregateState: the running state of one aggregate (count, sum, avg, min,
// max, string_agg, array_agg, bool_and/or) over the rows fed to it, for GROUP BY groups
// and for window frames.
//
// Accumulate adds one row's argument value (NULLs are skipped, DISTINCT
// values counted once); Finish gives the aggregate's value for the rows so
// far and may be called again after more rows. Sums use SQL arithmetic with
// its overflow errors. Not thread-safe: one state per group or frame.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "sql/executor_internal.h"
#include "sql/plan.h"

namespace paceline::sql {

// Accumulator of one aggregate in one group.
struct AggregateState {
  int64_t count = 0;
  Value acc;  // sum / min / max so far; NULL until the first value
  std::unique_ptr<std::unordered_set<Value, ValueHash>> seen;  // DISTINCT
  std::vector<Value> items;  // array_agg's values
  // An aggregate with ORDER BY: per row {sort keys.., value, separator},
  // accumulated in order when the group is finished.
  std::vector<std::vector<Value>> ordered;
};

// Adds `v` (string_agg: with the row's `separator`) to `st`.
Status Accumulate(const AggregateSpec& spec, const Value& v, const Value& separator, AggregateState* st);
// The aggregate's value over the rows accumulated so far (an aggregate
// with ORDER BY sorts its gathered rows first).
Status Finish(const AggregateSpec& spec, AggregateState& st, Value* out);

}  // namespace paceline::sql
