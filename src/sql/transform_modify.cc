// Transformer: INSERT, UPDATE and DELETE (see transformer.h).
#include "sql/transformer.h"

#include <utility>

namespace paceline::sql::transform {

Status Transformer::TransformInsert(const PgQuery__InsertStmt& s, std::unique_ptr<InsertStmt>* out) {
  auto insert = std::make_unique<InsertStmt>();
  if (s.override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE) insert->overriding = Overriding::kUserValue;
  if (s.override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE) insert->overriding = Overriding::kSystemValue;
  if (s.relation == nullptr) return InternalError("INSERT without a table");
  PL_RETURN_IF_ERROR(TransformRangeVar(*s.relation, &insert->table));
  for (size_t i = 0; i < s.n_cols; ++i) {
    const Node* n = s.cols[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RES_TARGET)) return Unsupported("INSERT column " + NodeFieldName(n), -1);
    const PgQuery__ResTarget& col = *n->res_target;
    if (col.n_indirection > 0) {
      return Unsupported("INSERT into a field or subscript of a column", col.location);
    }
    insert->columns.push_back(Str(col.name));
  }
  if (s.select_stmt != nullptr) {  // null: DEFAULT VALUES
    if (!Is(s.select_stmt, PG_QUERY__NODE__NODE_SELECT_STMT)) {
      return Unsupported("INSERT source " + NodeFieldName(s.select_stmt), -1);
    }
    PL_RETURN_IF_ERROR(TransformSelect(*s.select_stmt->select_stmt, &insert->source));
    // WITH .. INSERT: the WITH queries are the source's (before its own).
    if (s.with_clause != nullptr) {
      std::vector<CommonTableExpr> with;
      PL_RETURN_IF_ERROR(TransformWith(*s.with_clause, &with));
      for (auto& cte : insert->source->with) with.push_back(std::move(cte));
      insert->source->with = std::move(with);
    }
  }
  if (s.on_conflict_clause != nullptr) {
    insert->on_conflict = std::make_unique<OnConflictClause>();
    PL_RETURN_IF_ERROR(TransformOnConflict(*s.on_conflict_clause, insert->on_conflict.get()));
  }
  PL_RETURN_IF_ERROR(TransformTargetList(s.returning_list, s.n_returning_list, &insert->returning));
  *out = std::move(insert);
  return Status::OK();
}

Status Transformer::TransformSetList(Node* const* items, size_t count, std::vector<SetClause>* out) {
  for (size_t i = 0; i < count; ++i) {
    const Node* n = items[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RES_TARGET)) return Unsupported("SET item " + NodeFieldName(n), -1);
    const PgQuery__ResTarget& target = *n->res_target;
    if (target.n_indirection > 0) {
      return Unsupported("assignment to a field or subscript of a column", target.location);
    }
    if (Is(target.val, PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)) {
      return Unsupported("multi-column SET (a, b) = (...)", target.location);
    }
    SetClause clause;
    clause.column = Str(target.name);
    clause.location = target.location;
    if (!Is(target.val, PG_QUERY__NODE__NODE_SET_TO_DEFAULT)) {  // DEFAULT leaves value null
      PL_RETURN_IF_ERROR(TransformExpr(target.val, &clause.value));
    }
    out->push_back(std::move(clause));
  }
  return Status::OK();
}

Status Transformer::TransformOnConflict(const PgQuery__OnConflictClause& c, OnConflictClause* out) {
  out->location = c.location;
  out->update = c.action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE;
  if (c.infer != nullptr) {
    const PgQuery__InferClause& infer = *c.infer;
    out->constraint = Str(infer.conname);
    for (size_t i = 0; i < infer.n_index_elems; ++i) {
      const Node* n = infer.index_elems[i];
      if (!Is(n, PG_QUERY__NODE__NODE_INDEX_ELEM)) return Unsupported("ON CONFLICT item " + NodeFieldName(n), -1);
      const PgQuery__IndexElem& elem = *n->index_elem;
      if (elem.expr != nullptr) return Unsupported("an expression in the ON CONFLICT target", infer.location);
      if (elem.n_collation > 0 || elem.n_opclass > 0) {
        return Unsupported("COLLATE or an operator class in the ON CONFLICT target", infer.location);
      }
      out->columns.push_back(Str(elem.name));
    }
    PL_RETURN_IF_ERROR(TransformExpr(infer.where_clause, &out->index_where));
  }
  PL_RETURN_IF_ERROR(TransformSetList(c.target_list, c.n_target_list, &out->set));
  return TransformExpr(c.where_clause, &out->where);
}

Status Transformer::TransformUpdate(const PgQuery__UpdateStmt& s, std::unique_ptr<UpdateStmt>* out) {
  auto update = std::make_unique<UpdateStmt>();
  if (s.with_clause != nullptr) PL_RETURN_IF_ERROR(TransformWith(*s.with_clause, &update->with));
  PL_RETURN_IF_ERROR(TransformFromList(s.from_clause, s.n_from_clause, &update->from));
  if (s.relation == nullptr) return InternalError("UPDATE without a table");
  PL_RETURN_IF_ERROR(TransformRangeVar(*s.relation, &update->table));
  PL_RETURN_IF_ERROR(TransformSetList(s.target_list, s.n_target_list, &update->set));
  PL_RETURN_IF_ERROR(TransformExpr(s.where_clause, &update->where));
  PL_RETURN_IF_ERROR(TransformTargetList(s.returning_list, s.n_returning_list, &update->returning));
  *out = std::move(update);
  return Status::OK();
}

Status Transformer::TransformDelete(const PgQuery__DeleteStmt& s, std::unique_ptr<DeleteStmt>* out) {
  auto del = std::make_unique<DeleteStmt>();
  if (s.with_clause != nullptr) PL_RETURN_IF_ERROR(TransformWith(*s.with_clause, &del->with));
  PL_RETURN_IF_ERROR(TransformFromList(s.using_clause, s.n_using_clause, &del->using_items));
  if (s.relation == nullptr) return InternalError("DELETE without a table");
  PL_RETURN_IF_ERROR(TransformRangeVar(*s.relation, &del->table));
  PL_RETURN_IF_ERROR(TransformExpr(s.where_clause, &del->where));
  PL_RETURN_IF_ERROR(TransformTargetList(s.returning_list, s.n_returning_list, &del->returning));
  *out = std::move(del);
  return Status::OK();
}

}  // namespace paceline::sql::transform
