// Binder: records (see binder.h, binder_internal.h). ROW(a, b) and (a, b)
// build a record whose fields are named f1, f2, .. (a select list's
// row-returning call names them as its columns: _pg_expandarray's x and
// n); (x).name reads a field; and two row constructors compared are
// compared field by field, as PostgreSQL's row comparison: = and IS NOT
// DISTINCT FROM all fields, <> and IS DISTINCT FROM any, < <= > >= by the
// first pair that is not equal (NULL when that pair has a NULL). Two
// record values that are not constructors compare as whole records
// (Value::Compare: a NULL field equal to a NULL and after any other value).
#include "engine/sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

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

Status Binder::BindRowCompare(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::vector<ExprPtr>& a = e.left->list;
  const std::vector<ExprPtr>& b = e.right->list;
  if (a.size() != b.size()) {
    return Status(sqlstate::kSyntaxError, "unequal number of entries in row expressions", Pos(e.location));
  }
  if (a.empty()) return NotSupported("comparison of empty rows");
  // Pairwise comparisons, each bound as `x op y` is.
  const BinaryOp op = e.binary_op;
  auto compare = [&](size_t i, BinaryOp pair_op, BoundExprPtr* pair) -> Status {
    BoundExprPtr x, y;
    PL_RETURN_IF_ERROR(BindExpr(*a[i], ctx, &x));
    PL_RETURN_IF_ERROR(BindExpr(*b[i], ctx, &y));
    return BindCompare(pair_op, std::move(x), std::move(y), e.location, pair);
  };
  auto join = [&](BoundKind kind, std::vector<BoundExprPtr> parts) {
    if (parts.size() == 1) return std::move(parts[0]);
    BoundExprPtr node = MakeNode(kind, Type(TypeId::kBool), e.location);
    node->children = std::move(parts);
    return node;
  };
  std::vector<BoundExprPtr> parts(a.size());
  if (op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kIsDistinctFrom ||
      op == BinaryOp::kIsNotDistinctFrom) {
    for (size_t i = 0; i < a.size(); ++i) PL_RETURN_IF_ERROR(compare(i, op, &parts[i]));
    const bool all = op == BinaryOp::kEq || op == BinaryOp::kIsNotDistinctFrom;
    *out = join(all ? BoundKind::kAnd : BoundKind::kOr, std::move(parts));
    return Status::OK();
  }
  // a < b: a1 < b1 OR (a1 = b1 AND (a2 < b2 OR (a2 = b2 AND .. an op bn))),
  // strict in every pair but the last.
  const BinaryOp strict = op == BinaryOp::kLe ? BinaryOp::kLt : op == BinaryOp::kGe ? BinaryOp::kGt : op;
  BoundExprPtr result;
  PL_RETURN_IF_ERROR(compare(a.size() - 1, op, &result));
  for (size_t i = a.size() - 1; i-- > 0;) {
    BoundExprPtr less, equal;
    PL_RETURN_IF_ERROR(compare(i, strict, &less));
    PL_RETURN_IF_ERROR(compare(i, BinaryOp::kEq, &equal));
    std::vector<BoundExprPtr> rest;
    rest.push_back(std::move(equal));
    rest.push_back(std::move(result));
    std::vector<BoundExprPtr> either;
    either.push_back(std::move(less));
    either.push_back(join(BoundKind::kAnd, std::move(rest)));
    result = join(BoundKind::kOr, std::move(either));
  }
  *out = std::move(result);
  return Status::OK();
}

}  // namespace paceline::sql
