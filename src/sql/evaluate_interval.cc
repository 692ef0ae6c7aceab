// ExpressionEvaluator: arithmetic with intervals and timestamps, the
// interval functions and pg_sleep (see evaluator_internal.h; the rules are
// common/interval.h's).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/cancel_token.h"
#include "common/interval.h"
#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

// A date, timestamp or timestamptz as microseconds (a date is its midnight).
int64_t TimestampMicros(const Value& v) {
  return v.type() == TypeId::kDate ? v.int_value() * kMicrosPerDay : v.int_value();
}

Value MakeTimestamp(TypeId type, int64_t micros) {
  return type == TypeId::kTimestampTz ? Value::TimestampTz(micros) : Value::Timestamp(micros);
}

// The longest pg_sleep waits (about 31 years), so that the deadline cannot
// overflow the clock; PostgreSQL's would not end either.
constexpr double kMaxSleepSeconds = 1e9;

}  // namespace

Status IntervalArithmetic(BinaryOp op, const Value& a, const Value& b, const Type& result_type, Value* out) {
  const bool ia = a.type() == TypeId::kInterval, ib = b.type() == TypeId::kInterval;
  Interval r;
  if (ia && ib) {
    PL_RETURN_IF_ERROR(op == BinaryOp::kAdd ? AddIntervals(a.interval_value(), b.interval_value(), &r)
                                            : SubtractIntervals(a.interval_value(), b.interval_value(), &r));
    *out = Value::IntervalValue(r);
    return Status::OK();
  }
  if (op == BinaryOp::kMul || op == BinaryOp::kDiv) {
    const Interval& v = ia ? a.interval_value() : b.interval_value();
    const double factor = ToDouble(ia ? b : a);
    PL_RETURN_IF_ERROR(op == BinaryOp::kMul ? MultiplyInterval(v, factor, &r) : DivideInterval(v, factor, &r));
    *out = Value::IntervalValue(r);
    return Status::OK();
  }
  if (!ia && !ib) {  // timestamp − timestamp
    PL_RETURN_IF_ERROR(SubtractTimestamps(TimestampMicros(a), TimestampMicros(b), &r));
    *out = Value::IntervalValue(r);
    return Status::OK();
  }
  // timestamp ± interval, interval + timestamp.
  const Value& ts = ia ? b : a;
  Interval delta = ia ? a.interval_value() : b.interval_value();
  if (op == BinaryOp::kSub) PL_RETURN_IF_ERROR(NegateInterval(delta, &delta));
  int64_t micros = 0;
  PL_RETURN_IF_ERROR(AddIntervalToTimestamp(TimestampMicros(ts), delta, &micros));
  *out = MakeTimestamp(result_type.id, micros);
  return Status::OK();
}

Status EvaluateIntervalFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                Value* out) {
  if (args[0].is_null()) {
    *out = Value::Null(e.type.id);
    return Status::OK();
  }
  Interval r;
  switch (e.function) {
    case ScalarFunction::kJustifyDays: PL_RETURN_IF_ERROR(JustifyDays(args[0].interval_value(), &r)); break;
    case ScalarFunction::kJustifyHours: PL_RETURN_IF_ERROR(JustifyHours(args[0].interval_value(), &r)); break;
    case ScalarFunction::kJustifyInterval: PL_RETURN_IF_ERROR(JustifyInterval(args[0].interval_value(), &r)); break;
    case ScalarFunction::kPgSleep: case ScalarFunction::kPgSleepFor: {
      const double seconds = e.function == ScalarFunction::kPgSleep ? args[0].float_value()
                                                                    : IntervalSeconds(args[0].interval_value());
      if (seconds > 0) {  // NaN and negative durations do not sleep
        const auto micros = std::chrono::microseconds(static_cast<int64_t>(std::min(seconds, kMaxSleepSeconds) * 1e6));
        PL_RETURN_IF_ERROR(SleepUnlessCanceled(micros, ctx.cancel));
      }
      *out = Value::Void();
      return Status::OK();
    }
    default:
      return InternalError("not an interval function");
  }
  *out = Value::IntervalValue(r);
  return Status::OK();
}

}  // namespace paceline::sql::eval
