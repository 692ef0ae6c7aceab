// Binder: SELECT: FROM items and joins, select lists, grouping and HAVING,
// ORDER BY, LIMIT/OFFSET, access paths (see binder.h, binder_internal.h).
#include "sql/binder_internal.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/datetime.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "sql/access_path_planner.h"
#include "sql/expression_evaluator.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// Whether a one-table SELECT's access path returns rows already in ORDER BY
// order: ascending keys (NULLS LAST, as the index stores them) that follow
// the index columns after the equality-bound prefix (prefix columns are
// constant and may appear anywhere), or a point lookup (at most one row).
bool OrderedByIndex(const SelectPlan& plan) {
  if (plan.order_by.empty() || plan.sources.size() != 1 || plan.aggregate || plan.distinct || !plan.windows.empty()) {
    return false;
  }
  const AccessPath& path = plan.sources[0].access;
  if (path.kind == AccessKind::kIndexPoint && path.in_list.empty()) return true;
  if (path.kind != AccessKind::kIndexRange || !path.in_list.empty() || !path.index->ordered()) return false;
  const std::vector<int>& columns = path.index->schema().columns;
  const size_t bound = path.equal.size();
  size_t next = bound;
  for (const SortKey& key : plan.order_by) {
    const BoundExpr& e = *key.expr;
    if (e.kind != BoundKind::kColumn || e.source != 0 || key.descending || key.nulls_first) return false;
    if (std::find(columns.begin(), columns.begin() + bound, e.index) != columns.begin() + bound) continue;
    if (next >= columns.size() || columns[next] != e.index) return false;
    ++next;
  }
  return true;
}

}  // namespace

Status Binder::BindLocking(const SelectStmt& stmt, SelectPlan* plan) {
  // A source named by several clauses (or by one clause and another
  // without OF) takes the strongest lock, and NOWAIT before SKIP LOCKED
  // before waiting, as in PostgreSQL.
  auto apply = [&](SourcePlan& source, const LockingClause& clause, int location) -> Status {
    const std::string name = LockStrengthName(clause.strength);
    if (source.derived) {
      return NotSupported(name + " of a subquery, function or WITH query in FROM").WithPosition(Pos(location));
    }
    if (source.nullable) {
      return Status(sqlstate::kFeatureNotSupported,
                    name + " cannot be applied to the nullable side of an outer join", Pos(location));
    }
    const cc::RowLock& lock = clause.lock;
    cc::RowLock merged = source.lock.value_or(cc::RowLock{false, cc::LockWait::kBlock});
    merged.exclusive = merged.exclusive || lock.exclusive;
    if (lock.wait == cc::LockWait::kNoWait || merged.wait == cc::LockWait::kNoWait) {
      merged.wait = cc::LockWait::kNoWait;
    } else if (lock.wait == cc::LockWait::kSkip || merged.wait == cc::LockWait::kSkip) {
      merged.wait = cc::LockWait::kSkip;
    }
    source.lock = merged;
    return Status::OK();
  };
  for (const LockingClause& clause : stmt.locking) {
    if (clause.of.empty()) {
      for (SourcePlan& source : plan->sources) PL_RETURN_IF_ERROR(apply(source, clause, -1));
      continue;
    }
    for (const auto& [name, location] : clause.of) {
      auto it = std::find_if(plan->sources.begin(), plan->sources.end(),
                             [&](const SourcePlan& source) { return source.alias == name; });
      if (it == plan->sources.end()) {
        return Status(sqlstate::kUndefinedTable,
                      "relation \"" + name + "\" in " + LockStrengthName(clause.strength) +
                          " clause not found in FROM clause",
                      Pos(location));
      }
      PL_RETURN_IF_ERROR(apply(*it, clause, location));
    }
  }
  return Status::OK();
}

