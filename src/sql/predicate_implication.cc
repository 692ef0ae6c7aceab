// PredicateImplied: proving a partial index's condition from a query's
// conditions (see predicate_implication.h).
#include "sql/predicate_implication.h"

namespace paceline::sql {

namespace {

bool IsComparison(BinaryOp op) { return op >= BinaryOp::kEq && op <= BinaryOp::kGe; }

bool IsBoolConstant(const BoundExpr& e) {
  return e.kind == BoundKind::kConstant && e.type.id == TypeId::kBool && !e.constant.is_null();
}

// A copy of `e` with its columns of source `from` moved to `to`, and
// `b = true` / `b = false` rewritten as `b` / `NOT b`.
BoundExprPtr Canonical(const BoundExpr& e, int from, int to) {
  if (e.kind == BoundKind::kCompare && e.op == BinaryOp::kEq && e.children.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      const BoundExpr& value = *e.children[side];
      const BoundExpr& other = *e.children[1 - side];
      if (!IsBoolConstant(value) || other.type.id != TypeId::kBool) continue;
      BoundExprPtr operand = Canonical(other, from, to);
      if (value.constant.bool_value()) return operand;
      auto negation = std::make_unique<BoundExpr>();
      negation->kind = BoundKind::kNot;
      negation->type = Type(TypeId::kBool);
      negation->children.push_back(std::move(operand));
      return negation;
    }
  }
  BoundExprPtr copy = e.Clone();
  copy->children.clear();
  if (copy->kind == BoundKind::kColumn && copy->source == from) copy->source = to;
  for (const auto& child : e.children) copy->children.push_back(Canonical(*child, from, to));
  return copy;
}

// `column op constant` (either way round): the column and constant, and
// the operator with the column on the left.
struct ColumnComparison {
  const BoundExpr* column = nullptr;
  BinaryOp op = BinaryOp::kEq;
  const BoundExpr* constant = nullptr;  // null: the other side is no constant
};

bool AsColumnComparison(const BoundExpr& e, ColumnComparison* out) {
  if (e.kind != BoundKind::kCompare || !IsComparison(e.op) || e.children.size() != 2) return false;
  for (int side = 0; side < 2; ++side) {
    const BoundExpr& column = *e.children[side];
    if (column.kind != BoundKind::kColumn) continue;
    const BoundExpr& other = *e.children[1 - side];
    out->column = &column;
    out->op = side == 0 ? e.op : Commuted(e.op);
    out->constant = other.kind == BoundKind::kConstant && !other.constant.is_null() ? &other : nullptr;
    return true;
  }
  return false;
}

// Whether every x with `x fact a` has `x part b`.
bool RangeImplied(BinaryOp fact, const Value& a, BinaryOp part, const Value& b) {
  const int c = Value::Compare(a, b);  // a against b
  switch (part) {
    case BinaryOp::kEq: return fact == BinaryOp::kEq && c == 0;
    case BinaryOp::kNe:
      switch (fact) {
        case BinaryOp::kEq: return c != 0;
        case BinaryOp::kNe: return c == 0;
        case BinaryOp::kLt: return c <= 0;
        case BinaryOp::kLe: return c < 0;
        case BinaryOp::kGt: return c >= 0;
        case BinaryOp::kGe: return c > 0;
        default: return false;
      }
    case BinaryOp::kLt:
      return (fact == BinaryOp::kEq && c < 0) || (fact == BinaryOp::kLt && c <= 0) || (fact == BinaryOp::kLe && c < 0);
    case BinaryOp::kLe:
      return (fact == BinaryOp::kEq || fact == BinaryOp::kLt || fact == BinaryOp::kLe) && c <= 0;
    case BinaryOp::kGt:
      return (fact == BinaryOp::kEq && c > 0) || (fact == BinaryOp::kGt && c >= 0) || (fact == BinaryOp::kGe && c > 0);
    case BinaryOp::kGe:
      return (fact == BinaryOp::kEq || fact == BinaryOp::kGt || fact == BinaryOp::kGe) && c >= 0;
    default: return false;
  }
}

bool SameColumn(const BoundExpr& a, const BoundExpr& b) {
  return a.source == b.source && a.index == b.index && a.type == b.type;
}

// Whether `fact` (canonical) proves `part` (canonical, same sources).
bool Proves(const BoundExpr& fact, const BoundExpr& part) {
  if (fact.Equals(part)) return true;
  if (part.kind == BoundKind::kIsNull && part.negated && part.children.size() == 1 &&
      part.children[0]->kind == BoundKind::kColumn) {
    ColumnComparison f;
    return AsColumnComparison(fact, &f) && SameColumn(*f.column, *part.children[0]);
  }
  ColumnComparison f, p;
  if (!AsColumnComparison(fact, &f) || !AsColumnComparison(part, &p)) return false;
  if (f.constant == nullptr || p.constant == nullptr || !SameColumn(*f.column, *p.column)) return false;
  if (f.constant->constant.type() != p.constant->constant.type() || !(f.constant->type == p.constant->type)) {
    return false;
  }
  return RangeImplied(f.op, f.constant->constant, p.op, p.constant->constant);
}

bool PartProved(const std::vector<BoundExprPtr>& facts, const BoundExpr& part) {
  if (part.kind == BoundKind::kAnd) {
    for (const auto& child : part.children) {
      if (!PartProved(facts, *child)) return false;
    }
    return true;
  }
  if (part.kind == BoundKind::kOr) {
    for (const auto& child : part.children) {
      if (PartProved(facts, *child)) return true;
    }
  }
  for (const auto& fact : facts) {
    if (Proves(*fact, part)) return true;
  }
  return false;
}

}  // namespace

void BoundConjuncts(const BoundExpr& e, std::vector<const BoundExpr*>* out) {
  if (e.kind == BoundKind::kAnd) {
    for (const auto& child : e.children) BoundConjuncts(*child, out);
    return;
  }
  out->push_back(&e);
}

bool PredicateImplied(const std::vector<const BoundExpr*>& facts, int source, const BoundExpr& condition) {
  std::vector<BoundExprPtr> canonical;
  for (const BoundExpr* fact : facts) {
    BoundExprPtr c = Canonical(*fact, source, source);
    std::vector<const BoundExpr*> parts;
    BoundConjuncts(*c, &parts);
    for (const BoundExpr* part : parts) canonical.push_back(part->Clone());
  }
  return PartProved(canonical, *Canonical(condition, 0, source));
}

}  // namespace paceline::sql
