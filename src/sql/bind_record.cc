// Binder: records (see binder.h, binder_internal.h). ROW(a, b) and (a, b)
// build a record whose fields are named f1, f2, .. (a select list's
// row-returning call names them as its columns: _pg_expandarray's x and
// n); (x).name reads a field; and two row constructors compared are
// compared field by field, as PostgreSQL's row comparison: = and IS NOT
// DISTINCT FROM all fields, <> and IS DISTINCT FROM any, < <= > >= by the
// first pair that is not equal (NULL when that pair has a NULL; each field
// evaluated once, kRowCompare). Two
// record values that are not constructors compare as whole records
// (Value::Compare: a NULL field equal to a NULL and after any other value).
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// `parts` joined by kind (AND, OR); one part alone as itself.
BoundExprPtr JoinBool(BoundKind kind, std::vector<BoundExprPtr> parts, int location) {
  if (parts.size() == 1) return std::move(parts[0]);
  BoundExprPtr node = MakeNode(kind, Type(TypeId::kBool), location);
  node->children = std::move(parts);
  return node;
}

std::string FieldName(const Expr& row, size_t i) {
  return i < row.field_names.size() ? row.field_names[i] : "f" + std::to_string(i + 1);
}

}  // namespace

Status Binder::BindRow(const Expr& e, Context& ctx, BoundExprPtr* out) {
  std::vector<RecordField> fields;
  auto node = MakeNode(BoundKind::kRow, Type(TypeId::kRecord), e.location);
  for (size_t i = 0; i < e.list.size(); ++i) {
    BoundExprPtr field;
    PL_RETURN_IF_ERROR(BindExpr(*e.list[i], ctx, &field));
    if (IsUnknown(*field)) PL_RETURN_IF_ERROR(Coerce(&field, Type(TypeId::kText), false, e.location));
    fields.push_back({FieldName(e, i), field->type});
    node->children.push_back(std::move(field));
  }
  node->type = Type::Record(std::move(fields));
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindFieldSelect(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::string& name = e.column;
  if (e.left->kind == ExprKind::kRow) {  // (ROW(a, b)).f2: the field's own expression
    for (size_t i = 0; i < e.left->list.size(); ++i) {
      if (FieldName(*e.left, i) == name) return BindExpr(*e.left->list[i], ctx, out);
    }
  }
  BoundExprPtr record;
  PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &record));
  if (!record->type.IsRecord()) {
    return Status(sqlstate::kWrongObjectType,
                  "column notation ." + name + " applied to type " + TypeText(record->type) +
                      ", which is not a composite type",
                  Pos(e.location));
  }
  const std::vector<RecordField>* fields = record->type.fields.get();
  for (size_t i = 0; fields != nullptr && i < fields->size(); ++i) {
    if ((*fields)[i].name != name) continue;
    auto node = MakeNode(BoundKind::kFieldSelect, (*fields)[i].type, e.location);
    node->index = static_cast<int>(i);
    node->children.push_back(std::move(record));
    *out = std::move(node);
    return Status::OK();
  }
  return Status(sqlstate::kUndefinedColumn, "could not identify column \"" + name + "\" in record data type",
                Pos(e.location));
}

Status Binder::BindRowCompare(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b, BinaryOp op,
                              int location, Context& ctx, BoundExprPtr* out) {
  if (a.size() != b.size()) {
    return Status(sqlstate::kSyntaxError, "unequal number of entries in row expressions", Pos(location));
  }
  if (a.empty()) return NotSupported("comparison of empty rows");
  if (op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kIsDistinctFrom ||
      op == BinaryOp::kIsNotDistinctFrom) {
    // Pairwise comparisons, each bound as `x op y` is (so key equalities
    // reach the planner and the references), joined by AND or OR.
    std::vector<BoundExprPtr> parts(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      BoundExprPtr x, y;
      PL_RETURN_IF_ERROR(BindExpr(*a[i], ctx, &x));
      PL_RETURN_IF_ERROR(BindExpr(*b[i], ctx, &y));
      PL_RETURN_IF_ERROR(BindCompare(op, std::move(x), std::move(y), location, &parts[i]));
    }
    const bool all = op == BinaryOp::kEq || op == BinaryOp::kIsNotDistinctFrom;
    *out = JoinBool(all ? BoundKind::kAnd : BoundKind::kOr, std::move(parts), location);
    return Status::OK();
  }
  // < <= > >=: one node that evaluates the pairs in order, each field
  // once, up to the first pair that is not equal (its order decides, NULL
  // when it has a NULL); all equal: true for <= and >=.
  auto node = MakeNode(BoundKind::kRowCompare, Type(TypeId::kBool), location);
  node->op = op;
  for (size_t i = 0; i < a.size(); ++i) {
    BoundExprPtr x, y;
    PL_RETURN_IF_ERROR(BindExpr(*a[i], ctx, &x));
    PL_RETURN_IF_ERROR(BindExpr(*b[i], ctx, &y));
    PL_RETURN_IF_ERROR(UnifyUnknown(&x, &y, location));
    if (!Comparable(x->type, y->type)) {
      return NoSuchOperator(x->type, OperatorText(op), y->type, location);
    }
    node->children.push_back(std::move(x));
    node->children.push_back(std::move(y));
  }
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindRowIn(const Expr& e, Context& ctx, BoundExprPtr* out) {
  // ROW(..) IN (ROW(..), ..) ≡ each = joined by OR; NOT IN: each <> by AND.
  std::vector<BoundExprPtr> parts;
  for (const auto& item : e.list) {
    BoundExprPtr part;
    PL_RETURN_IF_ERROR(BindRowCompare(e.left->list, item->list, e.negated ? BinaryOp::kNe : BinaryOp::kEq,
                                      e.location, ctx, &part));
    parts.push_back(std::move(part));
  }
  *out = JoinBool(e.negated ? BoundKind::kAnd : BoundKind::kOr, std::move(parts), e.location);
  return Status::OK();
}

}  // namespace paceline::sql