Status Binder::BindFrom(const std::vector<std::unique_ptr<FromItem>>& from, const Expr* where, Context& ctx,
                        SelectPlan* plan, std::vector<ExprPtr>* owned, std::vector<Conjunct>* where_conjuncts,
                        std::vector<std::pair<int, Conjunct>>* on_conjuncts) {
  // Flattens FROM items (comma lists, inner and outer joins) into sources in
  // order (a RIGHT JOIN's right side first). `inner_conjuncts` receives the
  // ON conditions of inner joins: the WHERE conjuncts at the top, a group's
  // own conditions inside an outer-joined group. A name is a WITH query
  // before a table.
  std::function<Status(const FromItem&, std::vector<Conjunct>*)> add =
      [&](const FromItem& item, std::vector<Conjunct>* inner_conjuncts) -> Status {
    PL_RETURN_IF_ERROR(CheckStackDepth());
    if (!item.is_join) {
      const std::string name = !item.table.alias.empty() ? item.table.alias : item.table.name;
      for (const auto& entry : ctx.scope) {
        if (entry.name == name) {
          return Status(sqlstate::kDuplicateAlias, "table name \"" + name + "\" specified more than once",
                        Pos(item.table.location));
        }
      }
      SourcePlan sp;
      sp.alias = name;
      ScopeEntry entry;
      entry.name = name;
      entry.source = static_cast<int>(plan->sources.size());
      // A WITH query's name, then the search path: pg_catalog, public.
      const bool function = item.function || !item.rows_from.empty();
      const bool named_cte = !function && !item.subquery && item.table.schema.empty() &&
                             FindCte(ctx, item.table.name) != nullptr;
      const SystemRelation* system = nullptr;
      if (!function && !item.subquery && !named_cte) PL_RETURN_IF_ERROR(FindSystemRelationFor(item.table, &system));
      if (function) {
        std::shared_ptr<const DerivedPlan> derived;
        PL_RETURN_IF_ERROR(BindFunctionSource(item, ctx, &derived));
        sp.derived = derived;
      } else if (system != nullptr) {
        std::shared_ptr<const DerivedPlan> derived;
        PL_RETURN_IF_ERROR(BindSystemRelation(*system, item.column_aliases, &derived));
        sp.derived = derived;
      } else if (item.subquery) {
        // A non-LATERAL subquery does not see this query's FROM items.
        ctx.scope_hidden = !item.lateral;
        std::shared_ptr<const DerivedPlan> derived;
        Status s = BindDerived(*item.subquery, ctx, item.column_aliases, &derived);
        ctx.scope_hidden = false;
        PL_RETURN_IF_ERROR(s);
        sp.derived = derived;
      } else if (const catalog::ViewSchema* view = named_cte ? nullptr : catalog_->FindView(item.table.name)) {
        std::shared_ptr<const DerivedPlan> derived;
        PL_RETURN_IF_ERROR(BindView(*view, item.column_aliases, &derived));
        sp.derived = derived;
      } else if (std::shared_ptr<catalog::Sequence> sequence =
                     named_cte || !(item.table.schema.empty() || item.table.schema == "public")
                         ? nullptr
                         : catalog_->FindSequence(item.table.name)) {
        // A sequence read as a relation: its one row, as PostgreSQL's.
        auto derived = std::make_shared<DerivedPlan>();
        derived->function.kind = TableFunctionKind::kSequenceRelation;
        derived->function.name = item.table.name;
        derived->function.sequence = sequence;
        derived->columns = {{"last_value", Type(TypeId::kInt64)},
                            {"log_cnt", Type(TypeId::kInt64)},
                            {"is_called", Type(TypeId::kBool)}};
        entry.relation_oid = sequence->schema().oid;
        std::shared_ptr<const DerivedPlan> finished;
        PL_RETURN_IF_ERROR(FinishFunctionSource(item, std::move(derived), &finished));
        sp.derived = finished;
      } else if (!item.column_aliases.empty()) {
        return Status(sqlstate::kFeatureNotSupported,
                      "column aliases on a table or WITH query in FROM are not supported by Paceline",
                      Pos(item.table.location));
      } else if (std::shared_ptr<const DerivedPlan> cte = item.table.schema.empty() ? FindCte(ctx, item.table.name)
                                                                                      : nullptr) {
        if (cte->no_returning) {
          return Status(sqlstate::kFeatureNotSupported,
                        "WITH query \"" + item.table.name + "\" does not have a RETURNING clause",
                        Pos(item.table.location));
        }
        if (cte->function.kind == TableFunctionKind::kWorkingTable) ++working_table_refs_;
        sp.derived = cte;
      } else {
        PL_RETURN_IF_ERROR(LookupTable(item.table, &sp.table));
      }
      entry.table = sp.table.get();
      entry.derived = sp.derived.get();
      if (system != nullptr) entry.relation_oid = system->oid;
      if (sp.table) entry.relation_oid = sp.table->schema().oid;
      ctx.scope.push_back(std::move(entry));
      plan->sources.push_back(std::move(sp));
      return Status::OK();
    }
    // Makes the sources [start, end) just added an outer-joined group (all
    // NULL when none of its rows match): `on` (its own inner-join conditions
    // and the outer join's) become conditions of the group.
    auto close_group = [&](size_t start, const std::vector<Conjunct>& on) {
      const int end = static_cast<int>(plan->sources.size()) - 1;
      for (int i = static_cast<int>(start); i <= end; ++i) plan->sources[i].nullable = true;
      plan->sources[start].left_join = true;
      plan->has_outer_join = true;
      plan->sources[start].group_end = end;
      plan->sources[end].closes_groups.push_back(static_cast<int>(start));
      for (const Conjunct& c : on) on_conjuncts->push_back({static_cast<int>(start), c});
    };
    std::vector<Conjunct> on;
    SplitConjuncts(item.on.get(), "JOIN/ON", &on);
    if (item.join_kind == JoinKind::kRight) {
      // a RIGHT JOIN b is b LEFT JOIN a: b's sources are read first, a is
      // the outer-joined group; `*` still shows a's columns first.
      if (item.natural || !item.using_columns.empty()) return NotSupported("RIGHT JOIN with USING or NATURAL");
      const size_t scope_at = ctx.scope.size();
      PL_RETURN_IF_ERROR(add(*item.right, inner_conjuncts));
      const size_t right_entries = ctx.scope.size() - scope_at;
      const size_t start = plan->sources.size();
      PL_RETURN_IF_ERROR(add(*item.left, &on));
      close_group(start, on);
      std::rotate(ctx.scope.begin() + static_cast<std::ptrdiff_t>(scope_at),
                  ctx.scope.begin() + static_cast<std::ptrdiff_t>(scope_at + right_entries), ctx.scope.end());
      return Status::OK();
    }
    const size_t first_left = plan->sources.size();
    if (item.join_kind == JoinKind::kFull) {
      // The left side's own join conditions stay with it (not WHERE
      // conjuncts: its columns may be NULL above the join).
      if (item.natural || !item.using_columns.empty()) return NotSupported("FULL JOIN with USING or NATURAL");
      std::vector<Conjunct> left_on;
      PL_RETURN_IF_ERROR(add(*item.left, &left_on));
      for (const Conjunct& c : left_on) on_conjuncts->push_back({static_cast<int>(first_left), c});
      const size_t first_right = plan->sources.size();
      PL_RETURN_IF_ERROR(add(*item.right, &on));
      if (plan->sources.size() != first_right + 1) return NotSupported("FULL JOIN of a nested join");
      const DerivedPlan* right = plan->sources[first_right].derived.get();
      if (right != nullptr && right->correlated) return NotSupported("FULL JOIN of a correlated subquery");
      close_group(first_right, on);
      for (size_t i = first_left; i < first_right; ++i) plan->sources[i].nullable = true;
      plan->sources[first_right].full_join_left = static_cast<int>(first_left);
      plan->sources[first_left].full_joins_here.push_back(static_cast<int>(first_right));
      plan->has_full_join = true;
      return Status::OK();
    }
    PL_RETURN_IF_ERROR(add(*item.left, inner_conjuncts));
    const size_t first_right = plan->sources.size();
    const bool left = item.join_kind == JoinKind::kLeft;
    std::vector<Conjunct>* conditions = left ? &on : inner_conjuncts;
    PL_RETURN_IF_ERROR(add(*item.right, conditions));
    // USING (a, b) and NATURAL: ON left.a = right.a AND ..., with the right
    // side's copies merged away.
    if (item.natural || !item.using_columns.empty()) {
      PL_RETURN_IF_ERROR(BindUsing(item, ctx, first_left, first_right, owned, conditions));
    }
    if (left) {
      close_group(first_right, on);
    } else {
      for (const Conjunct& c : on) inner_conjuncts->push_back(c);
    }
    return Status::OK();
  };
  for (const auto& item : from) PL_RETURN_IF_ERROR(add(*item, where_conjuncts));
  SplitConjuncts(where, "WHERE", where_conjuncts);
  return Status::OK();
}

