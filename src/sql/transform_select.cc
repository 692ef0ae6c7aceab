// Transformer: SELECT, VALUES, target lists, FROM items, ORDER BY and
// locking clauses (see transformer.h).
#include "sql/transformer.h"

#include "sql/binder.h"

#include <utility>

#include "common/stack_depth.h"

namespace paceline::sql::transform {

Status Transformer::TransformSelect(const PgQuery__SelectStmt& s, std::unique_ptr<SelectStmt>* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // set operations and subqueries nest
  if (s.into_clause != nullptr) return Unsupported("SELECT INTO", -1);
  if (s.group_distinct) return Unsupported("GROUP BY DISTINCT", -1);
  if (s.limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES) {
    return Unsupported("FETCH ... WITH TIES", -1);
  }

  auto select = std::make_unique<SelectStmt>();
  if (s.with_clause != nullptr) PL_RETURN_IF_ERROR(TransformWith(*s.with_clause, &select->with));
  if (s.op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
    switch (s.op) {
      case PG_QUERY__SET_OPERATION__SETOP_UNION: select->set_op = SetOperation::kUnion; break;
      case PG_QUERY__SET_OPERATION__SETOP_INTERSECT: select->set_op = SetOperation::kIntersect; break;
      case PG_QUERY__SET_OPERATION__SETOP_EXCEPT: select->set_op = SetOperation::kExcept; break;
      default: return Unsupported("set operation " + std::to_string(s.op), -1);
    }
    select->set_all = s.all;
    if (s.larg == nullptr || s.rarg == nullptr) return InternalError("set operation without two sides");
    PL_RETURN_IF_ERROR(TransformSelect(*s.larg, &select->set_left));
    PL_RETURN_IF_ERROR(TransformSelect(*s.rarg, &select->set_right));
    PL_RETURN_IF_ERROR(TransformOrderLimitLocking(s, select.get()));
    *out = std::move(select);
    return Status::OK();
  }
  if (s.n_values_lists > 0) {
    PL_RETURN_IF_ERROR(TransformValues(s, select.get()));
    *out = std::move(select);
    return Status::OK();
  }

  // DISTINCT is a one-element list holding an empty node; DISTINCT ON lists expressions.
  for (size_t i = 0; i < s.n_distinct_clause; ++i) {
    const Node* d = s.distinct_clause[i];
    if (d != nullptr && d->node_case != PG_QUERY__NODE__NODE__NOT_SET) {
      return Unsupported("SELECT DISTINCT ON", ExpressionLocation(*d));
    }
  }
  select->distinct = s.n_distinct_clause > 0;

  PL_RETURN_IF_ERROR(TransformTargetList(s.target_list, s.n_target_list, &select->targets));
  PL_RETURN_IF_ERROR(TransformFromList(s.from_clause, s.n_from_clause, &select->from));
  PL_RETURN_IF_ERROR(TransformExpr(s.where_clause, &select->where));
  for (size_t i = 0; i < s.n_group_clause; ++i) {
    const Node* g = s.group_clause[i];
    if (Is(g, PG_QUERY__NODE__NODE_GROUPING_SET)) {
      return Unsupported("GROUPING SETS, ROLLUP and CUBE", g->grouping_set->location);
    }
    ExprPtr e;
    PL_RETURN_IF_ERROR(TransformExpr(g, &e));
    select->group_by.push_back(std::move(e));
  }
  PL_RETURN_IF_ERROR(TransformExpr(s.having_clause, &select->having));
  PL_RETURN_IF_ERROR(MoveSetReturningTargets(select.get()));
  for (size_t i = 0; i < s.n_window_clause; ++i) {
    const Node* w = s.window_clause[i];
    if (!Is(w, PG_QUERY__NODE__NODE_WINDOW_DEF)) return Unsupported("WINDOW item " + NodeFieldName(w), -1);
    std::shared_ptr<const WindowDefinition> def;
    PL_RETURN_IF_ERROR(TransformWindowDef(*w->window_def, &def));
    select->windows.push_back(std::move(def));
  }
  PL_RETURN_IF_ERROR(TransformOrderLimitLocking(s, select.get()));
  *out = std::move(select);
  return Status::OK();
}

Status Transformer::TransformOrderLimitLocking(const PgQuery__SelectStmt& s, SelectStmt* select) {
  for (size_t i = 0; i < s.n_sort_clause; ++i) {
    const Node* n = s.sort_clause[i];
    if (!Is(n, PG_QUERY__NODE__NODE_SORT_BY)) return Unsupported("ORDER BY item " + NodeFieldName(n), -1);
    OrderItem item;
    PL_RETURN_IF_ERROR(TransformSortBy(*n->sort_by, &item));
    select->order_by.push_back(std::move(item));
  }
  // LIMIT ALL arrives as a NULL constant: no limit.
  const Node* limit = s.limit_count;
  bool limit_all = Is(limit, PG_QUERY__NODE__NODE_A_CONST) && limit->a_const->isnull;
  if (!limit_all) PL_RETURN_IF_ERROR(TransformExpr(limit, &select->limit));
  PL_RETURN_IF_ERROR(TransformExpr(s.limit_offset, &select->offset));
  for (size_t i = 0; i < s.n_locking_clause; ++i) {
    const Node* n = s.locking_clause[i];
    if (!Is(n, PG_QUERY__NODE__NODE_LOCKING_CLAUSE)) return Unsupported("locking clause", -1);
    PL_RETURN_IF_ERROR(TransformLockingClause(*n->locking_clause, select));
  }
  return Status::OK();
}

Status Transformer::TransformValues(const PgQuery__SelectStmt& s, SelectStmt* out) {
  if (s.n_locking_clause > 0) return Unsupported("FOR UPDATE on VALUES", -1);
  PL_RETURN_IF_ERROR(TransformOrderLimitLocking(s, out));
  for (size_t i = 0; i < s.n_values_lists; ++i) {
    const Node* row = s.values_lists[i];
    if (!Is(row, PG_QUERY__NODE__NODE_LIST)) return Unsupported("VALUES row " + NodeFieldName(row), -1);
    std::vector<ExprPtr> values;
    for (size_t j = 0; j < row->list->n_items; ++j) {
      const Node* item = row->list->items[j];
      if (Is(item, PG_QUERY__NODE__NODE_SET_TO_DEFAULT)) {  // DEFAULT: a null item
        values.emplace_back();
        continue;
      }
      ExprPtr e;
      PL_RETURN_IF_ERROR(TransformExpr(item, &e));
      values.push_back(std::move(e));
    }
    out->values.push_back(std::move(values));
  }
  return Status::OK();
}

Status Transformer::TransformTargetList(Node* const* items, size_t n, std::vector<SelectItem>* out) {
  for (size_t i = 0; i < n; ++i) {
    const Node* item = items[i];
    if (!Is(item, PG_QUERY__NODE__NODE_RES_TARGET)) return Unsupported("target " + NodeFieldName(item), -1);
    const PgQuery__ResTarget& target = *item->res_target;
    SelectItem select_item;
    select_item.alias = Str(target.name);
    PL_RETURN_IF_ERROR(TransformExpr(target.val, &select_item.expr));
    if (select_item.expr == nullptr) return Unsupported("empty target", target.location);
    out->push_back(std::move(select_item));
  }
  return Status::OK();
}

Status Transformer::TransformFromList(Node* const* items, size_t n, std::vector<std::unique_ptr<FromItem>>* out) {
  for (size_t i = 0; i < n; ++i) {
    std::unique_ptr<FromItem> item;
    PL_RETURN_IF_ERROR(TransformFromItem(*items[i], &item));
    out->push_back(std::move(item));
  }
  return Status::OK();
}

Status Transformer::TransformFromItem(const Node& node, std::unique_ptr<FromItem>* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // a JOIN b JOIN c ... nests to the left
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: {
      auto item = std::make_unique<FromItem>();
      const PgQuery__RangeVar& rv = *node.range_var;
      // FROM name AS a (x, y): the binder decides (a view may be renamed).
      if (rv.alias != nullptr && rv.alias->n_colnames > 0) {
        PL_RETURN_IF_ERROR(TransformAlias(*rv.alias, &item->table.alias, &item->column_aliases));
        PgQuery__RangeVar plain = rv;
        plain.alias = nullptr;
        PL_RETURN_IF_ERROR(TransformRangeVar(plain, &item->table));
      } else {
        PL_RETURN_IF_ERROR(TransformRangeVar(rv, &item->table));
      }
      item->location = item->table.location;
      *out = std::move(item);
      return Status::OK();
    }
    case PG_QUERY__NODE__NODE_JOIN_EXPR: return TransformJoinExpr(*node.join_expr, out);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: return TransformRangeSubselect(*node.range_subselect, out);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION: return TransformRangeFunction(*node.range_function, out);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE: return Unsupported("TABLESAMPLE", -1);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_FUNC: return Unsupported("XMLTABLE", -1);
    default: return Unsupported("FROM item " + NodeFieldName(&node), -1);
  }
}

