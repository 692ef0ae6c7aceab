// Arrays: the element encoding, PostgreSQL's array text input and output,
// ordering, hashing and casts (see array_value.h).
#include "common/array_value.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "common/fixed_bytes.h"

namespace paceline {

namespace {

// Where a Value of each type keeps its data, and so how an element is
// encoded: the union's members, or (the default) the string slot.
enum class Payload { kBool, kInt, kFloat, kNumeric, kInterval, kBytes };

Payload ElementPayload(TypeId t) {
  switch (t) {
    case TypeId::kBool: return Payload::kBool;
    case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64: case TypeId::kOid: case TypeId::kDate:
    case TypeId::kTimestamp: case TypeId::kTimestampTz: return Payload::kInt;
    case TypeId::kFloat32: case TypeId::kFloat64: return Payload::kFloat;
    case TypeId::kNumeric: return Payload::kNumeric;
    case TypeId::kInterval: return Payload::kInterval;
    default: return Payload::kBytes;
  }
}

Value IntOfType(TypeId t, int64_t i) {
  switch (t) {
    case TypeId::kInt16: return Value::Int16(static_cast<int16_t>(i));
    case TypeId::kInt32: return Value::Int32(static_cast<int32_t>(i));
    case TypeId::kOid: return Value::Oid(static_cast<uint32_t>(i));
    case TypeId::kDate: return Value::Date(static_cast<int32_t>(i));
    case TypeId::kTimestamp: return Value::Timestamp(i);
    case TypeId::kTimestampTz: return Value::TimestampTz(i);
    default: return Value::Int64(i);
  }
}

// A value kept in the string slot; `element` is an array's element type.
Value BytesOfType(TypeId t, TypeId element, std::string s) {
  switch (t) {
    case TypeId::kBytea: return Value::Bytea(std::move(s));
    case TypeId::kArray: return Value::Array(element, std::move(s));
    case TypeId::kRecord: return Value::Record(std::move(s));
    case TypeId::kUuid: return Value::Uuid(std::move(s));
    case TypeId::kJson: return Value::Json(std::move(s));
    case TypeId::kJsonb: return Value::Jsonb(std::move(s));
    case TypeId::kVoid: return Value::Void();
    default: return Value::String(t, std::move(s));
  }
}

Status Malformed(std::string_view text, std::string detail) {
  std::string message = "malformed array literal: \"";
  message.append(text);
  message.push_back('"');
  return Status(sqlstate::kInvalidTextRepresentation, std::move(message)).WithDetail(std::move(detail));
}

Status Unexpected(std::string_view text, char c) {
  std::string detail = "Unexpected \"";
  detail.push_back(c);
  detail.append("\" character.");
  return Malformed(text, std::move(detail));
}

bool IsArraySpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

bool EqualsNullWord(std::string_view s) {
  if (s.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    char c = s[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != "NULL"[i]) return false;
  }
  return true;
}

// One element of the text form: its text, and whether it is the bare word NULL.
struct TextElement {
  std::string text;
  bool null = false;
};

// Splits PostgreSQL's text form of a one-dimensional array into elements.
Status SplitArrayText(std::string_view text, std::vector<TextElement>* out) {
  size_t i = 0;
  const size_t n = text.size();
  auto skip_space = [&] {
    while (i < n && IsArraySpace(text[i])) ++i;
  };
  skip_space();
  if (i < n && text[i] == '[') return NotSupported("array bounds in array input (\"[1:2]={...}\")");
  if (i >= n || text[i] != '{') {
    return Malformed(text, "Array value must start with \"{\" or dimension information.");
  }
  ++i;
  skip_space();
  if (i < n && text[i] == '}') {
    ++i;
  } else {
    while (true) {
      skip_space();
      if (i >= n) return Malformed(text, "Unexpected end of input.");
      TextElement element;
      const char c = text[i];
      if (c == '{') return NotSupported("multidimensional arrays");
      if (c == ',' || c == '}') return Unexpected(text, c);
      if (c == '"') {
        ++i;
        while (true) {
          if (i >= n) return Malformed(text, "Unexpected end of input.");
          if (text[i] == '\\') {
            if (++i >= n) return Malformed(text, "Unexpected end of input.");
            element.text.push_back(text[i++]);
          } else if (text[i] == '"') {
            ++i;
            break;
          } else {
            element.text.push_back(text[i++]);
          }
        }
        skip_space();
        if (i < n && text[i] != ',' && text[i] != '}') return Malformed(text, "Unexpected array element.");
      } else {
        size_t kept = 0;  // length through the last escaped or non-blank character
        bool escaped = false;
        while (i < n && text[i] != ',' && text[i] != '}') {
          const char d = text[i];
          if (d == '"' || d == '{') return Unexpected(text, d);
          if (d == '\\') {
            if (++i >= n) return Malformed(text, "Unexpected end of input.");
            escaped = true;
            element.text.push_back(text[i++]);
            kept = element.text.size();
            continue;
          }
          element.text.push_back(d);
          if (!IsArraySpace(d)) kept = element.text.size();
          ++i;
        }
        element.text.resize(kept);
        element.null = !escaped && EqualsNullWord(element.text);
      }
      if (i >= n) return Malformed(text, "Unexpected end of input.");
      out->push_back(std::move(element));
      if (text[i++] == '}') break;
    }
  }
  skip_space();
  if (i != n) return Malformed(text, "Junk after closing right brace.");
  return Status::OK();
}

bool NeedsQuotes(std::string_view s) {
  if (s.empty() || EqualsNullWord(s)) return true;
  for (char c : s) {
    if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || IsArraySpace(c)) return true;
  }
  return false;
}

std::string CastName(TypeId t) { return t == TypeId::kChar ? "character" : Type(t).ToString(); }

}  // namespace