Status Binder::PlaceConditions(Context& ctx, const std::vector<Conjunct>& where_conjuncts,
                               const std::vector<std::pair<int, Conjunct>>& on_conjuncts, SelectPlan* plan) {
  // WHERE conjuncts, each placed at the level of the last source it reads
  // (or after the join when it reads a nullable source); a group's ON
  // conjuncts at that level too, but never before the group's start.
  const int n = static_cast<int>(plan->sources.size());
  std::vector<bool> nullable(n, false);
  for (int i = 0; i < n; ++i) nullable[i] = plan->sources[i].nullable;
  std::vector<std::vector<BoundExprPtr>> level(std::max(n, 1));
  for (const Conjunct& c : where_conjuncts) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindPredicate(*c.expr, ctx, c.clause, &b, c.and_operand));
    if (UsesSource(*b, nullable)) {
      plan->post_filters.push_back(std::move(b));
    } else {
      level[std::max(0, MaxSource(*b))].push_back(std::move(b));
    }
  }
  for (const auto& [start, c] : on_conjuncts) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindPredicate(*c.expr, ctx, c.clause, &b, c.and_operand));
    const SourcePlan& first = plan->sources[start];
    const int end = first.left_join ? first.group_end : n - 1;
    const int at = std::max(start, MaxSource(*b));
    if (at > end) return NotSupported("a JOIN condition that reads a later table");
    // A group nested in this one, NULL-extended, skips its filters: a
    // condition of ours that reads it is checked when the group's row is whole.
    bool reads_nested_group = false;
    for (int g = start + 1; g <= at; ++g) {
      if (plan->sources[g].left_join && plan->sources[g].group_end >= at) reads_nested_group = true;
    }
    if (!reads_nested_group) {
      level[at].push_back(std::move(b));
    } else if (first.left_join) {
      plan->sources[start].group_filters.push_back(std::move(b));
    } else {
      return NotSupported("a JOIN condition that reads a table of a nested outer join");
    }
  }
  if (n == 0) {
    for (auto& b : level[0]) plan->post_filters.push_back(std::move(b));
  }
  for (int i = 0; i < n; ++i) {
    if (plan->sources[i].table) ChooseAccessPath(i, level[i], &plan->sources[i]);
    plan->sources[i].filters = std::move(level[i]);
    ChooseHashJoin(i, &plan->sources[i]);
  }

  return Status::OK();
}

