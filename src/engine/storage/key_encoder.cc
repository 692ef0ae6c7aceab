// Order-preserving encoding of index keys (see key_encoder.h).
#include "engine/storage/key_encoder.h"

#include <cstring>

namespace paceline::storage {

namespace {

void AppendBigEndian64(uint64_t v, std::string* out) {
  char buf[8];
  for (int i = 7; i >= 0; --i) {
    buf[i] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  out->append(buf, 8);
}

void AppendSignedInt(int64_t v, std::string* out) {
  AppendBigEndian64(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63), out);
}

void AppendDouble(double d, std::string* out) {
  if (d == 0) d = 0;  // -0 and +0 are equal in SQL
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  bits = (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
  AppendBigEndian64(bits, out);
}

void AppendString(std::string_view s, std::string* out) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
  }
  out->push_back('\0');
  out->push_back('\0');
}

}  // namespace

Status AppendKeyColumn(const Type& type, const Value& v, std::string* out) {
  if (v.is_null()) {
    out->push_back('\x02');
    return Status::OK();
  }
  out->push_back('\x01');
  switch (type.id) {
    case TypeId::kBool:
      out->push_back(v.bool_value() ? '\x01' : '\x00');
      return Status::OK();
    case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kDate: case TypeId::kTimestamp: case TypeId::kTimestampTz:
      AppendSignedInt(v.int_value(), out);
      return Status::OK();
    case TypeId::kFloat32: case TypeId::kFloat64:
      AppendDouble(v.type() == TypeId::kFloat32 || v.type() == TypeId::kFloat64
                       ? v.float_value() : static_cast<double>(v.int_value()), out);
      return Status::OK();
    case TypeId::kNumeric: {
      Decimal d = v.type() == TypeId::kNumeric ? v.numeric_value() : Decimal::FromInt(v.int_value());
      Decimal scaled;
      PL_RETURN_IF_ERROR(d.Rescale(type.scale < 0 ? 0 : type.scale, &scaled));
      unsigned __int128 u = static_cast<unsigned __int128>(scaled.unscaled()) ^
                            (static_cast<unsigned __int128>(1) << 127);
      AppendBigEndian64(static_cast<uint64_t>(u >> 64), out);
      AppendBigEndian64(static_cast<uint64_t>(u), out);
      return Status::OK();
    }
    case TypeId::kChar: {
      std::string_view s = v.string_value();
      while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
      AppendString(s, out);
      return Status::OK();
    }
    case TypeId::kVarchar: case TypeId::kText: case TypeId::kUnknown:
      AppendString(v.string_value(), out);
      return Status::OK();
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
