// CastValue: PostgreSQL's cast rules between Paceline's scalar types, the
// input parsers they use (integers, booleans, floats, bytea) and CanAssign.
// See value.h for the rules.
#include "common/value.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <limits>

#include "common/array_value.h"
#include "common/datetime.h"
#include "common/json_value.h"
#include "common/uuid.h"
#include "common/value_internal.h"

namespace paceline {

using value_internal::kMicrosPerDay;
using value_internal::Cat;
using value_internal::IsStringType;
using value_internal::IsIntegerType;
using value_internal::IsFloatType;
using value_internal::IsNumberType;
using value_internal::IsTemporalType;
using value_internal::TrimTrailingBlanks;
using value_internal::DateMicros;

namespace {

// ---------------------------------------------------------------------------
// Cast helpers.

// Type names as format_type_be() prints them in cast errors (no modifiers;
// an unconstrained bpchar is "character" there).
std::string CastTypeName(TypeId t) {
  if (t == TypeId::kChar) return "character";
  return Type(t).ToString();
}

Status CannotCast(TypeId from, TypeId to) {
  return Status(sqlstate::kCannotCoerce,
                Cat({"cannot cast type ", CastTypeName(from), " to ", CastTypeName(to)}));
}

// Type names in PostgreSQL's "invalid input syntax for type X" messages.
std::string_view InputTypeName(TypeId t) {
  switch (t) {
    case TypeId::kBool: return "boolean";
    case TypeId::kInt16: return "smallint";
    case TypeId::kInt32: return "integer";
    case TypeId::kInt64: return "bigint";
    case TypeId::kFloat32: return "real";
    case TypeId::kFloat64: return "double precision";
    case TypeId::kNumeric: return "numeric";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampTz: return "timestamp with time zone";
    default: return TypeIdName(t);
  }
}

Status InvalidInput(TypeId t, std::string_view text) {
  return Status(sqlstate::kInvalidTextRepresentation,
                Cat({"invalid input syntax for type ", InputTypeName(t), ": \"", text, "\""}));
}

// pg_strtoint's overflow message.
Status ValueOutOfRange(TypeId t, std::string_view text) {
  return Status(sqlstate::kNumericValueOutOfRange,
                Cat({"value \"", text, "\" is out of range for type ", InputTypeName(t)}));
}

Status IntegerOutOfRange(TypeId t) {
  switch (t) {
    case TypeId::kInt16: return Status(sqlstate::kNumericValueOutOfRange, "smallint out of range");
    case TypeId::kInt32: return Status(sqlstate::kNumericValueOutOfRange, "integer out of range");
    case TypeId::kOid: return Status(sqlstate::kNumericValueOutOfRange, "OID out of range");
    default: return Status(sqlstate::kNumericValueOutOfRange, "bigint out of range");
  }
}

void IntegerBounds(TypeId t, int64_t* lo, int64_t* hi) {
  switch (t) {
    case TypeId::kInt16:
      *lo = std::numeric_limits<int16_t>::min();
      *hi = std::numeric_limits<int16_t>::max();
      return;
    case TypeId::kInt32:
      *lo = std::numeric_limits<int32_t>::min();
      *hi = std::numeric_limits<int32_t>::max();
      return;
    case TypeId::kOid:
      *lo = 0;
      *hi = std::numeric_limits<uint32_t>::max();
      return;
    default:
      *lo = std::numeric_limits<int64_t>::min();
      *hi = std::numeric_limits<int64_t>::max();
      return;
  }
}

Value MakeInteger(TypeId t, int64_t v) {
  switch (t) {
    case TypeId::kInt16: return Value::Int16(static_cast<int16_t>(v));
    case TypeId::kInt32: return Value::Int32(static_cast<int32_t>(v));
    case TypeId::kOid: return Value::Oid(static_cast<uint32_t>(v));
    default: return Value::Int64(v);
  }
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && IsSpace(s[b])) ++b;
  while (e > b && IsSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// PostgreSQL 15's pg_strtoint16/32/64: blanks around, an optional sign, digits.
Status ParseInteger(std::string_view text, TypeId t, Value* out) {
  if (t == TypeId::kOid) {  // oidin: 0 .. 2^32-1, and negative int4 values as their bits ('-1' is 4294967295)
    Value wide;
    Status s = ParseInteger(text, TypeId::kInt64, &wide);
    if (s.ok() && (wide.int_value() < std::numeric_limits<int32_t>::min() ||
                   wide.int_value() > std::numeric_limits<uint32_t>::max())) {
      s = ValueOutOfRange(t, text);
    }
    if (!s.ok()) return s.sqlstate() == sqlstate::kInvalidTextRepresentation ? InvalidInput(t, text) : ValueOutOfRange(t, text);
    *out = Value::Oid(static_cast<uint32_t>(wide.int_value()));
    return Status::OK();
  }
  int64_t lo, hi;
  IntegerBounds(t, &lo, &hi);
  size_t i = 0;
  const size_t n = text.size();
  while (i < n && IsSpace(text[i])) ++i;
  bool negative = false;
  if (i < n && (text[i] == '-' || text[i] == '+')) {
    negative = text[i] == '-';
    ++i;
  }
  if (i >= n || text[i] < '0' || text[i] > '9') return InvalidInput(t, text);
  // Accumulate negatively, as PostgreSQL does, so the minimum value fits.
  int64_t acc = 0;
  for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i) {
    const int digit = text[i] - '0';
    if (acc < (lo + digit) / 10) {
      return ValueOutOfRange(t, text);
    }
    acc = acc * 10 - digit;
  }
  while (i < n && IsSpace(text[i])) ++i;
  if (i != n) return InvalidInput(t, text);
  if (!negative) {
    if (acc < -hi) {
      return ValueOutOfRange(t, text);
    }
    acc = -acc;
  }
  *out = MakeInteger(t, acc);
  return Status::OK();
}

// PostgreSQL's parse_bool_with_len: any prefix of true/false/yes/no, on/off
// (at least two letters), 1/0; case-insensitive, blanks around.
Status ParseBool(std::string_view text, Value* out) {
  const std::string_view s = Trim(text);
  std::string lower(s);
  for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  auto prefix_of = [&](std::string_view word) { return word.starts_with(lower); };
  int result = -1;  // -1 invalid, else 0/1
  switch (lower.empty() ? '\0' : lower[0]) {
    case 't': result = prefix_of("true") ? 1 : -1; break;
    case 'f': result = prefix_of("false") ? 0 : -1; break;
    case 'y': result = prefix_of("yes") ? 1 : -1; break;
    case 'n': result = prefix_of("no") ? 0 : -1; break;
    case 'o': result = lower == "on" ? 1 : (lower == "of" || lower == "off" ? 0 : -1); break;
    case '1': result = lower.size() == 1 ? 1 : -1; break;
    case '0': result = lower.size() == 1 ? 0 : -1; break;
    default: break;
  }
  if (result >= 0) {
    *out = Value::Bool(result == 1);
    return Status::OK();
  }
  return InvalidInput(TypeId::kBool, text);
}

// PostgreSQL's float4in/float8in: blanks around, NaN/Infinity/inf spelled in
// any case, out of range (including underflow to zero) → 22003.
Status ParseFloat(std::string_view text, TypeId t, Value* out) {
  const std::string_view s = Trim(text);
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  if (begin != end && *begin == '+') {
    ++begin;
    if (begin != end && (*begin == '-' || *begin == '+')) return InvalidInput(t, text);
  }
  if (begin == end) return InvalidInput(t, text);
  const bool single = t == TypeId::kFloat32;
  double d = 0;
  std::from_chars_result res;
  if (single) {
    float f = 0;
    res = std::from_chars(begin, end, f);
    d = f;
  } else {
    res = std::from_chars(begin, end, d);
  }
  if (res.ec == std::errc::invalid_argument || res.ptr != end) return InvalidInput(t, text);
  if (res.ec == std::errc::result_out_of_range) {
    return Status(sqlstate::kNumericValueOutOfRange,
                  Cat({"\"", text, "\" is out of range for type ", InputTypeName(t)}));
  }
  *out = single ? Value::Float32(static_cast<float>(d)) : Value::Float64(d);
  return Status::OK();
}

// Counts UTF-8 characters; sets *cut to the byte offset after the first
// `limit` characters (or the size when there are fewer).
size_t CountChars(std::string_view s, size_t limit, size_t* cut) {
  size_t chars = 0;
  *cut = s.size();
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (chars == limit) *cut = i;
    ++chars;
  }
  return chars;
}

// Applies CHAR(n)/VARCHAR(n) to a string: too long → 22001 unless the excess
// is blanks or the cast is explicit (then truncated); CHAR pads with blanks.
Status FitString(std::string s, const Type& target, bool explicit_cast, Value* out) {
  if (target.id == TypeId::kText || target.length < 0) {
    *out = Value::String(target.id, std::move(s));
    return Status::OK();
  }
  const size_t limit = static_cast<size_t>(target.length);
  size_t cut = 0;
  size_t chars = CountChars(s, limit, &cut);
  if (chars > limit) {
    if (!explicit_cast) {
      for (size_t i = cut; i < s.size(); ++i) {
        if (s[i] != ' ') {
          return Status(sqlstate::kStringDataRightTruncation, Cat({"value too long for type ", target.ToString()}));
        }
      }
    }
    s.resize(cut);
    chars = limit;
  }
  if (target.id == TypeId::kChar) s.append(limit - chars, ' ');
  *out = Value::String(target.id, std::move(s));
  return Status::OK();
}

Status CastToString(const Value& v, const Type& target, bool explicit_cast, Value* out) {
  std::string s;
  switch (v.type()) {
    case TypeId::kChar:
      s = std::string(TrimTrailingBlanks(v.string_value()));  // bpchar → text drops the padding
      break;
    case TypeId::kBool:
      s = v.bool_value() ? "true" : "false";  // booltext(), not boolout()
      break;
    default:
      s = IsStringType(v.type()) ? v.string_value() : v.ToString();
      break;
  }
  return FitString(std::move(s), target, explicit_cast, out);
}

Status CastToInteger(const Value& v, TypeId to, Value* out) {
  int64_t lo, hi;
  IntegerBounds(to, &lo, &hi);
  const TypeId from = v.type();
  if (IsIntegerType(from)) {
    // int4 and oid convert into each other bit for bit, as in PostgreSQL
    // ((-1)::oid is 4294967295 and back).
    if (to == TypeId::kOid && (from == TypeId::kInt32 || from == TypeId::kInt16) && v.int_value() < 0) {
      *out = Value::Oid(static_cast<uint32_t>(v.int_value()));
      return Status::OK();
    }
    if (to == TypeId::kInt32 && from == TypeId::kOid) {
      *out = Value::Int32(static_cast<int32_t>(static_cast<uint32_t>(v.int_value())));
      return Status::OK();
    }
    if (v.int_value() < lo || v.int_value() > hi) return IntegerOutOfRange(to);
    *out = MakeInteger(to, v.int_value());
    return Status::OK();
  }
  if (IsFloatType(from)) {
    const double d = std::rint(v.float_value());  // half to even
    // -(double)lo is 2^15/2^31/2^63 exactly; NaN fails both comparisons.
    if (!(d >= static_cast<double>(lo) && d < -static_cast<double>(lo))) return IntegerOutOfRange(to);
    *out = MakeInteger(to, static_cast<int64_t>(d));
    return Status::OK();
  }
  if (from == TypeId::kNumeric) {
    int64_t i = 0;
    if (!v.numeric_value().ToInt64(&i).ok() || i < lo || i > hi) return IntegerOutOfRange(to);
    *out = MakeInteger(to, i);
    return Status::OK();
  }
  if (from == TypeId::kBool && to == TypeId::kInt32) {
    *out = Value::Int32(v.bool_value() ? 1 : 0);
    return Status::OK();
  }
  if (IsStringType(from)) return ParseInteger(v.string_value(), to, out);
  return CannotCast(from, to);
}

Status CastToFloat(const Value& v, TypeId to, Value* out) {
  const TypeId from = v.type();
  const bool single = to == TypeId::kFloat32;
  if (IsIntegerType(from)) {
    *out = single ? Value::Float32(static_cast<float>(v.int_value()))
                  : Value::Float64(static_cast<double>(v.int_value()));
    return Status::OK();
  }
  if (IsFloatType(from)) {
    const double d = v.float_value();
    if (!single) {
      *out = Value::Float64(d);
      return Status::OK();
    }
    const float f = static_cast<float>(d);
    if (std::isinf(f) && !std::isinf(d)) {
      return Status(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
    }
    if (f == 0.0f && d != 0.0) return Status(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
    *out = Value::Float32(f);
    return Status::OK();
  }
  if (from == TypeId::kNumeric) {
    if (!single) {
      *out = Value::Float64(v.numeric_value().ToDouble());
      return Status::OK();
    }
    // Read the decimal text straight into a float (no double rounding).
    const std::string s = v.numeric_value().ToString();
    float f = 0;
    std::from_chars(s.data(), s.data() + s.size(), f);
    *out = Value::Float32(f);
    return Status::OK();
  }
  if (IsStringType(from)) return ParseFloat(v.string_value(), to, out);
  return CannotCast(from, to);
}

Status CastToNumeric(const Value& v, const Type& target, Value* out) {
  const TypeId from = v.type();
  Decimal d;
  if (IsIntegerType(from)) {
    d = Decimal::FromInt(v.int_value());
  } else if (from == TypeId::kFloat64) {
    PL_RETURN_IF_ERROR(Decimal::FromDouble(v.float_value(), &d));
  } else if (from == TypeId::kFloat32) {
    // PostgreSQL's float4_numeric prints with "%.6g" (FLT_DIG).
    const double f = v.float_value();
    if (std::isnan(f) || std::isinf(f)) return Decimal::FromDouble(f, &d);
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::general, 6);
    PL_RETURN_IF_ERROR(Decimal::Parse(std::string_view(buf, static_cast<size_t>(res.ptr - buf)), &d));
  } else if (from == TypeId::kNumeric) {
    d = v.numeric_value();
  } else if (IsStringType(from)) {
    PL_RETURN_IF_ERROR(Decimal::Parse(v.string_value(), &d));
  } else {
    return CannotCast(from, TypeId::kNumeric);
  }
  if (target.precision >= 0) PL_RETURN_IF_ERROR(d.FitTo(target.precision, target.scale < 0 ? 0 : target.scale, &d));
  *out = Value::Numeric(d);
  return Status::OK();
}

Status CastToTemporal(const Value& v, TypeId to, Value* out) {
  const TypeId from = v.type();
  int64_t micros = 0;
  if (IsStringType(from)) {
    if (to == TypeId::kDate) {
      int32_t days = 0;
      PL_RETURN_IF_ERROR(ParseDate(v.string_value(), &days));
      *out = Value::Date(days);
      return Status::OK();
    }
    PL_RETURN_IF_ERROR(ParseTimestamp(v.string_value(), to == TypeId::kTimestampTz, &micros));
  } else if (from == TypeId::kDate) {
    if (to == TypeId::kDate) {
      *out = v;
      return Status::OK();
    }
    micros = DateMicros(v.int_value());
    if (micros == std::numeric_limits<int64_t>::min() || micros == std::numeric_limits<int64_t>::max()) {
      return Status(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
    }
  } else if (IsTemporalType(from)) {
    micros = v.int_value();
  } else {
    return CannotCast(from, to);
  }
  switch (to) {
    case TypeId::kDate: {
      const int64_t days = micros / kMicrosPerDay - (micros % kMicrosPerDay < 0 ? 1 : 0);
      if (!IsValidDate(days)) return Status(sqlstate::kDatetimeFieldOverflow, "date out of range");
      *out = Value::Date(static_cast<int32_t>(days));
      break;
    }
    case TypeId::kTimestamp: *out = Value::Timestamp(micros); break;
    default: *out = Value::TimestampTz(micros); break;
  }
  return Status::OK();
}

Status CastToInterval(const Value& v, Value* out) {
  if (v.type() == TypeId::kInterval) {
    *out = v;
    return Status::OK();
  }
  if (!IsStringType(v.type())) return CannotCast(v.type(), TypeId::kInterval);
  Interval iv;
  PL_RETURN_IF_ERROR(ParseInterval(v.string_value(), &iv));
  *out = Value::IntervalValue(iv);
  return Status::OK();
}

Status CastToBytea(const Value& v, Value* out) {
  if (v.type() == TypeId::kBytea) {
    *out = v;
    return Status::OK();
  }
  if (!IsStringType(v.type())) return CannotCast(v.type(), TypeId::kBytea);
  std::string bytes;
  PL_RETURN_IF_ERROR(ParseBytea(v.string_value(), &bytes));
  *out = Value::Bytea(std::move(bytes));
  return Status::OK();
}

// A hex digit's value, or -1.
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// byteain's message for the character (all its UTF-8 bytes) at s[i], or ""
// at the end of the text.
Status InvalidHexDigit(std::string_view s, size_t i) {
  size_t n = i < s.size() ? 1 : 0;
  while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
  return Status(sqlstate::kInvalidParameterValue, Cat({"invalid hexadecimal digit: \"", s.substr(i, n), "\""}));
}

bool IsOctal(char c, char max) { return c >= '0' && c <= max; }

}  // namespace

// ---------------------------------------------------------------------------
// Casts.

bool CastKeyValue(const Value& v, const Type& target, Value* out) {
  if (!CastValue(v, target, false, out).ok()) return false;
  const Type from(v.type());
  if (!from.IsNumber() || !target.IsNumber()) return true;
  Value back;
  return CastValue(*out, from, false, &back).ok() && Value::Compare(back, v) == 0;
}

Status CastValue(const Value& v, const Type& target, bool explicit_cast, Value* out) {
  if (v.is_null()) {
    *out = Value::Null(target.id);
    return Status::OK();
  }
  if (v.type() == TypeId::kJsonb && (target.IsNumber() || target.id == TypeId::kBool)) {
    return CastUuidOrJson(v, target, out);  // jsonb holding a number or boolean
  }
  switch (target.id) {
    case TypeId::kUnknown:
      *out = v;
      return Status::OK();
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
      return CastToString(v, target, explicit_cast, out);
    case TypeId::kBool:
      if (v.type() == TypeId::kBool) {
        *out = v;
        return Status::OK();
      }
      if (v.type() == TypeId::kInt32) {
        *out = Value::Bool(v.int_value() != 0);
        return Status::OK();
      }
      if (IsStringType(v.type())) return ParseBool(v.string_value(), out);
      return CannotCast(v.type(), target.id);
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kOid:
      return CastToInteger(v, target.id, out);
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return CastToFloat(v, target.id, out);
    case TypeId::kNumeric:
      return CastToNumeric(v, target, out);
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return CastToTemporal(v, target.id, out);
    case TypeId::kBytea:
      return CastToBytea(v, out);
    case TypeId::kArray:
      return CastToArray(v, target, explicit_cast, out);
    case TypeId::kUuid: case TypeId::kJson: case TypeId::kJsonb:
      return CastUuidOrJson(v, target, out);
    case TypeId::kInterval:
      return CastToInterval(v, out);
    case TypeId::kVoid:
      break;
    case TypeId::kRecord:
      if (v.type() == TypeId::kRecord) {
        *out = v;
        return Status::OK();
      }
      if (IsStringType(v.type())) {  // record_in of the anonymous type, as PostgreSQL
        return Status(sqlstate::kFeatureNotSupported, "input of anonymous composite types is not implemented");
      }
      break;
  }
  return CannotCast(v.type(), target.id);
}

bool CanAssign(TypeId from, TypeId to) {
  if (from == to || from == TypeId::kUnknown) return true;
  if (IsNumberType(from) && IsNumberType(to)) return true;
  if (to == TypeId::kChar || to == TypeId::kVarchar || to == TypeId::kText) return true;
  if (IsTemporalType(from) && IsTemporalType(to)) return true;
  return Type(from).IsJson() && Type(to).IsJson();  // json ↔ jsonb is an assignment cast
}

Status ParseBytea(std::string_view text, std::string* bytes) {
  bytes->clear();
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') {
    bytes->reserve((text.size() - 2) / 2);
    for (size_t i = 2; i < text.size();) {
      const char c = text[i];
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
        ++i;
        continue;
      }
      const int high = HexDigit(c);
      if (high < 0) return InvalidHexDigit(text, i);
      if (++i >= text.size()) {
        return Status(sqlstate::kInvalidParameterValue, "invalid hexadecimal data: odd number of digits");
      }
      const int low = HexDigit(text[i]);
      if (low < 0) return InvalidHexDigit(text, i);
      ++i;
      bytes->push_back(static_cast<char>((high << 4) | low));
    }
    return Status::OK();
  }
  bytes->reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '\\') {
      bytes->push_back(text[i++]);
    } else if (i + 3 < text.size() && IsOctal(text[i + 1], '3') && IsOctal(text[i + 2], '7') &&
               IsOctal(text[i + 3], '7')) {
      bytes->push_back(static_cast<char>(((text[i + 1] - '0') << 6) | ((text[i + 2] - '0') << 3) | (text[i + 3] - '0')));
      i += 4;
    } else if (i + 1 < text.size() && text[i + 1] == '\\') {
      bytes->push_back('\\');
      i += 2;
    } else {
      return Status(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type bytea");
    }
  }
  return Status::OK();
}

void AppendByteaHex(std::string_view bytes, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + 2 + 2 * bytes.size());
  out->append("\\x");
  for (char c : bytes) {
    const unsigned char b = static_cast<unsigned char>(c);
    out->push_back(kHex[b >> 4]);
    out->push_back(kHex[b & 0xF]);
  }
}

}  // namespace paceline