Status Binder::BindSelectList(const std::vector<SelectItem>& items, Context& ctx, std::vector<BoundExprPtr>* exprs,
                              std::vector<ResultColumn>* columns) {
  for (const auto& item : items) {
    if (item.expr->kind == ExprKind::kStar) {
      bool matched = false;
      for (const auto& entry : ctx.scope) {
        if (!item.expr->qualifier.empty() && entry.name != item.expr->qualifier) continue;
        matched = true;
        // Merged USING columns first, once (unqualified `*` only).
        std::vector<int> order;
        const bool whole = item.expr->qualifier.empty();
        if (whole) {
          for (const auto& name : entry.merged_first) order.push_back(entry.FindColumn(name));
        }
        for (int c = 0; c < entry.ColumnCount(); ++c) {
          const std::string& name = entry.ColumnName(c);
          if (whole && (entry.MergedAway(name) || std::find(entry.merged_first.begin(), entry.merged_first.end(),
                                                            name) != entry.merged_first.end())) {
            continue;
          }
          order.push_back(c);
        }
        for (int c : order) {
          exprs->push_back(BoundExpr::Column(entry.source, c, entry.ColumnType(c)));
          columns->push_back({entry.ColumnName(c), entry.ColumnType(c)});
        }
      }
      if (!matched) {
        if (item.expr->qualifier.empty()) {
          return SyntaxError("SELECT * with no tables specified is not valid", Pos(item.expr->location));
        }
        return MissingFromEntry(ctx, item.expr->qualifier, item.expr->location);
      }
      continue;
    }
    BoundExprPtr e;
    PL_RETURN_IF_ERROR(BindExpr(*item.expr, ctx, &e));
    if (IsUnknown(*e) && !keep_unknown_outputs_) {
      PL_RETURN_IF_ERROR(Coerce(&e, Type(TypeId::kText), false, item.expr->location));
    }
    columns->push_back({item.alias.empty() ? DefaultName(*item.expr) : item.alias, e->type});
    exprs->push_back(std::move(e));
  }
  return Status::OK();
}

