// Value: one SQL scalar of a given TypeId, or NULL.
//
// Values are what the executor computes with and what results hold. A Value
// owns its data (strings are copied in); it is a regular value type: copyable,
// movable, thread-compatible. Integers of every width are held as int64,
// floats as double, NUMERIC as a Decimal, dates/timestamps as integers (see
// datetime.h). CHAR(n) values are stored blank-padded, as PostgreSQL does.
//
// Text output (ToString) is exactly what PostgreSQL prints in text format,
// because psql and drivers parse it: booleans "t"/"f", NUMERIC with its scale
// ("0.30"), floats in shortest round-trip form ("0.1", "1e+20"), timestamps
// "2024-01-02 03:04:05", bytea in hex ("\x01ff", bytea_output = hex), uuid
// hyphenated lower case, json as it was input, jsonb normalized (json_value.h),
// arrays as "{1,2,NULL}", intervals in IntervalStyle postgres (interval.h),
// void as "", records as "(1,a,)".
//
// An array (kArray) keeps its element type in element_type() and its
// elements encoded in the string slot (array_value.h reads and writes that
// encoding), so a Value is no larger, and a scalar's copy no slower, for
// their being there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/decimal.h"
#include "common/interval.h"
#include "common/status.h"
#include "common/types.h"

namespace paceline {

class Value {
 public:
  Value() = default;  // NULL of unknown type

  static Value Null(TypeId type = TypeId::kUnknown);
  static Value Bool(bool v);
  static Value Int16(int16_t v);
  static Value Int32(int32_t v);
  static Value Int64(int64_t v);
  static Value Float32(float v);
  static Value Float64(double v);
  static Value Numeric(const Decimal& v);
  // kChar, kVarchar, kText, or kUnknown (an untyped string literal).
  static Value String(TypeId type, std::string v);
  static Value Text(std::string v) { return String(TypeId::kText, std::move(v)); }
  static Value Date(int32_t days);
  static Value Timestamp(int64_t micros);
  static Value TimestampTz(int64_t micros);
  // kBytea: any bytes, NULs included.
  static Value Bytea(std::string bytes);
  // kArray: elements of type `element`, encoded as array_value.h says (use
  // ArrayBuilder rather than this).
  static Value Array(TypeId element, std::string encoded);
  // kUuid: 16 bytes (uuid.h); kJson: valid JSON text, verbatim; kJsonb:
  // normalized jsonb text (json::NormalizeJsonb's output). Not checked here.
  static Value Uuid(std::string bytes) { return Bytes(TypeId::kUuid, std::move(bytes)); }
  static Value Json(std::string text) { return Bytes(TypeId::kJson, std::move(text)); }
  static Value Jsonb(std::string text) { return Bytes(TypeId::kJsonb, std::move(text)); }
  // kInterval: months, days and microseconds (interval.h).
  static Value IntervalValue(const Interval& v);
  // kVoid: the (non-NULL) result of a function returning void; prints as "".
  static Value Void() { return Bytes(TypeId::kVoid, std::string()); }
  // kOid: 0 .. 2^32-1.
  static Value Oid(uint32_t v);
  // kRecord: fields encoded as record_value.h says (use RecordBuilder).
  static Value Record(std::string encoded) { return Bytes(TypeId::kRecord, std::move(encoded)); }

  TypeId type() const { return type_; }
  bool is_null() const { return null_; }

  // Accessors; calling one that does not match type() is a programming error
  // (checked by assert in debug builds).
  bool bool_value() const { return u_.b; }
  int64_t int_value() const { return u_.i; }        // kInt16/32/64, kDate, kTimestamp(Tz)
  double float_value() const { return u_.d; }       // kFloat32/64
  const Decimal& numeric_value() const { return u_.n; }
  const std::string& string_value() const { return s_; }  // kChar/kVarchar/kText/kUnknown
  const std::string& bytes_value() const { return s_; }   // kBytea: the raw bytes; kUuid: 16 bytes
  const std::string& json_text() const { return s_; }     // kJson, kJsonb
  TypeId element_type() const { return element_; }        // kArray (kUnknown otherwise)
  const std::string& array_bytes() const { return s_; }   // kArray: the encoded elements
  const std::string& record_bytes() const { return s_; }  // kRecord: the encoded fields
  const Interval& interval_value() const { return u_.iv; }  // kInterval

  // PostgreSQL text output. NULL prints as "" (callers that care check is_null()).
  std::string ToString() const;
  // Appends ToString() to `out` without a temporary where possible.
  void AppendTo(std::string* out) const;

  // Hash consistent with Compare()==0 for values of the same type family
  // (integers of any width hash alike; numeric 1.0 and 1.00 alike; CHAR
  // ignores trailing blanks). NULL hashes to a fixed value.
  uint64_t Hash() const;

