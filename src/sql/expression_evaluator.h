// ExpressionEvaluator: computes the Value of a BoundExpr for one input row.
//
// Semantics are PostgreSQL's: three-valued logic (NULL propagates through
// operators; AND/OR are short-circuit with NULL as "unknown"), integer
// overflow and division by zero are errors (22003, 22012), numeric is exact,
// comparisons between numbers of different types are numeric.
//
// Thread-safety: stateless; EvalContext is per call.
#pragma once

#include <string>
#include <vector>

#include "common/cancel_token.h"
#include "common/ids.h"
#include "common/status.h"
#include "common/value.h"
#include "sql/bound_expr.h"
#include "storage/tuple.h"

namespace paceline::sql {

struct EvalContext;
class SequenceAccess;
class AdvisoryLockAccess;
class NotificationSink;
class SystemInfo;

// Runs the subqueries an expression contains (the Executor implements it:
// a subquery reads rows through the statement's transaction).
class SubqueryRunner {
 public:
  virtual ~SubqueryRunner() = default;
  // Evaluates `node` (BoundKind::kSubquery) for the row of `ctx`.
  virtual Status Run(const BoundExpr& node, const EvalContext& ctx, Value* out) = 0;
};

// The row an expression is evaluated against.
struct EvalContext {
  const std::vector<Value>* params = nullptr;       // bound parameter values
  const storage::Tuple* const* tuples = nullptr;    // per FROM source (nullptr: NULL row)
  const storage::TupleLayout* const* layouts = nullptr;
  const Value* slots = nullptr;                     // materialized row (kSlot)
  int64_t statement_time = 0;                       // now(): the transaction's start time
  TxnTimestamp transaction_id;                      // txid_current(): the transaction's timestamp (none: 0)
  const EvalContext* outer = nullptr;               // the enclosing query's row (kOuterColumn)
  SubqueryRunner* subqueries = nullptr;             // null: a kSubquery is an internal error
  const CancelToken* cancel = nullptr;              // ends pg_sleep early (57014); may be null
  SequenceAccess* sequences = nullptr;              // nextval & co.; null: they fail (XX000)
  AdvisoryLockAccess* advisory_locks = nullptr;     // pg_advisory_lock & co.; null: they fail (0A000)
  NotificationSink* notifications = nullptr;        // pg_notify; null: it fails (0A000)
  SystemInfo* system = nullptr;                     // the system catalogs and session functions; null: 0A000
};

// NOTIFY's and pg_notify's checks (22023): a channel name non-empty and
// shorter than 64 bytes, a payload shorter than 8000 bytes.
Status CheckNotification(const std::string& channel, const std::string& payload);

Status Evaluate(const BoundExpr& expr, const EvalContext& ctx, Value* out);

// Evaluates a predicate: true only when the result is non-NULL true.
Status EvaluatePredicate(const BoundExpr& expr, const EvalContext& ctx, bool* out);

// `a op b` for a comparison operator (kEq .. kGe) on two non-NULL values.
Status CompareValues(BinaryOp op, const Value& a, const Value& b, Value* out);

// SQL arithmetic on two non-NULL values into `result_type` (exposed for
// aggregates, which add with the same overflow rules).
Status Arithmetic(BinaryOp op, const Value& a, const Value& b, const Type& result_type, Value* out);

// The rows of json[b]_array_elements[_text], json[b]_each[_text] and
// json[b]_object_keys (`kind`, called as `name`) over a non-NULL json or
// jsonb `arg`; 22023 as PostgreSQL for an argument of the wrong shape
// (evaluate_json_rows.cc).
Status JsonFunctionRows(TableFunctionKind kind, const std::string& name, const Value& arg,
                        std::vector<std::vector<Value>>* out);

// LIKE pattern matching with % and _ and backslash escapes.
bool LikeMatch(std::string_view text, std::string_view pattern, bool case_insensitive);

}  // namespace paceline::sql