Status Transformer::TransformRangeVar(const PgQuery__RangeVar& rv, TableRef* out) {
  out->name = Str(rv.relname);  // a catalog qualifier (db.schema.t) is dropped
  if (rv.schemaname != nullptr) out->schema = Str(rv.schemaname);
  out->location = rv.location;
  if (rv.alias != nullptr) {
    if (rv.alias->n_colnames > 0) return Unsupported("column aliases on a table in FROM", rv.location);
    out->alias = Str(rv.alias->aliasname);
  }
  return Status::OK();
}

Status Transformer::TransformAlias(const PgQuery__Alias& a, std::string* name, std::vector<std::string>* columns) {
  *name = Str(a.aliasname);
  return TransformNameList(a.colnames, a.n_colnames, -1, columns);
}

Status Transformer::TransformRangeSubselect(const PgQuery__RangeSubselect& r, std::unique_ptr<FromItem>* out) {
  auto item = std::make_unique<FromItem>();
  item->lateral = r.lateral;
  if (!Is(r.subquery, PG_QUERY__NODE__NODE_SELECT_STMT)) return Unsupported("this subquery in FROM", -1);
  std::unique_ptr<SelectStmt> query;
  PL_RETURN_IF_ERROR(TransformSelect(*r.subquery->select_stmt, &query));
  item->subquery = std::move(query);
  // PostgreSQL 15 requires the alias (the grammar leaves it to analysis).
  if (r.alias == nullptr) {
    return Status(sqlstate::kSyntaxError, "subquery in FROM must have an alias");
  }
  PL_RETURN_IF_ERROR(TransformAlias(*r.alias, &item->table.alias, &item->column_aliases));
  *out = std::move(item);
  return Status::OK();
}