ArrayBuilder::ArrayBuilder(TypeId element) : element_(element) { bytes_.assign(sizeof(uint32_t), '\0'); }

void ArrayBuilder::Add(const Value& v) {
  ++count_;
  EncodeElement(element_, v, &bytes_);
}

Value ArrayBuilder::Finish() {
  std::memcpy(bytes_.data(), &count_, sizeof(count_));
  Value v = Value::Array(element_, std::move(bytes_));
  bytes_.assign(sizeof(uint32_t), '\0');
  count_ = 0;
  return v;
}

ArrayReader::ArrayReader(const Value& array) : element_(array.element_type()), rest_(array.array_bytes()) {
  if (!TakeFixed(&rest_, &count_)) count_ = 0;
}

void EncodeElement(TypeId type, const Value& v, std::string* out) {
  if (v.is_null()) {
    out->push_back('\0');
    return;
  }
  out->push_back('\1');
  switch (ElementPayload(type)) {
    case Payload::kBool: out->push_back(v.bool_value() ? '\1' : '\0'); return;
    case Payload::kInt: PutFixed<int64_t>(out, v.int_value()); return;
    case Payload::kFloat: PutFixed<double>(out, v.float_value()); return;
    case Payload::kNumeric:
      PutFixed<__int128>(out, v.numeric_value().unscaled());
      out->push_back(static_cast<char>(v.numeric_value().scale()));
      return;
    case Payload::kInterval:
      PutFixed<int64_t>(out, v.interval_value().micros);
      PutFixed<int32_t>(out, v.interval_value().days);
      PutFixed<int32_t>(out, v.interval_value().months);
      return;
    case Payload::kBytes:
      PutFixed<uint32_t>(out, static_cast<uint32_t>(v.string_value().size()));
      out->append(v.string_value());
      return;
  }
}

bool DecodeElement(TypeId type, TypeId element, std::string_view* in, Value* out) {
  uint8_t tag = 0;
  if (!TakeFixed(in, &tag)) return false;
  if (tag == 0) {
    *out = Value::Null(type);
    return true;
  }
  switch (ElementPayload(type)) {
    case Payload::kBool: {
      uint8_t b = 0;
      if (!TakeFixed(in, &b)) return false;
      *out = Value::Bool(b != 0);
      return true;
    }
    case Payload::kInt: {
      int64_t i = 0;
      if (!TakeFixed(in, &i)) return false;
      *out = IntOfType(type, i);
      return true;
    }
    case Payload::kFloat: {
      double d = 0;
      if (!TakeFixed(in, &d)) return false;
      *out = type == TypeId::kFloat32 ? Value::Float32(static_cast<float>(d)) : Value::Float64(d);
      return true;
    }
    case Payload::kNumeric: {
      __int128 unscaled = 0;
      uint8_t scale = 0;
      if (!TakeFixed(in, &unscaled) || !TakeFixed(in, &scale)) return false;
      *out = Value::Numeric(Decimal(unscaled, scale));
      return true;
    }
    case Payload::kInterval: {
      Interval iv;
      if (!TakeFixed(in, &iv.micros) || !TakeFixed(in, &iv.days) || !TakeFixed(in, &iv.months)) return false;
      *out = Value::IntervalValue(iv);
      return true;
    }
    case Payload::kBytes: {
      uint32_t len = 0;
      if (!TakeFixed(in, &len) || in->size() < len) return false;
      *out = BytesOfType(type, element, std::string(in->substr(0, len)));
      in->remove_prefix(len);
      return true;
    }
  }
  return false;
}

