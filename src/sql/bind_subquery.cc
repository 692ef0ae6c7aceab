// Binder: queries inside queries (see binder.h, binder_internal.h):
// subquery expressions (scalar, EXISTS, IN / op ANY / op ALL), subqueries in
// FROM, WITH queries, set operations (UNION / INTERSECT / EXCEPT [ALL]) and
// the merged columns of JOIN .. USING / NATURAL.
//
// A nested query binds in a Context of its own whose `outer` is the query it
// is part of; BindColumnRef marks the contexts a correlated reference passes
// (binder_internal.h). A subquery in FROM, a WITH query and each arm of a
// set operation become a DerivedPlan, whose rows the executor computes when
// the source is scanned (once per statement unless correlated).
#include "sql/binder_internal.h"

#include <algorithm>
#include <cstdint>

#include "common/stack_depth.h"
#include "sql/parser.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

const char* SetOperationName(SetOperation op) {
  switch (op) {
    case SetOperation::kUnion: return "UNION";
    case SetOperation::kIntersect: return "INTERSECT";
    case SetOperation::kExcept: return "EXCEPT";
    case SetOperation::kNone: break;
  }
  return "?";
}

SetOpKind ToSetOpKind(SetOperation op) {
  switch (op) {
    case SetOperation::kUnion: return SetOpKind::kUnion;
    case SetOperation::kIntersect: return SetOpKind::kIntersect;
    case SetOperation::kExcept: return SetOpKind::kExcept;
    case SetOperation::kNone: break;
  }
  return SetOpKind::kNone;
}

// 42P10 when a FROM item or WITH query (`cte_name`) names more columns than it has.
Status CheckAliasCount(size_t specified, size_t available, const std::string& cte_name) {
  if (specified <= available) return Status::OK();
  return Status(sqlstate::kInvalidColumnReference,
                (cte_name.empty() ? std::string("table") : "WITH query \"" + cte_name + "\"") + " has " +
                    std::to_string(available) + " columns available but " + std::to_string(specified) +
                    " columns specified");
}

// A derived source over `plan`'s rows, its columns renamed by `aliases`.
std::shared_ptr<DerivedPlan> MakeDerived(std::unique_ptr<SelectPlan> plan, const std::vector<std::string>& aliases) {
  auto derived = std::make_shared<DerivedPlan>();
  derived->columns = plan->columns;
  derived->correlated = plan->correlated;
  derived->query = std::move(plan);
  for (size_t i = 0; i < aliases.size() && i < derived->columns.size(); ++i) derived->columns[i].name = aliases[i];
  return derived;
}

}  // namespace


Status Binder::BindNested(const SelectStmt& stmt, Context& outer, bool keep_unknown, Context* inner,
                          std::unique_ptr<SelectPlan>* out) {
  inner->outer = &outer;
  const bool saved = keep_unknown_outputs_;
  keep_unknown_outputs_ = keep_unknown;
  Status s = BindQuery(stmt, *inner, out);
  keep_unknown_outputs_ = saved;
  return s;
}

