// Binder: the expression dispatch (BindExpr), operators, CASE, predicates
// and DEFAULT expressions (see binder.h, binder_internal.h; column
// references: bind_column.cc).
#include "sql/binder_internal.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/datetime.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "sql/access_path_planner.h"
#include "sql/expression_evaluator.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

Status Binder::BindExpr(const Expr& e, Context& ctx, BoundExprPtr* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());
  switch (e.kind) {
    case ExprKind::kLiteral: {
      switch (e.literal_kind) {
        case LiteralKind::kInteger:
          if (e.int_value >= INT32_MIN && e.int_value <= INT32_MAX) {
            *out = BoundExpr::Constant(Value::Int32(static_cast<int32_t>(e.int_value)), Type(TypeId::kInt32));
          } else {
            *out = BoundExpr::Constant(Value::Int64(e.int_value), Type(TypeId::kInt64));
          }
          break;
        case LiteralKind::kNumeric: {
          Decimal d;
          Status s = Decimal::Parse(e.text, &d);
          if (!s.ok()) return s.WithPosition(Pos(e.location));
          *out = BoundExpr::Constant(Value::Numeric(d), Type(TypeId::kNumeric));
          break;
        }
        case LiteralKind::kString:
          *out = BoundExpr::Constant(Value::String(TypeId::kUnknown, e.text), Type(TypeId::kUnknown));
          break;
        case LiteralKind::kBool:
          *out = BoundExpr::Constant(Value::Bool(e.bool_value), Type(TypeId::kBool));
          break;
        case LiteralKind::kNull:
          *out = BoundExpr::Constant(Value::Null(), Type(TypeId::kUnknown));
          break;
      }
      (*out)->location = e.location;
      return Status::OK();
    }
    case ExprKind::kParameter:
      if (e.param_index < 1 || e.param_index > 65535) {
        return Status(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(e.param_index),
                      Pos(e.location));
      }
      *out = MakeParameter(e.param_index - 1, e.location);
      return Status::OK();
    case ExprKind::kColumnRef:
      return BindColumnRef(e, ctx, out);
    case ExprKind::kStar:
      return SyntaxError("\"*\" is not allowed here", Pos(e.location));
    case ExprKind::kUnary: {
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      if (e.unary_op == UnaryOp::kNot) {
        if (IsUnknown(*child)) PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kBool), false, e.location));
        if (child->type.id != TypeId::kBool) {
          return Status(sqlstate::kDatatypeMismatch,
                        "argument of NOT must be type boolean, not type " + TypeText(child->type), Pos(e.location));
        }
        *out = MakeNode(BoundKind::kNot, Type(TypeId::kBool), e.location);
        (*out)->children.push_back(std::move(child));
        return Status::OK();
      }
      if (IsUnknown(*child)) PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kNumeric), false, e.location));
      if (e.unary_op == UnaryOp::kMinus && child->type.id == TypeId::kInterval) {
        *out = MakeNode(BoundKind::kNegate, child->type, e.location);
        (*out)->children.push_back(std::move(child));
        return Status::OK();
      }
      if (!child->type.IsNumber()) {
        return Status(sqlstate::kUndefinedFunction,
                      "operator does not exist: " + std::string(e.unary_op == UnaryOp::kMinus ? "-" : "+") + " " +
                          TypeText(child->type),
                      Pos(e.location));
      }
      if (e.unary_op == UnaryOp::kPlus) {
        *out = std::move(child);
        return Status::OK();
      }
      // The one integer of each type whose negation leaves the type: as a
      // literal it widens, -(-2147483648) being PostgreSQL's bigint literal
      // 2147483648 and -(-9223372036854775808) a numeric one; otherwise (a
      // cast constant) it is left to fail when it runs, like int2um/int4um.
      const bool at_edge =
          child->kind == BoundKind::kConstant && !child->constant.is_null() && child->type.IsInteger() &&
          child->constant.int_value() == (child->type.id == TypeId::kInt16   ? INT16_MIN
                                          : child->type.id == TypeId::kInt32 ? INT32_MIN
                                                                             : INT64_MIN);
      if (at_edge && e.left->kind == ExprKind::kLiteral) {
        const int64_t v = child->constant.int_value();
        *out = v == INT64_MIN ? BoundExpr::Constant(Value::Numeric(Decimal::FromInt(v).Negate()), Type(TypeId::kNumeric))
                              : BoundExpr::Constant(Value::Int64(-v), Type(TypeId::kInt64));
        (*out)->location = e.location;
        return Status::OK();
      }
      if (child->kind == BoundKind::kConstant && !child->constant.is_null() && !at_edge) {
        // Fold -literal, widening at the edge (-(2147483648) is an int8 literal).
        const Value& v = child->constant;
        if (child->type.IsInteger()) {
          *out = BoundExpr::Constant(Value::Int64(-v.int_value()), child->type);
          if (child->type.id == TypeId::kInt32) (*out)->constant = Value::Int32(static_cast<int32_t>(-v.int_value()));
          if (child->type.id == TypeId::kInt16) (*out)->constant = Value::Int16(static_cast<int16_t>(-v.int_value()));
        } else if (child->type.IsFloat()) {
          *out = BoundExpr::Constant(child->type.id == TypeId::kFloat32 ? Value::Float32(static_cast<float>(-v.float_value()))
                                                                        : Value::Float64(-v.float_value()),
                                     child->type);
        } else {
          *out = BoundExpr::Constant(Value::Numeric(v.numeric_value().Negate()), child->type);
        }
        (*out)->location = e.location;
        return Status::OK();
      }
      *out = MakeNode(BoundKind::kNegate, child->type, e.location);
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kBinary:
      return BindBinary(e, ctx, out);
    case ExprKind::kFunction:
      return BindFunction(e, ctx, out);
    case ExprKind::kCast: {
      if (IsRegTypeName(e.cast_type.name)) return BindRegCast(e, ctx, out);
      Type target;
      std::string domain;
      PL_RETURN_IF_ERROR(ResolveType(e.cast_type, &target, &domain));
      BoundExprPtr child;
      if (e.left->kind == ExprKind::kArray) {  // ARRAY[..]::int[] types its elements (ARRAY[]::int[])
        PL_RETURN_IF_ERROR(BindArrayConstructor(*e.left, ctx, &target, &child));
      } else {
        PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      }
      if (child->kind == BoundKind::kParameter && IsUnknown(*child)) {
        // $1::int declares the parameter's type.
        PL_RETURN_IF_ERROR(Coerce(&child, target, true, e.location));
        *out = std::move(child);
        return Status::OK();
      }
      if ((child->kind != BoundKind::kConstant || child->type.IsArray()) && !CanCast(child->type.id, target.id)) {
        return Status(sqlstate::kCannotCoerce, "cannot cast type " + TypeText(child->type) + " to " + target.ToString(), Pos(e.location));
      }
      if (child->kind == BoundKind::kConstant) {
        PL_RETURN_IF_ERROR(Coerce(&child, target, true, e.location));
        *out = std::move(child);
        return Status::OK();
      }
      if (child->type == target) {
        *out = std::move(child);
        return Status::OK();
      }
      *out = MakeNode(BoundKind::kCast, target, e.location);
      (*out)->explicit_cast = true;
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kIsNull: {
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      // `$1 IS NULL` says nothing about $1's type: another use may decide it
      // (`$1 IS NULL OR k = $1`); otherwise it ends up text.
      if (IsUnknown(*child) && child->kind != BoundKind::kParameter) {
        PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kText), false, e.location));
      }
      *out = MakeNode(BoundKind::kIsNull, Type(TypeId::kBool), e.location);
      (*out)->negated = e.negated;
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kIsBool: {
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kBool), false, e.location));
      *out = MakeNode(BoundKind::kIsBool, Type(TypeId::kBool), e.location);
      (*out)->test = e.bool_test;
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kIn: {
      if (e.left->kind == ExprKind::kRow && !e.list.empty() &&
          std::all_of(e.list.begin(), e.list.end(), [](const ExprPtr& i) { return i->kind == ExprKind::kRow; })) {
        return BindRowIn(e, ctx, out);
      }
      BoundExprPtr left;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &left));
      std::vector<BoundExprPtr> items;
      for (const auto& item : e.list) {
        BoundExprPtr b;
        PL_RETURN_IF_ERROR(BindExpr(*item, ctx, &b));
        items.push_back(std::move(b));
      }
      if (IsUnknown(*left)) {
        std::vector<const BoundExpr*> all;
        for (const auto& i : items) all.push_back(i.get());
        Type t;
        PL_RETURN_IF_ERROR(CommonType(all, "IN", e.location, &t));
        PL_RETURN_IF_ERROR(Coerce(&left, OperandType(t), false, e.location));
      }
      for (auto& item : items) {
        if (IsUnknown(*item)) PL_RETURN_IF_ERROR(Coerce(&item, OperandType(left->type), false, item->location));
        if (!Comparable(left->type, item->type)) {
          return NoSuchOperator(left->type, "=", item->type, e.location);
        }
      }
      *out = MakeNode(BoundKind::kIn, Type(TypeId::kBool), e.location);
      (*out)->negated = e.negated;
      (*out)->children.push_back(std::move(left));
      for (auto& item : items) (*out)->children.push_back(std::move(item));
      return Status::OK();
    }
    case ExprKind::kBetween: {
      // x BETWEEN a AND b  ≡  x >= a AND x <= b. x is bound once and copied;
      // since a BETWEEN inside x doubles with each level of nesting, a large
      // x is refused rather than copied.
      BoundExprPtr x1, x2, lo, hi, ge, le;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &x1));
      if (CountNodes(*x1, kMaxBetweenOperandNodes + 1) > kMaxBetweenOperandNodes) {
        return Status(sqlstate::kProgramLimitExceeded, "BETWEEN operand is too complex", Pos(e.location));
      }
      x2 = x1->Clone();
      PL_RETURN_IF_ERROR(BindExpr(*e.list[0], ctx, &lo));
      PL_RETURN_IF_ERROR(BindExpr(*e.list[1], ctx, &hi));
      PL_RETURN_IF_ERROR(BindCompare(BinaryOp::kGe, std::move(x1), std::move(lo), e.location, &ge));
      PL_RETURN_IF_ERROR(BindCompare(BinaryOp::kLe, std::move(x2), std::move(hi), e.location, &le));
      auto both = MakeNode(BoundKind::kAnd, Type(TypeId::kBool), e.location);
      both->children.push_back(std::move(ge));
      both->children.push_back(std::move(le));
      if (!e.negated) {
        *out = std::move(both);
      } else {
        *out = MakeNode(BoundKind::kNot, Type(TypeId::kBool), e.location);
        (*out)->children.push_back(std::move(both));
      }
      return Status::OK();
    }
    case ExprKind::kCase:
      return BindCase(e, ctx, out);
    case ExprKind::kSubquery:
      return BindSubquery(e, ctx, out);
    case ExprKind::kArray:
      return BindArrayConstructor(e, ctx, nullptr, out);
    case ExprKind::kSubscript:
      return BindSubscript(e, ctx, out);
    case ExprKind::kArrayCompare:
      return BindArrayCompare(e, ctx, out);
    case ExprKind::kRow:
      return BindRow(e, ctx, out);
    case ExprKind::kFieldSelect:
      return BindFieldSelect(e, ctx, out);
  }
  return InternalError("unknown expression kind");
}

