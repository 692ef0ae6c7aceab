// JSON values (see json_value.h): nlohmann-json's SAX parser builds the
// jsonb tree, keeping each number's digits as text; jsonb_out printing; the
// order-preserving sort key behind jsonb's comparison, hash and index keys;
// containment. (json text navigation: json_text.cc.)
#include "common/json_value.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "common/stack_depth.h"

namespace paceline::json {

namespace {

// A number float type wide enough that nlohmann's lexer accepts every
// exponent numeric does (its double would overflow at 1e309); the value
// itself is never used, only the token's text.
using WideJson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t, long double>;

// numeric's limits: 131072 digits before the point, 16383 after.
constexpr long kMaxNumericWeight = 131072;
constexpr long kMaxNumericScale = 16383;

Status NumericOverflow() { return Status(sqlstate::kNumericValueOutOfRange, "value overflows numeric format"); }

// Stack a level of nesting may take in the recursive functions below.
constexpr size_t kStackPerLevel = 512;

Status InvalidJson(std::string detail = "") {
  Status s(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type json");
  return detail.empty() ? s : s.WithDetail(std::move(detail));
}

// Builds a JsonNode tree from nlohmann's SAX events (or only validates, for
// json, when `build` is false).
class TreeBuilder {
 public:
  explicit TreeBuilder(bool build) : build_(build), max_depth_(StackDepthBudget() / kStackPerLevel) {}

  bool null() { return Put(JsonNode::Null()); }
  bool boolean(bool b) { return Put(JsonNode::Bool(b)); }
  bool number_integer(WideJson::number_integer_t v) { return Put(JsonNode::Number(std::to_string(v))); }
  bool number_unsigned(WideJson::number_unsigned_t v) { return Put(JsonNode::Number(std::to_string(v))); }
  bool number_float(WideJson::number_float_t, const std::string& literal) {
    if (!build_) return true;
    std::string text;
    error_ = NumberText(literal, &text);
    return error_.ok() && Put(JsonNode::Number(std::move(text)));
  }
  bool string(std::string& s) {
    if (build_ && s.find('\0') != std::string::npos) {
      error_ = Status(sqlstate::kUntranslatableCharacter, "unsupported Unicode escape sequence")
                   .WithDetail("\\u0000 cannot be converted to text.");
      return false;
    }
    return Put(JsonNode::String(std::move(s)));
  }
  bool binary(WideJson::binary_t&) { return false; }
  bool start_object(std::size_t) { return Open(JsonNode::Kind::kObject); }
  bool key(std::string& k) {
    if (build_) keys_.push_back(std::move(k));
    return true;
  }
  bool end_object() { return Close(); }
  bool start_array(std::size_t) { return Open(JsonNode::Kind::kArray); }
  bool end_array() { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    if (error_.ok()) {
      error_ = std::strstr(ex.what(), "unexpected end of input") != nullptr ? InvalidJson("The input string ended unexpectedly.")
                                                                 : InvalidJson();
    }
    return false;
  }

  Status Finish(JsonNode* out) {
    if (!error_.ok()) return error_;
    if (build_) *out = std::move(root_);
    return Status::OK();
  }
  const Status& error() const { return error_; }

 private:
  bool Open(JsonNode::Kind kind) {
    if (++depth_ > max_depth_) {
      error_ = StackDepthExceeded();
      return false;
    }
    if (build_) stack_.push_back(JsonNode::Of(kind));
    return true;
  }
  bool Close() {
    --depth_;
    if (!build_) return true;
    JsonNode node = std::move(stack_.back());
    stack_.pop_back();
    if (node.kind == JsonNode::Kind::kObject) node.SortMembers();
    return Put(std::move(node));
  }
  bool Put(JsonNode node) {
    if (!build_) return true;
    if (stack_.empty()) {
      root_ = std::move(node);
    } else if (stack_.back().kind == JsonNode::Kind::kArray) {
      stack_.back().elements.push_back(std::move(node));
    } else {
      stack_.back().members.emplace_back(std::move(keys_.back()), std::move(node));
      keys_.pop_back();
    }
    return true;
  }

  bool build_;
  size_t max_depth_;
  size_t depth_ = 0;
  std::vector<JsonNode> stack_;
  std::vector<std::string> keys_;
  JsonNode root_;
  Status error_;
};

Status Parse(std::string_view text, bool build, JsonNode* out) {
  TreeBuilder builder(build);
  WideJson::sax_parse(text.begin(), text.end(), &builder);
  return builder.Finish(out);
}

// jsonb's key order: shorter keys first, then bytes.
bool KeyLess(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

void AppendBigEndian32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xFF));
}

// A number's significant digits and decimal exponent: value = 0.<digits> ×
// 10^exponent; zero has no digits.
struct NumberParts {
  bool negative = false;
  int exponent = 0;
  std::string digits;
};

NumberParts PartsOf(std::string_view text) {
  NumberParts p;
  if (!text.empty() && text[0] == '-') {
    p.negative = true;
    text.remove_prefix(1);
  }
  const size_t point = text.find('.');
  const size_t int_digits = point == std::string_view::npos ? text.size() : point;
  int leading = 0;
  bool seen = false;
  for (char c : text) {
    if (c == '.') continue;
    if (!seen && c == '0') {
      ++leading;
      continue;
    }
    seen = true;
    p.digits.push_back(c);
  }
  while (!p.digits.empty() && p.digits.back() == '0') p.digits.pop_back();
  p.exponent = static_cast<int>(int_digits) - leading;
  if (p.digits.empty()) p = NumberParts();
  return p;
}

void AppendNumberKey(std::string_view text, std::string* out) {
  const NumberParts p = PartsOf(text);
  if (p.digits.empty()) {
    out->push_back('\x02');
    return;
  }
  out->push_back(p.negative ? '\x01' : '\x03');
  const int exponent = p.negative ? -p.exponent : p.exponent;
  AppendBigEndian32(static_cast<uint32_t>(exponent) ^ 0x80000000u, out);
  for (char c : p.digits) out->push_back(p.negative ? static_cast<char>(0xFF - c) : c);
  out->push_back(p.negative ? '\xFF' : '\x00');
}

void AppendStringKey(std::string_view s, std::string* out) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
  }
  out->push_back('\0');
  out->push_back('\0');
}

