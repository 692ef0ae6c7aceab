// Fields of dates, timestamps and intervals: PostgreSQL's date_trunc,
// EXTRACT and date_part over Paceline's representation (datetime.h: days or
// microseconds since 1970-01-01, timestamptz in UTC; interval.h).
//
// Field names are PostgreSQL's, case-insensitive, with its plural and
// abbreviated spellings ("years", "mon", "secs", ...). An unknown name is
// 22023 `unit "x" not recognized for type <type>`; a time field of a date is
// 0A000 `unit "hour" not supported for type date`. Pure and thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/decimal.h"
#include "common/interval.h"
#include "common/status.h"
#include "common/types.h"

namespace paceline {

// date_trunc(field, micros): the timestamp at the start of the field's
// unit (week: its Monday). `type` names the argument type in errors.
Status TruncateTimestamp(std::string_view field, int64_t micros, TypeId type, int64_t* out);

// EXTRACT(field FROM value) as PostgreSQL 15 gives it (numeric): `value` is
// days for kDate, microseconds for kTimestamp/kTimestampTz. Seconds,
// milliseconds and epoch of a timestamp carry their fraction (scale 6, 3
// and 6); every other field is a whole number.
Status ExtractField(std::string_view field, int64_t value, TypeId type, Decimal* out);

// An interval's fields are PostgreSQL's breakdown of it: years = months /
// 12, months % 12, days, and hours, minutes, seconds, microseconds of the
// time part, each truncated toward zero (so all of one sign as the field
// it came from). Fields a calendar gives but an interval has not (week,
// dow, doy, isodow, isoyear) are 0A000 `unit "week" not supported for
// type interval`.
//
// date_trunc(field, interval): the fields below `field` set to zero
// (quarter keeps whole quarters of the months; millisecond whole
// milliseconds).
Status TruncateInterval(std::string_view field, const Interval& v, Interval* out);
// EXTRACT(field FROM interval) (numeric): epoch is the whole interval in
// seconds, a year 365.25 days and a month 30 (scale 6); second and
// millisecond carry the fraction (scale 6 and 3), microsecond includes the
// seconds; quarter is months / 3 + 1; decade, century and millennium are
// years / 10, / 100, / 1000.
Status ExtractIntervalField(std::string_view field, const Interval& v, Decimal* out);

}  // namespace paceline
