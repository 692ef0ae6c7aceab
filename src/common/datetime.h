// Dates and timestamps: parsing and printing in PostgreSQL's ISO text form.
//
// A date is an int32 count of days since 1970-01-01 (negative before). A
// timestamp is an int64 count of microseconds since 1970-01-01 00:00:00 (no
// time zone; timestamptz values are the same count in UTC). Calendar math uses
// C++20 <chrono>. All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline {

// Microseconds from 1970-01-01 to PostgreSQL's epoch 2000-01-01 (binary wire format).
inline constexpr int64_t kPostgresEpochOffsetMicros = 946684800LL * 1000000LL;
inline constexpr int32_t kPostgresEpochOffsetDays = 10957;

// Whether `days` is a date Paceline computes with and prints: from
// PostgreSQL's first date, 4714-11-24 BC, to 32767-12-31, where std::chrono's
// calendar ends (PostgreSQL's goes on to 5874897 AD).
bool IsValidDate(int64_t days);

// Accepts "YYYY-MM-DD" (surrounding spaces allowed). A bad format → 22007
// `invalid input syntax for type date: "x"`; an impossible date (2024-02-30)
// → 22008 `date/time field value out of range: "x"`.
Status ParseDate(std::string_view text, int32_t* days);
// "2024-01-02".
std::string FormatDate(int32_t days);

// Accepts "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS[.ffffff]]", a 'T' instead of the
// space, and a trailing zone offset ("+00", "+05:30", "Z") which, when
// `with_time_zone`, is applied to convert to UTC and otherwise ignored (as
// PostgreSQL does for timestamp without time zone). Errors as ParseDate.
Status ParseTimestamp(std::string_view text, bool with_time_zone, int64_t* micros);
// "2024-01-02 03:04:05" with ".25" / ".123456" fractional seconds only when
// non-zero (trailing zeros trimmed, as PostgreSQL prints); `with_time_zone`
// appends "+00".
std::string FormatTimestamp(int64_t micros, bool with_time_zone = false);

// The current wall-clock time as a timestamp.
int64_t CurrentTimestampMicros();

// 22008 `timestamp out of range`: a timestamp computed or received beyond
// the range above.
Status TimestampOutOfRange();

}  // namespace paceline
