// Executor: INSERT, UPDATE (also .. FROM), DELETE (also .. USING) and
// RETURNING (see executor.h). Rows to change are collected first, then
// written, so a row moved within an index is not visited twice.
#include <unordered_set>

#include "sql/executor.h"
#include "sql/expression_evaluator.h"

namespace paceline::sql {

using storage::Row;
using storage::Tuple;

namespace {

// PostgreSQL checks a NOT NULL domain when the value is converted to the
// column type, before the column's own constraint.
Status NotNullViolation(const storage::Table& table, const catalog::ColumnSchema& column) {
  if (column.domain_not_null) {
    return Status(sqlstate::kNotNullViolation, "domain " + column.domain + " does not allow null values");
  }
  return Status(sqlstate::kNotNullViolation, "null value in column \"" + column.name + "\" of relation \"" +
                                                 table.name() + "\" violates not-null constraint");
}

// The image of `old` with `values` in `set_columns` (UPDATE, ON CONFLICT DO
// UPDATE); 23502 when a value is NULL in a NOT NULL column.
Status UpdatedImage(const storage::Table& table, const Tuple& old, const std::vector<int>& set_columns,
                    const std::vector<Value>& values, storage::TuplePtr* out) {
  const auto& columns = table.schema().columns;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_null() && columns[set_columns[i]].not_null) return NotNullViolation(table, columns[set_columns[i]]);
  }
  *out = table.layout().Update(old, set_columns, values);
  return Status::OK();
}

}  // namespace

Status Executor::CheckNotNull(const storage::Table& table, const std::vector<Value>& values) {
  const auto& columns = table.schema().columns;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].not_null && values[i].is_null()) return NotNullViolation(table, columns[i]);
  }
  return Status::OK();
}

Status Executor::CheckConstraints(const std::vector<CheckPlan>& checks, const storage::Table& table,
                                  const Tuple& tuple) {
  if (checks.empty()) return Status::OK();
  const Tuple* tuples[1] = {&tuple};
  const storage::TupleLayout* layouts[1] = {&table.layout()};
  EvalContext ctx = ctx_;
  ctx.tuples = tuples;
  ctx.layouts = layouts;
  for (const CheckPlan& check : checks) {
    Value passed;
    PL_RETURN_IF_ERROR(Evaluate(*check.condition, ctx, &passed));
    if (passed.is_null() || passed.bool_value()) continue;
    std::string row;
    for (size_t c = 0; c < table.schema().columns.size(); ++c) {
      const Value v = table.layout().Get(tuple, static_cast<int>(c));
      row += (c == 0 ? "" : ", ") + (v.is_null() ? std::string("null") : v.ToString());
    }
    return Status(sqlstate::kCheckViolation, "new row for relation \"" + table.name() +
                                                 "\" violates check constraint \"" + check.name + "\"")
        .WithDetail("Failing row contains (" + row + ").");
  }
  return Status::OK();
}

Status Executor::Returning(const std::vector<BoundExprPtr>& exprs, const storage::TupleLayout& layout,
                           const Tuple* tuple, const std::vector<const Tuple*>* joined, QueryResult* result) {
  if (exprs.empty()) return Status::OK();
  const Tuple* tuples[1] = {tuple};
  const storage::TupleLayout* layouts[1] = {&layout};
  EvalContext ctx = ctx_;
  ctx.tuples = tuples;
  ctx.layouts = layouts;
  std::vector<const Tuple*> all;
  if (joined != nullptr) {  // the new or deleted row, then the rows it was joined with
    all = *joined;
    all[0] = tuple;
    ctx.tuples = all.data();
    ctx.layouts = layouts_.data();
  }
  std::vector<Value> row(exprs.size());
  for (size_t i = 0; i < exprs.size(); ++i) PL_RETURN_IF_ERROR(Evaluate(*exprs[i], ctx, &row[i]));
  result->rows.push_back(std::move(row));
  return Status::OK();
}

