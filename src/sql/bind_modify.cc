// Binder: INSERT, UPDATE, DELETE and RETURNING (see binder.h,
// binder_internal.h).
#include "sql/binder_internal.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/datetime.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "sql/access_path_planner.h"
#include "sql/expression_evaluator.h"
#include "sql/parser.h"
#include "sql/partial_index_condition.h"
#include "sql/predicate_implication.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// 428C9 for a value given to GENERATED ALWAYS identity column `column`.
Status GeneratedAlways(std::string message, const std::string& column) {
  return Status(sqlstate::kGeneratedAlways, std::move(message))
      .WithDetail("Column \"" + column + "\" is an identity column defined as GENERATED ALWAYS.");
}

}  // namespace

Status Binder::DefaultValue(const catalog::ColumnSchema& column, BoundExprPtr* out) {
  const catalog::ColumnDefault& d = column.default_value;
  if (!d.present()) {
    *out = BoundExpr::Constant(Value::Null(column.type.id), column.type);
    return Status::OK();
  }
  if (d.constant) {
    *out = BoundExpr::Constant(*d.constant, column.type);
    return Status::OK();
  }
  ExprPtr expr;
  PL_RETURN_IF_ERROR(ParseExpression(d.expression, &expr));
  Context ctx;
  ctx.clause = "DEFAULT expressions";
  PL_RETURN_IF_ERROR(BindExpr(*expr, ctx, out));
  return Coerce(out, column.type, false, -1);
}

Status Binder::BindCheckCondition(const Expr& condition, storage::Table* table, BoundExprPtr* out) {
  Context ctx;
  ctx.scope.push_back(ScopeEntry::ForTable(table->name(), table));
  PL_RETURN_IF_ERROR(BindPredicate(condition, ctx, "check constraints", out, false, "CHECK"));
  return CheckStoredExpression(**out, "check constraint", condition.location);
}

Status Binder::BindIndexPredicate(const Expr& condition, storage::Table* table, const std::string& alias, bool stored,
                                  BoundExprPtr* out) {
  Context ctx;
  ctx.scope.push_back(ScopeEntry::ForTable(alias, table));
  PL_RETURN_IF_ERROR(BindPredicate(condition, ctx, "index predicates", out, false, "WHERE"));
  PL_RETURN_IF_ERROR(CheckStoredExpression(**out, "index predicate", condition.location));
  if (stored && AnyNode(**out, [](const BoundExpr& x) { return x.kind == BoundKind::kFunction && !IsImmutable(x.function); })) {
    return Status(sqlstate::kInvalidObjectDefinition, "functions in index predicate must be marked IMMUTABLE");
  }
  return Status::OK();
}

Status Binder::BindChecks(storage::Table* table, std::vector<CheckPlan>* out) {
  for (const catalog::CheckConstraint& check : table->schema().checks) {
    ExprPtr condition;
    PL_RETURN_IF_ERROR(ParseExpression(check.expression, &condition));
    CheckPlan plan;
    plan.name = check.name;
    PL_RETURN_IF_ERROR(BindCheckCondition(*condition, table, &plan.condition));
    out->push_back(std::move(plan));
  }
  return Status::OK();
}

Status Binder::BindReturning(const std::vector<SelectItem>& items, storage::Table* table, const std::string& alias,
                             std::vector<BoundExprPtr>* exprs, std::vector<ResultColumn>* columns) {
  if (items.empty()) return Status::OK();
  Context ctx;
  ctx.clause = "RETURNING";
  ctx.scope.push_back(ScopeEntry::ForTable(alias, table));
  return BindSelectList(items, ctx, exprs, columns);
}

Status Binder::BindModifyReturning(const std::vector<SelectItem>& items, Context& ctx,
                                   std::vector<BoundExprPtr>* exprs, std::vector<ResultColumn>* columns) {
  if (items.empty()) return Status::OK();
  ctx.clause = "RETURNING";
  return BindSelectList(items, ctx, exprs, columns);
}

