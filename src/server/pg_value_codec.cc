// Text parameters are untyped strings cast by the engine (CastValue); binary
// parameters and results follow PostgreSQL's send/receive functions, with the
// epoch moved from 1970 (Paceline) to 2000 (the wire).
#include "server/pg_value_codec.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "common/array_value.h"
#include "common/datetime.h"
#include "common/decimal.h"
#include "common/record_value.h"

namespace paceline::server {

namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

// numeric's sign word (PostgreSQL's NUMERIC_POS, NUMERIC_NEG, NUMERIC_NAN,
// NUMERIC_PINF, NUMERIC_NINF), its base and the largest dscale it encodes.
constexpr uint16_t kNumericPositive = 0x0000;
constexpr uint16_t kNumericNegative = 0x4000;
constexpr uint16_t kNumericNaN = 0xC000;
constexpr uint16_t kNumericPlusInfinity = 0xD000;
constexpr uint16_t kNumericMinusInfinity = 0xF000;
constexpr int kNumericBase = 10000;
constexpr int kNumericMaxDscale = 0x3FFF;
// PostgreSQL's NUMERIC_MAX_PRECISION + NUMERIC_MAX_RESULT_SCALE: the most
// base-10000 digits numeric_recv accepts.
constexpr int kNumericMaxDigits = 1000 + 2000;

Status BadBinary(std::string detail) {
  return Status(sqlstate::kInvalidBinaryRepresentation, "incorrect binary data format in bind parameter").WithDetail(std::move(detail));
}

Status BadNumericField(std::string_view field) {
  return Status(sqlstate::kInvalidBinaryRepresentation, "invalid " + std::string(field) + " in external \"numeric\" value");
}

Status UnsupportedFormat(int16_t format) {
  return Status(sqlstate::kInvalidParameterValue, "unsupported format code: " + std::to_string(format));
}

// ---------------------------------------------------------------- UTF-8

// Length of the valid UTF-8 character at s[i], or 0 when the bytes there are
// not one (a NUL, a stray continuation byte, an overlong form, a surrogate,
// a code point above U+10FFFF, or a truncated sequence).
size_t Utf8CharLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c == 0) return 0;
  if (c < 0x80) return 1;
  size_t length;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

// PostgreSQL's check of client text in the server encoding (UTF8): 22021
// naming the bytes of the first bad character.
Status CheckUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8CharLength(s, i);
    if (n > 0) {
      i += n;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t expected = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    std::string shown;
    static constexpr char kHex[] = "0123456789abcdef";
    for (size_t k = i; k < std::min(s.size(), i + expected); ++k) {
      const unsigned char b = static_cast<unsigned char>(s[k]);
      if (!shown.empty()) shown += ' ';
      shown += "0x";
      shown += kHex[b >> 4];
      shown += kHex[b & 0xF];
    }
    return Status(sqlstate::kCharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": " + shown);
  }
  return Status::OK();
}

// ---------------------------------------------------------------- big-endian

