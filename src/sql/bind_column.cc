// Binder: column references, resolved through the query's scope and the
// enclosing queries' (a correlated reference), and the error for a name
// that is not in FROM (see binder.h, binder_internal.h).
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {
// The one system column Paceline's relations have: the relation's
// pg_class.oid, as PostgreSQL's (ctid, xmin and the others do not exist).
constexpr std::string_view kTableOidColumn = "tableoid";
}  // namespace

Status Binder::MissingFromEntry(const Context& ctx, const std::string& qualifier, int location) const {
  for (const auto& entry : ctx.scope) {
    if (entry.table != nullptr && entry.table->name() == qualifier) {  // the table is there, under an alias
      return Status(sqlstate::kUndefinedTable,
                    "invalid reference to FROM-clause entry for table \"" + qualifier + "\"", Pos(location));
    }
  }
  // The item is there but out of sight (a FROM subquery without LATERAL).
  for (const Context* level = ctx.outer; level != nullptr; level = level->outer) {
    if (!level->scope_hidden) continue;
    for (const auto& entry : level->scope) {
      if (entry.name == qualifier) {
        return Status(sqlstate::kUndefinedTable,
                      "invalid reference to FROM-clause entry for table \"" + qualifier + "\"", Pos(location));
      }
    }
  }
  return Status(sqlstate::kUndefinedTable, "missing FROM-clause entry for table \"" + qualifier + "\"",
                Pos(location));
}

Status Binder::BindColumnRef(const Expr& e, Context& ctx, BoundExprPtr* out) {
  // The nearest query (this one, then the enclosing ones) that has the name.
  const ScopeEntry* found = nullptr;
  int column = -1;
  int depth = 0;
  for (Context* level = &ctx; level != nullptr && found == nullptr; level = level->outer, ++depth) {
    if (level->scope_hidden) continue;
    if (!e.qualifier.empty()) {
      for (const auto& entry : level->scope) {
        if (entry.name == e.qualifier) {
          found = &entry;
          break;
        }
      }
      if (found == nullptr) continue;
      column = found->FindColumn(e.column);
      if (column < 0 && e.column == kTableOidColumn && found->relation_oid != 0) {
        *out = BoundExpr::Constant(Value::Oid(found->relation_oid), Type(TypeId::kOid));
        (*out)->location = e.location;
        return Status::OK();
      }
      if (column < 0) {
        return Status(sqlstate::kUndefinedColumn, "column " + e.qualifier + "." + e.column + " does not exist",
                      Pos(e.location));
      }
    } else {
      for (const auto& entry : level->scope) {
        int c = entry.FindColumn(e.column);
        if (c < 0 || entry.MergedAway(e.column)) continue;
        if (found != nullptr) {
          return Status(sqlstate::kAmbiguousColumn, "column reference \"" + e.column + "\" is ambiguous",
                        Pos(e.location));
        }
        found = &entry;
        column = c;
      }
    }
    if (found != nullptr) break;
  }
  if (found == nullptr && e.qualifier.empty() && e.column == kTableOidColumn) {
    // The system column of the nearest query's one relation that has it.
    for (Context* level = &ctx; level != nullptr && found == nullptr; level = level->outer) {
      if (level->scope_hidden) continue;
      for (const auto& entry : level->scope) {
        if (entry.relation_oid == 0) continue;
        if (found != nullptr) {
          return Status(sqlstate::kAmbiguousColumn, "column reference \"" + e.column + "\" is ambiguous",
                        Pos(e.location));
        }
        found = &entry;
      }
    }
    if (found != nullptr) {
      *out = BoundExpr::Constant(Value::Oid(found->relation_oid), Type(TypeId::kOid));
      (*out)->location = e.location;
      return Status::OK();
    }
  }
  if (found == nullptr && e.qualifier.empty()) {
    // No column has the name: a function in FROM that returns one value
    // may be named as a whole, its row being that value (`FROM
    // jsonb_array_elements_text(..) AS tag WHERE tag = 'x'`).
    depth = 0;
    for (Context* level = &ctx; level != nullptr; level = level->outer, ++depth) {
      if (level->scope_hidden) continue;
      for (const auto& entry : level->scope) {
        if (entry.name == e.column && entry.derived != nullptr &&
            entry.derived->function.kind != TableFunctionKind::kNone && entry.derived->columns.size() == 1) {
          found = &entry;
          column = 0;
          break;
        }
      }
      if (found != nullptr) break;
    }
  }
  if (found == nullptr) {
    if (!e.qualifier.empty()) return MissingFromEntry(ctx, e.qualifier, e.location);
    return Status(sqlstate::kUndefinedColumn, "column \"" + e.column + "\" does not exist", Pos(e.location));
  }
  if (depth == 0) {
    *out = BoundExpr::Column(found->source, column, found->ColumnType(column));
  } else {
    // A correlated reference: every query from this one out to (not
    // including) the one that has the column depends on its row.
    Context* level = &ctx;
    for (int d = 0; d < depth; ++d, level = level->outer) {
      level->correlated = true;
      if (d == depth - 1) {
        level->outer_sources.push_back(found->source);
        level->outer_columns.emplace_back(found->source, column);
      }
    }
    *out = MakeNode(BoundKind::kOuterColumn, found->ColumnType(column), e.location);
    (*out)->depth = depth;
    (*out)->source = found->source;
    (*out)->index = column;
  }
  (*out)->location = e.location;
  return Status::OK();
}

}  // namespace paceline::sql
