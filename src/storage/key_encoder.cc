// Order-preserving encoding of index keys (see key_encoder.h).
#include "storage/key_encoder.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "common/json_value.h"

namespace paceline::storage {

namespace {

// Stores the low `bytes` bytes of v at buf, most significant first (buf
// has room for 8).
void StoreBigEndian(uint64_t v, int bytes, char* buf) {
  const uint64_t big = __builtin_bswap64(v << (64 - 8 * bytes));  // those bytes first in memory
  std::memcpy(buf, &big, sizeof big);
}

void AppendBigEndian(uint64_t v, int bytes, std::string* out) {
  char buf[8];
  StoreBigEndian(v, bytes, buf);
  out->append(buf, bytes);
}

int IntWidth(TypeId id) {
  switch (id) {
    case TypeId::kInt16: return 2;
    case TypeId::kInt32: case TypeId::kDate: return 4;
    default: return 8;
  }
}

void AppendDouble(double d, std::string* out) {
  if (d == 0) d = 0;  // -0 and +0 are equal in SQL
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();  // every NaN is one value, above +inf
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  bits = (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
  AppendBigEndian(bits, 8, out);
}

}  // namespace

void AppendKeyInt(const Type& type, bool nullable, int64_t v, std::string* out) {
  // One append of marker and value (keys are built column by column on
  // every lookup and every row read through an index).
  const int width = IntWidth(type.id);
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  char buf[9];
  buf[0] = '\x01';
  StoreBigEndian(static_cast<uint64_t>(v) ^ sign, width, buf + 1);
  out->append(nullable ? buf : buf + 1, width + (nullable ? 1 : 0));
}

void AppendKeyString(const Type& type, bool nullable, std::string_view s, std::string* out) {
  if (nullable) out->push_back('\x01');
  if (type.id == TypeId::kChar) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  }
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
  }
  out->push_back('\0');
  out->push_back('\0');
}

Status AppendKeyColumn(const Type& type, bool nullable, const Value& v, std::string* out, KeyFit* fit) {
  if (fit) *fit = KeyFit::kExact;
  if (v.is_null()) {
    out->push_back('\x02');
    return Status::OK();
  }
  switch (type.id) {
    case TypeId::kBool:
      if (nullable) out->push_back('\x01');
      out->push_back(v.bool_value() ? '\x01' : '\x00');
      return Status::OK();
    case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64: case TypeId::kOid:
    case TypeId::kDate: case TypeId::kTimestamp: case TypeId::kTimestampTz: {
      int64_t x = v.int_value();
      int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
      if (type.id == TypeId::kInt16) lo = INT16_MIN, hi = INT16_MAX;
      if (type.id == TypeId::kInt32 || type.id == TypeId::kDate) lo = INT32_MIN, hi = INT32_MAX;
      if (x > hi || x < lo) {
        if (fit) *fit = x > hi ? KeyFit::kAbove : KeyFit::kBelow;
        x = x > hi ? hi : lo;
      }
      AppendKeyInt(type, nullable, x, out);
      return Status::OK();
    }
    case TypeId::kFloat32: case TypeId::kFloat64:
      if (nullable) out->push_back('\x01');
      AppendDouble(v.type() == TypeId::kFloat32 || v.type() == TypeId::kFloat64 ? v.float_value()
                   : v.type() == TypeId::kNumeric ? v.numeric_value().ToDouble()
                                                  : static_cast<double>(v.int_value()),
                   out);
      return Status::OK();
    case TypeId::kNumeric: {
      if (nullable) out->push_back('\x01');
      Decimal d = v.type() == TypeId::kNumeric ? v.numeric_value() : Decimal::FromInt(v.int_value());
      Decimal scaled;
      if (!d.Rescale(type.scale < 0 ? 0 : type.scale, &scaled).ok()) {
        // Too large for the column's scale: above or below every key of it.
        if (fit == nullptr) return Status(sqlstate::kNumericValueOutOfRange, "numeric key out of range");
        *fit = d.IsNegative() ? KeyFit::kBelow : KeyFit::kAbove;
        constexpr __int128 kMax = static_cast<__int128>((static_cast<unsigned __int128>(1) << 127) - 1);
        scaled = Decimal(d.IsNegative() ? -kMax - 1 : kMax, type.scale < 0 ? 0 : type.scale);
      }
      unsigned __int128 u = static_cast<unsigned __int128>(scaled.unscaled()) ^
                            (static_cast<unsigned __int128>(1) << 127);
      AppendBigEndian(static_cast<uint64_t>(u >> 64), 8, out);
      AppendBigEndian(static_cast<uint64_t>(u), 8, out);
      return Status::OK();
    }
    case TypeId::kChar: case TypeId::kVarchar: case TypeId::kText: case TypeId::kUnknown: case TypeId::kBytea:
      // Bytea keys are encoded as strings: no CHAR trimming, and byte order
      // is byteacmp's order.
      AppendKeyString(type, nullable, v.string_value(), out);
      return Status::OK();
    case TypeId::kArray:  // the DDL refuses keys on array columns
      return NotSupported("a key or index on an array column");
    case TypeId::kUuid:
      if (nullable) out->push_back('\x01');
      out->append(v.bytes_value());  // 16 bytes: memcmp is uuid_cmp
      return Status::OK();
    case TypeId::kJsonb: {
      if (nullable) out->push_back('\x01');
      json::JsonNode node;
      PL_RETURN_IF_ERROR(json::ParseJsonb(v.json_text(), &node));
      json::AppendSortKey(node, out);
      return Status::OK();
    }
    case TypeId::kJson:
      return Status(sqlstate::kUndefinedObject, "data type json has no default operator class for access method \"btree\"");
    case TypeId::kInterval: {
      // The span (interval.h), so equal spans are one key, as interval_cmp.
      if (nullable) out->push_back('\x01');
      const unsigned __int128 u =
          static_cast<unsigned __int128>(IntervalSpan(v.interval_value())) ^ (static_cast<unsigned __int128>(1) << 127);
      AppendBigEndian(static_cast<uint64_t>(u >> 64), 8, out);
      AppendBigEndian(static_cast<uint64_t>(u), 8, out);
      return Status::OK();
    }
    case TypeId::kVoid:
      return NotSupported("a key on a void value");
    case TypeId::kRecord:
      return NotSupported("a key on a record value");
  }
  return Status::OK();
}

std::string PrefixSuccessor(std::string prefix) {
  while (!prefix.empty()) {
    unsigned char last = static_cast<unsigned char>(prefix.back());
    if (last != 0xFF) {
      prefix.back() = static_cast<char>(last + 1);
      return prefix;
    }
    prefix.pop_back();
  }
  return prefix;
}

}  // namespace paceline::storage