Status Binder::BindSubquery(const Expr& e, Context& ctx, BoundExprPtr* out) {
  Context inner;
  std::unique_ptr<SelectPlan> plan;
  PL_RETURN_IF_ERROR(BindNested(*e.subquery, ctx, /*keep_unknown=*/false, &inner, &plan));
  if (e.subquery_kind != SubqueryKind::kExists && plan->outputs.size() != 1) {
    return Status(sqlstate::kSyntaxError,
                  e.subquery_kind == SubqueryKind::kScalar ? "subquery must return only one column"
                                                           : "subquery has too many columns",
                  Pos(e.location));
  }
  auto node = MakeNode(BoundKind::kSubquery, Type(TypeId::kBool), e.location);
  auto subquery = std::make_shared<BoundSubquery>();
  subquery->kind = e.subquery_kind;
  subquery->outer_sources = inner.outer_sources;
  std::sort(subquery->outer_sources.begin(), subquery->outer_sources.end());
  subquery->outer_sources.erase(std::unique(subquery->outer_sources.begin(), subquery->outer_sources.end()),
                                subquery->outer_sources.end());
  subquery->outer_columns = inner.outer_columns;
  std::sort(subquery->outer_columns.begin(), subquery->outer_columns.end());
  subquery->outer_columns.erase(std::unique(subquery->outer_columns.begin(), subquery->outer_columns.end()),
                                subquery->outer_columns.end());
  if (e.subquery_kind == SubqueryKind::kScalar) node->type = plan->outputs[0]->type;
  if (e.subquery_kind == SubqueryKind::kArray) {
    const Type& element = plan->outputs[0]->type;
    if (element.IsArray()) return NotSupported("ARRAY(subquery) of arrays (multidimensional arrays)");
    node->type = Type::Array(element.id == TypeId::kUnknown ? Type(TypeId::kText) : element);
  }
  if (e.subquery_kind == SubqueryKind::kAny || e.subquery_kind == SubqueryKind::kAll) {
    BoundExprPtr left;
    PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &left));
    const Type& right = plan->outputs[0]->type;
    if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, OperandType(right), false, e.location));
    if (!Comparable(left->type, right)) {
      return NoSuchOperator(left->type, OperatorText(e.binary_op), right, e.location);
    }
    node->op = e.binary_op;
    node->children.push_back(std::move(left));
  }
  subquery->plan = std::move(plan);
  node->subquery = std::move(subquery);
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindDerived(const SelectStmt& stmt, Context& ctx, const std::vector<std::string>& aliases,
                           std::shared_ptr<const DerivedPlan>* out, const std::string& cte_name) {
  Context inner;
  std::unique_ptr<SelectPlan> plan;
  PL_RETURN_IF_ERROR(BindNested(stmt, ctx, /*keep_unknown=*/false, &inner, &plan));
  PL_RETURN_IF_ERROR(CheckAliasCount(aliases.size(), plan->columns.size(), cte_name));
  std::shared_ptr<DerivedPlan> derived = MakeDerived(std::move(plan), aliases);
  BuildLayout(derived.get());
  *out = std::move(derived);
  return Status::OK();
}

Status Binder::BindView(const catalog::ViewSchema& view, const std::vector<std::string>& aliases,
                        std::shared_ptr<const DerivedPlan>* out) {
  // Views naming views nest; a cycle cannot be created, but stay bounded.
  constexpr int kMaxViewDepth = 100;
  if (view_depth_ >= kMaxViewDepth) {
    return Status(sqlstate::kStatementTooComplex, "views nest deeper than " + std::to_string(kMaxViewDepth));
  }
  std::vector<std::unique_ptr<Statement>> parsed;
  Status s = Parse(view.definition, &parsed);
  if (!s.ok() || parsed.size() != 1 || parsed[0]->kind != StatementKind::kCreateView) {
    return InternalError("the definition of view \"" + view.name + "\" does not parse: " + s.message());
  }
  Binder inner(catalog_);
  inner.SetSource(parsed[0]->source);
  inner.view_depth_ = view_depth_ + 1;
  std::unique_ptr<SelectPlan> plan;
  s = inner.BindSelect(*parsed[0]->create_view->query, &plan);
  if (!s.ok()) return Status(s.sqlstate(), "view \"" + view.name + "\" no longer binds: " + s.message());
  tables_used_.insert(tables_used_.end(), inner.tables_used_.begin(), inner.tables_used_.end());
  relations_named_.push_back(view.name);
  if (aliases.size() > plan->columns.size()) {
    return Status(sqlstate::kInvalidColumnReference,
                  "table has " + std::to_string(plan->columns.size()) + " columns available but " +
                      std::to_string(aliases.size()) + " columns specified");
  }
  // The view's own column names (as created), then the FROM item's aliases.
  std::vector<std::string> names;
  for (size_t c = 0; c < plan->columns.size(); ++c) {
    names.push_back(c < aliases.size()       ? aliases[c]
                    : c < view.columns.size() ? view.columns[c]
                                              : plan->columns[c].name);
  }
  std::shared_ptr<DerivedPlan> derived = MakeDerived(std::move(plan), names);
  BuildLayout(derived.get());
  *out = std::move(derived);
  return Status::OK();
}

std::shared_ptr<const DerivedPlan> Binder::FindCte(const Context& ctx, const std::string& name) const {
  for (const Context* start : {&ctx, cte_scope_}) {
    for (const Context* level = start; level != nullptr; level = level->outer) {
      for (const auto& [cte_name, plan] : level->ctes) {
        if (cte_name == name) return plan;
      }
    }
  }
  return nullptr;
}

