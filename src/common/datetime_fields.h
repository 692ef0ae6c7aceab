// Fields of dates and timestamps: PostgreSQL's date_trunc, EXTRACT and
// date_part over Paceline's representation (datetime.h: days or
// microseconds since 1970-01-01, timestamptz in UTC).
//
// Field names are PostgreSQL's, case-insensitive, with its plural and
// abbreviated spellings ("years", "mon", "secs", ...). An unknown name is
// 22023 `unit "x" not recognized for type <type>`; a time field of a date is
// 0A000 `unit "hour" not supported for type date`. Pure and thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/decimal.h"
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

}  // namespace paceline
