// Small helpers shared by the TPC-C loader and procedures: building Values
// of the schema's types and reading them back from query results.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "common/decimal.h"
#include "common/status.h"
#include "common/value.h"
#include "common/query_result.h"

namespace paceline::workloads::tpcc {

inline Value Int(int64_t v) { return Value::Int32(static_cast<int32_t>(v)); }
inline Value Str(std::string s) { return Value::Text(std::move(s)); }
// The fixed-point number `unscaled` × 10^-scale.
inline Value Num(int64_t unscaled, int scale) { return Value::Numeric(Decimal(unscaled, scale)); }
// Money in cents.
inline Value Cents(int64_t cents) { return Num(cents, 2); }

// Whether `v` is a non-NULL integer (predictions check their arguments
// before reading them: a malformed call must not crash its prediction).
inline bool IsInt(const Value& v) { return !v.is_null() && Type(v.type()).IsInteger(); }
// A value computed inside the transaction, unknown to a prediction: NULL
// (it yields no reference, see engine::StatementPredictions).
inline Value Computed() { return Value(); }

// An integer column's value (0 for NULL).
inline int64_t IntOf(const Value& v) { return v.is_null() ? 0 : v.int_value(); }
// A NUMERIC column's value in cents (hundredths), rounded; 0 for NULL.
int64_t CentsOf(const Value& v);

// XX000 when `result` has no row: a row the TPC-C data guarantees is missing.
// `what()` names it ("district 3 of warehouse 1"); it is called only then,
// so the message costs nothing on the path where the row is there.
template <typename Describe>
Status ExpectRow(const QueryResult& result, Describe&& what) {
  if (!result.rows.empty()) return Status::OK();
  return Status(sqlstate::kInternalError, "TPC-C: " + std::string(what()) + " does not exist");
}

}  // namespace paceline::workloads::tpcc
