// KeyEncoder: turns index column values into byte strings whose memcmp order
// is the SQL order of the values, so one ordered container serves every
// composite key and a key prefix is a byte prefix.
//
// Per column: a marker byte (0x01 value, 0x02 NULL: NULLs sort last, as in a
// PostgreSQL b-tree) then the value: integers of every width as 8 bytes
// big-endian with the sign bit flipped (an int4 column can be probed with an
// int8 parameter); floats with the IEEE order trick; NUMERIC(p,s) rescaled to s
// as a 16-byte sign-flipped integer; bool 1 byte; dates/timestamps as
// integers; strings with 0x00 escaped as 0x00 0xFF and terminated by 0x00 0x00
// (CHAR(n) trailing blanks dropped, as bpchar compares). Every encoded column
// is self-delimiting, so a complete-column prefix of a key is a byte prefix.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline::storage {

// Appends the encoding of `v` (already of the column's type `type`, or of a
// comparable type: integers for integer columns, any number for numeric
// columns) to `out`. Fails only when a numeric value cannot be represented at
// the column's scale (22003).
Status AppendKeyColumn(const Type& type, const Value& v, std::string* out);

// The smallest byte string greater than every string that has `prefix` as a
// prefix ("" when none exists: the prefix is all 0xFF).
std::string PrefixSuccessor(std::string prefix);

}  // namespace paceline::storage
