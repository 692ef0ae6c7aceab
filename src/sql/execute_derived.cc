// Executor: subqueries (Run) and derived sources (subqueries and WITH
// queries in FROM, VALUES, set-returning functions, set operations), each run in a
// child Executor on the statement's transaction (see executor.h).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/array_value.h"
#include "common/stack_depth.h"
#include "sql/executor.h"
#include "sql/executor_internal.h"
#include "sql/expression_evaluator.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

namespace {

// The most rows one generate_series may yield (see SeriesRows).
constexpr size_t kMaxSeriesRows = 1'000'000;

}  // namespace

Executor::StatementCache& Executor::Cache() {
  if (!root_->cache_) root_->cache_ = std::make_shared<StatementCache>();
  return *root_->cache_;
}

Status Executor::Run(const BoundExpr& node, const EvalContext& ctx, Value* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // subqueries nest
  // The first column of the subquery's rows: from the statement's cache
  // when it is uncorrelated and ran before.
  std::vector<Value> computed;
  const std::vector<Value>* rows = nullptr;
  const BoundSubquery& subquery = *node.subquery;
  const bool cacheable = !subquery.plan->correlated;
  if (cacheable) {
    auto it = Cache().subquery_rows.find(&subquery);
    if (it != Cache().subquery_rows.end()) rows = &it->second;
  }
  if (rows == nullptr) {
    Executor child(this, &ctx);
    if (subquery.kind == SubqueryKind::kExists) child.row_cap_ = 1;
    if (subquery.kind == SubqueryKind::kScalar) child.row_cap_ = 2;
    QueryResult result;
    PL_RETURN_IF_ERROR(child.Select(*subquery.plan, &result));
    computed.reserve(result.rows.size());
    for (auto& row : result.rows) computed.push_back(row.empty() ? Value::Null() : std::move(row[0]));
    if (cacheable) {
      rows = &Cache().subquery_rows.emplace(&subquery, std::move(computed)).first->second;
    } else {
      rows = &computed;
    }
  }
  switch (subquery.kind) {
    case SubqueryKind::kExists:
      *out = Value::Bool(!rows->empty());
      return Status::OK();
    case SubqueryKind::kScalar:
      if (rows->size() > 1) {
        return Status(sqlstate::kCardinalityViolation, "more than one row returned by a subquery used as an expression");
      }
      *out = rows->empty() ? Value::Null(node.type.id) : (*rows)[0];
      return Status::OK();
    case SubqueryKind::kArray: {
      ArrayBuilder b(node.type.element);
      for (const Value& v : *rows) b.Add(v);
      *out = b.Finish();
      return Status::OK();
    }
    case SubqueryKind::kAny:
    case SubqueryKind::kAll: {
      // x op ANY: true when one comparison is true, else NULL when one is
      // NULL, else false; ALL: false when one is false, else NULL when one
      // is NULL, else true (an empty subquery: false for ANY, true for ALL).
      const bool any = subquery.kind == SubqueryKind::kAny;
      Value left;
      PL_RETURN_IF_ERROR(Evaluate(*node.children[0], ctx, &left));
      bool saw_null = false;
      for (const Value& v : *rows) {
        if (left.is_null() || v.is_null()) {
          saw_null = true;
          continue;
        }
        Value r;
        PL_RETURN_IF_ERROR(CompareValues(node.op, left, v, &r));
        if (r.bool_value() == any) {
          *out = Value::Bool(any);
          return Status::OK();
        }
      }
      *out = saw_null ? Value::Null(TypeId::kBool) : Value::Bool(!any);
      return Status::OK();
    }
  }
  return InternalError("unknown subquery kind");
}

Status Executor::Materialize(const DerivedPlan& derived,
                             std::shared_ptr<const std::vector<storage::TuplePtr>>* out) {
  if (!derived.correlated) {
    auto it = Cache().derived.find(&derived);
    if (it != Cache().derived.end()) {
      *out = it->second;
      return Status::OK();
    }
  }
  std::vector<std::vector<Value>> rows;
  PL_RETURN_IF_ERROR(DerivedRows(derived, &rows));
  auto tuples = std::make_shared<std::vector<storage::TuplePtr>>();
  tuples->reserve(rows.size());
  for (const auto& row : rows) tuples->push_back(derived.layout->Build(row));
  *out = tuples;
  if (!derived.correlated) Cache().derived.emplace(&derived, std::move(tuples));
  return Status::OK();
}