uint64_t ReadBigEndian(std::string_view bytes, size_t at, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

void AppendBigEndian(uint64_t v, size_t width, std::string* out) {
  for (size_t i = width; i-- > 0;) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

int16_t ReadInt16(std::string_view bytes, size_t at) {
  return static_cast<int16_t>(static_cast<uint16_t>(ReadBigEndian(bytes, at, 2)));
}

Status CheckSize(std::string_view bytes, size_t size, const Type& type) {
  if (bytes.size() == size) return Status::OK();
  return BadBinary(std::string(TypeIdName(type.id)) + " takes " + std::to_string(size) + " bytes, got " +
                   std::to_string(bytes.size()) + ".");
}

// ---------------------------------------------------------------- numeric

// numeric_recv: the base-10000 digits become decimal text (digits finer than
// dscale are truncated away, as PostgreSQL does), which the engine's own
// numeric input then reads, with its 38-digit limit.
Status DecodeNumeric(std::string_view bytes, Decimal* out) {
  if (bytes.size() < 8) return BadBinary("numeric takes at least 8 bytes, got " + std::to_string(bytes.size()) + ".");
  const int ndigits = ReadInt16(bytes, 0);
  const int weight = ReadInt16(bytes, 2);
  const uint16_t sign = static_cast<uint16_t>(ReadBigEndian(bytes, 4, 2));
  const int dscale = static_cast<uint16_t>(ReadBigEndian(bytes, 6, 2));
  if (ndigits < 0 || ndigits > kNumericMaxDigits) return BadNumericField("length");
  if (bytes.size() != 8 + 2 * static_cast<size_t>(ndigits)) {
    return BadBinary("numeric with " + std::to_string(ndigits) + " digits takes " + std::to_string(8 + 2 * ndigits) +
                     " bytes, got " + std::to_string(bytes.size()) + ".");
  }
  if (sign == kNumericNaN) return NotSupported("numeric NaN");
  if (sign == kNumericPlusInfinity || sign == kNumericMinusInfinity) return NotSupported("numeric infinity");
  if (sign != kNumericPositive && sign != kNumericNegative) return BadNumericField("sign");
  if (dscale > kNumericMaxDscale) return BadNumericField("scale");
  std::vector<int> digits(static_cast<size_t>(ndigits));
  for (int i = 0; i < ndigits; ++i) {
    digits[static_cast<size_t>(i)] = ReadInt16(bytes, 8 + 2 * static_cast<size_t>(i));
    if (digits[static_cast<size_t>(i)] < 0 || digits[static_cast<size_t>(i)] >= kNumericBase) {
      return BadNumericField("digit");
    }
  }
  if (dscale > Decimal::kMaxScale) {
    return Status(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
  }
  // Digit group p (p = weight for digits[0]) stands for digit × 10000^p.
  const auto group = [&](int p) {
    const int i = weight - p;
    return i >= 0 && i < ndigits ? digits[static_cast<size_t>(i)] : 0;
  };
  std::string text;
  if (sign == kNumericNegative) text += '-';
  // A number with more than 10 integer groups has more than 38 digits
  // unless its leading groups are zeros; skip those rather than write them.
  int top = std::max(weight, 0);
  while (top > 0 && group(top) == 0) --top;
  for (int p = top; p >= 0; --p) {
    const int g = group(p);
    for (int div = 1000; div > 0; div /= 10) text += static_cast<char>('0' + g / div % 10);
  }
  if (dscale > 0) {
    text += '.';
    for (int p = -1, written = 0; written < dscale; --p) {
      const int g = group(p);
      for (int div = 1000; div > 0 && written < dscale; div /= 10, ++written) {
        text += static_cast<char>('0' + g / div % 10);
      }
    }
  }
  return Decimal::Parse(text, out);
}

// numeric_send: strips leading and trailing zero groups; zero is {0 digits,
// weight 0, positive}; dscale is the Decimal's scale.
void EncodeNumeric(const Decimal& d, std::string* out) {
  unsigned __int128 magnitude = d.IsNegative() ? -static_cast<unsigned __int128>(d.unscaled())
                                               : static_cast<unsigned __int128>(d.unscaled());
  std::string decimal_digits;  // most significant first
  while (magnitude != 0) {
    decimal_digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  const size_t scale = static_cast<size_t>(d.scale());
  if (decimal_digits.size() < scale + 1) decimal_digits.append(scale + 1 - decimal_digits.size(), '0');
  std::reverse(decimal_digits.begin(), decimal_digits.end());
  std::string integer = decimal_digits.substr(0, decimal_digits.size() - scale);
  std::string fraction = decimal_digits.substr(decimal_digits.size() - scale);
  integer.insert(0, (4 - integer.size() % 4) % 4, '0');
  fraction.append((4 - fraction.size() % 4) % 4, '0');
  const std::string all = integer + fraction;
  std::vector<int> groups;
  for (size_t i = 0; i < all.size(); i += 4) {
    int g = 0;
    for (size_t k = i; k < i + 4; ++k) g = g * 10 + (all[k] - '0');
    groups.push_back(g);
  }
  int weight = static_cast<int>(integer.size() / 4) - 1;
  size_t first = 0;
  while (first < groups.size() && groups[first] == 0) {
    ++first;
    --weight;
  }
  size_t last = groups.size();
  while (last > first && groups[last - 1] == 0) --last;
  uint16_t sign = d.IsNegative() ? kNumericNegative : kNumericPositive;
  if (first == last) {
    weight = 0;
    sign = kNumericPositive;
  }
  AppendBigEndian(last - first, 2, out);
  AppendBigEndian(static_cast<uint16_t>(static_cast<int16_t>(weight)), 2, out);
  AppendBigEndian(sign, 2, out);
  AppendBigEndian(scale, 2, out);
  for (size_t i = first; i < last; ++i) AppendBigEndian(static_cast<uint64_t>(groups[i]), 2, out);
}

// ---------------------------------------------------------------- binary in

Status DecodeBinaryArray(std::string_view bytes, const Type& type, Value* out);

Status DecodeBinary(std::string_view bytes, const Type& type, Value* out) {
  switch (type.id) {
    case TypeId::kBool:
      PL_RETURN_IF_ERROR(CheckSize(bytes, 1, type));
      *out = Value::Bool(bytes[0] != 0);
      return Status::OK();
    case TypeId::kInt16:
      PL_RETURN_IF_ERROR(CheckSize(bytes, 2, type));
      *out = Value::Int16(ReadInt16(bytes, 0));
      return Status::OK();
    case TypeId::kInt32:
      PL_RETURN_IF_ERROR(CheckSize(bytes, 4, type));
      *out = Value::Int32(static_cast<int32_t>(static_cast<uint32_t>(ReadBigEndian(bytes, 0, 4))));
      return Status::OK();
    case TypeId::kOid:
      PL_RETURN_IF_ERROR(CheckSize(bytes, 4, type));
      *out = Value::Oid(static_cast<uint32_t>(ReadBigEndian(bytes, 0, 4)));
      return Status::OK();
    case TypeId::kInt64:
      PL_RETURN_IF_ERROR(CheckSize(bytes, 8, type));
      *out = Value::Int64(static_cast<int64_t>(ReadBigEndian(bytes, 0, 8)));
      return Status::OK();
    case TypeId::kFloat32: {
      PL_RETURN_IF_ERROR(CheckSize(bytes, 4, type));
      const uint32_t bits = static_cast<uint32_t>(ReadBigEndian(bytes, 0, 4));
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      *out = Value::Float32(f);
      return Status::OK();
    }
    case TypeId::kFloat64: {
      PL_RETURN_IF_ERROR(CheckSize(bytes, 8, type));
      const uint64_t bits = ReadBigEndian(bytes, 0, 8);
      double d;
      std::memcpy(&d, &bits, sizeof(d));
      *out = Value::Float64(d);
      return Status::OK();
    }
    case TypeId::kNumeric: {
      Decimal d;
      PL_RETURN_IF_ERROR(DecodeNumeric(bytes, &d));
      return CastValue(Value::Numeric(d), type, false, out);  // NUMERIC(p,s)
    }
    case TypeId::kUnknown:
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
      PL_RETURN_IF_ERROR(CheckUtf8(bytes));
      if (type.id == TypeId::kUnknown) {
        *out = Value::Text(std::string(bytes));
        return Status::OK();
      }
      return CastValue(Value::String(TypeId::kUnknown, std::string(bytes)), type, false, out);  // CHAR(n) etc.
    case TypeId::kDate: {
      PL_RETURN_IF_ERROR(CheckSize(bytes, 4, type));
      const int64_t days = static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(ReadBigEndian(bytes, 0, 4)))) +
                           kPostgresEpochOffsetDays;
      if (!IsValidDate(days)) return Status(sqlstate::kDatetimeFieldOverflow, "date out of range");
      *out = Value::Date(static_cast<int32_t>(days));
      return Status::OK();
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      PL_RETURN_IF_ERROR(CheckSize(bytes, 8, type));
      const int64_t since_2000 = static_cast<int64_t>(ReadBigEndian(bytes, 0, 8));
      const Status out_of_range = TimestampOutOfRange();
      if (since_2000 > std::numeric_limits<int64_t>::max() - kPostgresEpochOffsetMicros) return out_of_range;
      const int64_t micros = since_2000 + kPostgresEpochOffsetMicros;
      const int64_t day = micros / kMicrosPerDay - (micros % kMicrosPerDay < 0 ? 1 : 0);
      if (!IsValidDate(day)) return out_of_range;
      *out = type.id == TypeId::kTimestamp ? Value::Timestamp(micros) : Value::TimestampTz(micros);
      return Status::OK();
    }
    case TypeId::kBytea:
      *out = Value::Bytea(std::string(bytes));  // bytearecv: the bytes as they are
      return Status::OK();
    case TypeId::kArray:
      return DecodeBinaryArray(bytes, type, out);
    case TypeId::kUuid:
      PL_RETURN_IF_ERROR(CheckSize(bytes, 16, type));
      *out = Value::Uuid(std::string(bytes));
      return Status::OK();
    case TypeId::kInterval:  // interval_recv: int64 microseconds, int32 days, int32 months
      PL_RETURN_IF_ERROR(CheckSize(bytes, 16, type));
      *out = Value::IntervalValue(Interval{static_cast<int64_t>(ReadBigEndian(bytes, 0, 8)),
                                           static_cast<int32_t>(static_cast<uint32_t>(ReadBigEndian(bytes, 8, 4))),
                                           static_cast<int32_t>(static_cast<uint32_t>(ReadBigEndian(bytes, 12, 4)))});
      return Status::OK();
    case TypeId::kVoid: case TypeId::kRecord:
      break;
    case TypeId::kJsonb:  // jsonb_recv: a version byte (1), then the text
      if (bytes.empty() || bytes[0] != 1) {
        return Status(sqlstate::kInternalError,
                      "unsupported jsonb version number " + std::to_string(bytes.empty() ? 0 : bytes[0]));
      }
      bytes.remove_prefix(1);
      [[fallthrough]];
    case TypeId::kJson:  // json_recv: the text
      PL_RETURN_IF_ERROR(CheckUtf8(bytes));
      return CastValue(Value::String(TypeId::kUnknown, std::string(bytes)), type, false, out);
  }
  return NotSupported("binary format for type " + type.ToString());
}

// ---------------------------------------------------------------- binary out

bool IsStringId(TypeId t) {
  return t == TypeId::kChar || t == TypeId::kVarchar || t == TypeId::kText || t == TypeId::kUnknown;
}

void EncodeBinaryArray(const Value& v, std::string* out);
void EncodeBinaryRecord(const Value& v, std::string* out);

// `v` already has type `id` (or both are strings).
void EncodeBinary(const Value& v, TypeId id, std::string* out) {
  switch (id) {
    case TypeId::kBool: out->push_back(v.bool_value() ? 1 : 0); return;
    case TypeId::kInt16: AppendBigEndian(static_cast<uint64_t>(v.int_value()), 2, out); return;
    case TypeId::kInt32: case TypeId::kOid: AppendBigEndian(static_cast<uint64_t>(v.int_value()), 4, out); return;
    case TypeId::kInt64: AppendBigEndian(static_cast<uint64_t>(v.int_value()), 8, out); return;
    case TypeId::kFloat32: {
      const float f = static_cast<float>(v.float_value());
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof(bits));
      AppendBigEndian(bits, 4, out);
      return;
    }
    case TypeId::kFloat64: {
      const double d = v.float_value();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      AppendBigEndian(bits, 8, out);
      return;
    }
    case TypeId::kNumeric: EncodeNumeric(v.numeric_value(), out); return;
    case TypeId::kUnknown:
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText: out->append(v.string_value()); return;  // bpchar keeps its padding, as bpcharsend
    case TypeId::kDate: AppendBigEndian(static_cast<uint64_t>(v.int_value() - kPostgresEpochOffsetDays), 4, out); return;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      AppendBigEndian(static_cast<uint64_t>(v.int_value() - kPostgresEpochOffsetMicros), 8, out);
      return;
    case TypeId::kBytea: out->append(v.bytes_value()); return;  // byteasend
    case TypeId::kUuid: out->append(v.bytes_value()); return;   // uuid_send: the 16 bytes
    case TypeId::kJson: out->append(v.json_text()); return;     // json_send: the text
    case TypeId::kJsonb:                                        // jsonb_send: version 1, the text
      out->push_back('\x01');
      out->append(v.json_text());
      return;
    case TypeId::kArray: EncodeBinaryArray(v, out); return;
    case TypeId::kInterval:  // interval_send
      AppendBigEndian(static_cast<uint64_t>(v.interval_value().micros), 8, out);
      AppendBigEndian(static_cast<uint32_t>(v.interval_value().days), 4, out);
      AppendBigEndian(static_cast<uint32_t>(v.interval_value().months), 4, out);
      return;
    case TypeId::kVoid: return;  // void_send: no bytes
    case TypeId::kRecord: EncodeBinaryRecord(v, out); return;
  }
}

// record_send: int32 field count, then per field its type OID, int32 length
// (-1: NULL) and its binary value.
void EncodeBinaryRecord(const Value& v, std::string* out) {
  const std::vector<Value> fields = RecordFields(v);
  AppendBigEndian(fields.size(), 4, out);
  for (const Value& f : fields) {
    const Type type = f.type() == TypeId::kArray ? Type::Array(Type(f.element_type())) : Type(f.type());
    AppendBigEndian(type.Oid(), 4, out);
    if (f.is_null()) {
      AppendBigEndian(0xFFFFFFFFu, 4, out);
      continue;
    }
    const size_t at = out->size();
    out->append(4, '\0');
    EncodeBinary(f, f.type(), out);
    const uint32_t length = static_cast<uint32_t>(out->size() - at - 4);
    for (int i = 0; i < 4; ++i) (*out)[at + i] = static_cast<char>(length >> (24 - 8 * i));
  }
}

// ---------------------------------------------------------------- arrays

// array_recv: int32 ndim, int32 flags (1: has NULLs), uint32 element OID,
// per dimension int32 length and int32 lower bound, then per element int32
// length (-1: NULL) and its binary value. One dimension (or none: empty);
// the elements may be of another type Paceline has (psycopg sends int2[]
// for small Python ints), and are cast to the parameter's element type.
Status DecodeBinaryArray(std::string_view bytes, const Type& type, Value* out) {
  if (bytes.size() < 12) return BadBinary("an array takes at least 12 bytes.");
  const int32_t ndim = static_cast<int32_t>(ReadBigEndian(bytes, 0, 4));
  const uint32_t flags = static_cast<uint32_t>(ReadBigEndian(bytes, 4, 4));
  const uint32_t element_oid = static_cast<uint32_t>(ReadBigEndian(bytes, 8, 4));
  const Type element = type.ElementType();
  if (ndim < 0) return Status(sqlstate::kInvalidBinaryRepresentation, "invalid number of dimensions: " + std::to_string(ndim));
  if (ndim > 1) return NotSupported("multidimensional arrays");
  if ((flags & ~1u) != 0) return Status(sqlstate::kInvalidBinaryRepresentation, "invalid array flags");
  Type sent;
  if (ndim == 1 && !TypeFromOid(element_oid, &sent)) {
    return Status(sqlstate::kDatatypeMismatch, "wrong element type");
  }
  if (ndim == 1 && sent.IsArray()) return NotSupported("arrays of arrays");
  ArrayBuilder builder(element.id);
  if (ndim == 0) {
    if (bytes.size() != 12) return BadBinary("an empty array has no elements.");
    *out = builder.Finish();
    return Status::OK();
  }
  if (bytes.size() < 20) return BadBinary("an array's dimension takes 8 bytes.");
  const int32_t count = static_cast<int32_t>(ReadBigEndian(bytes, 12, 4));
  if (count < 0) return Status(sqlstate::kInvalidBinaryRepresentation, "array size exceeds the maximum allowed");
  size_t at = 20;  // the lower bound (bytes 16..19) is not kept: arrays here are 1-based
  for (int32_t i = 0; i < count; ++i) {
    if (bytes.size() - at < 4) return BadBinary("an array element is cut short.");
    const int32_t len = static_cast<int32_t>(ReadBigEndian(bytes, at, 4));
    at += 4;
    if (len < 0) {
      builder.Add(Value::Null(element.id));
      continue;
    }
    if (bytes.size() - at < static_cast<size_t>(len)) return BadBinary("an array element is cut short.");
    Value v, cast;
    PL_RETURN_IF_ERROR(DecodeBinary(bytes.substr(at, static_cast<size_t>(len)), sent, &v));
    PL_RETURN_IF_ERROR(CastValue(v, element, false, &cast));
    builder.Add(cast);
    at += static_cast<size_t>(len);
  }
  if (at != bytes.size()) return BadBinary("bytes after the last array element.");
  *out = builder.Finish();
  return Status::OK();
}

// array_send, the layout DecodeBinaryArray reads.
void EncodeBinaryArray(const Value& v, std::string* out) {
  ArrayReader reader(v);
  std::vector<Value> elements;
  bool has_null = false;
  Value e;
  while (reader.Next(&e)) {
    has_null |= e.is_null();
    elements.push_back(std::move(e));
  }
  AppendBigEndian(elements.empty() ? 0 : 1, 4, out);
  AppendBigEndian(has_null ? 1 : 0, 4, out);
  AppendBigEndian(Type(v.element_type()).Oid(), 4, out);
  if (elements.empty()) return;
  AppendBigEndian(elements.size(), 4, out);
  AppendBigEndian(1, 4, out);
  std::string element;
  for (const Value& x : elements) {
    if (x.is_null()) {
      AppendBigEndian(0xFFFFFFFFu, 4, out);
      continue;
    }
    element.clear();
    EncodeBinary(x, v.element_type(), &element);
    AppendBigEndian(element.size(), 4, out);
    out->append(element);
  }
}

}  // namespace

