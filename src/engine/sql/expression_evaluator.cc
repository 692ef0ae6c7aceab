// ExpressionEvaluator: PostgreSQL semantics for every BoundKind.
#include "engine/sql/expression_evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "common/datetime.h"
#include "common/stack_depth.h"

namespace paceline::sql {

namespace {

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

// Lower/upper-casing of ASCII letters (UTF-8 bytes above 0x7F pass through).
std::string AsciiCase(std::string s, bool upper) {
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Number of UTF-8 characters.
int64_t Utf8Length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Byte offset of the character at 0-based character index `chars`.
size_t Utf8Offset(std::string_view s, int64_t chars) {
  size_t i = 0;
  while (i < s.size() && chars > 0) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    --chars;
  }
  return i;
}

Status EvaluateFunction(const BoundExpr& e, const EvalContext& ctx, Value* out);

}  // namespace

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
      return CastValue(v, e.type, e.explicit_cast, out);
    }
    case BoundKind::kFunction:
      return EvaluateFunction(e, ctx, out);
  }
  return InternalError("unknown expression kind");
}

Status EvaluatePredicate(const BoundExpr& expr, const EvalContext& ctx, bool* out) {
  Value v;
  PL_RETURN_IF_ERROR(Evaluate(expr, ctx, &v));
  *out = !v.is_null() && v.bool_value();
  return Status::OK();
}

