// Value: construction, PostgreSQL text output (including the shortest
// round-trip float format), hashing and ordering across type families.
// CastValue and the input parsers are in value_cast.cc.
#include "common/value.h"

#include <xxhash.h>

#include <array>
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
#include "common/record_value.h"
#include "common/uuid.h"
#include "common/value_internal.h"

namespace paceline {

using value_internal::IsStringType;
using value_internal::IsIntegerType;
using value_internal::IsFloatType;
using value_internal::IsNumberType;
using value_internal::IsTemporalType;
using value_internal::TrimTrailingBlanks;
using value_internal::DateMicros;

namespace {

constexpr uint64_t kNullHash = 0x9e3779b97f4a7c15ULL;

// ---------------------------------------------------------------------------
// Float output.
//
// PostgreSQL 15 (extra_float_digits = 1) prints floats with its copy of Ryu:
// the shortest digits that read back to the same value, in fixed notation
// when the decimal exponent is in [-4, 15) for float8 and [-4, 6) for float4,
// else as d.ddde+XX. Unlike upstream Ryu (and std::to_chars), PostgreSQL's
// copy is built with STRICTLY_SHORTEST 0: it never prints a decimal that lies
// exactly on the midpoint between two adjacent floats (which only reads back
// correctly under round-half-even). So we take std::to_chars' shortest form
// and, in the rare case it is such a midpoint, use the first correctly rounded
// longer form that lies strictly inside the rounding interval.

// A decimal D * 10^exp10 with D's digits in `digits` (no trailing zeros).
struct DecimalDigits {
  char digits[40];
  int count = 0;
  int exponent = 0;  // decimal exponent of the first digit (d.ddd × 10^exponent)
};

// Parses std::to_chars' scientific output "d[.ddd]e(+|-)XX" (no sign).
void ParseScientific(const char* p, const char* end, DecimalDigits* out) {
  out->count = 0;
  for (; p < end && *p != 'e'; ++p) {
    if (*p != '.') out->digits[out->count++] = *p;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exponent);
  out->exponent = exponent;
  while (out->count > 1 && out->digits[out->count - 1] == '0') --out->count;
}

constexpr std::array<unsigned __int128, 28> MakePowersOf5() {
  std::array<unsigned __int128, 28> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 5;
  return p;
}
constexpr std::array<unsigned __int128, 28> kPow5 = MakePowersOf5();

// True when digits × 10^(exponent - count + 1) == odd × 2^binary exactly.
bool DecimalEqualsDyadic(const DecimalDigits& d, uint64_t odd, int binary) {
  uint64_t mantissa = 0;
  for (int i = 0; i < d.count; ++i) mantissa = mantissa * 10 + static_cast<uint64_t>(d.digits[i] - '0');
  if (mantissa == 0) return false;
  const int ten = d.exponent - d.count + 1;  // value = mantissa × 10^ten
  const int twos = __builtin_ctzll(mantissa);
  const uint64_t rest = mantissa >> twos;  // odd
  // mantissa × 10^ten = rest × 5^ten × 2^(twos + ten): equal iff the powers
  // of two agree and the odd parts do.
  if (twos + ten != binary) return false;
  if (ten >= 0) return ten < 28 && static_cast<unsigned __int128>(rest) * kPow5[ten] == odd;
  return -ten < 28 && static_cast<unsigned __int128>(odd) * kPow5[-ten] == rest;
}

// True when the decimal is exactly the midpoint between |v| (finite, > 0)
// and one of its neighbours.
template <typename F>
bool IsMidpoint(F v, const DecimalDigits& d) {
  constexpr int kMantissaBits = std::numeric_limits<F>::digits - 1;  // 52 / 23
  constexpr int kBias = std::numeric_limits<F>::max_exponent - 1;     // 1023 / 127
  uint64_t bits = 0;
  if constexpr (sizeof(F) == 8) {
    std::memcpy(&bits, &v, sizeof(v));
  } else {
    uint32_t b32 = 0;
    std::memcpy(&b32, &v, sizeof(v));
    bits = b32;
  }
  const uint64_t fraction = bits & ((uint64_t{1} << kMantissaBits) - 1);
  const int exponent_field = static_cast<int>((bits >> kMantissaBits) & ((uint64_t{1} << (sizeof(F) * 8 - 1 - kMantissaBits)) - 1));
  uint64_t m;
  int e;  // |v| = m × 2^e
  if (exponent_field == 0) {
    m = fraction;
    e = 1 - kBias - kMantissaBits;
  } else {
    m = fraction | (uint64_t{1} << kMantissaBits);
    e = exponent_field - kBias - kMantissaBits;
  }
  if (DecimalEqualsDyadic(d, 2 * m + 1, e - 1)) return true;  // upper midpoint
  if (fraction == 0 && exponent_field > 1) return DecimalEqualsDyadic(d, 4 * m - 1, e - 2);  // narrower gap below
  return DecimalEqualsDyadic(d, 2 * m - 1, e - 1);
}

// PostgreSQL's choice of digits for finite, non-zero |v|.
template <typename F>
void ShortestDigits(F v, DecimalDigits* out) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  ParseScientific(buf, res.ptr, out);
  if (!IsMidpoint(v, *out)) return;
  const int shortest = out->count;
  for (int precision = shortest - 1; precision < std::numeric_limits<F>::max_digits10; ++precision) {
    res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific, precision);
    F back = 0;
    std::from_chars(buf, res.ptr, back);
    DecimalDigits candidate;
    ParseScientific(buf, res.ptr, &candidate);
    if (back == v && !IsMidpoint(v, candidate)) {
      *out = candidate;
      return;
    }
  }
}