Status Binder::BindInsert(const InsertStmt& stmt, std::unique_ptr<InsertPlan>* out) {
  auto plan = std::make_unique<InsertPlan>();
  PL_RETURN_IF_ERROR(LookupTable(stmt.table, &plan->table));
  const catalog::TableSchema& schema = plan->table->schema();
  if (stmt.columns.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) plan->target_columns.push_back(static_cast<int>(i));
  } else {
    for (const auto& name : stmt.columns) {
      int c = schema.FindColumn(name);
      if (c < 0) {
        return Status(sqlstate::kUndefinedColumn,
                      "column \"" + name + "\" of relation \"" + schema.name + "\" does not exist");
      }
      if (std::find(plan->target_columns.begin(), plan->target_columns.end(), c) != plan->target_columns.end()) {
        return Status(sqlstate::kDuplicateColumn, "column \"" + name + "\" specified more than once");
      }
      plan->target_columns.push_back(c);
    }
  }
  if (stmt.source == nullptr) plan->target_columns.clear();  // DEFAULT VALUES
  if (stmt.source != nullptr && stmt.source->values.empty()) {
    // Untyped literals and parameters in the select list take the types of
    // the target columns, as in PostgreSQL (INSERT INTO t SELECT '5', $1).
    insert_source_ = true;
    keep_unknown_outputs_ = true;
    Status s = BindSelect(*stmt.source, &plan->query);
    insert_source_ = false;
    keep_unknown_outputs_ = false;
    PL_RETURN_IF_ERROR(s);
  }
  if (stmt.columns.empty() && stmt.source != nullptr) {
    // Without a column list the values fill the first columns, in order;
    // the others take their defaults (VALUES rows of unequal length are
    // 42601 below).
    const size_t given = plan->query ? plan->query->outputs.size()
                                     : (stmt.source->values.empty() ? 0 : stmt.source->values[0].size());
    if (given < plan->target_columns.size()) plan->target_columns.resize(given);
  }
  PL_RETURN_IF_ERROR(CheckIdentityTargets(stmt, plan.get()));
  // The defaults of the columns not given, bound once for the statement.
  plan->column_defaults.resize(schema.columns.size());
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    const auto& given = plan->target_columns;
    const auto& overridden = plan->overridden_columns;
    if (std::find(given.begin(), given.end(), static_cast<int>(c)) != given.end() &&
        std::find(overridden.begin(), overridden.end(), static_cast<int>(c)) == overridden.end()) {
      continue;
    }
    PL_RETURN_IF_ERROR(DefaultValue(schema.columns[c], &plan->column_defaults[c]));
  }

  if (stmt.source == nullptr) {
    plan->rows.emplace_back();
  } else if (!stmt.source->values.empty()) {
    Context ctx;
    PL_RETURN_IF_ERROR(BindWith(stmt.source->with, ctx));  // WITH .. INSERT .. VALUES
    ctx.clause = "VALUES";
    auto location = [](const ExprPtr& item) { return item ? item->location : -1; };
    for (const auto& row : stmt.source->values) {
      if (row.size() != stmt.source->values[0].size()) {
        return SyntaxError("VALUES lists must all be the same length", Pos(row.empty() ? -1 : location(row[0])));
      }
      if (row.size() > plan->target_columns.size()) {
        return SyntaxError("INSERT has more expressions than target columns",
                           Pos(location(row[plan->target_columns.size()])));
      }
      if (row.size() < plan->target_columns.size()) {
        return SyntaxError("INSERT has more target columns than expressions", Pos(row.empty() ? -1 : location(row.back())));
      }
      std::vector<BoundExprPtr> bound;
      for (size_t i = 0; i < row.size(); ++i) {
        const catalog::ColumnSchema& column = schema.columns[plan->target_columns[i]];
        BoundExprPtr e;
        if (row[i] == nullptr) {  // DEFAULT
          PL_RETURN_IF_ERROR(DefaultValue(column, &e));
        } else {
          PL_RETURN_IF_ERROR(BindExpr(*row[i], ctx, &e));
          PL_RETURN_IF_ERROR(CoerceForAssignment(&e, column, row[i]->location));
          FinalizeParameters(e.get());
        }
        bound.push_back(std::move(e));
      }
      plan->rows.push_back(std::move(bound));
    }
  } else {
    if (plan->query->outputs.size() > plan->target_columns.size()) {
      return SyntaxError("INSERT has more expressions than target columns");
    }
    if (plan->query->outputs.size() < plan->target_columns.size()) {
      return SyntaxError("INSERT has more target columns than expressions");
    }
    for (size_t i = 0; i < plan->query->outputs.size(); ++i) {
      PL_RETURN_IF_ERROR(CoerceForAssignment(&plan->query->outputs[i], schema.columns[plan->target_columns[i]], -1));
      plan->query->columns[i].type = plan->query->outputs[i]->type;
    }
  }
  PL_RETURN_IF_ERROR(BindChecks(plan->table.get(), &plan->checks));
  BindForeignKeys(*plan->table, WriteKind::kInsert, {}, &plan->foreign_keys);
  const std::string alias = stmt.table.alias.empty() ? plan->table->name() : stmt.table.alias;
  if (stmt.on_conflict != nullptr) PL_RETURN_IF_ERROR(BindOnConflict(*stmt.on_conflict, alias, plan.get()));
  PL_RETURN_IF_ERROR(
      BindReturning(stmt.returning, plan->table.get(), alias, &plan->returning, &plan->returning_columns));
  for (auto& e : plan->returning) FinalizeParameters(e.get());
  if (plan->query) FinalizeParameters(plan->query.get());
  *out = std::move(plan);
  return Status::OK();
}

