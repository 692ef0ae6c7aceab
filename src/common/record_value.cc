// Records: the field encoding, PostgreSQL's record text output, ordering
// and hashing (see record_value.h).
#include "common/record_value.h"

#include <cctype>
#include <cstring>
#include <string_view>

#include "common/array_value.h"
#include "common/fixed_bytes.h"

namespace paceline {

namespace {

// Reads the fields of a record one by one (the Value must outlive it).
class RecordReader {
 public:
  explicit RecordReader(const Value& record) : rest_(record.record_bytes()) {
    if (!TakeFixed(&rest_, &count_)) count_ = 0;
  }
  uint32_t size() const { return count_; }
  bool Next(Value* out) {
    uint8_t type = 0, element = 0;
    if (!TakeFixed(&rest_, &type) || !TakeFixed(&rest_, &element)) return false;
    return DecodeElement(static_cast<TypeId>(type), static_cast<TypeId>(element), &rest_, out);
  }

 private:
  uint32_t count_ = 0;
  std::string_view rest_;
};

bool NeedsQuotes(std::string_view s) {
  if (s.empty()) return true;
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      return true;
    }
  }
  return false;
}

}  // namespace

RecordBuilder::RecordBuilder() { bytes_.assign(sizeof(uint32_t), '\0'); }

void RecordBuilder::Add(const Value& v) {
  ++count_;
  bytes_.push_back(static_cast<char>(v.type()));
  bytes_.push_back(static_cast<char>(v.type() == TypeId::kArray ? v.element_type() : TypeId::kUnknown));
  EncodeElement(v.type(), v, &bytes_);
}

Value RecordBuilder::Finish() {
  std::memcpy(bytes_.data(), &count_, sizeof(count_));
  Value v = Value::Record(std::move(bytes_));
  bytes_.assign(sizeof(uint32_t), '\0');
  count_ = 0;
  return v;
}

std::vector<Value> RecordFields(const Value& record) {
  std::vector<Value> out;
  RecordReader r(record);
  out.reserve(r.size());
  Value v;
  while (r.Next(&v)) out.push_back(std::move(v));
  return out;
}

Value RecordFieldAt(const Value& record, size_t index) {
  RecordReader r(record);
  Value v;
  for (size_t i = 0; r.Next(&v); ++i) {
    if (i == index) return v;
  }
  return Value::Null();
}

Value MakeRecord(const std::vector<Value>& fields) {
  RecordBuilder b;
  for (const Value& v : fields) b.Add(v);
  return b.Finish();
}

void AppendRecordText(const Value& record, std::string* out) {
  out->push_back('(');
  RecordReader r(record);
  Value v;
  std::string s;
  for (bool first = true; r.Next(&v); first = false) {
    if (!first) out->push_back(',');
    if (v.is_null()) continue;
    s.clear();
    v.AppendTo(&s);
    if (!NeedsQuotes(s)) {
      out->append(s);
      continue;
    }
    out->push_back('"');
    for (char c : s) {
      if (c == '"' || c == '\\') out->push_back(c);
      out->push_back(c);
    }
    out->push_back('"');
  }
  out->push_back(')');
}

int CompareRecords(const Value& a, const Value& b) { return CompareElements(RecordReader(a), RecordReader(b)); }

uint64_t HashRecord(const Value& record) { return HashElements(RecordReader(record), 0x9e3779b97f4a7c15ULL); }

}  // namespace paceline