Status Transformer::TransformRangeFunction(const PgQuery__RangeFunction& r, std::unique_ptr<FromItem>* out) {
  if (r.n_coldeflist > 0 || r.n_functions == 0) return Unsupported("a column definition list", -1);
  auto item = std::make_unique<FromItem>();
  item->lateral = true;  // a function in FROM may read the items before it
  item->ordinality = r.ordinality;
  // Each item is a list of (call, column definitions).
  for (size_t i = 0; i < r.n_functions; ++i) {
    const Node* pair = r.functions[i];
    if (!Is(pair, PG_QUERY__NODE__NODE_LIST) || pair->list->n_items < 1) return Unsupported("this function in FROM", -1);
    const Node* definitions = pair->list->n_items > 1 ? pair->list->items[1] : nullptr;
    if (Is(definitions, PG_QUERY__NODE__NODE_LIST) && definitions->list->n_items > 0) {
      return Unsupported("a column definition list", -1);
    }
    const Node* call = pair->list->items[0];
    if (!Is(call, PG_QUERY__NODE__NODE_FUNC_CALL)) return UnsupportedExpression(*call);
    ExprPtr function;
    PL_RETURN_IF_ERROR(TransformExpr(call, &function));
    if (r.n_functions == 1) {
      item->function = std::move(function);
      break;
    }
    auto member = std::make_unique<FromItem>();
    member->location = function->location;
    member->function = std::move(function);
    item->rows_from.push_back(std::move(member));
  }
  item->location = item->function ? item->function->location : item->rows_from[0]->location;
  item->table.location = item->location;
  // The default alias: the function's name (ROWS FROM: the first's).
  item->table.name = item->function ? item->function->function_name : item->rows_from[0]->function->function_name;
  if (r.alias != nullptr) PL_RETURN_IF_ERROR(TransformAlias(*r.alias, &item->table.alias, &item->column_aliases));
  *out = std::move(item);
  return Status::OK();
}