Status Executor::FunctionRows(const DerivedPlan& derived, const EvalContext& ctx,
                              std::vector<std::vector<Value>>* out) {
  const TableFunction& function = derived.function;
  if (function.kind == TableFunctionKind::kGenerateSeries) return SeriesRows(derived, ctx, out);
  if (function.kind == TableFunctionKind::kSystemRelation) {
    if (ctx.system == nullptr) {
      return Status(sqlstate::kFeatureNotSupported, "the system catalogs cannot be read outside a session");
    }
    function.system->rows(*ctx.system, *function.system, out);
    return Status::OK();
  }
  if (function.kind == TableFunctionKind::kWorkingTable) {
    auto it = Cache().working_rows.find(&derived);
    if (it != Cache().working_rows.end()) *out = it->second;
    return Status::OK();
  }
  if (function.kind == TableFunctionKind::kSequenceRelation) {
    const auto [last, called] = function.sequence->State();
    out->push_back({Value::Int64(last), Value::Int64(0), Value::Bool(called)});
    return Status::OK();
  }
  // The others take one argument and yield nothing for NULL.
  Value arg;
  PL_RETURN_IF_ERROR(Evaluate(*function.args[0], ctx, &arg));
  if (arg.is_null()) return Status::OK();
  if (function.kind == TableFunctionKind::kUnnest) {
    for (Value& v : ArrayElements(arg)) out->push_back({std::move(v)});
    return Status::OK();
  }
  if (function.kind == TableFunctionKind::kExpandArray) {
    int32_t n = 0;
    for (Value& v : ArrayElements(arg)) out->push_back({std::move(v), Value::Int32(++n)});
    return Status::OK();
  }
  if (function.kind == TableFunctionKind::kGenerateSubscripts) {
    // Paceline's arrays have one dimension, subscripts from 1: 1..n for
    // dimension 1 (n..1 when reverse), nothing for another or a NULL.
    Value dim, reverse = Value::Bool(false);
    PL_RETURN_IF_ERROR(Evaluate(*function.args[1], ctx, &dim));
    if (function.args.size() > 2) PL_RETURN_IF_ERROR(Evaluate(*function.args[2], ctx, &reverse));
    if (dim.is_null() || reverse.is_null() || dim.int_value() != 1) return Status::OK();
    // An int2vector / oidvector's subscripts start at 0.
    const int32_t shift = function.args[0]->type.vector ? -1 : 0;
    const int32_t n = static_cast<int32_t>(ArrayElements(arg).size());
    for (int32_t i = 1; i <= n; ++i) out->push_back({Value::Int32((reverse.bool_value() ? n + 1 - i : i) + shift)});
    return Status::OK();
  }
  if (function.kind == TableFunctionKind::kOptionsToTable) {
    for (const Value& option : ArrayElements(arg)) {
      if (option.is_null()) continue;
      const std::string& text = option.string_value();
      const size_t eq = text.find('=');
      out->push_back({Value::Text(text.substr(0, eq)),
                      eq == std::string::npos ? Value::Null(TypeId::kText) : Value::Text(text.substr(eq + 1))});
    }
    return Status::OK();
  }
  if (function.kind == TableFunctionKind::kPartitionAncestors) {  // no partitions: the relation itself
    out->push_back({std::move(arg)});
    return Status::OK();
  }
  return JsonFunctionRows(function.kind, function.name, arg, out);
}