Status Executor::Insert(const InsertPlan& plan, QueryResult* result) {
  storage::Table* table = plan.table.get();
  const size_t ncols = table->schema().columns.size();
  EvalContext none = ctx_;
  none.tuples = nullptr;
  none.layouts = nullptr;

  // The rows to insert, fully evaluated before the first insert (so an
  // INSERT .. SELECT never reads its own rows).
  std::vector<std::vector<Value>> supplied;
  if (plan.query) {
    QueryResult q;
    PL_RETURN_IF_ERROR(Select(*plan.query, &q));
    supplied = std::move(q.rows);
  } else {
    for (const auto& row : plan.rows) {
      std::vector<Value> values(row.size());
      for (size_t i = 0; i < row.size(); ++i) PL_RETURN_IF_ERROR(Evaluate(*row[i], none, &values[i]));
      supplied.push_back(std::move(values));
    }
  }
  std::vector<bool> given(ncols, false);
  for (int c : plan.target_columns) given[c] = true;
  for (int c : plan.overridden_columns) given[c] = false;  // OVERRIDING USER VALUE
  std::vector<Value> defaults(ncols);
  // A volatile default (nextval(), gen_random_uuid()) is evaluated for
  // every row, the others (constants, now()) once per statement.
  std::vector<size_t> per_row;
  for (size_t c = 0; c < ncols; ++c) {
    if (given[c]) continue;
    const BoundExpr& d = *plan.column_defaults[c];
    if (d.ContainsVolatile()) {
      per_row.push_back(c);
    } else {
      PL_RETURN_IF_ERROR(Evaluate(d, none, &defaults[c]));
    }
  }
  uint64_t count = 0;
  std::unordered_set<Row*> touched;  // ON CONFLICT: the rows this statement wrote
  for (auto& row : supplied) {
    std::vector<Value> values = defaults;
    for (size_t c : per_row) PL_RETURN_IF_ERROR(Evaluate(*plan.column_defaults[c], none, &values[c]));
    for (size_t i = 0; i < plan.target_columns.size(); ++i) {
      if (given[plan.target_columns[i]]) values[plan.target_columns[i]] = std::move(row[i]);
    }
    PL_RETURN_IF_ERROR(CheckNotNull(*table, values));
    storage::TuplePtr tuple = table->layout().Build(values);
    PL_RETURN_IF_ERROR(CheckConstraints(plan.checks, *table, *tuple));
    const Tuple* written = tuple.get();
    if (plan.on_conflict) {
      PL_RETURN_IF_ERROR(InsertOnConflict(plan, std::move(tuple), &touched, &written));
      if (written == nullptr) continue;
    } else {
      Row* inserted = nullptr;
      PL_RETURN_IF_ERROR(txn_->Insert(table, std::move(tuple), &inserted));
      QueueForeignKeys(plan.foreign_keys, plan.table, inserted, nullptr, written);
    }
    PL_RETURN_IF_ERROR(Returning(plan.returning, table->layout(), written, nullptr, result));
    ++count;
  }
  if (!plan.returning.empty()) {
    result->columns = plan.returning_columns;
    result->returns_rows = true;
  }
  result->rows_affected = count;
  result->command_tag = "INSERT 0 " + std::to_string(count);
  return Status::OK();
}

