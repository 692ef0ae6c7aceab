// Internal to the expression evaluator's files (expression_evaluator.cc,
// evaluate_*.cc): the helpers more than one uses, defined in
// expression_evaluator.cc unless noted, and the scalar functions' entry points.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/decimal.h"
#include "common/json_value.h"
#include "common/status.h"
#include "common/value.h"
#include "sql/expression_evaluator.h"

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
// PostgreSQL's quote_literal: in single quotes, quotes doubled; with a
// backslash, backslashes doubled too and an E before the quote
// (evaluate_catalog_function.cc).
std::string QuoteLiteral(const std::string& s);
// UTF-8 text: its number of characters, and the byte offset of the
// character at 0-based index `chars` (the end when there are fewer).
int64_t Utf8Length(std::string_view s);
size_t Utf8Offset(std::string_view s, int64_t chars);

// Arithmetic with an interval operand or result, or timestamp − timestamp
// (evaluate_interval.cc); both values non-NULL.
Status IntervalArithmetic(BinaryOp op, const Value& a, const Value& b, const Type& result_type, Value* out);
// justify_days/hours/interval, pg_sleep and pg_sleep_for with their
// evaluated arguments (evaluate_interval.cc); pg_sleep waits on ctx.cancel.
Status EvaluateIntervalFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                Value* out);

// nextval, currval, setval and lastval with their evaluated arguments
// (evaluate_sequence.cc), through ctx.sequences.
Status EvaluateSequenceFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                Value* out);
// pg_advisory_lock & co. through ctx.advisory_locks (evaluate_advisory_lock.cc).
Status EvaluateAdvisoryLockFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                    Value* out);

// The system catalogs' and the session's functions (kVersion ..
// kRegprocOut) with their evaluated arguments, through ctx.system
// (evaluate_catalog_function.cc).
Status EvaluateCatalogFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                               Value* out);
// The size functions, arguments non-NULL (evaluate_relation_size.cc):
// pg_relation_size & co. through the session's catalog, and
// pg_size_pretty(bytes) (no session needed).
Status EvaluateSizeFunction(const BoundExpr& e, const std::vector<Value>& args, SystemInfo& info, Value* out);
Status SizePretty(const Value& bytes, Value* out);
// ~ and ~* (e.negated: !~, !~*) with their evaluated arguments (evaluate_regex.cc).
Status EvaluateRegexMatch(const BoundExpr& e, const std::vector<Value>& args, Value* out);
// regexp_replace(source, pattern, replacement [, flags]), arguments non-NULL (evaluate_regex.cc).
Status EvaluateRegexpReplace(const std::vector<Value>& args, Value* out);
// format(fmt, args...), not strict but in fmt (evaluate_string_format.cc).
Status EvaluateFormat(const std::vector<Value>& args, Value* out);
// encode(bytea, format) and decode(text, format), arguments non-NULL
// (evaluate_string_format.cc).
Status EvaluateEncoding(bool encode, const std::vector<Value>& args, Value* out);
// The string functions (kConcat .. kRegexpReplace) with their evaluated
// arguments (evaluate_string_function.cc).
Status EvaluateStringFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out);
// A kFunction node (evaluate_function.cc).
Status EvaluateFunction(const BoundExpr& e, const EvalContext& ctx, Value* out);
// A json function or operator node with its evaluated arguments
// (evaluate_json.cc); NULL arguments are handled by the caller except for
// json[b]_build_object/array.
Status EvaluateJsonFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out);
// The jsonb operators and functions that return an edited copy of their
// first argument: ||, jsonb_set, - and #- (evaluate_json_edit.cc).
Status EvaluateJsonEdit(const BoundExpr& e, const std::vector<Value>& args, Value* out);

// json helpers (evaluate_json.cc). A path: text[] elements, nullopt for NULL.
using Path = std::vector<std::optional<std::string>>;
// The elements of a one-dimensional text[] literal ('{a,"b c",NULL}'), as
// array_in reads them: blanks around unquoted elements dropped, double
// quotes and backslashes escaping, an unquoted NULL (any case) a null.
// The path of #>, #>> and jsonb_set, which still bind it as text. 22P02
// `malformed array literal: "..."` otherwise.
Status ParsePathLiteral(std::string_view text, Path* out);
// An array index of a path element, as PostgreSQL's strtoint reads it.
bool ParseIndex(const std::string& s, int64_t* out);
// Element `index` (negative: from the end) of `n` elements, or -1.
int64_t ResolveIndex(int64_t index, size_t n);
// A jsonb value of a tree.
Value JsonbResult(const json::JsonNode& node);
// ->> and #>> of a jsonb value: a string's text, SQL NULL for null, else
// the value's text.
Value TextResult(const json::JsonNode& node);
// The same for a json value's text (as_text), or that text as json.
Status JsonTextResult(std::string_view text, bool as_text, Value* out);

// Arrays (evaluate_array.cc): a kArray, kSubscript or kArrayCompare node,
// and the array functions (ScalarFunction::kCardinality and after) on their
// evaluated arguments.
Status EvaluateArrayNode(const BoundExpr& e, const EvalContext& ctx, Value* out);
Status EvaluateArrayFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out);

}  // namespace paceline::sql::eval