// Tags of the sort key: jsonb's type order.
char KindTag(JsonNode::Kind kind) { return static_cast<char>(0x10 * (static_cast<int>(kind) + 1)); }

void AppendKey(const JsonNode& node, bool top, std::string* out) {
  switch (node.kind) {
    case JsonNode::Kind::kNull: out->push_back(KindTag(node.kind)); return;
    case JsonNode::Kind::kBool:
      out->push_back(KindTag(node.kind));
      out->push_back(node.boolean ? '\x01' : '\x00');
      return;
    case JsonNode::Kind::kString:
      out->push_back(KindTag(node.kind));
      AppendStringKey(node.text, out);
      return;
    case JsonNode::Kind::kNumber:
      out->push_back(KindTag(node.kind));
      AppendNumberKey(node.text, out);
      return;
    case JsonNode::Kind::kArray:
      out->push_back(KindTag(node.kind));
      AppendBigEndian32(static_cast<uint32_t>(node.elements.size()), out);
      if (top) out->push_back('\x01');  // after a top-level scalar of one element
      for (const JsonNode& e : node.elements) AppendKey(e, false, out);
      return;
    case JsonNode::Kind::kObject:
      out->push_back(KindTag(node.kind));
      AppendBigEndian32(static_cast<uint32_t>(node.members.size()), out);
      for (const auto& [k, v] : node.members) {
        AppendStringKey(k, out);
        AppendKey(v, false, out);
      }
      return;
  }
}