Status Binder::CheckIdentityTargets(const InsertStmt& stmt, InsertPlan* plan) const {
  const catalog::TableSchema& schema = plan->table->schema();
  for (size_t i = 0; i < plan->target_columns.size(); ++i) {
    const int c = plan->target_columns[i];
    const catalog::ColumnSchema& column = schema.columns[c];
    if (column.identity == 0) continue;
    if (stmt.overriding == Overriding::kUserValue) {
      plan->overridden_columns.push_back(c);
      continue;
    }
    if (column.identity != 'a' || stmt.overriding == Overriding::kSystemValue) continue;
    // GENERATED ALWAYS: only DEFAULT may be given.
    bool only_default = stmt.source->values.size() > 0;
    for (const auto& row : stmt.source->values) only_default &= i < row.size() && row[i] == nullptr;
    if (!only_default) {
      return GeneratedAlways("cannot insert a non-DEFAULT value into column \"" + column.name + "\"", column.name);
    }
  }
  return Status::OK();
}

Status Binder::BindSetList(const std::vector<SetClause>& set, const catalog::TableSchema& schema, Context& ctx,
                           std::vector<int>* columns, std::vector<BoundExprPtr>* values) {
  ctx.clause = "UPDATE";
  for (const auto& item : set) {
    int c = schema.FindColumn(item.column);
    if (c < 0) {
      return Status(sqlstate::kUndefinedColumn,
                    "column \"" + item.column + "\" of relation \"" + schema.name + "\" does not exist",
                    Pos(item.location));
    }
    if (std::find(columns->begin(), columns->end(), c) != columns->end()) {
      return SyntaxError("multiple assignments to same column \"" + item.column + "\"", Pos(item.location));
    }
    BoundExprPtr e;
    if (item.value == nullptr) {
      PL_RETURN_IF_ERROR(DefaultValue(schema.columns[c], &e));
    } else if (schema.columns[c].identity == 'a') {
      return GeneratedAlways("column \"" + item.column + "\" can only be updated to DEFAULT", item.column);
    } else {
      PL_RETURN_IF_ERROR(BindExpr(*item.value, ctx, &e));
      PL_RETURN_IF_ERROR(CoerceForAssignment(&e, schema.columns[c], item.value->location));
    }
    columns->push_back(c);
    values->push_back(std::move(e));
  }
  return Status::OK();
}

