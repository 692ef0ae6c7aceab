// Internal to the executor's files (executor.cc, execute_derived.cc,
// execute_modify.cc): hashing of values and rows for DISTINCT, grouping and
// set operations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/value.h"

namespace paceline::sql {

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


}  // namespace paceline::sql
