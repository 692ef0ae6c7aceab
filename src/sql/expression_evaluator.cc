// ExpressionEvaluator: PostgreSQL semantics for every BoundKind (scalar
// functions: evaluate_function.cc).
#include "sql/expression_evaluator.h"
#include "sql/evaluator_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "common/array_value.h"
#include "common/datetime.h"
#include "common/record_value.h"
#include "common/stack_depth.h"

namespace paceline::sql {

namespace eval {

Status OutOfRange(TypeId id) {
  switch (id) {
    case TypeId::kInt16: return Status(sqlstate::kNumericValueOutOfRange, "smallint out of range");
    case TypeId::kInt32: return Status(sqlstate::kNumericValueOutOfRange, "integer out of range");
    case TypeId::kDate: return Status(sqlstate::kDatetimeFieldOverflow, "date out of range");
    default: return Status(sqlstate::kNumericValueOutOfRange, "bigint out of range");
  }
}

Value MakeInt(TypeId id, int64_t v) {
  switch (id) {
    case TypeId::kInt16: return Value::Int16(static_cast<int16_t>(v));
    case TypeId::kInt32: return Value::Int32(static_cast<int32_t>(v));
    case TypeId::kDate: return Value::Date(static_cast<int32_t>(v));
    default: return Value::Int64(v);
  }
}

bool FitsType(TypeId id, int64_t v) {
  switch (id) {
    case TypeId::kInt16: return v >= INT16_MIN && v <= INT16_MAX;
    case TypeId::kInt32: return v >= INT32_MIN && v <= INT32_MAX;
    case TypeId::kDate: return IsValidDate(v);
    default: return true;
  }
}

bool IsIntegerType(TypeId id) { return id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64; }

Decimal ToDecimal(const Value& v) {
  if (v.type() == TypeId::kNumeric) return v.numeric_value();
  return Decimal::FromInt(v.int_value());
}

double ToDouble(const Value& v) {
  if (v.type() == TypeId::kFloat32 || v.type() == TypeId::kFloat64) return v.float_value();
  if (v.type() == TypeId::kNumeric) return v.numeric_value().ToDouble();
  return static_cast<double>(v.int_value());
}

Status IntegerArithmetic(BinaryOp op, int64_t a, int64_t b, TypeId result, Value* out) {
  int64_t r = 0;
  bool overflow = false;
  switch (op) {
    case BinaryOp::kAdd: overflow = __builtin_add_overflow(a, b, &r); break;
    case BinaryOp::kSub: overflow = __builtin_sub_overflow(a, b, &r); break;
    case BinaryOp::kMul: overflow = __builtin_mul_overflow(a, b, &r); break;
    case BinaryOp::kDiv:
      if (b == 0) return Status(sqlstate::kDivisionByZero, "division by zero");
      if (a == std::numeric_limits<int64_t>::min() && b == -1) overflow = true;
      else r = a / b;
      break;
    case BinaryOp::kMod:
      if (b == 0) return Status(sqlstate::kDivisionByZero, "division by zero");
      r = (b == -1) ? 0 : a % b;
      break;
    case BinaryOp::kBitAnd: r = a & b; break;
    case BinaryOp::kBitOr: r = a | b; break;
    case BinaryOp::kBitXor: r = a ^ b; break;
    case BinaryOp::kShiftLeft: case BinaryOp::kShiftRight: {
      // PostgreSQL shifts in the left operand's width (a 32-bit shift for
      // int2 and int4, the count taken modulo the width, as the machine
      // does), then narrows to the type: never an overflow error.
      const bool wide = result == TypeId::kInt64;
      const int count = static_cast<int>(b & (wide ? 63 : 31));
      if (wide) {
        r = op == BinaryOp::kShiftLeft ? static_cast<int64_t>(static_cast<uint64_t>(a) << count) : a >> count;
      } else {
        const int32_t v = static_cast<int32_t>(a);
        r = op == BinaryOp::kShiftLeft ? static_cast<int32_t>(static_cast<uint32_t>(v) << count) : v >> count;
        if (result == TypeId::kInt16) r = static_cast<int16_t>(r);
      }
      break;
    }
    default: return InternalError("bad integer operator");
  }
  if (overflow || !FitsType(result, r)) return OutOfRange(result);
  *out = MakeInt(result, r);
  return Status::OK();
}

Status FloatArithmetic(BinaryOp op, double a, double b, TypeId result, Value* out) {
  double r = 0;
  switch (op) {
    case BinaryOp::kAdd: r = a + b; break;
    case BinaryOp::kSub: r = a - b; break;
    case BinaryOp::kMul: r = a * b; break;
    case BinaryOp::kDiv:
      if (b == 0) return Status(sqlstate::kDivisionByZero, "division by zero");
      r = a / b;
      break;
    case BinaryOp::kMod:
      if (b == 0) return Status(sqlstate::kDivisionByZero, "division by zero");
      r = std::fmod(a, b);
      break;
    default: return InternalError("bad float operator");
  }
  if (std::isinf(r) && !std::isinf(a) && !std::isinf(b)) {
    return Status(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  *out = result == TypeId::kFloat32 ? Value::Float32(static_cast<float>(r)) : Value::Float64(r);
  return Status::OK();
}

// A value as text for string functions and ||, as PostgreSQL's cast to text
// gives it: CHAR(n) loses its blank padding, booleans are "true"/"false".
std::string TextOf(const Value& v) {
  if (v.type() == TypeId::kBool) return v.bool_value() ? "true" : "false";
  if (v.type() != TypeId::kChar) return v.ToString();
  std::string_view s = v.string_value();
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

}  // namespace eval

using namespace eval;  // NOLINT: the evaluator's own helpers

Status CompareValues(BinaryOp op, const Value& a, const Value& b, Value* out) {
  int c = Value::Compare(a, b);
  bool r = false;
  switch (op) {
    case BinaryOp::kEq: case BinaryOp::kIsNotDistinctFrom: r = c == 0; break;
    case BinaryOp::kNe: case BinaryOp::kIsDistinctFrom: r = c != 0; break;
    case BinaryOp::kLt: r = c < 0; break;
    case BinaryOp::kLe: r = c <= 0; break;
    case BinaryOp::kGt: r = c > 0; break;
    case BinaryOp::kGe: r = c >= 0; break;
    default: return InternalError("bad comparison operator");
  }
  *out = Value::Bool(r);
  return Status::OK();
}

bool LikeMatch(std::string_view text, std::string_view pattern, bool ci) {
  auto eq = [ci](char a, char b) {
    if (ci) {
      if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
      if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
    }
    return a == b;
  };
  // Iterative matcher with backtracking to the last '%'.
  size_t t = 0, p = 0, star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '%') {
      star_p = ++p;
      star_t = t;
      continue;
    }
    if (p < pattern.size()) {
      char pc = pattern[p];
      size_t step = 1;
      bool literal = false;
      if (pc == '\\' && p + 1 < pattern.size()) {
        pc = pattern[p + 1];
        step = 2;
        literal = true;
      }
      if ((!literal && pc == '_') || eq(pc, text[t])) {
        p += step;
        ++t;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p;
    t = ++star_t;
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

Status Arithmetic(BinaryOp op, const Value& a, const Value& b, const Type& result_type, Value* out) {
  TypeId r = result_type.id;
  if (r == TypeId::kInterval || a.type() == TypeId::kInterval || b.type() == TypeId::kInterval) {
    return IntervalArithmetic(op, a, b, result_type, out);
  }
  if (r == TypeId::kDate) {  // date ± integer
    int64_t days = a.type() == TypeId::kDate ? a.int_value() : b.int_value();
    int64_t delta = a.type() == TypeId::kDate ? b.int_value() : a.int_value();
    return IntegerArithmetic(op, days, delta, TypeId::kDate, out);
  }
  if (a.type() == TypeId::kDate && b.type() == TypeId::kDate) {  // date - date
    return IntegerArithmetic(op, a.int_value(), b.int_value(), TypeId::kInt32, out);
  }
  if (IsIntegerType(r)) return IntegerArithmetic(op, a.int_value(), b.int_value(), r, out);
  if (r == TypeId::kFloat32 || r == TypeId::kFloat64) return FloatArithmetic(op, ToDouble(a), ToDouble(b), r, out);
  if (r == TypeId::kNumeric) {
    Decimal x = ToDecimal(a), y = ToDecimal(b), z;
    switch (op) {
      case BinaryOp::kAdd: PL_RETURN_IF_ERROR(Decimal::Add(x, y, &z)); break;
      case BinaryOp::kSub: PL_RETURN_IF_ERROR(Decimal::Sub(x, y, &z)); break;
      case BinaryOp::kMul: PL_RETURN_IF_ERROR(Decimal::Mul(x, y, &z)); break;
      case BinaryOp::kDiv: PL_RETURN_IF_ERROR(Decimal::Div(x, y, &z)); break;
      case BinaryOp::kMod: PL_RETURN_IF_ERROR(Decimal::Mod(x, y, &z)); break;
      default: return InternalError("bad numeric operator");
    }
    *out = Value::Numeric(z);
    return Status::OK();
  }
  return InternalError("arithmetic on type " + result_type.ToString());
}

Status Evaluate(const BoundExpr& e, const EvalContext& ctx, Value* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());
  switch (e.kind) {
    case BoundKind::kConstant:
      *out = e.constant;
      return Status::OK();
    case BoundKind::kParameter:
      *out = (*ctx.params)[e.index];
      return Status::OK();
    case BoundKind::kColumn: {
      const storage::Tuple* t = ctx.tuples[e.source];
      *out = t == nullptr ? Value::Null(e.type.id) : ctx.layouts[e.source]->Get(*t, e.index);
      return Status::OK();
    }
    case BoundKind::kSlot:
      *out = ctx.slots[e.index];
      return Status::OK();
    case BoundKind::kOuterColumn: {
      const EvalContext* outer = &ctx;
      for (int d = 0; d < e.depth && outer != nullptr; ++d) outer = outer->outer;
      if (outer == nullptr) return InternalError("a correlated column without its enclosing query");
      const storage::Tuple* t = outer->tuples[e.source];
      *out = t == nullptr ? Value::Null(e.type.id) : outer->layouts[e.source]->Get(*t, e.index);
      return Status::OK();
    }
    case BoundKind::kSubquery:
      if (ctx.subqueries == nullptr) return InternalError("a subquery evaluated outside a statement");
      return ctx.subqueries->Run(e, ctx, out);
    case BoundKind::kNegate: {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &v));
      if (v.is_null()) {
        *out = Value::Null(e.type.id);
      } else if (e.type.IsInteger()) {
        if (v.int_value() == std::numeric_limits<int64_t>::min() || !FitsType(e.type.id, -v.int_value())) {
          return OutOfRange(e.type.id);
        }
        *out = MakeInt(e.type.id, -v.int_value());
      } else if (e.type.IsFloat()) {
        *out = e.type.id == TypeId::kFloat32 ? Value::Float32(static_cast<float>(-v.float_value()))
                                             : Value::Float64(-v.float_value());
      } else if (e.type.id == TypeId::kInterval) {
        Interval negated;
        PL_RETURN_IF_ERROR(NegateInterval(v.interval_value(), &negated));
        *out = Value::IntervalValue(negated);
      } else {
        *out = Value::Numeric(v.numeric_value().Negate());
      }
      return Status::OK();
    }
    case BoundKind::kNot: {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &v));
      *out = v.is_null() ? Value::Null(TypeId::kBool) : Value::Bool(!v.bool_value());
      return Status::OK();
    }
    case BoundKind::kAnd: case BoundKind::kOr: {
      const bool is_and = e.kind == BoundKind::kAnd;
      bool saw_null = false;
      for (const auto& c : e.children) {
        Value v;
        PL_RETURN_IF_ERROR(Evaluate(*c, ctx, &v));
        if (v.is_null()) {
          saw_null = true;
        } else if (v.bool_value() != is_and) {
          *out = Value::Bool(!is_and);
          return Status::OK();
        }
      }
      *out = saw_null ? Value::Null(TypeId::kBool) : Value::Bool(is_and);
      return Status::OK();
    }
    case BoundKind::kArithmetic: {
      Value a, b;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &a));
      PL_RETURN_IF_ERROR(Evaluate(*e.children[1], ctx, &b));
      if (a.is_null() || b.is_null()) {
        *out = Value::Null(e.type.id);
        return Status::OK();
      }
      return Arithmetic(e.op, a, b, e.type, out);
    }
    case BoundKind::kCompare: {
      Value a, b;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &a));
      PL_RETURN_IF_ERROR(Evaluate(*e.children[1], ctx, &b));
      if (e.op == BinaryOp::kIsDistinctFrom || e.op == BinaryOp::kIsNotDistinctFrom) {
        if (a.is_null() || b.is_null()) {
          bool same = a.is_null() && b.is_null();
          *out = Value::Bool(e.op == BinaryOp::kIsDistinctFrom ? !same : same);
          return Status::OK();
        }
      } else if (a.is_null() || b.is_null()) {
        *out = Value::Null(TypeId::kBool);
        return Status::OK();
      }
      return CompareValues(e.op, a, b, out);
    }
    case BoundKind::kConcat: {
      Value a, b;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &a));
      PL_RETURN_IF_ERROR(Evaluate(*e.children[1], ctx, &b));
      if (a.is_null() || b.is_null()) {
        *out = Value::Null(e.type.id);
        return Status::OK();
      }
      if (e.type.id == TypeId::kBytea) {
        *out = Value::Bytea(a.bytes_value() + b.bytes_value());
        return Status::OK();
      }
      std::string s = TextOf(a);
      if (b.type() == TypeId::kChar || b.type() == TypeId::kBool) s += TextOf(b);
      else b.AppendTo(&s);
      *out = Value::Text(std::move(s));
      return Status::OK();
    }
    case BoundKind::kLike: {
      Value a, b;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &a));
      PL_RETURN_IF_ERROR(Evaluate(*e.children[1], ctx, &b));
      if (a.is_null() || b.is_null()) {
        *out = Value::Null(TypeId::kBool);
        return Status::OK();
      }
      bool ci = e.op == BinaryOp::kILike || e.op == BinaryOp::kNotILike;
      bool m = LikeMatch(a.string_value(), b.string_value(), ci);
      bool negate = e.op == BinaryOp::kNotLike || e.op == BinaryOp::kNotILike;
      *out = Value::Bool(m != negate);
      return Status::OK();
    }
    case BoundKind::kIsNull: {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &v));
      if (!v.is_null() && v.type() == TypeId::kRecord) {
        // A row IS NULL when every field is, IS NOT NULL when none is.
        bool all_null = true, none_null = true;
        for (const Value& field : RecordFields(v)) (field.is_null() ? none_null : all_null) = false;
        *out = Value::Bool(e.negated ? none_null : all_null);
        return Status::OK();
      }
      *out = Value::Bool(v.is_null() != e.negated);
      return Status::OK();
    }
    case BoundKind::kIsBool: {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &v));
      bool r = false;
      switch (e.test) {
        case BoolTest::kTrue: r = !v.is_null() && v.bool_value(); break;
        case BoolTest::kNotTrue: r = v.is_null() || !v.bool_value(); break;
        case BoolTest::kFalse: r = !v.is_null() && !v.bool_value(); break;
        case BoolTest::kNotFalse: r = v.is_null() || v.bool_value(); break;
        case BoolTest::kUnknown: r = v.is_null(); break;
        case BoolTest::kNotUnknown: r = !v.is_null(); break;
      }
      *out = Value::Bool(r);
      return Status::OK();
    }
    case BoundKind::kIn: {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &v));
      if (v.is_null()) {
        *out = Value::Null(TypeId::kBool);
        return Status::OK();
      }
      bool saw_null = false;
      for (size_t i = 1; i < e.children.size(); ++i) {
        Value item;
        PL_RETURN_IF_ERROR(Evaluate(*e.children[i], ctx, &item));
        if (item.is_null()) {
          saw_null = true;
        } else if (Value::Compare(v, item) == 0) {
          *out = Value::Bool(!e.negated);
          return Status::OK();
        }
      }
      *out = saw_null ? Value::Null(TypeId::kBool) : Value::Bool(e.negated);
      return Status::OK();
    }
    case BoundKind::kCase: {
      size_t i = 0;
      Value operand;
      if (e.has_operand) PL_RETURN_IF_ERROR(Evaluate(*e.children[i++], ctx, &operand));
      size_t end = e.children.size() - (e.has_else ? 1 : 0);
      for (; i < end; i += 2) {
        Value cond;
        PL_RETURN_IF_ERROR(Evaluate(*e.children[i], ctx, &cond));
        bool hit = e.has_operand ? (!operand.is_null() && !cond.is_null() && Value::Compare(operand, cond) == 0)
                                 : (!cond.is_null() && cond.bool_value());
        if (hit) return Evaluate(*e.children[i + 1], ctx, out);
      }
      if (e.has_else) return Evaluate(*e.children.back(), ctx, out);
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
    case BoundKind::kCast: {
      Value v;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &v));
      if (e.children[0]->type.vector && e.type.IsString() && !v.is_null()) {  // int2vector::text is "1 2"
        std::string text;
        AppendVectorText(v, &text);
        return CastValue(Value::Text(std::move(text)), e.type, e.explicit_cast, out);
      }
      return CastValue(v, e.type, e.explicit_cast, out);
    }
    case BoundKind::kFunction:
      return EvaluateFunction(e, ctx, out);
    case BoundKind::kArray: case BoundKind::kSubscript: case BoundKind::kArrayCompare:
      return EvaluateArrayNode(e, ctx, out);
    case BoundKind::kRow: {
      RecordBuilder b;
      Value v;
      for (const auto& c : e.children) {
        PL_RETURN_IF_ERROR(Evaluate(*c, ctx, &v));
        b.Add(v);
      }
      *out = b.Finish();
      return Status::OK();
    }
    case BoundKind::kRowCompare: {
      for (size_t i = 0; i < e.children.size(); i += 2) {
        Value x, y;
        PL_RETURN_IF_ERROR(Evaluate(*e.children[i], ctx, &x));
        PL_RETURN_IF_ERROR(Evaluate(*e.children[i + 1], ctx, &y));
        if (x.is_null() || y.is_null()) {
          *out = Value::Null(TypeId::kBool);
          return Status::OK();
        }
        const int c = Value::Compare(x, y);
        if (c == 0) continue;
        *out = Value::Bool(e.op == BinaryOp::kLt || e.op == BinaryOp::kLe ? c < 0 : c > 0);
        return Status::OK();
      }
      *out = Value::Bool(e.op == BinaryOp::kLe || e.op == BinaryOp::kGe);
      return Status::OK();
    }
    case BoundKind::kFieldSelect: {
      Value record;
      PL_RETURN_IF_ERROR(Evaluate(*e.children[0], ctx, &record));
      *out = record.is_null() ? Value::Null(e.type.id) : RecordFieldAt(record, static_cast<size_t>(e.index));
      return Status::OK();
    }
  }
  return InternalError("unknown expression kind");
}

Status EvaluatePredicate(const BoundExpr& expr, const EvalContext& ctx, bool* out) {
  Value v;
  PL_RETURN_IF_ERROR(Evaluate(expr, ctx, &v));
  *out = !v.is_null() && v.bool_value();
  return Status::OK();
}

}  // namespace paceline::sql