void AppendFloat(double value, bool single, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out->append(value < 0 ? "-Infinity" : "Infinity");
    return;
  }
  if (std::signbit(value)) out->push_back('-');
  if (value == 0) {
    out->push_back('0');
    return;
  }
  DecimalDigits d;
  if (single) {
    ShortestDigits(std::fabs(static_cast<float>(value)), &d);
  } else {
    ShortestDigits(std::fabs(value), &d);
  }
  const char* digits = d.digits;
  const int n = d.count;
  const int exponent = d.exponent;
  const int fixed_limit = single ? 6 : 15;
  if (exponent >= -4 && exponent < fixed_limit) {
    if (exponent < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits, static_cast<size_t>(n));
    } else if (n <= exponent + 1) {
      out->append(digits, static_cast<size_t>(n));
      out->append(static_cast<size_t>(exponent + 1 - n), '0');
    } else {
      out->append(digits, static_cast<size_t>(exponent + 1));
      out->push_back('.');
      out->append(digits + exponent + 1, static_cast<size_t>(n - exponent - 1));
    }
    return;
  }
  out->push_back(digits[0]);
  if (n > 1) {
    out->push_back('.');
    out->append(digits + 1, static_cast<size_t>(n - 1));
  }
  out->push_back('e');
  out->push_back(exponent < 0 ? '-' : '+');
  const int mag = exponent < 0 ? -exponent : exponent;
  if (mag < 10) out->push_back('0');
  char ebuf[8];
  const auto eres = std::to_chars(ebuf, ebuf + sizeof(ebuf), mag);
  out->append(ebuf, eres.ptr);
}

// ---------------------------------------------------------------------------
// Hashing and comparison helpers.

uint64_t HashInt(int64_t v) { return XXH3_64bits(&v, sizeof(v)); }

uint64_t HashDouble(double d) {
  if (std::isnan(d)) return 0x7ff8000000000000ULL * 31 + 17;  // every NaN alike
  if (d == 0) d = 0;                                          // -0 == 0
  // Integral doubles hash as the equal integer (and so as the equal NUMERIC).
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && std::trunc(d) == d) {
    return HashInt(static_cast<int64_t>(d));
  }
  return XXH3_64bits(&d, sizeof(d));
}

// PostgreSQL's float8 order: NaN equals NaN and sorts above everything.
int CompareDoubles(double a, double b) {
  const bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

double NumberAsDouble(const Value& v) {
  if (IsIntegerType(v.type())) return static_cast<double>(v.int_value());
  if (v.type() == TypeId::kNumeric) return v.numeric_value().ToDouble();
  return v.float_value();
}

Decimal NumberAsDecimal(const Value& v) {
  return v.type() == TypeId::kNumeric ? v.numeric_value() : Decimal::FromInt(v.int_value());
}

int64_t TemporalMicros(const Value& v) {
  return v.type() == TypeId::kDate ? DateMicros(v.int_value()) : v.int_value();
}

}  // namespace