Status Binder::BindWith(const std::vector<CommonTableExpr>& with, Context& ctx) {
  for (const CommonTableExpr& cte : with) {
    for (const auto& [name, plan] : ctx.ctes) {
      if (name == cte.name) {
        return Status(sqlstate::kDuplicateAlias, "WITH query name \"" + cte.name + "\" specified more than once",
                      Pos(cte.location));
      }
    }
    // A WITH query sees the WITH queries before it and the enclosing
    // queries, not the FROM items of the query it belongs to (none are bound yet).
    std::shared_ptr<const DerivedPlan> plan;
    if (cte.recursive && cte.query && cte.query->set_op == SetOperation::kUnion && cte.query->with.empty() &&
        cte.query->order_by.empty() && !cte.query->limit && !cte.query->offset) {
      PL_RETURN_IF_ERROR(BindRecursiveCte(cte, ctx, &plan));
    }
    if (plan) {
      // bound above
    } else if (cte.query) {
      PL_RETURN_IF_ERROR(BindDerived(*cte.query, ctx, cte.column_aliases, &plan, cte.name));
    } else {
      PL_RETURN_IF_ERROR(BindModifyingCte(cte, ctx, &plan));
    }
    ctx.ctes.emplace_back(cte.name, std::move(plan));
  }
  return Status::OK();
}

Status Binder::BindModifyingCte(const CommonTableExpr& cte, const Context& ctx,
                                std::shared_ptr<const DerivedPlan>* out) {
  // PostgreSQL runs these once, in the top-level statement only (not in a
  // subquery or a WITH query's own WITH; CREATE VIEW refuses them).
  if (ctx.outer != nullptr || cte_scope_ != nullptr) {
    return Status(sqlstate::kFeatureNotSupported,
                  "WITH clause containing a data-modifying statement must be at the top level", Pos(cte.location));
  }
  auto derived = std::make_shared<DerivedPlan>();
  // Bound as a statement of its own that sees the WITH queries before it.
  const bool saved_insert_source = insert_source_, saved_keep_unknown = keep_unknown_outputs_;
  insert_source_ = keep_unknown_outputs_ = false;
  cte_scope_ = &ctx;
  Status s;
  const std::vector<ResultColumn>* columns = nullptr;
  if (cte.insert) {
    std::unique_ptr<InsertPlan> plan;
    s = BindInsert(*cte.insert, &plan);
    if (s.ok()) columns = &plan->returning_columns;
    derived->insert = std::move(plan);
  } else if (cte.update) {
    std::unique_ptr<UpdatePlan> plan;
    s = BindUpdate(*cte.update, &plan);
    if (s.ok()) columns = &plan->returning_columns;
    derived->update = std::move(plan);
  } else {
    std::unique_ptr<DeletePlan> plan;
    s = BindDelete(*cte.del, &plan);
    if (s.ok()) columns = &plan->returning_columns;
    derived->del = std::move(plan);
  }
  cte_scope_ = nullptr;
  insert_source_ = saved_insert_source;
  keep_unknown_outputs_ = saved_keep_unknown;
  PL_RETURN_IF_ERROR(s);
  derived->columns = *columns;
  derived->no_returning = columns->empty();
  PL_RETURN_IF_ERROR(CheckAliasCount(cte.column_aliases.size(), columns->size(), cte.name));
  for (size_t i = 0; i < cte.column_aliases.size(); ++i) derived->columns[i].name = cte.column_aliases[i];
  BuildLayout(derived.get());
  modifying_ctes_.push_back(derived);
  *out = std::move(derived);
  return Status::OK();
}

Status Binder::BindSetArm(const SelectStmt& stmt, Context& ctx, std::shared_ptr<DerivedPlan>* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // UNION chains nest to the left
  if (stmt.set_op != SetOperation::kNone && stmt.with.empty() && stmt.order_by.empty() && !stmt.limit &&
      !stmt.offset) {
    return BindSetOperation(stmt, ctx, out);
  }
  Context inner;
  std::unique_ptr<SelectPlan> plan;
  PL_RETURN_IF_ERROR(BindNested(stmt, ctx, /*keep_unknown=*/true, &inner, &plan));
  *out = MakeDerived(std::move(plan), {});
  return Status::OK();
}