namespace {

// Set-returning functions that a select list may call: of one column, or
// of a record (RecordColumns).
bool IsSetReturningName(const std::string& name) {
  return name == "unnest" || name == "generate_series" || name == "generate_subscripts" ||
         name == "json_array_elements" || name == "jsonb_array_elements" || name == "json_array_elements_text" ||
         name == "jsonb_array_elements_text" || name == "json_object_keys" || name == "jsonb_object_keys" ||
         name == "_pg_expandarray";
}

// The columns of a set-returning function that returns a record (its
// fields' names); empty for one of one column.
std::vector<std::string> RecordColumns(const std::string& name) {
  if (name == "_pg_expandarray") return {"x", "n"};
  return {};
}

// The set-returning call of a select-list item: `f(..)`, or `(f(..)).field`
// of one that returns a record; null otherwise.
Expr* SetReturningCall(Expr* e) {
  if (e == nullptr) return nullptr;
  if (e->kind == ExprKind::kFieldSelect) {
    Expr* call = SetReturningCall(e->left.get());
    return call != nullptr && !RecordColumns(call->function_name).empty() ? call : nullptr;
  }
  if (e->kind == ExprKind::kFunction && IsSetReturningName(e->function_name) && !e->star && !e->distinct &&
      e->over == nullptr) {
    return e;
  }
  return nullptr;
}

// Whether `e` calls an aggregate or window function anywhere (outside subqueries).
bool CallsAggregateOrWindow(const Expr* e) {
  if (e == nullptr) return false;
  if (e->kind == ExprKind::kFunction && (e->over != nullptr || Binder::IsAggregateName(e->function_name))) {
    return true;
  }
  if (CallsAggregateOrWindow(e->left.get()) || CallsAggregateOrWindow(e->right.get()) ||
      CallsAggregateOrWindow(e->else_result.get())) {
    return true;
  }
  for (const auto& x : e->list) {
    if (CallsAggregateOrWindow(x.get())) return true;
  }
  for (const auto& w : e->whens) {
    if (CallsAggregateOrWindow(w.condition.get()) || CallsAggregateOrWindow(w.result.get())) return true;
  }
  return false;
}

}  // namespace

Status Transformer::MoveSetReturningTargets(SelectStmt* select) {
  // PostgreSQL runs a select list's set-returning calls in lockstep, one
  // output row per row of the longest (the others NULL), after FROM and
  // WHERE: that is a LATERAL ROWS FROM of the calls, joined last, whose
  // columns the select list then reads. Above grouping or windows they
  // would run after those, and beside a bare * the item's columns would
  // show: not rewritten (the binder says 0A000).
  std::vector<size_t> calls;
  for (size_t i = 0; i < select->targets.size(); ++i) {
    if (SetReturningCall(select->targets[i].expr.get()) != nullptr) calls.push_back(i);
  }
  if (calls.empty() || !select->group_by.empty() || select->having != nullptr) return Status::OK();
  for (const auto& t : select->targets) {
    if (CallsAggregateOrWindow(t.expr.get())) return Status::OK();
    // A bare * would take the new item's columns too: left as it is (0A000).
    if (t.expr != nullptr && t.expr->kind == ExprKind::kStar && t.expr->qualifier.empty()) return Status::OK();
  }
  static constexpr const char* kAlias = "set-returning functions";  // no name a query can write unquoted
  auto item = std::make_unique<FromItem>();
  item->lateral = true;
  item->table.name = item->table.alias = kAlias;
  for (size_t k = 0; k < calls.size(); ++k) {
    SelectItem& target = select->targets[calls[k]];
    // The call moves into ROWS FROM; its place in the target is taken by its
    // column, or by a row of its columns when it returns a record.
    ExprPtr* at = &target.expr;
    while ((*at)->kind == ExprKind::kFieldSelect) at = &(*at)->left;
    auto member = std::make_unique<FromItem>();
    member->location = (*at)->location;
    // The column's name, as PostgreSQL's: the function's, or the field's.
    if (target.alias.empty()) {
      target.alias = target.expr->kind == ExprKind::kFieldSelect ? target.expr->column : (*at)->function_name;
    }
    const std::vector<std::string> fields = RecordColumns((*at)->function_name);
    member->function = std::move(*at);
    auto column_ref = [&](const std::string& column) {
      auto ref = std::make_unique<Expr>();
      ref->kind = ExprKind::kColumnRef;
      ref->location = member->location;
      ref->qualifier = kAlias;
      ref->column = column;
      item->column_aliases.push_back(column);
      return ref;
    };
    const std::string column = "c" + std::to_string(k + 1);
    if (fields.empty()) {
      *at = column_ref(column);
    } else {
      auto row = std::make_unique<Expr>();
      row->kind = ExprKind::kRow;
      row->location = member->location;
      for (const std::string& f : fields) row->list.push_back(column_ref(column + "_" + f));
      row->field_names = fields;
      *at = std::move(row);
    }
    item->location = member->location;
    item->rows_from.push_back(std::move(member));
  }
  if (item->rows_from.size() == 1) {
    item->function = std::move(item->rows_from[0]->function);
    item->rows_from.clear();
  }
  item->table.location = item->location;
  select->from.push_back(std::move(item));
  return Status::OK();
}