Status Executor::InsertOnConflict(const InsertPlan& plan, storage::TuplePtr tuple, std::unordered_set<Row*>* touched,
                                  const Tuple** written) {
  const OnConflictPlan& on_conflict = *plan.on_conflict;
  storage::Table* table = plan.table.get();
  *written = nullptr;
  for (;;) {
    const Tuple* proposed = tuple.get();
    Row* holder = nullptr;
    Row* inserted = nullptr;
    PL_RETURN_IF_ERROR(txn_->InsertOrFindHolder(table, &tuple, on_conflict.arbiters, &holder, &inserted));
    if (holder == nullptr) {
      touched->insert(inserted);
      *written = proposed;
      QueueForeignKeys(plan.foreign_keys, plan.table, inserted, nullptr, proposed);
      return Status::OK();
    }
    if (!on_conflict.update) return Status::OK();  // DO NOTHING
    if (touched->count(holder) > 0) {
      return Status(sqlstate::kCardinalityViolation,
                    "ON CONFLICT DO UPDATE command cannot affect row a second time");
    }
    const Tuple* existing = nullptr;
    PL_RETURN_IF_ERROR(txn_->Read(holder, /*for_update=*/true, &existing));
    // Gone since the unique check saw it (a committed delete, under OCC,
    // which validates that read at commit): the key is free again.
    if (existing == nullptr) continue;
    tuples_.assign({existing, tuple.get()});
    layouts_.assign(2, &table->layout());
    ctx_.tuples = tuples_.data();
    ctx_.layouts = layouts_.data();
    if (on_conflict.where) {
      bool pass = false;
      PL_RETURN_IF_ERROR(EvaluatePredicate(*on_conflict.where, ctx_, &pass));
      if (!pass) return Status::OK();
    }
    std::vector<Value> values(on_conflict.set_values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      PL_RETURN_IF_ERROR(Evaluate(*on_conflict.set_values[i], ctx_, &values[i]));
    }
    storage::TuplePtr updated;
    PL_RETURN_IF_ERROR(UpdatedImage(*table, *existing, on_conflict.set_columns, values, &updated));
    PL_RETURN_IF_ERROR(CheckConstraints(plan.checks, *table, *updated));
    const Tuple* raw = updated.get();
    PL_RETURN_IF_ERROR(txn_->Update(table, holder, std::move(updated), existing));
    QueueForeignKeys(on_conflict.foreign_keys, plan.table, holder, existing, raw);
    touched->insert(holder);
    *written = raw;
    return Status::OK();
  }
}

Status Executor::CollectJoinTargets(const SelectPlan& join, const std::vector<BoundExprPtr>& set_values,
                                   std::vector<std::pair<Row*, const Tuple*>>* out,
                                   std::vector<std::vector<Value>>* values,
                                   std::vector<std::vector<const Tuple*>>* joined) {
  StartJoin(join);
  std::unordered_set<Row*> seen;
  // The first joined row that reaches a target row decides its new values.
  struct Collect : RowSink {
    Executor* self;
    const std::vector<BoundExprPtr>* set_values;
    std::unordered_set<Row*>* seen;
    std::vector<std::pair<Row*, const Tuple*>>* out;
    std::vector<std::vector<Value>>* values;
    std::vector<std::vector<const Tuple*>>* joined;
    Status Consume() override {
      if (!seen->insert(self->row0_).second) return Status::OK();
      out->emplace_back(self->row0_, self->tuples_[0]);
      if (joined != nullptr) joined->emplace_back(self->tuples_.begin(), self->tuples_.end());
      std::vector<Value> row(set_values->size());
      for (size_t i = 0; i < row.size(); ++i) PL_RETURN_IF_ERROR(Evaluate(*(*set_values)[i], self->ctx_, &row[i]));
      values->push_back(std::move(row));
      return Status::OK();
    }
  } sink;
  sink.self = this;
  sink.set_values = &set_values;
  sink.seen = &seen;
  sink.out = out;
  sink.values = values;
  sink.joined = joined;
  PL_RETURN_IF_ERROR(Join(join, 0, sink));
  tuples_.assign(1, nullptr);  // RETURNING reads source 0 only
  ctx_.tuples = tuples_.data();
  return Status::OK();
}