Status Binder::ApplyGrouping(BoundExprPtr* e, const SelectPlan& plan, int location) {
  for (size_t g = 0; g < plan.group_by.size(); ++g) {
    if ((*e)->Equals(*plan.group_by[g])) {
      *e = BoundExpr::Slot(static_cast<int>(g), (*e)->type);
      return Status::OK();
    }
  }
  if ((*e)->kind == BoundKind::kColumn) {
    const SourcePlan& s = plan.sources[(*e)->source];
    const std::string& name =
        s.table ? s.table->schema().columns[(*e)->index].name : s.derived->columns[(*e)->index].name;
    return Status(sqlstate::kGroupingError,
                  "column \"" + s.alias + "." + name +
                      "\" must appear in the GROUP BY clause or be used in an aggregate function",
                  Pos((*e)->location >= 0 ? (*e)->location : location));
  }
  for (auto& c : (*e)->children) PL_RETURN_IF_ERROR(ApplyGrouping(&c, plan, location));
  return Status::OK();
}

Status Binder::CheckGroupedOuterColumns(const BoundExpr& e, SelectPlan* plan) {
  if (e.kind == BoundKind::kSubquery && !e.subquery->outer_columns.empty()) {
    for (const auto& [source, column] : e.subquery->outer_columns) {
      const bool grouped = std::any_of(plan->group_by.begin(), plan->group_by.end(), [&](const BoundExprPtr& g) {
        return g->kind == BoundKind::kColumn && g->source == source && g->index == column;
      });
      if (!grouped) {
        const SourcePlan& s = plan->sources[source];
        const std::string& name =
            s.table ? s.table->schema().columns[column].name : s.derived->columns[column].name;
        return Status(sqlstate::kGroupingError,
                      "subquery uses ungrouped column \"" + s.alias + "." + name + "\" from outer query",
                      Pos(e.location));
      }
    }
    plan->keeps_group_rows = true;
  }
  for (const auto& c : e.children) PL_RETURN_IF_ERROR(CheckGroupedOuterColumns(*c, plan));
  return Status::OK();
}

Status Binder::BindSelect(const SelectStmt& stmt, std::unique_ptr<SelectPlan>* out) {
  Context ctx;
  PL_RETURN_IF_ERROR(BindQuery(stmt, ctx, out));
  if (!insert_source_) FinalizeParameters(out->get());  // else the INSERT types them first
  return Status::OK();
}