// ---------------------------------------------------------------------------
// Value.

Value Value::Null(TypeId type) {
  Value v;
  v.type_ = type;
  return v;
}

Value Value::Bool(bool b) {
  Value v;
  v.type_ = TypeId::kBool;
  v.null_ = false;
  v.u_.b = b;
  return v;
}

Value Value::Int16(int16_t i) {
  Value v = Int64(i);
  v.type_ = TypeId::kInt16;
  return v;
}

Value Value::Int32(int32_t i) {
  Value v = Int64(i);
  v.type_ = TypeId::kInt32;
  return v;
}

Value Value::Int64(int64_t i) {
  Value v;
  v.type_ = TypeId::kInt64;
  v.null_ = false;
  v.u_.i = i;
  return v;
}

Value Value::Float32(float f) {
  Value v = Float64(f);
  v.type_ = TypeId::kFloat32;
  return v;
}

Value Value::Float64(double d) {
  Value v;
  v.type_ = TypeId::kFloat64;
  v.null_ = false;
  v.u_.d = d;
  return v;
}

Value Value::Numeric(const Decimal& d) {
  Value v;
  v.type_ = TypeId::kNumeric;
  v.null_ = false;
  v.u_.n = d;
  return v;
}

Value Value::String(TypeId type, std::string s) {
  assert(IsStringType(type));
  Value v;
  v.type_ = type;
  v.null_ = false;
  v.s_ = std::move(s);
  return v;
}

Value Value::Bytea(std::string bytes) { return Bytes(TypeId::kBytea, std::move(bytes)); }

Value Value::Bytes(TypeId type, std::string bytes) {
  Value v;
  v.type_ = type;
  v.null_ = false;
  v.s_ = std::move(bytes);
  return v;
}

Value Value::Array(TypeId element, std::string encoded) {
  Value v;
  v.type_ = TypeId::kArray;
  v.null_ = false;
  v.element_ = element;
  v.s_ = std::move(encoded);
  return v;
}

Value Value::IntervalValue(const Interval& iv) {
  Value v;
  v.type_ = TypeId::kInterval;
  v.null_ = false;
  v.u_.iv = iv;
  return v;
}

Value Value::Date(int32_t days) {
  Value v = Int64(days);
  v.type_ = TypeId::kDate;
  return v;
}

Value Value::Timestamp(int64_t micros) {
  Value v = Int64(micros);
  v.type_ = TypeId::kTimestamp;
  return v;
}

Value Value::Oid(uint32_t v) {
  Value x = Int64(v);
  x.type_ = TypeId::kOid;
  return x;
}

Value Value::TimestampTz(int64_t micros) {
  Value v = Int64(micros);
  v.type_ = TypeId::kTimestampTz;
  return v;
}

std::string Value::ToString() const {
  if (!null_ && (IsStringType(type_) || type_ == TypeId::kJson || type_ == TypeId::kJsonb)) return s_;
  std::string s;
  AppendTo(&s);
  return s;
}

void Value::AppendTo(std::string* out) const {
  if (null_) return;
  switch (type_) {
    case TypeId::kBool:
      out->push_back(u_.b ? 't' : 'f');
      return;
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kOid: {
      char buf[24];
      const auto res = std::to_chars(buf, buf + sizeof(buf), u_.i);
      out->append(buf, res.ptr);
      return;
    }
    case TypeId::kFloat32:
      AppendFloat(u_.d, true, out);
      return;
    case TypeId::kFloat64:
      AppendFloat(u_.d, false, out);
      return;
    case TypeId::kNumeric:
      out->append(u_.n.ToString());
      return;
    case TypeId::kUnknown:
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
      out->append(s_);
      return;
    case TypeId::kDate:
      out->append(FormatDate(static_cast<int32_t>(u_.i)));
      return;
    case TypeId::kTimestamp:
      out->append(FormatTimestamp(u_.i, false));
      return;
    case TypeId::kTimestampTz:
      out->append(FormatTimestamp(u_.i, true));
      return;
    case TypeId::kBytea:
      AppendByteaHex(s_, out);
      return;
    case TypeId::kArray:
      AppendArrayText(*this, out);
      return;
    case TypeId::kUuid: AppendUuid(s_, out); return;
    case TypeId::kJson: case TypeId::kJsonb: out->append(s_); return;
    case TypeId::kInterval: AppendInterval(u_.iv, out); return;
    case TypeId::kVoid: return;  // void_out: the empty string
    case TypeId::kRecord: AppendRecordText(*this, out); return;
  }
}