Status DecodeParameter(std::string_view bytes, int16_t format, const Type& type, Value* out) {
  if (format == 1) return DecodeBinary(bytes, type, out);
  if (format != 0) return UnsupportedFormat(format);
  PL_RETURN_IF_ERROR(CheckUtf8(bytes));
  if (type.id == TypeId::kUnknown) {
    *out = Value::Text(std::string(bytes));
    return Status::OK();
  }
  return CastValue(Value::String(TypeId::kUnknown, std::string(bytes)), type, false, out);
}

Status EncodeResult(const Value& value, const Type& type, int16_t format, std::string* out) {
  if (format != 0 && format != 1) return UnsupportedFormat(format);
  const TypeId id = type.id == TypeId::kUnknown ? value.type() : type.id;
  const bool same = (value.type() == id && (id != TypeId::kArray || type.element == value.element_type() ||
                                            type.id == TypeId::kUnknown)) ||
                    (IsStringId(value.type()) && IsStringId(id));
  Value converted;
  if (!same) PL_RETURN_IF_ERROR(CastValue(value, id == TypeId::kArray ? Type::Array(Type(type.element)) : Type(id), true, &converted));
  const Value& v = same ? value : converted;
  if (format == 0) {
    AppendTextAs(v, type, out);
  } else {
    EncodeBinary(v, id, out);
  }
  return Status::OK();
}