Status Binder::BindQuery(const SelectStmt& stmt, Context& ctx, std::unique_ptr<SelectPlan>* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // subqueries nest
  PL_RETURN_IF_ERROR(BindWith(stmt.with, ctx));
  if (stmt.set_op != SetOperation::kNone) return BindSetOperationQuery(stmt, ctx, out);
  if (!stmt.values.empty()) return BindValuesQuery(stmt, ctx, out);
  auto plan = std::make_unique<SelectPlan>();

  std::vector<ExprPtr> owned;
  std::vector<Conjunct> where_conjuncts;
  std::vector<std::pair<int, Conjunct>> on_conjuncts;
  PL_RETURN_IF_ERROR(BindFrom(stmt.from, stmt.where.get(), ctx, plan.get(), &owned, &where_conjuncts, &on_conjuncts));

  PL_RETURN_IF_ERROR(PlaceConditions(ctx, where_conjuncts, on_conjuncts, plan.get()));
  const int n = static_cast<int>(plan->sources.size());

  // GROUP BY (positions and output names allowed), then the select list.
  for (const auto& g : stmt.group_by) {
    BoundExprPtr b;
    if (g->kind == ExprKind::kLiteral && g->literal_kind == LiteralKind::kInteger) {
      int pos = static_cast<int>(g->int_value);
      if (pos < 1 || pos > static_cast<int>(stmt.targets.size()) || stmt.targets[pos - 1].expr->kind == ExprKind::kStar) {
        return Status(sqlstate::kInvalidColumnReference, "GROUP BY position " + std::to_string(pos) +
                      " is not in select list", Pos(g->location));
      }
      PL_RETURN_IF_ERROR(BindExpr(*stmt.targets[pos - 1].expr, ctx, &b));
    } else {
      ctx.clause = "GROUP BY";
      Status s = BindExpr(*g, ctx, &b);
      if (!s.ok() && s.Is(sqlstate::kUndefinedColumn) && g->kind == ExprKind::kColumnRef && g->qualifier.empty()) {
        const SelectItem* match = nullptr;
        for (const auto& t : stmt.targets) {
          if (t.alias == g->column) match = &t;
        }
        if (match == nullptr) return s;
        PL_RETURN_IF_ERROR(BindExpr(*match->expr, ctx, &b));
      } else {
        PL_RETURN_IF_ERROR(s);
      }
    }
    PL_RETURN_IF_ERROR(RequireOperators(b->type, false).WithPosition(Pos(LeftmostLocation(*g))));
    plan->group_by.push_back(std::move(b));
  }
  if (!plan->group_by.empty()) plan->aggregate = true;

  ctx.agg_plan = plan.get();
  ctx.window_stmt = &stmt;
  ctx.clause = "this context";
  ctx.window_plan = plan.get();
  PL_RETURN_IF_ERROR(BindSelectList(stmt.targets, ctx, &plan->outputs, &plan->columns));
  ctx.window_plan = nullptr;
  if (stmt.having) {
    PL_RETURN_IF_ERROR(BindPredicate(*stmt.having, ctx, "HAVING", &plan->having));
    plan->aggregate = true;
  }

  ctx.window_plan = plan.get();
  PL_RETURN_IF_ERROR(BindOrderBy(stmt, ctx, plan.get()));
  ctx.window_plan = nullptr;
  // DISTINCT rows are sorted by what they show only.
  if (stmt.distinct) {
    for (const auto& output : plan->outputs) PL_RETURN_IF_ERROR(RequireOperators(output->type, false));
    for (size_t k = 0; k < plan->order_by.size(); ++k) {
      const BoundExpr& key = *plan->order_by[k].expr;
      bool shown = std::any_of(plan->outputs.begin(), plan->outputs.end(),
                               [&](const BoundExprPtr& output) { return output->Equals(key); });
      if (!shown) {
        return Status(sqlstate::kInvalidColumnReference,
                      "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                      Pos(LeftmostLocation(*stmt.order_by[k].expr)));
      }
    }
  }

  if (plan->aggregate) {
    for (auto& e : plan->outputs) PL_RETURN_IF_ERROR(ApplyGrouping(&e, *plan, -1));
    if (plan->having) PL_RETURN_IF_ERROR(ApplyGrouping(&plan->having, *plan, -1));
    for (auto& key : plan->order_by) PL_RETURN_IF_ERROR(ApplyGrouping(&key.expr, *plan, -1));
  }
  PL_RETURN_IF_ERROR(FinishWindows(plan.get()));
  for (const auto& f : plan->post_filters) {
    if (!f->IsColumnFree() && n == 0) return InternalError("column in a FROM-less filter");
  }

  plan->distinct = stmt.distinct;
  if (plan->sources.size() == 1 && !plan->aggregate && !plan->distinct && plan->windows.empty()) {
    ChooseOrderedScan(plan->order_by, &plan->sources[0]);
  }
  plan->ordered_by_index = OrderedByIndex(*plan);
  PL_RETURN_IF_ERROR(BindLocking(stmt, plan.get()));
  if (stmt.for_update()) {
    // PostgreSQL locks base-table rows only; it names the first obstacle.
    const char* obstacle = plan->distinct              ? "DISTINCT clause"
                           : !plan->group_by.empty()   ? "GROUP BY clause"
                           : plan->having              ? "HAVING clause"
                           : plan->aggregate           ? "aggregate functions"
                           : !plan->windows.empty()    ? "window functions"
                                                       : nullptr;
    if (obstacle != nullptr) {
      return Status(sqlstate::kFeatureNotSupported,
                    std::string(LockStrengthName(stmt.locking[0].strength)) + " is not allowed with " + obstacle);
    }
  }
  PL_RETURN_IF_ERROR(BindLimitOffset(stmt, ctx, plan.get()));
  if (plan->aggregate) {
    // A subquery above the grouping that reads this query's columns reads
    // grouped ones only (as in PostgreSQL), from the first row of the group.
    for (const auto& e : plan->outputs) PL_RETURN_IF_ERROR(CheckGroupedOuterColumns(*e, plan.get()));
    if (plan->having) PL_RETURN_IF_ERROR(CheckGroupedOuterColumns(*plan->having, plan.get()));
    for (const auto& key : plan->order_by) PL_RETURN_IF_ERROR(CheckGroupedOuterColumns(*key.expr, plan.get()));
    if (plan->keeps_group_rows && !plan->windows.empty()) {
      return NotSupported("a correlated subquery in a query with window functions");
    }
  }
  plan->correlated = ctx.correlated;
  *out = std::move(plan);
  return Status::OK();
}


Status Binder::BindOrderBy(const SelectStmt& stmt, Context& ctx, SelectPlan* plan) {
  // ORDER BY: an output position, an output name, or an expression.
  for (const auto& o : stmt.order_by) {
    SortKey key;
    key.descending = o.descending;
    key.nulls_first = o.nulls_first.value_or(o.descending);
    const Expr& x = *o.expr;
    if (x.kind == ExprKind::kLiteral && x.literal_kind == LiteralKind::kInteger) {
      int pos = static_cast<int>(x.int_value);
      if (pos < 1 || pos > static_cast<int>(plan->outputs.size())) {
        return Status(sqlstate::kInvalidColumnReference,
                      "ORDER BY position " + std::to_string(pos) + " is not in select list", Pos(x.location));
      }
      key.expr = BoundExpr::Slot(-pos, plan->outputs[pos - 1]->type);  // resolved below
    } else {
      if (x.kind == ExprKind::kColumnRef && x.qualifier.empty()) {
        // An output alias (ORDER BY total) refers to that output.
        int output = 0;
        for (const auto& t : stmt.targets) {
          if (t.expr->kind == ExprKind::kStar) {
            output = -1;  // positions no longer line up with targets
            break;
          }
          if (t.alias == x.column) {
            key.expr = BoundExpr::Slot(-output - 1, plan->outputs[output]->type);
            break;
          }
          ++output;
        }
      }
      if (!key.expr) {
        ctx.clause = "ORDER BY";
        PL_RETURN_IF_ERROR(BindExpr(x, ctx, &key.expr));
      }
    }
    PL_RETURN_IF_ERROR(RequireOperators(key.expr->type, true).WithPosition(Pos(LeftmostLocation(x))));
    plan->order_by.push_back(std::move(key));
  }
  // Output references in ORDER BY (negative slots) become copies of outputs.
  for (auto& key : plan->order_by) {
    if (key.expr->kind == BoundKind::kSlot && key.expr->index < 0) key.expr = plan->outputs[-key.expr->index - 1]->Clone();
  }
  return Status::OK();
}

Status Binder::BindLimitOffset(const SelectStmt& stmt, const Context& ctx, SelectPlan* plan) {
  // LIMIT and OFFSET see the FROM names only to reject them, as PostgreSQL does.
  Context counts;
  counts.scope = ctx.scope;
  for (auto [expr, bound, clause] : {std::tuple{stmt.limit.get(), &plan->limit, "LIMIT"},
                                     std::tuple{stmt.offset.get(), &plan->offset, "OFFSET"}}) {
    if (expr == nullptr) continue;
    counts.clause = clause;
    PL_RETURN_IF_ERROR(BindExpr(*expr, counts, bound));
    if (ContainsColumn(**bound)) {
      return Status(sqlstate::kInvalidColumnReference,
                    std::string("argument of ") + clause + " must not contain variables", Pos(expr->location));
    }
    PL_RETURN_IF_ERROR(Coerce(bound, Type(TypeId::kInt64), false, expr->location));
  }
  return Status::OK();
}

}  // namespace paceline::sql