Status Binder::BindCompare(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out) {
  PL_RETURN_IF_ERROR(UnifyUnknown(&left, &right, location));
  if (!Comparable(left->type, right->type)) {
    return NoSuchOperator(left->type, OperatorText(op), right->type, location);
  }
  *out = MakeNode(BoundKind::kCompare, Type(TypeId::kBool), location);
  (*out)->op = op;
  (*out)->children.push_back(std::move(left));
  (*out)->children.push_back(std::move(right));
  return Status::OK();
}

Status Binder::BindBinary(const Expr& e, Context& ctx, BoundExprPtr* out) {
  BoundExprPtr left, right;
  const BinaryOp op = e.binary_op;
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr) {
    // Each operand is bound and checked before the next, as PostgreSQL does
    // (the parser folds a long chain into a balanced tree).
    const char* name = op == BinaryOp::kAnd ? "AND" : "OR";
    for (auto [side, ast] : {std::pair{&left, e.left.get()}, std::pair{&right, e.right.get()}}) {
      PL_RETURN_IF_ERROR(BindExpr(*ast, ctx, side));
      if (IsUnknown(**side)) PL_RETURN_IF_ERROR(Coerce(side, Type(TypeId::kBool), false, e.location));
      if ((*side)->type.id != TypeId::kBool) {
        return Status(sqlstate::kDatatypeMismatch,
                      std::string("argument of ") + name + " must be type boolean, not type " +
                          TypeText((*side)->type),
                      Pos(LeftmostLocation(*ast)));
      }
    }
    BoundKind kind = op == BinaryOp::kAnd ? BoundKind::kAnd : BoundKind::kOr;
    *out = MakeNode(kind, Type(TypeId::kBool), e.location);
    for (BoundExprPtr* side : {&left, &right}) {
      if ((*side)->kind == kind) {
        for (auto& c : (*side)->children) (*out)->children.push_back(std::move(c));
      } else {
        (*out)->children.push_back(std::move(*side));
      }
    }
    return Status::OK();
  }
  if (e.left->kind == ExprKind::kRow && e.right->kind == ExprKind::kRow && op >= BinaryOp::kEq &&
      (op <= BinaryOp::kGe || op == BinaryOp::kIsDistinctFrom || op == BinaryOp::kIsNotDistinctFrom)) {
    return BindRowCompare(e.left->list, e.right->list, op, e.location, ctx, out);
  }
  PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &left));
  PL_RETURN_IF_ERROR(BindExpr(*e.right, ctx, &right));
  switch (op) {
    case BinaryOp::kEq: case BinaryOp::kNe: case BinaryOp::kLt: case BinaryOp::kLe: case BinaryOp::kGt:
    case BinaryOp::kGe: case BinaryOp::kIsDistinctFrom: case BinaryOp::kIsNotDistinctFrom:
      return BindCompare(op, std::move(left), std::move(right), e.location, out);
    case BinaryOp::kJsonGet: case BinaryOp::kJsonGetText: case BinaryOp::kJsonPath: case BinaryOp::kJsonPathText:
    case BinaryOp::kContains: case BinaryOp::kContainedBy: case BinaryOp::kJsonExists:
    case BinaryOp::kJsonExistsAny: case BinaryOp::kJsonExistsAll: case BinaryOp::kJsonDeletePath:
      return BindJsonOperator(op, std::move(left), std::move(right), e.location, out);
    case BinaryOp::kSub:
      // jsonb - text|int|text[] (an untyped left side beside text is jsonb
      // too); json has no - (42883).
      if (left->type.IsJson() || (IsUnknown(*left) && right->type.IsString())) {
        return BindJsonOperator(op, std::move(left), std::move(right), e.location, out);
      }
      break;
    case BinaryOp::kConcat: {
      if (left->type.IsArray() || right->type.IsArray()) {
        return BindArrayConcat(std::move(left), std::move(right), e.location, out);
      }
      if ((left->type.id == TypeId::kJsonb && (right->type.id == TypeId::kJsonb || IsUnknown(*right))) ||
          (right->type.id == TypeId::kJsonb && IsUnknown(*left))) {
        return BindJsonOperator(op, std::move(left), std::move(right), e.location, out);
      }
      // bytea || bytea joins the bytes (an untyped literal beside a bytea is
      // bytea); any other mix is text concatenation, bytea shown in hex.
      const bool left_bytea = left->type.id == TypeId::kBytea, right_bytea = right->type.id == TypeId::kBytea;
      if ((left_bytea || right_bytea) && (left_bytea || IsUnknown(*left)) && (right_bytea || IsUnknown(*right))) {
        PL_RETURN_IF_ERROR(UnifyUnknown(&left, &right, e.location));
        *out = MakeNode(BoundKind::kConcat, Type(TypeId::kBytea), e.location);
        (*out)->children.push_back(std::move(left));
        (*out)->children.push_back(std::move(right));
        return Status::OK();
      }
      if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kText), false, e.location));
      if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, e.location));
      *out = MakeNode(BoundKind::kConcat, Type(TypeId::kText), e.location);
      (*out)->children.push_back(std::move(left));
      (*out)->children.push_back(std::move(right));
      return Status::OK();
    }
    case BinaryOp::kLike: case BinaryOp::kNotLike: case BinaryOp::kILike: case BinaryOp::kNotILike: {
      if ((!IsUnknown(*left) && !left->type.IsString()) || (!IsUnknown(*right) && !right->type.IsString())) {
        return NoSuchOperator(left->type, OperatorText(op), right->type, e.location);
      }
      if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kText), false, e.location));
      if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, e.location));
      *out = MakeNode(BoundKind::kLike, Type(TypeId::kBool), e.location);
      (*out)->op = op;
      (*out)->children.push_back(std::move(left));
      (*out)->children.push_back(std::move(right));
      return Status::OK();
    }
    case BinaryOp::kBitAnd: case BinaryOp::kBitOr: case BinaryOp::kBitXor: case BinaryOp::kShiftLeft:
    case BinaryOp::kShiftRight: {
      // Integers only. & | #: the wider of the two types (an untyped side
      // takes the other's, both untyped are int4); << >>: the left's type,
      // the count int4.
      const bool shift = op == BinaryOp::kShiftLeft || op == BinaryOp::kShiftRight;
      if (IsUnknown(*left)) {
        const Type t = !shift && right->type.IsInteger() ? right->type : Type(TypeId::kInt32);
        PL_RETURN_IF_ERROR(Coerce(&left, t, false, e.location));
      }
      if (IsUnknown(*right)) {
        const Type t = !shift && left->type.IsInteger() ? left->type : Type(TypeId::kInt32);
        PL_RETURN_IF_ERROR(Coerce(&right, t, false, e.location));
      }
      if (!left->type.IsInteger() || !right->type.IsInteger()) {
        return NoSuchOperator(left->type, OperatorText(op), right->type, e.location);
      }
      Type result = left->type;
      if (shift) {
        PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kInt32), false, e.location));
      } else {
        result = PromoteNumbers(left->type, right->type);
        PL_RETURN_IF_ERROR(Coerce(&left, result, false, e.location));
        PL_RETURN_IF_ERROR(Coerce(&right, result, false, e.location));
      }
      *out = MakeNode(BoundKind::kArithmetic, result, e.location);
      (*out)->op = op;
      (*out)->children.push_back(std::move(left));
      (*out)->children.push_back(std::move(right));
      return Status::OK();
    }
    default:
      break;
  }
  // Arithmetic.
  if (IsIntervalArithmetic(op, *left, *right)) {
    return BindIntervalArithmetic(op, std::move(left), std::move(right), e.location, out);
  }
  if (IsUnknown(*left) && IsUnknown(*right)) {
    PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kNumeric), false, e.location));
    PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kNumeric), false, e.location));
  } else if (IsUnknown(*left)) {
    Type t = right->type.id == TypeId::kDate ? Type(TypeId::kInt32) : OperandType(right->type);
    if (right->type.id == TypeId::kDate && op == BinaryOp::kSub) t = Type(TypeId::kDate);
    PL_RETURN_IF_ERROR(Coerce(&left, t, false, e.location));
  } else if (IsUnknown(*right)) {
    Type t = left->type.id == TypeId::kDate ? Type(TypeId::kInt32) : OperandType(left->type);
    PL_RETURN_IF_ERROR(Coerce(&right, t, false, e.location));
  }
  const Type& a = left->type;
  const Type& b = right->type;
  Type result;
  if (a.IsNumber() && b.IsNumber()) {
    result = PromoteNumbers(a, b);
  } else if (a.id == TypeId::kDate && b.IsInteger() && (op == BinaryOp::kAdd || op == BinaryOp::kSub)) {
    result = Type(TypeId::kDate);
  } else if (a.IsInteger() && b.id == TypeId::kDate && op == BinaryOp::kAdd) {
    result = Type(TypeId::kDate);
  } else if (a.id == TypeId::kDate && b.id == TypeId::kDate && op == BinaryOp::kSub) {
    result = Type(TypeId::kInt32);
  } else {
    return NoSuchOperator(a, OperatorText(op), b, e.location);
  }
  auto node = MakeNode(BoundKind::kArithmetic, result, e.location);
  node->op = op;
  node->children.push_back(std::move(left));
  node->children.push_back(std::move(right));
  // Fold constant arithmetic so `abalance + -2415` style literals cost nothing.
  *out = FoldConstant(std::move(node));
  return Status::OK();
}

