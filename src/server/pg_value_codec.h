// The PostgreSQL wire formats of Paceline's values: bind parameters in,
// result columns out, in text (format 0) or binary (format 1).
//
// Text input goes through the engine's own casts (CastValue from an untyped
// string), so a parameter '42' bound to an integer is exactly the SQL cast
// '42'::integer, errors and messages included. Binary formats are those of
// PostgreSQL's typsend/typreceive functions:
//   bool         1 byte, 0 = false, anything else = true
//   int2/4/8     2/4/8-byte big-endian two's complement
//   float4/8     IEEE 754, big-endian
//   numeric      int16 ndigits, int16 weight, uint16 sign (0x0000 positive,
//                0x4000 negative, 0xC000 NaN, 0xD000/0xF000 ±Infinity),
//                int16 dscale, then ndigits base-10000 int16 digits, the
//                first one multiplied by 10000^weight
//   bpchar/varchar/text/unknown   the UTF-8 bytes, no terminator
//   date         int32 days since 2000-01-01
//   timestamp(tz) int64 microseconds since 2000-01-01 00:00:00 (UTC for tz)
//   bytea        the bytes as they are (any bytes, NULs included)
//   arrays       array_send's layout: int32 ndim (0 or 1 here), int32 has-NULL
//                flag, element OID, int32 length and lower bound (1), then
//                per element an int32 length (-1: NULL) and its binary value;
//                text arrays are PostgreSQL's '{1,2,NULL}'
//   uuid         the 16 bytes
//   json         the text; jsonb: a version byte 1, then the text (XX000
//                `unsupported jsonb version number` for another version)
// Text bytea is PostgreSQL's: hex output ("\x01ff"), hex or escape input.
// (Paceline's own epoch is 1970-01-01; see datetime.h.)
//
// Errors are Status values with PostgreSQL's SQLSTATEs:
//   22P02  bad text for a number or boolean (`invalid input syntax for type
//          integer: "abc"`); 22007 / 22008 bad or impossible date/time text,
//          as the engine's casts report them
//   22P03  malformed binary data: a length that does not match the type
//          (message "incorrect binary data format in bind parameter"; the
//          caller appends the parameter's 1-based number), or a bad field of
//          a binary numeric (`invalid sign in external "numeric" value`)
//   22003  a number out of range of the type (or of Paceline's 38 digits)
//   22008  a binary date or timestamp outside the supported range
//   22021  bytes that are not valid UTF-8 (or hold a NUL) in any text value
//          (a binary bytea is not text: it may hold any bytes)
//   22023  bad hex digits in a text bytea (22P02 a bad escape)
//   22001  a string too long for VARCHAR(n)/CHAR(n) when `type` has a length
//   0A000  numeric NaN or Infinity, which Paceline's NUMERIC cannot hold
//   22023  a format code other than 0 or 1
//
// Thread-safety: pure functions, safe to call from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline::server {

// Decodes a non-NULL parameter sent in text (format 0) or binary (format 1)
// into a Value of `type`, which is the parameter's declared or inferred type
// (its length/precision/scale, when set, are applied as an assignment would).
// A parameter whose type is still kUnknown becomes text, as PostgreSQL
// resolves an unknown parameter. `bytes` must be the whole value: a binary
// value longer or shorter than its type's size is 22P03.
Status DecodeParameter(std::string_view bytes, int16_t format, const Type& type, Value* out);

// Appends the wire form of a non-NULL value of result column type `type`,
// text (format 0: Value::ToString, PostgreSQL's output) or binary (format 1),
// to *out. A value whose type differs from `type` is converted to it first;
// a kUnknown column is sent as the value's own type. On error *out is left
// as it was.
Status EncodeResult(const Value& value, const Type& type, int16_t format, std::string* out);

// The engine Type for a parameter type OID a client declared in Parse: bool
// 16, bytea 17, int8 20, int2 21, int4 23, text 25, float4 700, float8 701,
// bpchar 1042, varchar 1043, date 1082, timestamp 1114, timestamptz 1184,
// numeric 1700 (without modifiers), json 114, uuid 2950, jsonb 3802, and the
// arrays of these (int4[] 1007, text[] 1009, ...: see ArrayOid). False for 0
// (unspecified) and for any type Paceline does not have (interval, bit, ...).
bool TypeFromOid(uint32_t oid, Type* out);

}  // namespace paceline::server