Status Binder::BindSetOperation(const SelectStmt& stmt, Context& ctx, std::shared_ptr<DerivedPlan>* out) {
  const char* name = SetOperationName(stmt.set_op);
  std::shared_ptr<DerivedPlan> arms[2];
  PL_RETURN_IF_ERROR(BindSetArm(*stmt.set_left, ctx, &arms[0]));
  PL_RETURN_IF_ERROR(BindSetArm(*stmt.set_right, ctx, &arms[1]));
  if (arms[0]->columns.size() != arms[1]->columns.size()) {
    return Status(sqlstate::kSyntaxError, std::string("each ") + name + " query must have the same number of columns");
  }
  auto derived = std::make_shared<DerivedPlan>();
  derived->set_op = ToSetOpKind(stmt.set_op);
  derived->all = stmt.set_all;
  derived->correlated = arms[0]->correlated || arms[1]->correlated;
  // Each column's type is the common type of the arms' (PostgreSQL's rule:
  // unknown literals take the other arm's type; text when both are unknown).
  derived->columns = arms[0]->columns;
  for (size_t c = 0; c < derived->columns.size(); ++c) {
    std::vector<const BoundExpr*> exprs;
    std::vector<BoundExprPtr> probes;
    for (const auto& arm : arms) {
      // The arm's output expression when it has one (a literal keeps its
      // position for errors), else a stand-in of the column's type.
      if (arm->query) {
        exprs.push_back(arm->query->outputs[c].get());
      } else {
        probes.push_back(MakeNode(BoundKind::kConstant, arm->columns[c].type, -1));
        exprs.push_back(probes.back().get());
      }
    }
    PL_RETURN_IF_ERROR(CommonType(exprs, name, -1, &derived->columns[c].type));
  }
  for (auto& arm : arms) PL_RETURN_IF_ERROR(ConvertArm(derived->columns, &arm));
  BuildLayout(derived.get());
  derived->left = std::move(arms[0]);
  derived->right = std::move(arms[1]);
  *out = std::move(derived);
  return Status::OK();
}

Status Binder::ConvertArm(const std::vector<ResultColumn>& types, std::shared_ptr<DerivedPlan>* arm_ptr) {
  // An arm whose types differ is converted: a query's outputs in place, a
  // nested set operation through a projection.
  std::shared_ptr<DerivedPlan>& arm = *arm_ptr;
  bool same = true;
  for (size_t c = 0; c < types.size(); ++c) same = same && arm->columns[c].type == types[c].type;
  if (!same) {
    if (!arm->query) {
      auto projection = std::make_unique<SelectPlan>();
      SourcePlan source;
      source.derived = arm;
      projection->sources.push_back(std::move(source));
      for (size_t c = 0; c < arm->columns.size(); ++c) {
        projection->outputs.push_back(BoundExpr::Column(0, static_cast<int>(c), arm->columns[c].type));
      }
      projection->columns = arm->columns;
      projection->correlated = arm->correlated;
      arm = MakeDerived(std::move(projection), {});
    }
    for (size_t c = 0; c < types.size(); ++c) {
      PL_RETURN_IF_ERROR(Coerce(&arm->query->outputs[c], types[c].type, false, -1));
      arm->query->columns[c].type = types[c].type;
      arm->columns[c].type = types[c].type;
    }
  }
  if (!arm->layout) BuildLayout(arm.get());
  return Status::OK();
}

