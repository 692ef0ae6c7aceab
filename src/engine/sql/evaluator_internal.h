// Internal to the expression evaluator's files (expression_evaluator.cc,
// evaluate_function.cc, evaluate_array.cc): the helpers both use, defined in
// expression_evaluator.cc, and the scalar functions' entry point.
#pragma once

#include <string>
#include <vector>

#include "common/decimal.h"
#include "common/status.h"
#include "common/value.h"
#include "engine/sql/expression_evaluator.h"

namespace paceline::sql::eval {

// 22003 "<type> out of range" for an integer or date result type.
Status OutOfRange(TypeId id);
// `v` as a value of the integer (or date) type `id`.
Value MakeInt(TypeId id, int64_t v);
bool FitsType(TypeId id, int64_t v);
Decimal ToDecimal(const Value& v);
double ToDouble(const Value& v);
// A value as text for string functions and ||, as PostgreSQL's cast to text gives it.
std::string TextOf(const Value& v);

// Arithmetic with an interval operand or result, or timestamp − timestamp
// (evaluate_interval.cc); both values non-NULL.
Status IntervalArithmetic(BinaryOp op, const Value& a, const Value& b, const Type& result_type, Value* out);
// justify_days/hours/interval, pg_sleep and pg_sleep_for with their
// evaluated arguments (evaluate_interval.cc); pg_sleep waits on ctx.cancel.
Status EvaluateIntervalFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                Value* out);

// A kFunction node (evaluate_function.cc).
Status EvaluateFunction(const BoundExpr& e, const EvalContext& ctx, Value* out);
// A json function or operator node with its evaluated arguments
// (evaluate_json.cc); NULL arguments are handled by the caller except for
// json[b]_build_object/array.
Status EvaluateJsonFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out);

// Arrays (evaluate_array.cc): a kArray, kSubscript or kArrayCompare node,
// and the array functions (ScalarFunction::kCardinality and after) on their
// evaluated arguments.
Status EvaluateArrayNode(const BoundExpr& e, const EvalContext& ctx, Value* out);
Status EvaluateArrayFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out);

}  // namespace paceline::sql::eval
