// Binder: interval arithmetic, timestamp differences, the interval
// functions (justify_*) and pg_sleep / pg_sleep_for (see binder.h).
//
// The operators are PostgreSQL's, with its resolution of an untyped
// literal: timestamp[tz] ± interval and interval + timestamp[tz] (a date
// side is a timestamp: date + interval is timestamp); timestamp − timestamp
// (either may be a date) → interval; interval ± interval; interval * and /
// a number (as float8), number * interval; an untyped side is an interval
// beside an interval and a timestamp, but a timestamp on the other side of
// a timestamp's `−`, and a float8 beside `*` and `/`. Any other mix with an
// interval is 42883 `operator does not exist`.
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

bool IsTimestamp(const Type& t) { return t.id == TypeId::kTimestamp || t.id == TypeId::kTimestampTz; }
bool IsInterval(const Type& t) { return t.id == TypeId::kInterval; }

}  // namespace

bool Binder::IsIntervalArithmetic(BinaryOp op, const BoundExpr& left, const BoundExpr& right) {
  if (IsInterval(left.type) || IsInterval(right.type)) return true;
  // timestamp − timestamp (a date on one side), timestamp + or − 'literal'.
  const bool ts_left = IsTimestamp(left.type), ts_right = IsTimestamp(right.type);
  if (op == BinaryOp::kSub && ((ts_left && right.type.IsTemporal()) || (ts_right && left.type.IsTemporal()))) {
    return true;
  }
  return ((ts_left && IsUnknown(right)) || (ts_right && IsUnknown(left))) &&
         (op == BinaryOp::kAdd || op == BinaryOp::kSub);
}

Status Binder::BindIntervalArithmetic(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location,
                                      BoundExprPtr* out) {
  const Type interval(TypeId::kInterval), float8(TypeId::kFloat64);
  // An untyped side (IsIntervalArithmetic saw a typed one on the other side).
  if (IsUnknown(*right)) {
    const Type as = op == BinaryOp::kMul || op == BinaryOp::kDiv ? float8
                    : IsTimestamp(left->type) && op == BinaryOp::kSub ? Type(left->type.id)
                                                                      : interval;
    PL_RETURN_IF_ERROR(Coerce(&right, as, false, location));
  } else if (IsUnknown(*left)) {
    const Type as = op == BinaryOp::kMul                               ? float8
                    : IsTimestamp(right->type) && op == BinaryOp::kSub ? Type(right->type.id)
                                                                       : interval;
    PL_RETURN_IF_ERROR(Coerce(&left, as, false, location));
  }
  const Type a = left->type, b = right->type;
  Type result;
  bool ok = true;
  switch (op) {
    case BinaryOp::kAdd:
      if (IsInterval(a) && IsInterval(b)) {
        result = interval;
      } else if (IsInterval(b) && a.IsTemporal()) {
        result = Type(a.id == TypeId::kDate ? TypeId::kTimestamp : a.id);
      } else if (IsInterval(a) && b.IsTemporal()) {
        result = Type(b.id == TypeId::kDate ? TypeId::kTimestamp : b.id);
      } else {
        ok = false;
      }
      break;
    case BinaryOp::kSub:
      if (IsInterval(a) && IsInterval(b)) {
        result = interval;
      } else if (IsInterval(b) && a.IsTemporal()) {
        result = Type(a.id == TypeId::kDate ? TypeId::kTimestamp : a.id);
      } else if (a.IsTemporal() && b.IsTemporal()) {
        result = interval;  // a date side is read as its midnight
      } else {
        ok = false;
      }
      break;
    case BinaryOp::kMul:
      ok = (IsInterval(a) && b.IsNumber()) || (a.IsNumber() && IsInterval(b));
      result = interval;
      break;
    case BinaryOp::kDiv:
      ok = IsInterval(a) && b.IsNumber();
      result = interval;
      break;
    default:
      ok = false;
      break;
  }
  if (!ok) {
    return NoSuchOperator(a, OperatorText(op), b, location);
  }
  if (a.IsNumber()) PL_RETURN_IF_ERROR(Coerce(&left, float8, false, location));
  if (b.IsNumber()) PL_RETURN_IF_ERROR(Coerce(&right, float8, false, location));
  auto node = MakeNode(BoundKind::kArithmetic, result, location);
  node->op = op;
  node->children.push_back(std::move(left));
  node->children.push_back(std::move(right));
  *out = FoldConstant(std::move(node));
  return Status::OK();
}

Status Binder::BindIntervalFunction(const std::string& name, std::vector<BoundExprPtr>& args, BoundExpr* node,
                                    int location) {
  const Type interval(TypeId::kInterval);
  BoundExprPtr& arg = args[0];
  const bool sleep = node->function == ScalarFunction::kPgSleep;
  const Type want = sleep ? Type(TypeId::kFloat64) : interval;
  if (IsUnknown(*arg)) PL_RETURN_IF_ERROR(Coerce(&arg, want, false, location));
  const bool fits = sleep ? arg->type.IsNumber() : IsInterval(arg->type);
  if (!fits) {
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + TypeText(arg->type) + ") does not exist",
                  Pos(location));
  }
  if (sleep) PL_RETURN_IF_ERROR(Coerce(&arg, want, false, location));
  node->type = node->function == ScalarFunction::kPgSleep || node->function == ScalarFunction::kPgSleepFor
                   ? Type(TypeId::kVoid)
                   : interval;
  return Status::OK();
}

}  // namespace paceline::sql