// Whether two containers of the same kind nest one in the other (the part of
// JsonbDeepContains below the top level).
bool DeepContains(const JsonNode& a, const JsonNode& b) {
  if (a.kind != b.kind) return false;
  if (b.kind == JsonNode::Kind::kObject) {
    for (const auto& [k, v] : b.members) {
      const JsonNode* mine = a.Find(k);
      if (mine == nullptr || mine->kind != v.kind) return false;
      if (v.IsScalar() ? !ScalarsEqual(*mine, v) : !DeepContains(*mine, v)) return false;
    }
    return true;
  }
  if (b.kind != JsonNode::Kind::kArray) return ScalarsEqual(a, b);
  for (const JsonNode& want : b.elements) {
    bool found = false;
    for (const JsonNode& have : a.elements) {
      if (have.kind != want.kind) continue;
      if (want.IsScalar() ? ScalarsEqual(have, want) : DeepContains(have, want)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------
// JsonNode.

JsonNode JsonNode::Of(Kind kind) {
  JsonNode n;
  n.kind = kind;
  return n;
}

JsonNode JsonNode::Bool(bool b) {
  JsonNode n = Of(Kind::kBool);
  n.boolean = b;
  return n;
}

JsonNode JsonNode::String(std::string s) {
  JsonNode n = Of(Kind::kString);
  n.text = std::move(s);
  return n;
}

JsonNode JsonNode::Number(std::string numeric_text) {
  JsonNode n = Of(Kind::kNumber);
  n.text = std::move(numeric_text);
  return n;
}

const JsonNode* JsonNode::Find(std::string_view key) const {
  const std::string k(key);
  auto it = std::lower_bound(members.begin(), members.end(), k,
                             [](const auto& m, const std::string& x) { return KeyLess(m.first, x); });
  return it != members.end() && it->first == k ? &it->second : nullptr;
}

void JsonNode::Set(std::string key, JsonNode value) {
  auto it = std::lower_bound(members.begin(), members.end(), key,
                             [](const auto& m, const std::string& x) { return KeyLess(m.first, x); });
  if (it != members.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    members.emplace(it, std::move(key), std::move(value));
  }
}

void JsonNode::SortMembers() {
  std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return KeyLess(a.first, b.first); });
  // Keep the last of each run of equal keys.
  size_t out = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    if (i + 1 < members.size() && members[i + 1].first == members[i].first) continue;
    if (out != i) members[out] = std::move(members[i]);
    ++out;
  }
  members.resize(out);
}

// ---------------------------------------------------------------------------
// Input and output.

Status ParseJsonb(std::string_view text, JsonNode* out) { return Parse(text, true, out); }

Status ValidateJson(std::string_view text) { return Parse(text, false, nullptr); }

Status NormalizeJsonb(std::string_view text, std::string* out) {
  JsonNode node;
  PL_RETURN_IF_ERROR(ParseJsonb(text, &node));
  out->clear();
  AppendJsonb(node, out);
  return Status::OK();
}

Status NumberText(std::string_view literal, std::string* out) {
  std::string_view s = literal;
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  const size_t e = s.find_first_of("eE");
  std::string_view mantissa = s.substr(0, e);
  long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view ex = s.substr(e + 1);
    const bool ex_negative = !ex.empty() && ex[0] == '-';
    if (!ex.empty() && (ex[0] == '-' || ex[0] == '+')) ex.remove_prefix(1);
    for (char c : ex) {
      exponent = exponent * 10 + (c - '0');
      if (exponent > kMaxNumericWeight) break;
    }
    if (ex_negative) exponent = -exponent;
  }
  if (exponent > kMaxNumericWeight || exponent < -kMaxNumericWeight) return NumericOverflow();
  const size_t point = mantissa.find('.');
  const std::string_view int_part = mantissa.substr(0, point);
  const std::string_view frac_part = point == std::string_view::npos ? std::string_view() : mantissa.substr(point + 1);
  std::string digits = std::string(int_part) + std::string(frac_part);
  const long scale = std::max(0L, static_cast<long>(frac_part.size()) - exponent);
  const long before = static_cast<long>(int_part.size()) + exponent;  // digits before the point
  if (before > kMaxNumericWeight || scale > kMaxNumericScale) return NumericOverflow();
  std::string whole, fraction;
  if (before <= 0) {
    whole = "0";
    fraction = std::string(static_cast<size_t>(-before), '0') + digits;
  } else if (before >= static_cast<long>(digits.size())) {
    whole = digits + std::string(static_cast<size_t>(before) - digits.size(), '0');
  } else {
    whole = digits.substr(0, static_cast<size_t>(before));
    fraction = digits.substr(static_cast<size_t>(before));
  }
  fraction.resize(static_cast<size_t>(scale), '0');
  const size_t first = whole.find_first_not_of('0');
  whole = first == std::string::npos ? "0" : whole.substr(first);
  const bool zero = whole == "0" && fraction.find_first_not_of('0') == std::string::npos;
  out->clear();
  if (negative && !zero) out->push_back('-');
  out->append(whole);
  if (!fraction.empty()) out->append(".").append(fraction);
  return Status::OK();
}

