// Executor: SELECT's pipeline above the join — the projection (streamed
// with an early stop for LIMIT without ORDER BY, or into hash aggregation
// and HAVING), window functions, DISTINCT, ORDER BY, OFFSET/LIMIT (see
// executor.h). Scans and joins: executor.cc.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/array_value.h"
#include "common/steady_clock.h"
#include "sql/aggregate_state.h"
#include "sql/executor.h"
#include "sql/executor_internal.h"
#include "sql/expression_evaluator.h"

namespace paceline::sql {

using storage::Row;
using storage::Tuple;

namespace {


}  // namespace

Status EvaluateCount(const BoundExpr* e, const EvalContext& ctx, const char* what, std::string_view code,
                     int64_t* out) {
  *out = -1;
  if (e == nullptr) return Status::OK();
  Value v;
  PL_RETURN_IF_ERROR(Evaluate(*e, ctx, &v));
  if (v.is_null()) return Status::OK();
  if (v.int_value() < 0) {
    return Status(code, std::string(what) + " must not be negative");
  }
  *out = v.int_value();
  return Status::OK();
}

Status Executor::Select(const SelectPlan& plan, QueryResult* result) {
  if (counters_ == nullptr) return SelectRows(plan, result);
  const size_t before = result->rows.size();
  const uint64_t start = counters_->timing() ? SteadyNowNs() : 0;
  Status status = SelectRows(plan, result);
  NodeCounts& counts = counters_->Of(&plan);
  ++counts.loops;
  counts.rows += result->rows.size() - before;
  if (counters_->timing()) {
    const uint64_t took = SteadyNowNs() - start;
    counts.total_ns += took;
    counts.startup_ns += took;
  }
  return status;
}

Status Executor::SelectRows(const SelectPlan& plan, QueryResult* result) {
  StartJoin(plan);

  int64_t limit = -1, offset = -1;
  PL_RETURN_IF_ERROR(EvaluateCount(plan.limit.get(), ctx_, "LIMIT", sqlstate::kInvalidRowCountInLimitClause, &limit));
  PL_RETURN_IF_ERROR(EvaluateCount(plan.offset.get(), ctx_, "OFFSET", sqlstate::kInvalidRowCountInResultOffsetClause, &offset));
  if (offset < 0) offset = 0;

  const size_t width = plan.outputs.size();
  std::vector<std::vector<Value>> rows;
  // Rows go straight out (OFFSET skipped, LIMIT stopping the scan) unless
  // they must be grouped, deduplicated or sorted first.
  const bool streaming = (plan.order_by.empty() || plan.ordered_by_index) && !plan.distinct && !plan.aggregate &&
                         plan.windows.empty();
  // With window functions, the rows that remain go to the window stage
  // first, each as its row of slots.
  std::vector<std::vector<Value>> window_rows;
  int64_t skipped = 0;

  // SKIP LOCKED: rows are locked as they leave (TakeRowLocks); when they
  // are sorted first, each keeps in its last slot its index here, to what
  // Join read for it.
  const bool late_locks = plan.skips_locked();
  std::vector<std::pair<decltype(rows_), decltype(tuples_)>> read_for;

  // Evaluates outputs and sort keys in the current context into `rows`.
  auto emit = [&]() -> Status {
    if (late_locks && streaming) {
      bool taken = false;
      PL_RETURN_IF_ERROR(TakeRowLocks(plan, rows_.data(), tuples_.data(), &taken));
      if (!taken) return Status::OK();
    }
    if (streaming && skipped < offset) {
      ++skipped;
      return Status::OK();
    }
    std::vector<Value> row(width + plan.order_by.size() + (late_locks && !streaming ? 1 : 0));
    if (late_locks && !streaming) {
      row.back() = Value::Int64(static_cast<int64_t>(read_for.size()));
      read_for.emplace_back(rows_, tuples_);
    }
    for (size_t i = 0; i < width; ++i) PL_RETURN_IF_ERROR(Evaluate(*plan.outputs[i], ctx_, &row[i]));
    for (size_t k = 0; k < plan.order_by.size(); ++k) {
      PL_RETURN_IF_ERROR(Evaluate(*plan.order_by[k].expr, ctx_, &row[width + k]));
    }
    rows.push_back(std::move(row));
    if (streaming && limit >= 0 && static_cast<int64_t>(rows.size()) >= limit) stop_ = true;
    if (streaming && row_cap_ > 0 && static_cast<int64_t>(rows.size()) >= row_cap_) stop_ = true;
    return Status::OK();
  };

  if (limit == 0 && streaming) {
    // LIMIT 0: nothing to read.
  } else if (!plan.aggregate) {
    auto keep = [&]() -> Status {
      if (plan.windows.empty()) return emit();
      std::vector<Value> row(plan.window_inputs.size());
      for (size_t i = 0; i < row.size(); ++i) PL_RETURN_IF_ERROR(Evaluate(*plan.window_inputs[i], ctx_, &row[i]));
      window_rows.push_back(std::move(row));
      return Status::OK();
    };
    struct Direct : RowSink {
      explicit Direct(decltype(keep)& f) : fn(f) {}
      decltype(keep)& fn;
      Status Consume() override { return fn(); }
    } sink(keep);
    PL_RETURN_IF_ERROR(Join(plan, 0, sink));
  } else {
    // Hash aggregation: group key → accumulators.
    struct Group {
      std::vector<Value> keys;
      std::vector<AggregateState> states;
      std::vector<const Tuple*> first_row;  // plan.keeps_group_rows only
    };
    std::unordered_map<std::vector<Value>, size_t, ValuesHash> index;
    std::vector<Group> groups;
    struct Aggregating : RowSink {
      Executor* self;
      const SelectPlan* plan;
      std::unordered_map<std::vector<Value>, size_t, ValuesHash>* index;
      std::vector<Group>* groups;
      Status Consume() override {
        std::vector<Value> keys(plan->group_by.size());
        for (size_t g = 0; g < keys.size(); ++g) PL_RETURN_IF_ERROR(Evaluate(*plan->group_by[g], self->ctx_, &keys[g]));
        auto [it, inserted] = index->emplace(keys, groups->size());
        if (inserted) {
          groups->push_back(Group{std::move(keys), std::vector<AggregateState>(plan->aggregates.size()), {}});
          if (plan->keeps_group_rows) groups->back().first_row.assign(self->tuples_.begin(), self->tuples_.end());
        }
        Group& group = (*groups)[it->second];
        for (size_t a = 0; a < plan->aggregates.size(); ++a) {
          const AggregateSpec& spec = plan->aggregates[a];
          Value v, separator;
          if (spec.arg) PL_RETURN_IF_ERROR(Evaluate(*spec.arg, self->ctx_, &v));
          if (spec.separator) PL_RETURN_IF_ERROR(Evaluate(*spec.separator, self->ctx_, &separator));
          if (!spec.order.empty()) {  // gathered now, accumulated in order by Finish
            std::vector<Value> row(spec.order.size());
            for (size_t k = 0; k < row.size(); ++k) PL_RETURN_IF_ERROR(Evaluate(*spec.order[k].expr, self->ctx_, &row[k]));
            row.push_back(std::move(v));
            row.push_back(std::move(separator));
            group.states[a].ordered.push_back(std::move(row));
            continue;
          }
          PL_RETURN_IF_ERROR(Accumulate(spec, v, separator, &group.states[a]));
        }
        return Status::OK();
      }
    } sink;
    sink.self = this;
    sink.plan = &plan;
    sink.index = &index;
    sink.groups = &groups;
    PL_RETURN_IF_ERROR(Join(plan, 0, sink));
    if (groups.empty() && plan.group_by.empty()) {
      groups.push_back(Group{{}, std::vector<AggregateState>(plan.aggregates.size()), {}});
    }
    std::vector<Value> slots;
    for (Group& group : groups) {
      slots = group.keys;
      for (size_t a = 0; a < plan.aggregates.size(); ++a) {
        Value v;
        PL_RETURN_IF_ERROR(Finish(plan.aggregates[a], group.states[a], &v));
        slots.push_back(std::move(v));
      }
      ctx_.slots = slots.data();
      // Subqueries above the grouping read grouped columns from the group's first row.
      if (!group.first_row.empty()) std::copy(group.first_row.begin(), group.first_row.end(), tuples_.begin());
      if (plan.having) {
        bool pass = false;
        PL_RETURN_IF_ERROR(EvaluatePredicate(*plan.having, ctx_, &pass));
        if (!pass) continue;
      }
      if (plan.windows.empty()) {
        PL_RETURN_IF_ERROR(emit());
      } else {
        window_rows.push_back(slots);
      }
    }
    ctx_.slots = nullptr;
  }
  if (!plan.windows.empty()) {
    PL_RETURN_IF_ERROR(ComputeWindows(plan, &window_rows));
    for (const auto& row : window_rows) {
      ctx_.slots = row.data();
      PL_RETURN_IF_ERROR(emit());
    }
    ctx_.slots = nullptr;
  }

  if (plan.distinct) {
    std::unordered_set<std::vector<Value>, ValuesHash> seen;
    std::vector<std::vector<Value>> unique;
    for (auto& row : rows) {
      std::vector<Value> visible(row.begin(), row.begin() + width);
      if (seen.insert(std::move(visible)).second) unique.push_back(std::move(row));
    }
    rows = std::move(unique);
  }
  if (!plan.order_by.empty() && !plan.ordered_by_index) {
    std::stable_sort(rows.begin(), rows.end(), SortLess{&plan.order_by, width});
  }
  if (late_locks && !streaming) {
    // In order, the rows whose locks are taken, until OFFSET and LIMIT
    // are served (PostgreSQL locks below LIMIT, OFFSET's rows included).
    std::vector<std::vector<Value>> taken_rows;
    for (auto& row : rows) {
      if (limit >= 0 && static_cast<int64_t>(taken_rows.size()) >= offset + limit) break;
      const auto& [read_rows, read_tuples] = read_for[row.back().int_value()];
      bool taken = false;
      PL_RETURN_IF_ERROR(TakeRowLocks(plan, read_rows.data(), read_tuples.data(), &taken));
      if (taken) taken_rows.push_back(std::move(row));
    }
    rows = std::move(taken_rows);
  }
  if (!streaming) {
    size_t begin = std::min(rows.size(), static_cast<size_t>(offset));
    size_t end = limit < 0 ? rows.size() : std::min(rows.size(), begin + static_cast<size_t>(limit));
    rows = std::vector<std::vector<Value>>(std::make_move_iterator(rows.begin() + begin),
                                           std::make_move_iterator(rows.begin() + end));
  }
  for (auto& row : rows) row.resize(width);

  result->columns = plan.columns;
  result->rows = std::move(rows);
  result->returns_rows = true;
  result->rows_affected = result->rows.size();
  result->command_tag = "SELECT " + std::to_string(result->rows.size());
  return Status::OK();
}

}  // namespace paceline::sql