Status Binder::BindRecursiveCte(const CommonTableExpr& cte, Context& ctx, std::shared_ptr<const DerivedPlan>* out) {
  // PostgreSQL's form: the non-recursive term (which may not name the
  // query), UNION [ALL], the recursive term, which names it once and reads
  // there the rows the previous step added. The column types are the
  // non-recursive term's; the recursive term's are converted to them.
  const SelectStmt& stmt = *cte.query;
  std::shared_ptr<DerivedPlan> left;
  PL_RETURN_IF_ERROR(BindSetArm(*stmt.set_left, ctx, &left));
  PL_RETURN_IF_ERROR(CheckAliasCount(cte.column_aliases.size(), left->columns.size(), cte.name));
  std::vector<ResultColumn> columns = left->columns;
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type.id == TypeId::kUnknown) columns[c].type = Type(TypeId::kText);
    if (c < cte.column_aliases.size()) columns[c].name = cte.column_aliases[c];
  }
  PL_RETURN_IF_ERROR(ConvertArm(columns, &left));
  auto working = std::make_shared<DerivedPlan>();
  working->function.kind = TableFunctionKind::kWorkingTable;
  working->function.name = cte.name;
  working->columns = columns;
  working->correlated = true;  // other rows at each step: never cached
  BuildLayout(working.get());
  const int refs_before = working_table_refs_;
  ctx.ctes.emplace_back(cte.name, working);
  std::shared_ptr<DerivedPlan> right;
  Status s = BindSetArm(*stmt.set_right, ctx, &right);
  ctx.ctes.pop_back();
  PL_RETURN_IF_ERROR(s);
  if (working_table_refs_ == refs_before) return Status::OK();  // it does not name itself: an ordinary WITH query
  if (right->columns.size() != columns.size()) {
    return Status(sqlstate::kSyntaxError, "each UNION query must have the same number of columns");
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    const Type& type = right->columns[c].type;
    if (type.id == TypeId::kUnknown || type.id == columns[c].type.id) continue;
    return Status(sqlstate::kDatatypeMismatch,
                  "recursive query \"" + cte.name + "\" column " + std::to_string(c + 1) + " has type " +
                      TypeText(columns[c].type) + " in non-recursive term but type " + TypeText(type) + " overall",
                  Pos(cte.location))
        .WithDetail("Cast the output of the non-recursive term to the correct type.");
  }
  PL_RETURN_IF_ERROR(ConvertArm(columns, &right));
  auto derived = std::make_shared<DerivedPlan>();
  derived->set_op = SetOpKind::kRecursiveUnion;
  derived->all = stmt.set_all;
  derived->correlated = left->correlated || right->correlated;
  derived->columns = columns;
  derived->left = std::move(left);
  derived->right = std::move(right);
  derived->working = std::move(working);
  BuildLayout(derived.get());
  *out = std::move(derived);
  return Status::OK();
}

Status Binder::BindSetOperationQuery(const SelectStmt& stmt, Context& ctx, std::unique_ptr<SelectPlan>* out) {
  if (stmt.for_update()) {
    return Status(sqlstate::kFeatureNotSupported,
                  std::string(LockStrengthName(stmt.locking[0].strength)) + " is not allowed with " +
                      SetOperationName(stmt.set_op) + "/INTERSECT/EXCEPT");
  }
  std::shared_ptr<DerivedPlan> derived;
  PL_RETURN_IF_ERROR(BindSetOperation(stmt, ctx, &derived));
  return BindDerivedQuery(stmt, std::move(derived), ctx, out);
}

Status Binder::BindDerivedQuery(const SelectStmt& stmt, std::shared_ptr<const DerivedPlan> derived, Context& ctx,
                                std::unique_ptr<SelectPlan>* out) {
  // The rows are the one source of a query that shows them all, sorted and
  // limited as the statement says.
  auto plan = std::make_unique<SelectPlan>();
  ScopeEntry entry;
  entry.derived = derived.get();
  ctx.scope.push_back(std::move(entry));
  for (size_t c = 0; c < derived->columns.size(); ++c) {
    plan->outputs.push_back(BoundExpr::Column(0, static_cast<int>(c), derived->columns[c].type));
  }
  plan->columns = derived->columns;
  SourcePlan source;
  source.derived = std::move(derived);
  plan->sources.push_back(std::move(source));
  PL_RETURN_IF_ERROR(BindOrderBy(stmt, ctx, plan.get()));
  PL_RETURN_IF_ERROR(BindLimitOffset(stmt, ctx, plan.get()));
  plan->correlated = ctx.correlated;
  *out = std::move(plan);
  return Status::OK();
}