bool ArrayReader::Next(Value* out) { return DecodeElement(element_, TypeId::kUnknown, &rest_, out); }

std::vector<Value> ArrayElements(const Value& array) {
  std::vector<Value> out;
  ArrayReader r(array);
  out.reserve(r.size());
  Value v;
  while (r.Next(&v)) out.push_back(std::move(v));
  return out;
}

Value MakeArray(TypeId element, const std::vector<Value>& elements) {
  ArrayBuilder b(element);
  for (const Value& v : elements) b.Add(v);
  return b.Finish();
}

Status ParseArrayText(std::string_view text, const Type& element, bool explicit_cast, Value* out) {
  std::vector<TextElement> parts;
  PL_RETURN_IF_ERROR(SplitArrayText(text, &parts));
  ArrayBuilder b(element.id);
  for (TextElement& p : parts) {
    if (p.null) {
      b.Add(Value::Null(element.id));
      continue;
    }
    Value v;
    PL_RETURN_IF_ERROR(CastValue(Value::String(TypeId::kUnknown, std::move(p.text)), element, explicit_cast, &v));
    b.Add(v);
  }
  *out = b.Finish();
  return Status::OK();
}

void AppendVectorText(const Value& array, std::string* out) {
  ArrayReader r(array);
  Value v;
  for (bool first = true; r.Next(&v); first = false) {
    if (!first) out->push_back(' ');
    v.AppendTo(out);
  }
}

void AppendTextAs(const Value& v, const Type& type, std::string* out) {
  if (type.vector && v.type() == TypeId::kArray && !v.is_null()) {
    AppendVectorText(v, out);
  } else {
    v.AppendTo(out);
  }
}

void AppendArrayText(const Value& array, std::string* out) {
  out->push_back('{');
  ArrayReader r(array);
  Value v;
  bool first = true;
  std::string s;
  while (r.Next(&v)) {
    if (!first) out->push_back(',');
    first = false;
    if (v.is_null()) {
      out->append("NULL");
      continue;
    }
    s.clear();
    v.AppendTo(&s);
    if (!NeedsQuotes(s)) {
      out->append(s);
      continue;
    }
    out->push_back('"');
    for (char c : s) {
      if (c == '"' || c == '\\') out->push_back('\\');
      out->push_back(c);
    }
    out->push_back('"');
  }
  out->push_back('}');
}

int CompareArrays(const Value& a, const Value& b) { return CompareElements(ArrayReader(a), ArrayReader(b)); }

uint64_t MixElementHash(uint64_t h, const Value& element) {
  const uint64_t e = element.Hash();
  return XXH3_64bits_withSeed(&e, sizeof(e), h);
}

uint64_t HashArray(const Value& array) { return HashElements(ArrayReader(array), 0x2545f4914f6cdd1dULL); }

Status CastToArray(const Value& v, const Type& target, bool explicit_cast, Value* out) {
  const Type element = target.ElementType();
  const TypeId from = v.type();
  if (from == TypeId::kArray) {
    const bool plain = element.length < 0 && element.precision < 0;
    if (v.element_type() == element.id && plain) {
      *out = v;
      return Status::OK();
    }
    ArrayBuilder b(element.id);
    ArrayReader r(v);
    Value x, y;
    while (r.Next(&x)) {
      PL_RETURN_IF_ERROR(CastValue(x, element, explicit_cast, &y));
      b.Add(y);
    }
    *out = b.Finish();
    return Status::OK();
  }
  if ((from == TypeId::kUnknown || Type(from).IsString()) && target.vector) {
    // int2vectorin / oidvectorin: elements separated by blanks.
    ArrayBuilder b(element.id);
    const std::string& text = v.string_value();
    size_t at = 0;
    while (at < text.size()) {
      if (text[at] == ' ') {
        ++at;
        continue;
      }
      const size_t end = std::min(text.find(' ', at), text.size());
      Value x;
      PL_RETURN_IF_ERROR(CastValue(Value::String(TypeId::kUnknown, text.substr(at, end - at)), element, false, &x));
      b.Add(x);
      at = end;
    }
    *out = b.Finish();
    return Status::OK();
  }
  if (from == TypeId::kUnknown || Type(from).IsString()) {
    return ParseArrayText(v.string_value(), element, explicit_cast, out);
  }
  return Status(sqlstate::kCannotCoerce,
                "cannot cast type " + CastName(from) + " to " + target.ToString());
}

}  // namespace paceline