void AppendJsonString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[(c >> 4) & 0xF]);
          out->push_back(kHex[c & 0xF]);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendJsonb(const JsonNode& node, std::string* out) {
  switch (node.kind) {
    case JsonNode::Kind::kNull: out->append("null"); return;
    case JsonNode::Kind::kBool: out->append(node.boolean ? "true" : "false"); return;
    case JsonNode::Kind::kNumber: out->append(node.text); return;
    case JsonNode::Kind::kString: AppendJsonString(node.text, out); return;
    case JsonNode::Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < node.elements.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendJsonb(node.elements[i], out);
      }
      out->push_back(']');
      return;
    case JsonNode::Kind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < node.members.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendJsonString(node.members[i].first, out);
        out->append(": ");
        AppendJsonb(node.members[i].second, out);
      }
      out->push_back('}');
      return;
  }
}

std::string JsonbText(const JsonNode& node) {
  std::string s;
  AppendJsonb(node, &s);
  return s;
}

std::string_view KindName(JsonNode::Kind kind) {
  switch (kind) {
    case JsonNode::Kind::kNull: return "null";
    case JsonNode::Kind::kString: return "string";
    case JsonNode::Kind::kNumber: return "number";
    case JsonNode::Kind::kBool: return "boolean";
    case JsonNode::Kind::kArray: return "array";
    case JsonNode::Kind::kObject: return "object";
  }
  return "null";
}

// ---------------------------------------------------------------------------
// Order, hash, containment.

void AppendSortKey(const JsonNode& node, std::string* out) {
  if (node.IsScalar()) {
    // A top-level scalar is jsonb's one-element "raw scalar" array, which
    // sorts before a real array of one element.
    out->push_back(KindTag(JsonNode::Kind::kArray));
    AppendBigEndian32(1, out);
    out->push_back('\x00');
    AppendKey(node, false, out);
    return;
  }
  AppendKey(node, true, out);
}

namespace {

// Normalized jsonb text is parsed again for its key; a text that no longer
// parses (it cannot: it was made by AppendJsonb) sorts by its bytes.
std::string SortKeyOfText(std::string_view text) {
  JsonNode node;
  std::string key;
  if (ParseJsonb(text, &node).ok()) {
    AppendSortKey(node, &key);
  } else {
    key.assign(text);
  }
  return key;
}

}  // namespace

int CompareJsonbText(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  const int c = SortKeyOfText(a).compare(SortKeyOfText(b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

uint64_t HashJsonbText(std::string_view text) {
  const std::string key = SortKeyOfText(text);
  return XXH3_64bits(key.data(), key.size());
}

bool ScalarsEqual(const JsonNode& a, const JsonNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case JsonNode::Kind::kNull: return true;
    case JsonNode::Kind::kBool: return a.boolean == b.boolean;
    case JsonNode::Kind::kString: return a.text == b.text;
    case JsonNode::Kind::kNumber: {
      const NumberParts x = PartsOf(a.text), y = PartsOf(b.text);
      return x.negative == y.negative && x.exponent == y.exponent && x.digits == y.digits;
    }
    default: return false;
  }
}

bool Contains(const JsonNode& a, const JsonNode& b) {
  // Top level: a raw scalar is a one-element array that only another raw
  // scalar can be contained in; an array contains a raw scalar it has.
  if (a.IsScalar() || b.IsScalar()) {
    if (a.IsScalar()) return b.IsScalar() && ScalarsEqual(a, b);
    if (a.kind != JsonNode::Kind::kArray) return false;
    for (const JsonNode& e : a.elements) {
      if (ScalarsEqual(e, b)) return true;
    }
    return false;
  }
  return DeepContains(a, b);
}

}  // namespace paceline::json