bool TypeFromOid(uint32_t oid, Type* out) {
  TypeId id;
  switch (oid) {
    case 16: id = TypeId::kBool; break;
    case 17: id = TypeId::kBytea; break;
    case 114: id = TypeId::kJson; break;
    case 2950: id = TypeId::kUuid; break;
    case 3802: id = TypeId::kJsonb; break;
    case 20: id = TypeId::kInt64; break;
    case 21: id = TypeId::kInt16; break;
    case 23: id = TypeId::kInt32; break;
    case 26: id = TypeId::kOid; break;
    case 25: id = TypeId::kText; break;
    case 700: id = TypeId::kFloat32; break;
    case 701: id = TypeId::kFloat64; break;
    case 1042: id = TypeId::kChar; break;
    case 1043: id = TypeId::kVarchar; break;
    case 1082: id = TypeId::kDate; break;
    case 1114: id = TypeId::kTimestamp; break;
    case 1184: id = TypeId::kTimestampTz; break;
    case 1700: id = TypeId::kNumeric; break;
    case 1186: id = TypeId::kInterval; break;
    default:
      if (!ElementOfArrayOid(oid, &id)) return false;
      *out = Type::Array(Type(id));
      return true;
  }
  *out = Type(id);
  return true;
}

}  // namespace paceline::server