Status Binder::BindValuesQuery(const SelectStmt& stmt, Context& ctx, std::unique_ptr<SelectPlan>* out) {
  auto derived = std::make_shared<DerivedPlan>();
  const size_t width = stmt.values[0].size();
  for (const auto& row : stmt.values) {
    if (row.size() != width) return SyntaxError("VALUES lists must all be the same length");
    std::vector<BoundExprPtr> bound;
    for (const auto& e : row) {
      if (e == nullptr) return SyntaxError("DEFAULT is not allowed in this context");
      BoundExprPtr b;
      PL_RETURN_IF_ERROR(BindExpr(*e, ctx, &b));
      bound.push_back(std::move(b));
    }
    derived->values.push_back(std::move(bound));
  }
  // Each column's type is the common type of its rows (PostgreSQL's rule).
  for (size_t c = 0; c < width; ++c) {
    std::vector<const BoundExpr*> column;
    for (const auto& row : derived->values) column.push_back(row[c].get());
    Type type;
    PL_RETURN_IF_ERROR(CommonType(column, "VALUES", -1, &type));
    for (auto& row : derived->values) PL_RETURN_IF_ERROR(Coerce(&row[c], type, false, -1));
    derived->columns.push_back({"column" + std::to_string(c + 1), type});
  }
  derived->correlated = ctx.correlated;
  BuildLayout(derived.get());
  return BindDerivedQuery(stmt, std::move(derived), ctx, out);
}

Status Binder::BindUsing(const FromItem& item, Context& ctx, size_t first_left, size_t first_right,
                         std::vector<ExprPtr>* owned, std::vector<Conjunct>* on) {
  // The scope entries of each side (the sources [first_left, first_right)
  // and [first_right, end)).
  auto side_of = [&](size_t from, size_t to) {
    std::vector<ScopeEntry*> entries;
    for (auto& entry : ctx.scope) {
      if (static_cast<size_t>(entry.source) >= from && static_cast<size_t>(entry.source) < to) entries.push_back(&entry);
    }
    return entries;
  };
  std::vector<ScopeEntry*> left = side_of(first_left, first_right);
  std::vector<ScopeEntry*> right = side_of(first_right, SIZE_MAX);
  // The one entry of a side that has `column` (merged-away copies excluded).
  auto find = [&](const std::vector<ScopeEntry*>& side, const std::string& column, const char* which,
                  ScopeEntry** out) -> Status {
    *out = nullptr;
    for (ScopeEntry* entry : side) {
      if (entry->FindColumn(column) < 0 || entry->MergedAway(column)) continue;
      if (*out != nullptr) {
        return Status(sqlstate::kAmbiguousColumn,
                      "common column name \"" + column + "\" appears more than once in " + which + " table",
                      Pos(item.location));
      }
      *out = entry;
    }
    return Status::OK();
  };
  std::vector<std::string> columns = item.using_columns;
  if (item.natural) {
    // Every column name the two sides share, in the left side's order.
    for (ScopeEntry* entry : left) {
      for (int c = 0; c < entry->ColumnCount(); ++c) {
        const std::string& name = entry->ColumnName(c);
        if (entry->MergedAway(name)) continue;
        for (ScopeEntry* r : right) {
          if (r->FindColumn(name) >= 0 && !r->MergedAway(name) &&
              std::find(columns.begin(), columns.end(), name) == columns.end()) {
            columns.push_back(name);
          }
        }
      }
    }
  }
  for (const std::string& column : columns) {
    ScopeEntry *l = nullptr, *r = nullptr;
    PL_RETURN_IF_ERROR(find(left, column, "left", &l));
    PL_RETURN_IF_ERROR(find(right, column, "right", &r));
    if (l == nullptr || r == nullptr) {
      return Status(sqlstate::kUndefinedColumn,
                    "column \"" + column + "\" specified in USING clause does not exist in " +
                        (l == nullptr ? "left" : "right") + " table",
                    Pos(item.location));
    }
    // ON l.column = r.column, written as the user would have.
    auto side = [&](const ScopeEntry& entry) {
      auto ref = std::make_unique<Expr>();
      ref->kind = ExprKind::kColumnRef;
      ref->qualifier = entry.name;
      ref->column = column;
      ref->location = item.location;
      return ref;
    };
    auto eq = std::make_unique<Expr>();
    eq->kind = ExprKind::kBinary;
    eq->binary_op = BinaryOp::kEq;
    eq->location = item.location;
    eq->left = side(*l);
    eq->right = side(*r);
    on->push_back({eq.get(), "JOIN/USING", true});
    owned->push_back(std::move(eq));
    r->merged_away.push_back(column);
    l->merged_first.push_back(column);
  }
  return Status::OK();
}

}  // namespace paceline::sql
