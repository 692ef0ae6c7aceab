// BoundExpr construction helpers, cloning and structural comparison.
#include "sql/bound_expr.h"

namespace paceline::sql {

BoundExprPtr BoundExpr::Constant(Value v, Type type) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kConstant;
  e->constant = std::move(v);
  e->type = type;
  return e;
}

BoundExprPtr BoundExpr::Column(int source, int column, Type type) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kColumn;
  e->source = source;
  e->index = column;
  e->type = type;
  return e;
}

BoundExprPtr BoundExpr::Slot(int slot, Type type) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kSlot;
  e->index = slot;
  e->type = type;
  return e;
}

BoundExprPtr BoundExpr::Clone() const {
  auto e = std::make_unique<BoundExpr>();
  e->kind = kind;
  e->type = type;
  e->location = location;
  e->constant = constant;
  e->index = index;
  e->source = source;
  e->op = op;
  e->test = test;
  e->negated = negated;
  e->explicit_cast = explicit_cast;
  e->function = function;
  e->has_operand = has_operand;
  e->has_else = has_else;
  e->depth = depth;
  e->subquery = subquery;
  for (const auto& c : children) e->children.push_back(c->Clone());
  return e;
}

BinaryOp Commuted(BinaryOp op) {
  switch (op) {
    case BinaryOp::kLt: return BinaryOp::kGt;
    case BinaryOp::kLe: return BinaryOp::kGe;
    case BinaryOp::kGt: return BinaryOp::kLt;
    case BinaryOp::kGe: return BinaryOp::kLe;
    default: return op;
  }
}

bool IsAdvisoryLockFunction(ScalarFunction function) {
  return function >= ScalarFunction::kAdvisoryLock && function <= ScalarFunction::kAdvisoryUnlockAll;
}

bool IsCatalogFunction(ScalarFunction function) {
  return function >= ScalarFunction::kVersion && function <= ScalarFunction::kRegprocOut;
}

bool IsVolatile(ScalarFunction function) {
  if (IsAdvisoryLockFunction(function)) return true;
  switch (function) {
    case ScalarFunction::kRandom: case ScalarFunction::kClockTimestamp: case ScalarFunction::kGenRandomUuid:
    case ScalarFunction::kPgSleep: case ScalarFunction::kPgSleepFor: case ScalarFunction::kSetConfig:
    case ScalarFunction::kNextval: case ScalarFunction::kCurrval: case ScalarFunction::kSetval:
    case ScalarFunction::kLastval: case ScalarFunction::kPgNotify:
      return true;
    default:
      return false;
  }
}

bool IsImmutable(ScalarFunction function) {
  return !IsVolatile(function) && !IsCatalogFunction(function) && function != ScalarFunction::kNow &&
         function != ScalarFunction::kCurrentDate;
}

bool BoundExpr::ContainsVolatile() const {
  if (kind == BoundKind::kFunction && IsVolatile(function)) return true;
  for (const auto& c : children) {
    if (c->ContainsVolatile()) return true;
  }
  return false;
}

bool BoundExpr::Equals(const BoundExpr& o) const {
  if (kind != o.kind || !(type == o.type) || children.size() != o.children.size()) return false;
  switch (kind) {
    case BoundKind::kConstant:
      if (!(constant == o.constant)) return false;
      break;
    case BoundKind::kParameter: case BoundKind::kSlot:
      if (index != o.index) return false;
      break;
    case BoundKind::kColumn:
      if (index != o.index || source != o.source) return false;
      break;
    case BoundKind::kOuterColumn:
      if (index != o.index || source != o.source || depth != o.depth) return false;
      break;
    case BoundKind::kSubquery:
      if (subquery != o.subquery || op != o.op) return false;
      break;
    default:
      if (op != o.op || test != o.test || negated != o.negated || function != o.function ||
          has_operand != o.has_operand || has_else != o.has_else || explicit_cast != o.explicit_cast) {
        return false;
      }
  }
  for (size_t i = 0; i < children.size(); ++i) {
    if (!children[i]->Equals(*o.children[i])) return false;
  }
  return true;
}

bool BoundExpr::OnlyUses(int source_limit) const {
  if (kind == BoundKind::kColumn) return source < source_limit;
  if (kind == BoundKind::kSlot) return false;
  if (kind == BoundKind::kSubquery) {
    for (int s : subquery->outer_sources) {
      if (s >= source_limit) return false;
    }
  }
  for (const auto& c : children) {
    if (!c->OnlyUses(source_limit)) return false;
  }
  return true;
}

}  // namespace paceline::sql
