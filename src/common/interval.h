// Interval: PostgreSQL's `interval` type, its text form and its arithmetic.
//
// An interval is three independent counts, as in PostgreSQL: months, days
// and microseconds. They are not normalized into each other, because a
// month has no fixed number of days and a day (across a DST change) no
// fixed number of hours: timestamp + '1 mon' moves the calendar month.
// Where one number is needed (comparison, equality, hashing, index keys)
// the interval is its span, a 30-day month and a 24-hour day:
// (months * 30 + days) * 86400e6 + micros, so '1 mon' = '30 days' and
// '1 day' = '24:00:00', as PostgreSQL's interval_cmp.
//
// Text output is PostgreSQL's default IntervalStyle `postgres`:
// "1 year 2 mons 3 days 04:05:06.5", "-1 days +02:00:00", "00:00:00".
// Text input takes PostgreSQL's forms (see ParseInterval).
//
// Errors use PostgreSQL's SQLSTATEs and wording: bad input 22007
// `invalid input syntax for type interval: "x"`, a field beyond its range in
// input 22015 `interval field value out of range: "x"`, an arithmetic result
// beyond int32 months/days or int64 microseconds 22008 `interval out of
// range`, a timestamp result beyond the timestamp range 22008 `timestamp out
// of range`, division by zero 22012.
//
// All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline {

struct Interval {
  int64_t micros = 0;  // the time part
  int32_t days = 0;
  int32_t months = 0;
};

// 22008 `interval out of range`: a result beyond int32 months or days or
// int64 microseconds (arithmetic, or years in input).
Status IntervalOutOfRange();

// The interval's span in microseconds (30-day months, 24-hour days); the
// key of its order, equality and hash.
__int128 IntervalSpan(const Interval& v);
// <0, 0, >0 by span.
int CompareIntervals(const Interval& a, const Interval& b);
// Equal spans hash alike.
uint64_t HashInterval(const Interval& v);

// PostgreSQL's interval input: an optional leading "@"; numbers with a unit
// (microsecond(s)/usec/us, millisecond(s)/msec/ms, second(s)/sec/s,
// minute(s)/min/m, hour(s)/hr/h, day(s)/d, week(s)/w, month(s)/mon(s),
// year(s)/yr/y, decade(s)/dec, century/centuries, millennium/millennia,
// plurals and abbreviations as PostgreSQL's table), signed and fractional
// ('1.5 days' is 1 day 12:00:00, '1.5 mons' 1 mon 15 days); a time
// "[+-]hh:mm[:ss[.ffffff]]" (a number right before it is days, '3
// 04:05:06'); a number without unit as the last field is seconds; "ago"
// negates the whole; SQL-standard year-month "1-2"; and ISO 8601 with
// designators ("P1Y2M3DT4H5M6.5S", "PT2H", "P1W"). Commas separate like
// blanks.
Status ParseInterval(std::string_view text, Interval* out);
// Appends the interval in IntervalStyle postgres.
void AppendInterval(const Interval& v, std::string* out);
std::string FormatInterval(const Interval& v);

// Arithmetic as PostgreSQL's interval_pl / interval_mi / interval_um:
// field by field, 22008 `interval out of range` on overflow.
Status AddIntervals(const Interval& a, const Interval& b, Interval* out);
Status SubtractIntervals(const Interval& a, const Interval& b, Interval* out);
Status NegateInterval(const Interval& a, Interval* out);
// interval * float8 and interval / float8 (interval_mul / interval_div):
// each field is scaled and the fraction of months flows down into days
// (30 a month), the fraction of days into microseconds, rounded to the
// microsecond. Division by zero → 22012 `division by zero`; a NaN or
// out-of-range result → 22008 `interval out of range`.
Status MultiplyInterval(const Interval& a, double factor, Interval* out);
Status DivideInterval(const Interval& a, double divisor, Interval* out);

// timestamp + interval (timestamp_pl_interval): the months move the
// calendar month, keeping the day of month (clamped to the month's last
// day: 2024-01-31 + 1 mon = 2024-02-29), then the days, then the
// microseconds. `micros` and the result are microseconds since
// 1970-01-01 (timestamptz in UTC, so a day is always 24 hours). A result
// outside the timestamp range → 22008 `timestamp out of range`.
Status AddIntervalToTimestamp(int64_t micros, const Interval& v, int64_t* out);
// timestamp - timestamp (timestamp_mi): the difference as days and time,
// whole days split off (justify_hours), months 0.
Status SubtractTimestamps(int64_t a, int64_t b, Interval* out);

// justify_hours: whole 24-hour periods of the time part become days;
// justify_days: whole 30-day periods become months; justify_interval:
// both, with the signs of the fields made to agree. 22008 on overflow.
Status JustifyHours(const Interval& a, Interval* out);
Status JustifyDays(const Interval& a, Interval* out);
Status JustifyInterval(const Interval& a, Interval* out);

// The interval's length in seconds as EXTRACT(EPOCH) counts it (a year is
// 365.25 days, a month 30 days), as a double (pg_sleep_for).
double IntervalSeconds(const Interval& v);

}  // namespace paceline