Status Binder::BindCase(const Expr& e, Context& ctx, BoundExprPtr* out) {
  auto node = MakeNode(BoundKind::kCase, Type(), e.location);
  BoundExprPtr operand;
  if (e.left) {
    PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &operand));
    node->has_operand = true;
  }
  std::vector<BoundExprPtr> conditions, results;
  for (const auto& w : e.whens) {
    BoundExprPtr c, r;
    PL_RETURN_IF_ERROR(BindExpr(*w.condition, ctx, &c));
    PL_RETURN_IF_ERROR(BindExpr(*w.result, ctx, &r));
    if (operand) {
      PL_RETURN_IF_ERROR(UnifyUnknown(&operand, &c, e.location));
      if (!Comparable(operand->type, c->type)) {
        return NoSuchOperator(operand->type, "=", c->type, w.condition->location);
      }
    } else {
      if (IsUnknown(*c)) PL_RETURN_IF_ERROR(Coerce(&c, Type(TypeId::kBool), false, w.condition->location));
      if (c->type.id != TypeId::kBool) {
        return Status(sqlstate::kDatatypeMismatch,
                      "argument of CASE/WHEN must be type boolean, not type " + TypeText(c->type),
                      Pos(LeftmostLocation(*w.condition)));
      }
    }
    conditions.push_back(std::move(c));
    results.push_back(std::move(r));
  }
  BoundExprPtr else_result;
  if (e.else_result) PL_RETURN_IF_ERROR(BindExpr(*e.else_result, ctx, &else_result));
  // The ELSE result comes first, as PostgreSQL considers it (and names it
  // first when the types do not match).
  std::vector<const BoundExpr*> all;
  if (else_result) all.push_back(else_result.get());
  for (const auto& r : results) all.push_back(r.get());
  Type type;
  PL_RETURN_IF_ERROR(CommonType(all, "CASE", e.location, &type));
  for (auto& r : results) PL_RETURN_IF_ERROR(Coerce(&r, type, false, r->location));
  if (else_result) PL_RETURN_IF_ERROR(Coerce(&else_result, type, false, else_result->location));
  node->type = type;
  if (operand) node->children.push_back(std::move(operand));
  for (size_t i = 0; i < conditions.size(); ++i) {
    node->children.push_back(std::move(conditions[i]));
    node->children.push_back(std::move(results[i]));
  }
  if (else_result) {
    node->has_else = true;
    node->children.push_back(std::move(else_result));
  }
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindPredicate(const Expr& e, Context& ctx, const char* clause, BoundExprPtr* out, bool and_operand,
                             const char* argument_of) {
  const char* saved = ctx.clause;
  ctx.clause = clause;
  Status s = BindExpr(e, ctx, out);
  ctx.clause = saved;
  PL_RETURN_IF_ERROR(s);
  if (IsUnknown(**out)) PL_RETURN_IF_ERROR(Coerce(out, Type(TypeId::kBool), false, e.location));
  if ((*out)->type.id != TypeId::kBool) {
    return Status(sqlstate::kDatatypeMismatch,
                  std::string("argument of ") + (and_operand ? "AND" : argument_of != nullptr ? argument_of : clause) +
                      " must be type boolean, not type " +
                      TypeText((*out)->type),
                  Pos(LeftmostLocation(e)));
  }
  return Status::OK();
}