Status Executor::Update(const UpdatePlan& plan, QueryResult* result) {
  storage::Table* table = plan.target.table.get();
  std::vector<std::pair<Row*, const Tuple*>> targets;
  // The new values of every row are computed before the first write, so a
  // subquery in SET reads the table as it was before the statement (as in
  // PostgreSQL), not rows this statement already changed. UPDATE .. FROM
  // computes them with the join; one row is written as it is computed.
  std::vector<std::vector<Value>> new_values;
  std::vector<std::vector<const Tuple*>> joined;  // UPDATE .. FROM .. RETURNING: each target's joined row
  for_update_ = true;
  if (plan.join) {
    PL_RETURN_IF_ERROR(CollectJoinTargets(*plan.join, plan.set_values, &targets, &new_values,
                                          plan.returning.empty() ? nullptr : &joined));
  } else {
    PL_RETURN_IF_ERROR(CollectTargets(plan.target, &targets));
    if (targets.size() > 1) {
      new_values.resize(targets.size(), std::vector<Value>(plan.set_values.size()));
      for (size_t t = 0; t < targets.size(); ++t) {
        PL_RETURN_IF_ERROR(Tick());
        tuples_[0] = targets[t].second;
        for (size_t i = 0; i < plan.set_values.size(); ++i) {
          PL_RETURN_IF_ERROR(Evaluate(*plan.set_values[i], ctx_, &new_values[t][i]));
        }
      }
    }
  }
  std::vector<Value> values(plan.set_values.size());
  for (size_t t = 0; t < targets.size(); ++t) {
    const auto& [row, old] = targets[t];
    PL_RETURN_IF_ERROR(Tick());
    tuples_[0] = old;
    for (size_t i = 0; i < plan.set_values.size(); ++i) {
      if (!new_values.empty()) {
        values[i] = std::move(new_values[t][i]);
      } else {
        PL_RETURN_IF_ERROR(Evaluate(*plan.set_values[i], ctx_, &values[i]));
      }
    }
    storage::TuplePtr tuple;
    PL_RETURN_IF_ERROR(UpdatedImage(*table, *old, plan.set_columns, values, &tuple));
    PL_RETURN_IF_ERROR(CheckConstraints(plan.checks, *table, *tuple));
    const Tuple* raw = tuple.get();
    PL_RETURN_IF_ERROR(txn_->Update(table, row, std::move(tuple), old));
    QueueForeignKeys(plan.foreign_keys, plan.target.table, row, old, raw);
    PL_RETURN_IF_ERROR(Returning(plan.returning, table->layout(), raw, joined.empty() ? nullptr : &joined[t], result));
  }
  if (!plan.returning.empty()) {
    result->columns = plan.returning_columns;
    result->returns_rows = true;
  }
  result->rows_affected = targets.size();
  result->command_tag = "UPDATE " + std::to_string(targets.size());
  return Status::OK();
}

Status Executor::Delete(const DeletePlan& plan, QueryResult* result) {
  storage::Table* table = plan.target.table.get();
  std::vector<std::pair<Row*, const Tuple*>> targets;
  std::vector<std::vector<const Tuple*>> joined;  // DELETE .. USING .. RETURNING: each target's joined row
  for_update_ = true;
  if (plan.join) {
    std::vector<std::vector<Value>> none;
    PL_RETURN_IF_ERROR(
        CollectJoinTargets(*plan.join, {}, &targets, &none, plan.returning.empty() ? nullptr : &joined));
  } else {
    PL_RETURN_IF_ERROR(CollectTargets(plan.target, &targets));
  }
  for (size_t t = 0; t < targets.size(); ++t) {
    const auto& [row, old] = targets[t];
    PL_RETURN_IF_ERROR(Tick());
    PL_RETURN_IF_ERROR(Returning(plan.returning, table->layout(), old, joined.empty() ? nullptr : &joined[t], result));
    PL_RETURN_IF_ERROR(txn_->Delete(table, row));
    QueueForeignKeys(plan.foreign_keys, plan.target.table, row, old, nullptr);
  }
  if (!plan.returning.empty()) {
    result->columns = plan.returning_columns;
    result->returns_rows = true;
  }
  result->rows_affected = targets.size();
  result->command_tag = "DELETE " + std::to_string(targets.size());
  return Status::OK();
}

}  // namespace paceline::sql