Status Binder::BindArbiters(const OnConflictClause& clause, const std::string& alias, InsertPlan* plan) {
  storage::Table* table = plan->table.get();
  const catalog::TableSchema& schema = table->schema();
  std::vector<const storage::Index*>& arbiters = plan->on_conflict->arbiters;
  if (!clause.constraint.empty()) {
    for (const auto& index : table->indexes()) {
      if (index->unique_key() && index->schema().name == clause.constraint) arbiters.push_back(index.get());
    }
    for (const auto& key : schema.foreign_keys) {
      if (arbiters.empty() && key.name == clause.constraint) {
        return Status(sqlstate::kWrongObjectType, "constraint in ON CONFLICT clause has no associated index");
      }
    }
    if (arbiters.empty()) {
      return Status(sqlstate::kUndefinedObject,
                    "constraint \"" + clause.constraint + "\" for table \"" + schema.name + "\" does not exist");
    }
    return Status::OK();
  }
  if (clause.columns.empty()) {
    if (clause.update) {
      return SyntaxError("ON CONFLICT DO UPDATE requires inference specification or constraint name",
                         Pos(clause.location));
    }
    for (const auto& index : table->indexes()) {  // DO NOTHING: a conflict in any unique index
      if (index->unique()) arbiters.push_back(index.get());
    }
    return Status::OK();
  }
  // Inference: every unique index on exactly the named columns (in any
  // order) whose condition, for a partial one, the target's WHERE implies.
  std::vector<int> wanted;
  for (const auto& name : clause.columns) {
    int c = schema.FindColumn(name);
    if (c < 0) {
      return Status(sqlstate::kUndefinedColumn, "column \"" + name + "\" does not exist", Pos(clause.location));
    }
    wanted.push_back(c);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  // A partial unique index is inferred when the target's WHERE implies its
  // condition (PostgreSQL's predicate_implied_by; see predicate_implication.h).
  BoundExprPtr where;
  if (clause.index_where != nullptr) {
    PL_RETURN_IF_ERROR(BindIndexPredicate(*clause.index_where, table, alias, /*stored=*/false, &where));
  }
  std::vector<const BoundExpr*> facts;
  if (where) BoundConjuncts(*where, &facts);
  for (const auto& index : table->indexes()) {
    if (!index->unique()) continue;
    std::vector<int> columns = index->schema().columns;
    std::sort(columns.begin(), columns.end());
    if (columns != wanted) continue;
    const BoundExpr* condition = PartialIndexCondition::Of(*index);
    if (condition != nullptr && !PredicateImplied(facts, 0, *condition)) continue;
    arbiters.push_back(index.get());
  }
  if (arbiters.empty()) {
    return Status(sqlstate::kInvalidColumnReference,
                  "there is no unique or exclusion constraint matching the ON CONFLICT specification");
  }
  return Status::OK();
}

Status Binder::BindOnConflict(const OnConflictClause& clause, const std::string& alias, InsertPlan* plan) {
  plan->on_conflict = std::make_unique<OnConflictPlan>();
  OnConflictPlan& on_conflict = *plan->on_conflict;
  on_conflict.update = clause.update;
  PL_RETURN_IF_ERROR(BindArbiters(clause, alias, plan));
  if (!clause.update) return Status::OK();
  // DO UPDATE reads the row holding the key (under the target's name) and
  // the row proposed for insertion (`excluded`).
  Context ctx;
  ctx.scope.push_back(ScopeEntry::ForTable(alias, plan->table.get()));
  ScopeEntry excluded = ScopeEntry::ForTable("excluded", plan->table.get());
  excluded.source = 1;
  ctx.scope.push_back(std::move(excluded));
  PL_RETURN_IF_ERROR(
      BindSetList(clause.set, plan->table->schema(), ctx, &on_conflict.set_columns, &on_conflict.set_values));
  if (clause.where != nullptr) PL_RETURN_IF_ERROR(BindPredicate(*clause.where, ctx, "WHERE", &on_conflict.where));
  BindForeignKeys(*plan->table, WriteKind::kUpdate, on_conflict.set_columns, &on_conflict.foreign_keys);
  for (auto& e : on_conflict.set_values) FinalizeParameters(e.get());
  if (on_conflict.where) FinalizeParameters(on_conflict.where.get());
  return Status::OK();
}

Status Binder::BindTargetScan(const TableRef& ref, const Expr* where, SourcePlan* target, Context& ctx) {
  PL_RETURN_IF_ERROR(LookupTable(ref, &target->table));
  target->alias = ref.alias.empty() ? ref.name : ref.alias;
  ctx.scope.push_back(ScopeEntry::ForTable(target->alias, target->table.get()));
  std::vector<Conjunct> conjuncts;
  SplitConjuncts(where, "WHERE", &conjuncts);
  std::vector<BoundExprPtr> filters;
  for (const Conjunct& c : conjuncts) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindPredicate(*c.expr, ctx, c.clause, &b, c.and_operand));
    filters.push_back(std::move(b));
  }
  ChooseAccessPath(0, filters, target);
  target->filters = std::move(filters);
  return Status::OK();
}