namespace {

Status EvaluateFunction(const BoundExpr& e, const EvalContext& ctx, Value* out) {
  std::vector<Value> args(e.children.size());
  // coalesce evaluates lazily; everything else is strict.
  if (e.function == ScalarFunction::kCoalesce) {
    for (const auto& c : e.children) {
      PL_RETURN_IF_ERROR(Evaluate(*c, ctx, out));
      if (!out->is_null()) return CastValue(*out, e.type, false, out);
    }
    *out = Value::Null(e.type.id);
    return Status::OK();
  }
  for (size_t i = 0; i < e.children.size(); ++i) PL_RETURN_IF_ERROR(Evaluate(*e.children[i], ctx, &args[i]));
  switch (e.function) {
    case ScalarFunction::kNow:
      *out = e.type.id == TypeId::kTimestampTz ? Value::TimestampTz(ctx.statement_time)
                                               : Value::Timestamp(ctx.statement_time);
      return Status::OK();
    case ScalarFunction::kCurrentDate: {
      int64_t micros = ctx.statement_time;
      int64_t day = micros / 86400000000LL - (micros % 86400000000LL < 0 ? 1 : 0);
      *out = Value::Date(static_cast<int32_t>(day));
      return Status::OK();
    }
    case ScalarFunction::kRandom: {
      thread_local std::mt19937_64 rng(std::random_device{}());
      *out = Value::Float64(std::uniform_real_distribution<double>(0.0, 1.0)(rng));
      return Status::OK();
    }
    case ScalarFunction::kGreatest: case ScalarFunction::kLeast: {
      Value best = Value::Null(e.type.id);
      for (const Value& a : args) {
        if (a.is_null()) continue;
        if (best.is_null()) best = a;
        int c = Value::Compare(a, best);
        if ((e.function == ScalarFunction::kGreatest && c > 0) || (e.function == ScalarFunction::kLeast && c < 0)) best = a;
      }
      if (best.is_null()) {
        *out = best;
        return Status::OK();
      }
      return CastValue(best, e.type, false, out);
    }
    case ScalarFunction::kNullIf:
      if (!args[0].is_null() && !args[1].is_null() && Value::Compare(args[0], args[1]) == 0) {
        *out = Value::Null(e.type.id);
      } else {
        *out = args[0];
      }
      return Status::OK();
    default:
      break;
  }
  for (const Value& a : args) {
    if (a.is_null()) {
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
  }
  switch (e.function) {
    case ScalarFunction::kAbs:
      if (e.type.IsInteger()) {
        int64_t v = args[0].int_value();
        if (v == std::numeric_limits<int64_t>::min() || !FitsType(e.type.id, v < 0 ? -v : v)) return OutOfRange(e.type.id);
        *out = MakeInt(e.type.id, v < 0 ? -v : v);
      } else if (e.type.IsFloat()) {
        double a = std::fabs(args[0].float_value());
        *out = e.type.id == TypeId::kFloat32 ? Value::Float32(static_cast<float>(a)) : Value::Float64(a);
      } else {
        const Decimal& d = args[0].numeric_value();
        *out = Value::Numeric(d.IsNegative() ? d.Negate() : d);
      }
      return Status::OK();
    case ScalarFunction::kRound: case ScalarFunction::kTrunc: case ScalarFunction::kFloor: case ScalarFunction::kCeil: {
      if (e.type.IsFloat()) {
        double v = args[0].float_value();
        double r = e.function == ScalarFunction::kRound ? std::nearbyint(v)
                 : e.function == ScalarFunction::kTrunc ? std::trunc(v)
                 : e.function == ScalarFunction::kFloor ? std::floor(v) : std::ceil(v);
        *out = Value::Float64(r);
        return Status::OK();
      }
      // Keep `digits` digits after the point (negative: round to tens,
      // hundreds, ...), as PostgreSQL: round half away from zero; trunc
      // toward zero; floor/ceil toward -inf/+inf. The result's scale is
      // max(digits, 0).
      Decimal d = ToDecimal(args[0]);
      int64_t digits = args.size() > 1 ? args[1].int_value() : 0;
      digits = std::clamp<int64_t>(digits, -Decimal::kMaxPrecision, Decimal::kMaxScale);
      const int target = static_cast<int>(digits);
      const int result_scale = std::max(target, 0);
      const int drop = d.scale() - target;  // digits of the unscaled value to remove
      Decimal r;
      if (drop <= 0) {
        PL_RETURN_IF_ERROR(d.Rescale(result_scale, &r));
      } else {
        const __int128 u = d.unscaled();
        __int128 q = 0, rem = u;
        if (drop <= Decimal::kMaxPrecision) {
          __int128 p = 1;
          for (int i = 0; i < drop; ++i) p *= 10;
          q = u / p;
          rem = u % p;
          const __int128 rem_abs = rem < 0 ? -rem : rem;  // rem_abs * 2 >= p, without overflow at p = 10^38
          if (e.function == ScalarFunction::kRound && rem_abs >= p - rem_abs) q += u < 0 ? -1 : 1;
        }
        if (e.function == ScalarFunction::kFloor && rem < 0) --q;
        if (e.function == ScalarFunction::kCeil && rem > 0) ++q;
        for (int i = 0; i < result_scale - target; ++i) q *= 10;  // back to units when digits < 0
        r = Decimal(q, result_scale);
      }
      *out = Value::Numeric(r);
      return Status::OK();
    }
    case ScalarFunction::kLower: case ScalarFunction::kUpper:
      *out = Value::Text(AsciiCase(TextOf(args[0]), e.function == ScalarFunction::kUpper));
      return Status::OK();
    case ScalarFunction::kLength:
      *out = Value::Int32(static_cast<int32_t>(Utf8Length(TextOf(args[0]))));
      return Status::OK();
    case ScalarFunction::kOctetLength:
      // Bytes of a bytea, or of a text's UTF-8 (CHAR(n) keeps its padding, as
      // PostgreSQL's bpcharoctetlen).
      *out = Value::Int32(static_cast<int32_t>(args[0].string_value().size()));
      return Status::OK();
    case ScalarFunction::kSubstr: {
      const std::string text = TextOf(args[0]);
      std::string_view s = text;
      int64_t start = args[1].int_value();  // 1-based, may be < 1
      int64_t len = args.size() > 2 ? args[2].int_value() : std::numeric_limits<int32_t>::max();
      if (len < 0) return Status(sqlstate::kInvalidParameterValue, "negative substring length not allowed");
      int64_t first = std::max<int64_t>(start, 1);
      int64_t last = start + len;  // exclusive, 1-based
      if (last <= first) {
        *out = Value::Text("");
        return Status::OK();
      }
      size_t from = Utf8Offset(s, first - 1);
      size_t to = Utf8Offset(s, last - 1);
      *out = Value::Text(std::string(s.substr(from, to - from)));
      return Status::OK();
    }
    case ScalarFunction::kTrim: case ScalarFunction::kLtrim: case ScalarFunction::kRtrim: {
      const std::string text = TextOf(args[0]);
      const std::string trim_chars = args.size() > 1 ? TextOf(args[1]) : std::string(" ");
      std::string_view s = text;
      std::string_view chars = trim_chars;
      if (e.function != ScalarFunction::kRtrim) {
        while (!s.empty() && chars.find(s.front()) != std::string_view::npos) s.remove_prefix(1);
      }
      if (e.function != ScalarFunction::kLtrim) {
        while (!s.empty() && chars.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
      }
      *out = Value::Text(std::string(s));
      return Status::OK();
    }
    case ScalarFunction::kPower:
      *out = Value::Float64(std::pow(ToDouble(args[0]), ToDouble(args[1])));
      return Status::OK();
    case ScalarFunction::kSqrt: {
      double v = ToDouble(args[0]);
      if (v < 0) return Status("2201F", "cannot take square root of a negative number");
      *out = Value::Float64(std::sqrt(v));
      return Status::OK();
    }
    case ScalarFunction::kMod:
      return Arithmetic(BinaryOp::kMod, args[0], args[1], e.type, out);
    default:
      return InternalError("unknown scalar function");
  }
}

}  // namespace

}  // namespace paceline::sql
