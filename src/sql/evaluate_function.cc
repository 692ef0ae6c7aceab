// ExpressionEvaluator: scalar functions (BoundKind::kFunction), see
// expression_evaluator.h.
#include <algorithm>
#include <cmath>
#include <random>

#include "common/datetime.h"
#include "common/datetime_fields.h"
#include "common/uuid.h"
#include "sql/evaluator_internal.h"
#include "sql/notification_sink.h"

namespace paceline::sql {

Status CheckNotification(const std::string& channel, const std::string& payload) {
  if (channel.empty()) return Status(sqlstate::kInvalidParameterValue, "channel name cannot be empty");
  if (channel.size() >= 64) return Status(sqlstate::kInvalidParameterValue, "channel name too long");
  if (payload.size() >= 8000) return Status(sqlstate::kInvalidParameterValue, "payload string too long");
  return Status::OK();
}

namespace eval {

namespace {

// Lower/upper-casing of ASCII letters (UTF-8 bytes above 0x7F pass through).
std::string AsciiCase(std::string s, bool upper) {
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

}  // namespace

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
  // The array functions are one run of the enum (bound_expr.h): evaluate_array.cc.
  if (e.function >= ScalarFunction::kCardinality && e.function <= ScalarFunction::kArrayOverlap) {
    return EvaluateArrayFunction(e, args, out);
  }
  if (IsAdvisoryLockFunction(e.function)) return EvaluateAdvisoryLockFunction(e, args, ctx, out);
  if (IsCatalogFunction(e.function)) return EvaluateCatalogFunction(e, args, ctx, out);
  if (e.function == ScalarFunction::kRegexMatch || e.function == ScalarFunction::kRegexMatchCi) {
    return EvaluateRegexMatch(e, args, out);
  }
  if (e.function >= ScalarFunction::kConcat && e.function <= ScalarFunction::kRegexpReplace) {
    return EvaluateStringFunction(e, args, out);
  }
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
    case ScalarFunction::kClockTimestamp:
      *out = Value::TimestampTz(CurrentTimestampMicros());
      return Status::OK();
    case ScalarFunction::kDateTrunc: case ScalarFunction::kExtract: case ScalarFunction::kDatePart: {
      if (args[0].is_null() || args[1].is_null()) {
        *out = Value::Null(e.type.id);
        return Status::OK();
      }
      const TypeId type = args[1].type();
      if (type == TypeId::kInterval) {
        if (e.function == ScalarFunction::kDateTrunc) {
          Interval truncated;
          PL_RETURN_IF_ERROR(TruncateInterval(args[0].string_value(), args[1].interval_value(), &truncated));
          *out = Value::IntervalValue(truncated);
          return Status::OK();
        }
        Decimal field;
        PL_RETURN_IF_ERROR(ExtractIntervalField(args[0].string_value(), args[1].interval_value(), &field));
        if (e.function == ScalarFunction::kExtract) {
          *out = Value::Numeric(field);
          return Status::OK();
        }
        return CastValue(Value::Numeric(field), Type(TypeId::kFloat64), false, out);
      }
      if (e.function == ScalarFunction::kDateTrunc) {
        int64_t micros = 0;
        PL_RETURN_IF_ERROR(TruncateTimestamp(args[0].string_value(), args[1].int_value(), type, &micros));
        *out = type == TypeId::kTimestampTz ? Value::TimestampTz(micros) : Value::Timestamp(micros);
        return Status::OK();
      }
      Decimal field;
      PL_RETURN_IF_ERROR(ExtractField(args[0].string_value(), args[1].int_value(), type, &field));
      if (e.function == ScalarFunction::kExtract) {
        *out = Value::Numeric(field);
        return Status::OK();
      }
      return CastValue(Value::Numeric(field), Type(TypeId::kFloat64), false, out);
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
    case ScalarFunction::kPgNotify: {  // not strict: a NULL channel is empty, a NULL payload ''
      const std::string channel = args[0].is_null() ? "" : std::string(args[0].string_value());
      const std::string payload = args[1].is_null() ? "" : std::string(args[1].string_value());
      PL_RETURN_IF_ERROR(CheckNotification(channel, payload));
      if (ctx.notifications == nullptr) return NotSupported("pg_notify outside a transaction");
      ctx.notifications->Notify(channel, payload);
      *out = Value::Void();
      return Status::OK();
    }
    case ScalarFunction::kGenRandomUuid:  // volatile: a new value at every call
      *out = Value::Uuid(GenerateRandomUuid());
      return Status::OK();
    case ScalarFunction::kJsonBuildObject: case ScalarFunction::kJsonBuildArray:
      return EvaluateJsonFunction(e, args, out);  // not strict: a NULL argument is a JSON null
    case ScalarFunction::kJustifyDays: case ScalarFunction::kJustifyHours: case ScalarFunction::kJustifyInterval:
    case ScalarFunction::kPgSleep: case ScalarFunction::kPgSleepFor:
      return EvaluateIntervalFunction(e, args, ctx, out);
    case ScalarFunction::kNextval: case ScalarFunction::kCurrval: case ScalarFunction::kSetval:
    case ScalarFunction::kLastval:
      return EvaluateSequenceFunction(e, args, ctx, out);
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
    case ScalarFunction::kJsonGet: case ScalarFunction::kJsonGetText: case ScalarFunction::kJsonPath:
    case ScalarFunction::kJsonPathText: case ScalarFunction::kJsonContains: case ScalarFunction::kJsonExists:
    case ScalarFunction::kJsonConcat: case ScalarFunction::kJsonSet: case ScalarFunction::kToJson:
    case ScalarFunction::kJsonTypeof: case ScalarFunction::kJsonArrayLength: case ScalarFunction::kJsonPretty:
    case ScalarFunction::kJsonExistsAny: case ScalarFunction::kJsonExistsAll: case ScalarFunction::kJsonDelete:
    case ScalarFunction::kJsonDeletePath:
      return EvaluateJsonFunction(e, args, out);
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
      if (v < 0) return Status(sqlstate::kInvalidArgumentForPowerFunction, "cannot take square root of a negative number");
      *out = Value::Float64(std::sqrt(v));
      return Status::OK();
    }
    case ScalarFunction::kMod:
      return Arithmetic(BinaryOp::kMod, args[0], args[1], e.type, out);
    default:
      return InternalError("unknown scalar function");
  }
}

}  // namespace eval
}  // namespace paceline::sql
