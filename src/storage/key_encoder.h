// KeyEncoder: turns index column values into byte strings whose memcmp order
// is the SQL order of the values, so one ordered container serves every
// composite key and a key prefix is a byte prefix.
//
// Per column: for a nullable column a marker byte (0x01 value, 0x02 NULL:
// NULLs sort last, as in a PostgreSQL b-tree), then the value: integers
// big-endian with the sign bit flipped, at the column's width (2, 4 or 8
// bytes: TPC-C's composite keys stay within std::string's inline buffer);
// floats with the IEEE order trick; NUMERIC(p,s) rescaled to s as a 16-byte
// sign-flipped integer; bool 1 byte; dates/timestamps as integers; strings
// and bytea with 0x00 escaped as 0x00 0xFF and terminated by 0x00 0x00 (CHAR(n)
// trailing blanks dropped, as bpchar compares); uuid as its 16 bytes; jsonb
// as json::AppendSortKey (jsonb's order; json has no order: 42704). Every
// encoded column is self-delimiting, so a complete-column prefix of a key is
// a byte prefix.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline::storage {

// Whether a probe value can be represented in a key column: an int8 value
// above the range of an int4 column, say, is kAbove every key of it.
enum class KeyFit { kExact, kAbove, kBelow };

// Appends the encoding of `v` (of the column's type `type`, or of a
// comparable type: integers for integer columns, any number for numeric
// columns). `fit` (optional) reports a value outside the column's range
// (an int8 beyond an int4 column, a numeric too large for the column's
// scale), in which case the column's extreme is appended. Without `fit`, such
// a numeric is an error (22003).
Status AppendKeyColumn(const Type& type, bool nullable, const Value& v, std::string* out, KeyFit* fit = nullptr);

// Non-NULL values read straight from a tuple, without a Value.
void AppendKeyInt(const Type& type, bool nullable, int64_t v, std::string* out);
void AppendKeyString(const Type& type, bool nullable, std::string_view s, std::string* out);

// The smallest byte string greater than every string that has `prefix` as a
// prefix ("" when none exists: the prefix is all 0xFF).
std::string PrefixSuccessor(std::string prefix);

}  // namespace paceline::storage