Status Executor::SeriesRows(const DerivedPlan& derived, const EvalContext& ctx, std::vector<std::vector<Value>>* out) {
  // generate_series(start, stop[, step]): start, start + step, ... while not
  // past stop; nothing when an argument is NULL.
  Value bound[3] = {Value::Null(), Value::Null(), Value::Int32(1)};
  const std::vector<BoundExprPtr>& args = derived.function.args;
  for (size_t i = 0; i < args.size(); ++i) {
    PL_RETURN_IF_ERROR(Evaluate(*args[i], ctx, &bound[i]));
    if (bound[i].is_null()) return Status::OK();
  }
  const Type& type = derived.columns[0].type;
  Value zero;
  PL_RETURN_IF_ERROR(CastValue(Value::Int32(0), type, false, &zero));
  const int direction = Value::Compare(bound[2], zero);
  if (direction == 0) return Status(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
  Value at = bound[0];
  while ((direction > 0 && Value::Compare(at, bound[1]) <= 0) || (direction < 0 && Value::Compare(at, bound[1]) >= 0)) {
    PL_RETURN_IF_ERROR(Tick());
    // The rows are materialized: a series as long as a literal can make it
    // would exhaust memory (PostgreSQL streams them instead).
    if (out->size() >= kMaxSeriesRows) {
      return Status(sqlstate::kProgramLimitExceeded,
                    "generate_series of more than " + std::to_string(kMaxSeriesRows) + " rows is not supported");
    }
    out->push_back({at});
    Value next;
    // Past the type's range the series has ended (PostgreSQL stops there too).
    if (!Arithmetic(BinaryOp::kAdd, at, bound[2], type, &next).ok()) break;
    at = std::move(next);
  }
  return Status::OK();
}

Status Executor::RunModifyingCtes(const std::vector<std::shared_ptr<const DerivedPlan>>& ctes) {
  for (const auto& cte : ctes) {
    std::shared_ptr<const std::vector<storage::TuplePtr>> rows;
    PL_RETURN_IF_ERROR(Materialize(*cte, &rows));
  }
  return Status::OK();
}

Status Executor::DerivedRows(const DerivedPlan& derived, std::vector<std::vector<Value>>* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());
  if (derived.Modifies()) {
    // A data-modifying WITH query (uncorrelated: run once, then cached).
    Executor child(this, &ctx_);
    QueryResult result;
    if (derived.insert) PL_RETURN_IF_ERROR(child.Insert(*derived.insert, &result));
    if (derived.update) PL_RETURN_IF_ERROR(child.Update(*derived.update, &result));
    if (derived.del) PL_RETURN_IF_ERROR(child.Delete(*derived.del, &result));
    *out = std::move(result.rows);
    return Status::OK();
  }
  if (derived.set_op == SetOpKind::kNone && !derived.query) {
    // VALUES rows or a function's, evaluated as a query of their own inside this one.
    EvalContext row_ctx;
    row_ctx.params = ctx_.params;
    row_ctx.statement_time = ctx_.statement_time;
    row_ctx.transaction_id = ctx_.transaction_id;
    row_ctx.outer = &ctx_;
    row_ctx.subqueries = this;
    row_ctx.cancel = ctx_.cancel;
    row_ctx.sequences = ctx_.sequences;
    row_ctx.advisory_locks = ctx_.advisory_locks;
    row_ctx.system = ctx_.system;
    out->clear();
    if (!derived.rows_from.empty()) {
      // ROWS FROM: row i of every function side by side, NULLs past a shorter one's end.
      size_t width = 0;
      for (const auto& member : derived.rows_from) {
        std::vector<std::vector<Value>> rows;
        PL_RETURN_IF_ERROR(FunctionRows(*member, row_ctx, &rows));
        const size_t columns = member->columns.size();
        for (size_t i = 0; i < rows.size() || i < out->size(); ++i) {
          if (i == out->size()) out->emplace_back(width, Value::Null());
          std::vector<Value>& row = (*out)[i];
          if (i < rows.size()) {
            row.insert(row.end(), std::make_move_iterator(rows[i].begin()), std::make_move_iterator(rows[i].end()));
          } else {
            row.resize(row.size() + columns, Value::Null());
          }
        }
        width += columns;
      }
      if (derived.ordinality) {
        for (size_t i = 0; i < out->size(); ++i) (*out)[i].push_back(Value::Int64(static_cast<int64_t>(i) + 1));
      }
      return Status::OK();
    }
    if (derived.function.kind != TableFunctionKind::kNone) {
      PL_RETURN_IF_ERROR(FunctionRows(derived, row_ctx, out));
      if (derived.ordinality) {
        for (size_t i = 0; i < out->size(); ++i) (*out)[i].push_back(Value::Int64(static_cast<int64_t>(i) + 1));
      }
      return Status::OK();
    }
    for (const auto& exprs : derived.values) {
      std::vector<Value> row(exprs.size());
      for (size_t i = 0; i < exprs.size(); ++i) PL_RETURN_IF_ERROR(Evaluate(*exprs[i], row_ctx, &row[i]));
      out->push_back(std::move(row));
    }
    return Status::OK();
  }
  if (derived.set_op == SetOpKind::kNone) {
    Executor child(this, &ctx_);
    QueryResult result;
    PL_RETURN_IF_ERROR(child.Select(*derived.query, &result));
    *out = std::move(result.rows);
    return Status::OK();
  }
  if (derived.set_op == SetOpKind::kRecursiveUnion) return RecursiveRows(derived, out);
  std::vector<std::vector<Value>> left, right;
  PL_RETURN_IF_ERROR(DerivedRows(*derived.left, &left));
  PL_RETURN_IF_ERROR(DerivedRows(*derived.right, &right));
  out->clear();
  if (derived.set_op == SetOpKind::kUnion) {
    if (derived.all) {
      *out = std::move(left);
      for (auto& row : right) out->push_back(std::move(row));
      return Status::OK();
    }
    std::unordered_set<std::vector<Value>, ValuesHash> seen;
    for (auto* side : {&left, &right}) {
      for (auto& row : *side) {
        if (seen.insert(row).second) out->push_back(std::move(row));
      }
    }
    return Status::OK();
  }
  // INTERSECT / EXCEPT: a left row stays as many times as the multiset
  // rule allows (ALL) or once (without ALL); NULLs are equal here.
  std::unordered_map<std::vector<Value>, int64_t, ValuesHash> right_count;
  for (auto& row : right) ++right_count[std::move(row)];
  std::unordered_set<std::vector<Value>, ValuesHash> emitted;
  const bool intersect = derived.set_op == SetOpKind::kIntersect;
  for (auto& row : left) {
    auto it = right_count.find(row);
    const bool in_right = it != right_count.end() && it->second > 0;
    if (derived.all) {
      if (in_right) --it->second;
      if (in_right == intersect) out->push_back(std::move(row));
    } else if (in_right == intersect && emitted.insert(row).second) {
      out->push_back(std::move(row));
    }
  }
  return Status::OK();
}