Status Binder::BindTarget(const TableRef& ref, const std::vector<std::unique_ptr<FromItem>>& from, const Expr* where,
                          Context& ctx, SourcePlan* target, std::unique_ptr<SelectPlan>* join) {
  if (from.empty()) return BindTargetScan(ref, where, target, ctx);
  auto plan = std::make_unique<SelectPlan>();
  SourcePlan source;
  PL_RETURN_IF_ERROR(LookupTable(ref, &source.table));
  source.alias = ref.alias.empty() ? ref.name : ref.alias;
  ctx.scope.push_back(ScopeEntry::ForTable(source.alias, source.table.get()));
  target->table = source.table;
  target->alias = source.alias;
  plan->sources.push_back(std::move(source));
  std::vector<ExprPtr> owned;
  std::vector<Conjunct> where_conjuncts;
  std::vector<std::pair<int, Conjunct>> on_conjuncts;
  PL_RETURN_IF_ERROR(BindFrom(from, where, ctx, plan.get(), &owned, &where_conjuncts, &on_conjuncts));
  PL_RETURN_IF_ERROR(PlaceConditions(ctx, where_conjuncts, on_conjuncts, plan.get()));
  *join = std::move(plan);
  return Status::OK();
}

Status Binder::BindUpdate(const UpdateStmt& stmt, std::unique_ptr<UpdatePlan>* out) {
  auto plan = std::make_unique<UpdatePlan>();
  Context ctx;
  PL_RETURN_IF_ERROR(BindWith(stmt.with, ctx));
  PL_RETURN_IF_ERROR(BindTarget(stmt.table, stmt.from, stmt.where.get(), ctx, &plan->target, &plan->join));
  PL_RETURN_IF_ERROR(BindSetList(stmt.set, plan->target.table->schema(), ctx, &plan->set_columns,
                                 &plan->set_values));
  PL_RETURN_IF_ERROR(BindChecks(plan->target.table.get(), &plan->checks));
  BindForeignKeys(*plan->target.table, WriteKind::kUpdate, plan->set_columns, &plan->foreign_keys);
  PL_RETURN_IF_ERROR(BindModifyReturning(stmt.returning, ctx, &plan->returning, &plan->returning_columns));
  FinalizeParameters(&plan->target);
  if (plan->join) FinalizeParameters(plan->join.get());
  for (auto& e : plan->set_values) FinalizeParameters(e.get());
  for (auto& e : plan->returning) FinalizeParameters(e.get());
  *out = std::move(plan);
  return Status::OK();
}

Status Binder::BindDelete(const DeleteStmt& stmt, std::unique_ptr<DeletePlan>* out) {
  auto plan = std::make_unique<DeletePlan>();
  Context ctx;
  PL_RETURN_IF_ERROR(BindWith(stmt.with, ctx));
  PL_RETURN_IF_ERROR(BindTarget(stmt.table, stmt.using_items, stmt.where.get(), ctx, &plan->target, &plan->join));
  BindForeignKeys(*plan->target.table, WriteKind::kDelete, {}, &plan->foreign_keys);
  PL_RETURN_IF_ERROR(BindModifyReturning(stmt.returning, ctx, &plan->returning, &plan->returning_columns));
  FinalizeParameters(&plan->target);
  if (plan->join) FinalizeParameters(plan->join.get());
  for (auto& e : plan->returning) FinalizeParameters(e.get());
  *out = std::move(plan);
  return Status::OK();
}

}  // namespace paceline::sql
