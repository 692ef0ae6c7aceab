// Internal to the executor's files (executor.cc, execute_derived.cc,
// execute_modify.cc, execute_window.cc): LIMIT and OFFSET counts; hashing
// of values and rows for DISTINCT, grouping and set operations; the sort
// order of ORDER BY keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/value.h"
#include "sql/expression_evaluator.h"
#include "sql/plan.h"

namespace paceline::sql {

// A LIMIT or OFFSET count (`what`): -1 when `e` is null or gives NULL;
// `code` with "<what> must not be negative" below 0.
Status EvaluateCount(const BoundExpr* e, const EvalContext& ctx, const char* what, std::string_view code,
                     int64_t* out);

struct ValueHash {
  size_t operator()(const Value& v) const { return v.Hash(); }
};

struct ValuesHash {
  size_t operator()(const std::vector<Value>& vs) const {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (const auto& v : vs) h = (h ^ v.Hash()) * 0x100000001B3ULL;
    return h;
  }
};

// Where x sorts against y under `key` (<0: x first); NULLs placed as the
// key says.
inline int CompareForSort(const Value& x, const Value& y, const SortKey& key) {
  if (x.is_null() || y.is_null()) {
    if (x.is_null() && y.is_null()) return 0;
    return x.is_null() == key.nulls_first ? -1 : 1;
  }
  int c = Value::Compare(x, y);
  return key.descending ? -c : c;
}

// Compares rows on the sort keys stored after the first `width` values.
struct SortLess {
  const std::vector<SortKey>* keys;
  size_t width;
  bool operator()(const std::vector<Value>& a, const std::vector<Value>& b) const {
    for (size_t k = 0; k < keys->size(); ++k) {
      int c = CompareForSort(a[width + k], b[width + k], (*keys)[k]);
      if (c != 0) return c < 0;
    }
    return false;
  }
};

}  // namespace paceline::sql
