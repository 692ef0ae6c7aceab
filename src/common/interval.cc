// Interval: order, text output, arithmetic and timestamp arithmetic (see
// interval.h). Text input is in interval_parse.cc.
#include "common/interval.h"

#include <xxhash.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "common/datetime.h"

namespace paceline {

namespace chr = std::chrono;

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerHour = 3600 * kMicrosPerSecond;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int kDaysPerMonth = 30;


bool FitsInt32(int64_t v) { return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max(); }

// Whether a double (already rounded as wanted) converts to int32 / int64.
bool DoubleFitsInt32(double d) { return !std::isnan(d) && d >= -2147483648.0 && d < 2147483648.0; }
bool DoubleFitsInt64(double d) { return !std::isnan(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0; }

// Rounds to the microsecond, as PostgreSQL does with fractions of a
// day or second before they become microseconds.
double RoundToMicros(double seconds) { return std::rint(seconds * 1e6) / 1e6; }

// "%02lld" of a non-negative number.
void AppendTwoDigits(int64_t v, std::string* out) {
  if (v < 10) out->push_back('0');
  out->append(std::to_string(v));
}

// One "N unit(s)" part of the postgres style; `*first` and `*last_negative`
// follow the parts already written.
void AppendPart(int64_t value, const char* unit, bool* first, bool* last_negative, std::string* out) {
  if (value == 0) return;
  if (!*first) out->push_back(' ');
  if (*last_negative && value > 0) out->push_back('+');
  out->append(std::to_string(value));
  out->push_back(' ');
  out->append(unit);
  if (value != 1) out->push_back('s');
  *last_negative = value < 0;
  *first = false;
}

// Shared by interval * float8 and interval / float8: `months` and `days`
// are the scaled fields as doubles, `micros` the scaled time part.
Status ScaledInterval(double months, double days, double micros, Interval* out) {
  const double whole_months = std::trunc(months);
  const double whole_days = std::trunc(days);
  if (!DoubleFitsInt32(whole_months) || !DoubleFitsInt32(whole_days)) return IntervalOutOfRange();
  // The fraction of a month becomes days (30 a month), rounded to the
  // microsecond; the fraction of those days and of the days field becomes
  // seconds, rounded likewise; whole days among those seconds become days.
  const double month_days = RoundToMicros((months - whole_months) * kDaysPerMonth);
  const double month_whole_days = std::trunc(month_days);
  double seconds = RoundToMicros((days - whole_days + month_days - month_whole_days) * 86400.0);
  double extra_days = 0;
  if (std::fabs(seconds) >= 86400.0) {
    extra_days = std::trunc(seconds / 86400.0);
    seconds -= extra_days * 86400.0;
  }
  const double result_days = whole_days + extra_days + month_whole_days;
  const double result_micros = std::rint(micros + seconds * 1e6);
  if (!DoubleFitsInt32(result_days) || !DoubleFitsInt64(result_micros)) return IntervalOutOfRange();
  out->months = static_cast<int32_t>(whole_months);
  out->days = static_cast<int32_t>(result_days);
  out->micros = static_cast<int64_t>(result_micros);
  return Status::OK();
}

// Makes the signs of days and micros agree (after whole days moved out of
// micros), as justify_hours and justify_interval finish.
void AlignDaysAndTime(Interval* v) {
  if (v->days > 0 && v->micros < 0) {
    v->micros += kMicrosPerDay;
    v->days--;
  } else if (v->days < 0 && v->micros > 0) {
    v->micros -= kMicrosPerDay;
    v->days++;
  }
}

}  // namespace

Status IntervalOutOfRange() { return Status(sqlstate::kDatetimeFieldOverflow, "interval out of range"); }

__int128 IntervalSpan(const Interval& v) {
  const __int128 days = static_cast<__int128>(v.months) * kDaysPerMonth + v.days;
  return days * kMicrosPerDay + v.micros;
}

int CompareIntervals(const Interval& a, const Interval& b) {
  const __int128 x = IntervalSpan(a), y = IntervalSpan(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

uint64_t HashInterval(const Interval& v) {
  const __int128 span = IntervalSpan(v);
  return XXH3_64bits(&span, sizeof(span));
}

void AppendInterval(const Interval& v, std::string* out) {
  const int64_t years = v.months / 12, months = v.months % 12;
  const int64_t hours = v.micros / kMicrosPerHour;
  const int64_t rest = v.micros % kMicrosPerHour;  // same sign as micros
  const int64_t minutes = rest / (60 * kMicrosPerSecond);
  const int64_t seconds = rest % (60 * kMicrosPerSecond) / kMicrosPerSecond;
  const int64_t fraction = rest % kMicrosPerSecond;
  bool first = true, last_negative = false;
  AppendPart(years, "year", &first, &last_negative, out);
  AppendPart(months, "mon", &first, &last_negative, out);
  AppendPart(v.days, "day", &first, &last_negative, out);
  if (!first && v.micros == 0) return;
  if (!first) out->push_back(' ');
  if (v.micros < 0) {
    out->push_back('-');
  } else if (last_negative) {
    out->push_back('+');
  }
  AppendTwoDigits(std::llabs(hours), out);
  out->push_back(':');
  AppendTwoDigits(std::llabs(minutes), out);
  out->push_back(':');
  AppendTwoDigits(std::llabs(seconds), out);
  if (fraction != 0) {
    std::string digits = std::to_string(std::llabs(fraction) + kMicrosPerSecond).substr(1);  // six digits
    while (digits.back() == '0') digits.pop_back();
    out->push_back('.');
    out->append(digits);
  }
}

std::string FormatInterval(const Interval& v) {
  std::string s;
  AppendInterval(v, &s);
  return s;
}

Status AddIntervals(const Interval& a, const Interval& b, Interval* out) {
  Interval r;
  if (__builtin_add_overflow(a.months, b.months, &r.months) || __builtin_add_overflow(a.days, b.days, &r.days) ||
      __builtin_add_overflow(a.micros, b.micros, &r.micros)) {
    return IntervalOutOfRange();
  }
  *out = r;
  return Status::OK();
}

Status SubtractIntervals(const Interval& a, const Interval& b, Interval* out) {
  Interval r;
  if (__builtin_sub_overflow(a.months, b.months, &r.months) || __builtin_sub_overflow(a.days, b.days, &r.days) ||
      __builtin_sub_overflow(a.micros, b.micros, &r.micros)) {
    return IntervalOutOfRange();
  }
  *out = r;
  return Status::OK();
}

Status NegateInterval(const Interval& a, Interval* out) {
  return SubtractIntervals(Interval{}, a, out);
}

Status MultiplyInterval(const Interval& a, double factor, Interval* out) {
  return ScaledInterval(a.months * factor, a.days * factor, static_cast<double>(a.micros) * factor, out);
}

Status DivideInterval(const Interval& a, double divisor, Interval* out) {
  if (divisor == 0.0) return Status(sqlstate::kDivisionByZero, "division by zero");
  return ScaledInterval(a.months / divisor, a.days / divisor, static_cast<double>(a.micros) / divisor, out);
}

Status AddIntervalToTimestamp(int64_t micros, const Interval& v, int64_t* out) {
  int64_t result = micros;
  if (v.months != 0 || v.days != 0) {
    int64_t days = micros / kMicrosPerDay;
    int64_t time = micros % kMicrosPerDay;
    if (time < 0) {
      time += kMicrosPerDay;
      days--;
    }
    if (v.months != 0) {
      const chr::year_month_day ymd{chr::sys_days{chr::days{days}}};
      const int64_t month_index = static_cast<int64_t>(static_cast<int>(ymd.year())) * 12 +
                                  static_cast<unsigned>(ymd.month()) - 1 + v.months;
      const int64_t year = month_index >= 0 ? month_index / 12 : (month_index - 11) / 12;
      const unsigned month = static_cast<unsigned>(month_index - year * 12 + 1);
      if (year < -32767 || year > 32767) return TimestampOutOfRange();
      const chr::year_month_day_last last{chr::year{static_cast<int>(year)}, chr::month_day_last{chr::month{month}}};
      const chr::day day = ymd.day() < last.day() ? ymd.day() : last.day();
      days = chr::sys_days(chr::year_month_day{last.year(), last.month(), day}).time_since_epoch().count();
    }
    days += v.days;
    if (!IsValidDate(days)) return TimestampOutOfRange();
    result = days * kMicrosPerDay + time;
  }
  if (__builtin_add_overflow(result, v.micros, &result)) return TimestampOutOfRange();
  const int64_t day = result / kMicrosPerDay - (result % kMicrosPerDay < 0 ? 1 : 0);
  if (!IsValidDate(day)) return TimestampOutOfRange();
  *out = result;
  return Status::OK();
}

Status SubtractTimestamps(int64_t a, int64_t b, Interval* out) {
  int64_t diff = 0;
  if (__builtin_sub_overflow(a, b, &diff)) return IntervalOutOfRange();
  return JustifyHours(Interval{diff, 0, 0}, out);
}

Status JustifyHours(const Interval& a, Interval* out) {
  Interval r = a;
  const int64_t whole_days = a.micros / kMicrosPerDay;
  r.micros = a.micros % kMicrosPerDay;
  const int64_t days = static_cast<int64_t>(a.days) + whole_days;
  if (!FitsInt32(days)) return IntervalOutOfRange();
  r.days = static_cast<int32_t>(days);
  AlignDaysAndTime(&r);
  *out = r;
  return Status::OK();
}

Status JustifyDays(const Interval& a, Interval* out) {
  Interval r = a;
  const int64_t months = static_cast<int64_t>(a.months) + a.days / kDaysPerMonth;
  if (!FitsInt32(months)) return IntervalOutOfRange();
  r.months = static_cast<int32_t>(months);
  r.days = a.days % kDaysPerMonth;
  if (r.months > 0 && r.days < 0) {
    r.days += kDaysPerMonth;
    r.months--;
  } else if (r.months < 0 && r.days > 0) {
    r.days -= kDaysPerMonth;
    r.months++;
  }
  *out = r;
  return Status::OK();
}

Status JustifyInterval(const Interval& a, Interval* out) {
  Interval r = a;
  int64_t days = static_cast<int64_t>(a.days) + a.micros / kMicrosPerDay;
  r.micros = a.micros % kMicrosPerDay;
  const int64_t months = static_cast<int64_t>(a.months) + days / kDaysPerMonth;
  if (!FitsInt32(months)) return IntervalOutOfRange();
  r.months = static_cast<int32_t>(months);
  r.days = static_cast<int32_t>(days % kDaysPerMonth);
  if (r.months > 0 && (r.days < 0 || (r.days == 0 && r.micros < 0))) {
    r.days += kDaysPerMonth;
    r.months--;
  } else if (r.months < 0 && (r.days > 0 || (r.days == 0 && r.micros > 0))) {
    r.days -= kDaysPerMonth;
    r.months++;
  }
  AlignDaysAndTime(&r);
  *out = r;
  return Status::OK();
}

double IntervalSeconds(const Interval& v) {
  const double days = 365.25 * (v.months / 12) + 30.0 * (v.months % 12) + v.days;
  return days * 86400.0 + static_cast<double>(v.micros) / 1e6;
}

}  // namespace paceline