Status Transformer::TransformWith(const PgQuery__WithClause& w, std::vector<CommonTableExpr>* out) {
  for (size_t i = 0; i < w.n_ctes; ++i) {
    const Node* n = w.ctes[i];
    if (!Is(n, PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR)) return Unsupported("WITH item " + NodeFieldName(n), -1);
    const PgQuery__CommonTableExpr& c = *n->common_table_expr;
    CommonTableExpr cte;
    cte.name = Str(c.ctename);
    cte.location = c.location;
    cte.recursive = w.recursive;
    if (c.search_clause != nullptr) return Unsupported("WITH RECURSIVE .. SEARCH", c.location);
    if (c.cycle_clause != nullptr) return Unsupported("WITH RECURSIVE .. CYCLE", c.location);
    PL_RETURN_IF_ERROR(TransformNameList(c.aliascolnames, c.n_aliascolnames, c.location, &cte.column_aliases));
    if (Is(c.ctequery, PG_QUERY__NODE__NODE_INSERT_STMT)) {
      std::unique_ptr<InsertStmt> insert;
      PL_RETURN_IF_ERROR(TransformInsert(*c.ctequery->insert_stmt, &insert));
      cte.insert = std::move(insert);
    } else if (Is(c.ctequery, PG_QUERY__NODE__NODE_UPDATE_STMT)) {
      std::unique_ptr<UpdateStmt> update;
      PL_RETURN_IF_ERROR(TransformUpdate(*c.ctequery->update_stmt, &update));
      cte.update = std::move(update);
    } else if (Is(c.ctequery, PG_QUERY__NODE__NODE_DELETE_STMT)) {
      std::unique_ptr<DeleteStmt> del;
      PL_RETURN_IF_ERROR(TransformDelete(*c.ctequery->delete_stmt, &del));
      cte.del = std::move(del);
    } else if (Is(c.ctequery, PG_QUERY__NODE__NODE_SELECT_STMT)) {
      std::unique_ptr<SelectStmt> query;
      PL_RETURN_IF_ERROR(TransformSelect(*c.ctequery->select_stmt, &query));
      cte.query = std::move(query);
    } else {
      return Unsupported("WITH query " + NodeFieldName(c.ctequery), c.location);
    }
    out->push_back(std::move(cte));
  }
  return Status::OK();
}