  // Total order for two non-NULL values of comparable types: integers, floats
  // and numerics compare numerically across widths; strings byte-wise (CHAR
  // ignoring trailing blanks, as PostgreSQL's bpchar); bools false < true;
  // dates and timestamps by time (a date compares as its midnight); bytea
  // byte-wise as unsigned bytes, a prefix first (PostgreSQL's byteacmp); uuid
  // by its bytes; jsonb in jsonb's order (json_value.h); arrays element by
  // element (a NULL element after any other), then the shorter first
  // (PostgreSQL's array_cmp); intervals by span (interval.h); records field
  // by field (record_value.h). Void values are all equal. Returns
  // <0, 0, >0. Incomparable types are a programming error (the binder rejects
  // them first).
  static int Compare(const Value& a, const Value& b);

  // Structural equality including NULLs (NULL equals NULL here): for tests,
  // DISTINCT and GROUP BY, not for SQL `=`.
  bool operator==(const Value& o) const;

 private:
  static Value Bytes(TypeId type, std::string bytes);

  TypeId type_ = TypeId::kUnknown;
  bool null_ = true;
  TypeId element_ = TypeId::kUnknown;  // kArray only; fits in the padding before u_
  union U {
    bool b;
    int64_t i;
    double d;
    Decimal n;
    Interval iv;
    U() : i(0) {}
  } u_;
  std::string s_;
};

// Converts `v` to `target`, with PostgreSQL's cast semantics:
// - NULL stays NULL (typed as target).
// - integer narrowing out of range → 22003 "smallint out of range" /
//   "integer out of range"; float → integer rounds half to even (rint) and
//   checks range; numeric → integer rounds half away from zero.
// - numeric(p,s) target: rounds to s and checks p (22003 "numeric field overflow").
// - text/unknown → any type parses PostgreSQL input syntax: ints (with spaces
//   around, 22P02 `invalid input syntax for type integer: "x"`), bools
//   ('t','true','yes','on','1' and negatives, case-insensitive), numerics,
//   floats ('NaN', 'Infinity' accepted), dates, timestamps, bytea (see
//   ParseBytea), uuid (ParseUuid), json (validated) and jsonb (normalized).
// - uuid, json, jsonb: from text/unknown by their input syntax, to text by
//   their output; json ↔ jsonb; jsonb → bool/numbers when it holds one
//   (22023 `cannot cast jsonb string to type integer` otherwise).
// - any type → text/varchar/char: its text output (bytea: hex, "\x0102").
// - bytea: from text/unknown by its input syntax, to text by its output; no
//   other type converts to or from it (42846), as in PostgreSQL.
// - VARCHAR(n)/CHAR(n): a longer string → 22001 `value too long for type
//   character varying(n)` unless the excess is blanks (then trimmed), or when
//   `explicit_cast` (then truncated, as `'abc'::varchar(2)` gives 'ab').
//   CHAR(n) pads with blanks to n.
// - bool ↔ integer (int4 only), date ↔ timestamp.
// - interval: from text/unknown by ParseInterval, to text by its output;
//   no other type converts to it.
// - arrays: from text by PostgreSQL's array input ('{1,2}'::int[], see
//   ParseArrayText), to text by its output, array to array element by element.
// - anything else → 42846 `cannot cast type X to Y`.
Status CastValue(const Value& v, const Type& target, bool explicit_cast, Value* out);

// CastValue for comparing keys across types (a foreign key's): false when
// `v` does not fit `target` or a number would change in it (1.5 as an
// integer), so that no value of `target` equals it.
bool CastKeyValue(const Value& v, const Type& target, Value* out);

// True when a value of type `from` may be implicitly converted to `to` in an
// assignment (INSERT/UPDATE) or comparison context, as PostgreSQL allows:
// among numbers, among strings, unknown → anything, date ↔ timestamp,
// anything → text for assignment. Used by the binder for 42804 errors.
bool CanAssign(TypeId from, TypeId to);

// CastValue's rules for uuid, json and jsonb, as source or target (one of
// v.type() and target.id is one of them; value_json.cc).
Status CastUuidOrJson(const Value& v, const Type& target, Value* out);

// PostgreSQL's byteain: text that starts with "\x" is hex, two digits a
// byte, upper or lower case, blanks allowed between bytes (a bad digit →
// 22023 `invalid hexadecimal digit: "g"`, an odd count → 22023 `invalid
// hexadecimal data: odd number of digits`); any other text is the escape
// format, where "\\" is one backslash, "\ooo" (three octal digits, the
// first 0-3) one byte, and other characters stand for themselves (a lone
// backslash → 22P02 `invalid input syntax for type bytea`).
Status ParseBytea(std::string_view text, std::string* bytes);

// PostgreSQL's byteaout with bytea_output = hex: "\x" and two lower-case
// hex digits per byte, appended to *out.
void AppendByteaHex(std::string_view bytes, std::string* out);

}  // namespace paceline