Status Executor::RecursiveRows(const DerivedPlan& derived, std::vector<std::vector<Value>>* out) {
  // PostgreSQL's evaluation: the non-recursive term's rows are the first
  // working table; each step runs the recursive term over the working
  // table, and its rows (without ALL: those not seen before) are added to
  // the result and are the next working table, until a step adds none.
  std::vector<std::vector<Value>> working;
  PL_RETURN_IF_ERROR(DerivedRows(*derived.left, &working));
  std::unordered_set<std::vector<Value>, ValuesHash> seen;
  auto keep_new = [&](std::vector<std::vector<Value>>* rows) {
    if (derived.all) return;
    std::erase_if(*rows, [&](const std::vector<Value>& row) { return !seen.insert(row).second; });
  };
  keep_new(&working);
  out->clear();
  auto& slot = Cache().working_rows[derived.working.get()];
  Status status;
  while (!working.empty()) {
    out->insert(out->end(), working.begin(), working.end());
    if (out->size() > kMaxSeriesRows) {
      status = Status(sqlstate::kProgramLimitExceeded,
                      "WITH RECURSIVE query \"" + derived.working->function.name + "\" of more than " +
                          std::to_string(kMaxSeriesRows) + " rows is not supported");
      break;
    }
    status = Tick();
    if (!status.ok()) break;
    slot = std::move(working);
    working.clear();
    status = DerivedRows(*derived.right, &working);
    if (!status.ok()) break;
    keep_new(&working);
  }
  Cache().working_rows.erase(derived.working.get());
  return status;
}

}  // namespace paceline::sql