Status Transformer::TransformJoinExpr(const PgQuery__JoinExpr& j, std::unique_ptr<FromItem>* out) {
  if (j.larg == nullptr || j.rarg == nullptr) return InternalError("JOIN without two sides");
  auto item = std::make_unique<FromItem>();
  item->is_join = true;
  item->natural = j.is_natural;
  PL_RETURN_IF_ERROR(TransformFromItem(*j.larg, &item->left));
  PL_RETURN_IF_ERROR(TransformFromItem(*j.rarg, &item->right));
  item->location = item->left->location;  // JoinExpr has no location of its own
  if (j.alias != nullptr) return Unsupported("alias on a JOIN", item->location);
  if (j.join_using_alias != nullptr) return Unsupported("JOIN ... USING (...) AS alias", item->location);
  switch (j.jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER:
      // CROSS JOIN is an inner join with no condition at all.
      item->join_kind = j.quals == nullptr && j.n_using_clause == 0 && !j.is_natural ? JoinKind::kCross
                                                                                     : JoinKind::kInner;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT: item->join_kind = JoinKind::kLeft; break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT: item->join_kind = JoinKind::kRight; break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL: item->join_kind = JoinKind::kFull; break;
    default: return Unsupported("join type " + std::to_string(j.jointype), item->location);
  }
  PL_RETURN_IF_ERROR(
      TransformNameList(j.using_clause, j.n_using_clause, item->location, &item->using_columns));
  PL_RETURN_IF_ERROR(TransformExpr(j.quals, &item->on));
  *out = std::move(item);
  return Status::OK();
}

Status Transformer::TransformSortBy(const PgQuery__SortBy& s, OrderItem* out) {
  if (s.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING || s.n_use_op > 0) {
    return Unsupported("ORDER BY ... USING", s.location);
  }
  out->descending = s.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
  if (s.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) out->nulls_first = true;
  if (s.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) out->nulls_first = false;
  return TransformExpr(s.node, &out->expr);
}

Status Transformer::TransformWindowDef(const PgQuery__WindowDef& w, std::shared_ptr<const WindowDefinition>* out) {
  auto def = std::make_shared<WindowDefinition>();
  def->name = Str(w.name);
  def->refname = Str(w.refname);
  def->location = w.location;
  PL_RETURN_IF_ERROR(TransformExprList(w.partition_clause, w.n_partition_clause, &def->partition_by));
  for (size_t i = 0; i < w.n_order_clause; ++i) {
    const Node* n = w.order_clause[i];
    if (!Is(n, PG_QUERY__NODE__NODE_SORT_BY)) return Unsupported("window ORDER BY item " + NodeFieldName(n), w.location);
    OrderItem item;
    PL_RETURN_IF_ERROR(TransformSortBy(*n->sort_by, &item));
    def->order_by.push_back(std::move(item));
  }
  def->frame_options = w.frame_options;
  PL_RETURN_IF_ERROR(TransformExpr(w.start_offset, &def->start_offset));
  PL_RETURN_IF_ERROR(TransformExpr(w.end_offset, &def->end_offset));
  *out = std::move(def);
  return Status::OK();
}

Status Transformer::TransformLockingClause(const PgQuery__LockingClause& l, SelectStmt* out) {
  LockingClause clause;
  switch (l.strength) {
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE: clause.strength = LockStrength::kKeyShare; break;
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE: clause.strength = LockStrength::kShare; break;
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE: clause.strength = LockStrength::kNoKeyUpdate; break;
    default: clause.strength = LockStrength::kUpdate; break;
  }
  clause.lock.exclusive = clause.strength == LockStrength::kUpdate || clause.strength == LockStrength::kNoKeyUpdate;
  clause.lock.wait = l.wait_policy == PG_QUERY__LOCK_WAIT_POLICY__LockWaitSkip    ? cc::LockWait::kSkip
                     : l.wait_policy == PG_QUERY__LOCK_WAIT_POLICY__LockWaitError ? cc::LockWait::kNoWait
                                                                                  : cc::LockWait::kBlock;
  for (size_t i = 0; i < l.n_locked_rels; ++i) {
    const Node* n = l.locked_rels[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RANGE_VAR)) return Unsupported("locking clause target", -1);
    const PgQuery__RangeVar& rv = *n->range_var;
    if (rv.schemaname != nullptr && rv.schemaname[0] != '\0') {
      return SyntaxError(std::string(LockStrengthName(clause.strength)) + " must specify unqualified relation names",
                         CharPosition(rv.location));
    }
    clause.of.emplace_back(rv.relname, rv.location);
  }
  out->locking.push_back(std::move(clause));
  return Status::OK();
}

}  // namespace paceline::sql::transform