uint64_t Value::Hash() const {
  if (null_) return kNullHash;
  switch (type_) {
    case TypeId::kBool:
      return HashInt(u_.b ? 1 : 0);
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kOid:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return HashInt(u_.i);
    case TypeId::kDate:
      return HashInt(DateMicros(u_.i));  // a date equals its midnight
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return HashDouble(u_.d);
    case TypeId::kNumeric:
      return u_.n.Hash();
    case TypeId::kChar: {
      const std::string_view s = TrimTrailingBlanks(s_);
      return XXH3_64bits(s.data(), s.size());
    }
    case TypeId::kUnknown:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kBytea:
    case TypeId::kUuid:
    case TypeId::kJson:
      return XXH3_64bits(s_.data(), s_.size());
    case TypeId::kArray:
      return HashArray(*this);
    case TypeId::kJsonb:
      return json::HashJsonbText(s_);
    case TypeId::kInterval:
      return HashInterval(u_.iv);
    case TypeId::kVoid:
      return kNullHash;
    case TypeId::kRecord:
      return HashRecord(*this);
  }
  return kNullHash;
}

int Value::Compare(const Value& a, const Value& b) {
  // NULLs are not for SQL comparison, but order them last (as ORDER BY does)
  // so the order stays total.
  if (a.null_ || b.null_) return a.null_ == b.null_ ? 0 : (a.null_ ? 1 : -1);
  const TypeId ta = a.type_, tb = b.type_;
  if (IsNumberType(ta) && IsNumberType(tb)) {
    if (IsIntegerType(ta) && IsIntegerType(tb)) return a.u_.i < b.u_.i ? -1 : (a.u_.i > b.u_.i ? 1 : 0);
    if (IsFloatType(ta) || IsFloatType(tb)) return CompareDoubles(NumberAsDouble(a), NumberAsDouble(b));
    return Decimal::Compare(NumberAsDecimal(a), NumberAsDecimal(b));
  }
  if (IsStringType(ta) && IsStringType(tb)) {
    // bpchar semantics (trailing blanks ignored on both sides) unless a CHAR
    // meets TEXT, which PostgreSQL compares as text: only CHAR is trimmed.
    std::string_view x = a.s_, y = b.s_;
    if (ta == TypeId::kChar || (tb == TypeId::kChar && ta != TypeId::kText)) x = TrimTrailingBlanks(x);
    if (tb == TypeId::kChar || (ta == TypeId::kChar && tb != TypeId::kText)) y = TrimTrailingBlanks(y);
    const int c = x.compare(y);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (ta == TypeId::kBool && tb == TypeId::kBool) return static_cast<int>(a.u_.b) - static_cast<int>(b.u_.b);
  if (ta == TypeId::kJsonb && tb == TypeId::kJsonb) return json::CompareJsonbText(a.s_, b.s_);
  if (ta == tb && (ta == TypeId::kBytea || ta == TypeId::kUuid || ta == TypeId::kJson)) {
    const int c = a.s_.compare(b.s_);  // char_traits<char> compares as unsigned char
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (IsTemporalType(ta) && IsTemporalType(tb)) {
    const int64_t x = TemporalMicros(a), y = TemporalMicros(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (ta == TypeId::kArray && tb == TypeId::kArray) return CompareArrays(a, b);
  if (ta == TypeId::kInterval && tb == TypeId::kInterval) return CompareIntervals(a.u_.iv, b.u_.iv);
  if (ta == TypeId::kVoid && tb == TypeId::kVoid) return 0;
  if (ta == TypeId::kRecord && tb == TypeId::kRecord) return CompareRecords(a, b);
  assert(false && "Value::Compare on incomparable types");
  return ta < tb ? -1 : (ta > tb ? 1 : 0);
}

bool Value::operator==(const Value& o) const {
  if (null_ || o.null_) return null_ && o.null_;
  return type_ == o.type_ && Compare(*this, o) == 0;
}

}  // namespace paceline