Status Binder::CheckStoredExpression(const BoundExpr& e, const char* what, int location) const {
  if (AnyNode(e, [](const BoundExpr& x) { return x.kind == BoundKind::kSubquery; })) {
    return Status(sqlstate::kFeatureNotSupported, std::string("cannot use subquery in ") + what, Pos(location));
  }
  const BoundExpr* parameter = nullptr;
  AnyNode(e, [&](const BoundExpr& x) {
    if (x.kind == BoundKind::kParameter && parameter == nullptr) parameter = &x;
    return parameter != nullptr;
  });
  if (parameter != nullptr) {
    return Status(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(parameter->index + 1),
                  Pos(parameter->location));
  }
  return Status::OK();
}

Status Binder::BindDefault(const ConstraintDef& def, const catalog::ColumnSchema& column,
                           catalog::ColumnDefault* out) {
  const Expr& expr = *def.default_value;
  Context ctx;
  ctx.clause = "DEFAULT expressions";
  BoundExprPtr e;
  const size_t named_before = relations_named_.size();
  Status bound = BindExpr(expr, ctx, &e);
  if (bound.Is(sqlstate::kUndefinedColumn)) {  // no column is in scope: any reference is one
    return Status(sqlstate::kFeatureNotSupported, "cannot use column reference in DEFAULT expression",
                  bound.position());
  }
  PL_RETURN_IF_ERROR(bound);
  *out = catalog::ColumnDefault();
  PL_RETURN_IF_ERROR(CheckStoredExpression(*e, "DEFAULT expression", expr.location));
  const Type given = e->type;
  Status coerced = CoerceForAssignment(&e, column, expr.location);
  if (coerced.Is(sqlstate::kDatatypeMismatch)) {
    return Status(sqlstate::kDatatypeMismatch, "column \"" + column.name + "\" is of type " + TypeText(column.type) +
                                                   " but default expression is of type " + TypeText(given),
                  Pos(expr.location));
  }
  PL_RETURN_IF_ERROR(coerced);
  if (def.default_text.empty()) return InternalError("a DEFAULT expression without its text");
  if (e->kind == BoundKind::kConstant) {
    // DEFAULT NULL is no default at all, as in PostgreSQL.
    if (e->constant.is_null()) return Status::OK();
    out->constant = e->constant;
  }
  out->expression = def.default_text;
  for (size_t i = named_before; i < relations_named_.size(); ++i) {
    if (catalog_->FindSequence(relations_named_[i])) out->sequences.push_back(relations_named_[i]);
  }
  return Status::OK();
}

}  // namespace paceline::sql
