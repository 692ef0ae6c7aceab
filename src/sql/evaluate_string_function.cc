// ExpressionEvaluator: PostgreSQL's string functions (kConcat ..
// kRegexpReplace; bound in bind_string_function.cc). Lengths and positions
// count characters of the UTF-8 text, not bytes, as PostgreSQL's do in a
// UTF-8 database. All are strict (NULL in, NULL out) except concat, which
// skips NULLs, concat_ws, which skips NULLs after its separator, and
// format (evaluate_string_format.cc, with encode and decode).
#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>

#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

namespace {

// Longest text a function may build (PostgreSQL's limit on a value, 1 GB).
constexpr size_t kMaxTextBytes = size_t{1} << 30;

Status TooLong() { return Status(sqlstate::kProgramLimitExceeded, "requested length too large"); }

// The characters of UTF-8 text, each as its bytes.
std::vector<std::string_view> Characters(std::string_view s) {
  std::vector<std::string_view> chars;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = i + 1;
    while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) ++j;
    chars.push_back(s.substr(i, j - i));
    i = j;
  }
  return chars;
}

// The first `n` characters of `s` (all of it when shorter).
std::string_view Prefix(std::string_view s, int64_t n) { return s.substr(0, Utf8Offset(s, std::max<int64_t>(n, 0))); }

// lpad/rpad: `s` cut or filled to `length` characters with `fill` repeated.
Status Pad(std::string_view s, int64_t length, std::string_view fill, bool left, Value* out) {
  if (length <= 0) {
    *out = Value::Text("");
    return Status::OK();
  }
  const int64_t have = Utf8Length(s);
  if (have >= length || fill.empty()) {
    *out = Value::Text(std::string(Prefix(s, length)));
    return Status::OK();
  }
  const std::vector<std::string_view> fill_chars = Characters(fill);
  std::string padding;
  for (int64_t i = 0; i < length - have; ++i) {
    padding += fill_chars[static_cast<size_t>(i) % fill_chars.size()];
    if (padding.size() > kMaxTextBytes) return TooLong();
  }
  *out = Value::Text(left ? padding + std::string(s) : std::string(s) + padding);
  return Status::OK();
}

// split_part's field `n` (1-based; negative counts from the end).
Status SplitPart(const std::string& s, const std::string& delimiter, int64_t n, Value* out) {
  if (n == 0) return Status(sqlstate::kInvalidParameterValue, "field position must not be zero");
  std::vector<std::string_view> fields;
  if (delimiter.empty()) {
    fields.push_back(s);
  } else {
    std::string_view rest = s;
    for (;;) {
      const size_t at = rest.find(delimiter);
      fields.push_back(rest.substr(0, at));
      if (at == std::string_view::npos) break;
      rest.remove_prefix(at + delimiter.size());
    }
  }
  if (s.empty()) fields.clear();  // an empty string has no fields
  const int64_t count = static_cast<int64_t>(fields.size());
  const int64_t index = n > 0 ? n - 1 : count + n;
  *out = Value::Text(index >= 0 && index < count ? std::string(fields[static_cast<size_t>(index)]) : "");
  return Status::OK();
}

// initcap: the first letter of each run of letters and digits upper case,
// the others lower case (ASCII letters; other bytes pass through).
std::string Initcap(std::string s) {
  bool word = false;
  for (char& c : s) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum && !word && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (alnum && word && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    word = alnum;
  }
  return s;
}

Status Md5(const std::string& s, Value* out) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(s.data(), s.size(), digest, &size, EVP_md5(), nullptr) != 1) {
    return Status(sqlstate::kInternalError, "could not compute MD5 hash");
  }
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < size; ++i) {
    std::snprintf(byte, sizeof(byte), "%02x", digest[i]);
    hex += byte;
  }
  *out = Value::Text(std::move(hex));
  return Status::OK();
}

// chr: the character with Unicode code point `code`, as UTF-8.
Status Chr(int64_t code, Value* out) {
  if (code == 0) return Status(sqlstate::kProgramLimitExceeded, "null character not permitted");
  if (code < 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return Status(sqlstate::kProgramLimitExceeded, "requested character too large for encoding: " + std::to_string(code));
  }
  const auto c = static_cast<uint32_t>(code);
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  *out = Value::Text(std::move(s));
  return Status::OK();
}

// ascii: the code point of the first character (0 for empty text).
int32_t Ascii(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = static_cast<unsigned char>(s[0]);
  const int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  uint32_t c = extra == 0 ? b : b & (0x3F >> extra);
  for (int i = 1; i <= extra && static_cast<size_t>(i) < s.size(); ++i) c = (c << 6) | (s[i] & 0x3F);
  return static_cast<int32_t>(c);
}

// translate: each character of `from` in `s` becomes the character at the
// same place in `to`, or is removed when `to` is shorter.
std::string Translate(std::string_view s, std::string_view from, std::string_view to) {
  const std::vector<std::string_view> from_chars = Characters(from), to_chars = Characters(to);
  std::string result;
  for (std::string_view c : Characters(s)) {
    auto it = std::find(from_chars.begin(), from_chars.end(), c);
    if (it == from_chars.end()) {
      result += c;
    } else if (const size_t at = static_cast<size_t>(it - from_chars.begin()); at < to_chars.size()) {
      result += to_chars[at];
    }
  }
  return result;
}

}  // namespace

Status EvaluateStringFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  if (e.function == ScalarFunction::kConcat || e.function == ScalarFunction::kConcatWs) {
    const bool ws = e.function == ScalarFunction::kConcatWs;
    if (ws && args[0].is_null()) {
      *out = Value::Null(TypeId::kText);
      return Status::OK();
    }
    const std::string separator = ws ? TextOf(args[0]) : "";
    std::string result;
    bool first = true;
    for (size_t i = ws ? 1 : 0; i < args.size(); ++i) {
      if (args[i].is_null()) continue;
      if (!first) result += separator;
      first = false;
      result += args[i].ToString();  // the value's output text, as PostgreSQL's concat (char(n) padded, bool t/f)
      if (result.size() > kMaxTextBytes) return TooLong();
    }
    *out = Value::Text(std::move(result));
    return Status::OK();
  }
  if (e.function == ScalarFunction::kFormat) return EvaluateFormat(args, out);
  for (const Value& a : args) {
    if (a.is_null()) {
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
  }
  auto text = [&](size_t i) { return TextOf(args[i]); };
  switch (e.function) {
    case ScalarFunction::kReplace: {
      std::string s = text(0);
      const std::string from = text(1), to = text(2);
      if (from.empty()) {
        *out = Value::Text(std::move(s));
        return Status::OK();
      }
      std::string result;
      size_t at = 0;
      for (size_t hit; (hit = s.find(from, at)) != std::string::npos; at = hit + from.size()) {
        result.append(s, at, hit - at);
        result += to;
        if (result.size() > kMaxTextBytes) return TooLong();
      }
      result.append(s, at, std::string::npos);
      *out = Value::Text(std::move(result));
      return Status::OK();
    }
    case ScalarFunction::kStrpos: {
      const std::string s = text(0), sub = text(1);
      const size_t at = s.find(sub);
      *out = Value::Int32(at == std::string::npos ? 0 : static_cast<int32_t>(Utf8Length(std::string_view(s).substr(0, at)) + 1));
      return Status::OK();
    }
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad:
      return Pad(text(0), args[1].int_value(), args.size() > 2 ? text(2) : std::string(" "),
                 e.function == ScalarFunction::kLpad, out);
    case ScalarFunction::kRepeat: {
      const std::string s = text(0);
      const int64_t n = std::max<int64_t>(args[1].int_value(), 0);
      if (!s.empty() && static_cast<uint64_t>(n) > kMaxTextBytes / s.size()) return TooLong();
      std::string result;
      result.reserve(s.size() * static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) result += s;
      *out = Value::Text(std::move(result));
      return Status::OK();
    }
    case ScalarFunction::kReverse: {
      const std::string s = text(0);
      std::vector<std::string_view> chars = Characters(s);
      std::string result;
      for (auto it = chars.rbegin(); it != chars.rend(); ++it) result += *it;
      *out = Value::Text(std::move(result));
      return Status::OK();
    }
    case ScalarFunction::kSplitPart:
      return SplitPart(text(0), text(1), args[2].int_value(), out);
    case ScalarFunction::kLeft:
    case ScalarFunction::kRight: {
      // n >= 0: the first (last) n characters; n < 0: all but the last (first) -n.
      const std::string s = text(0);
      const int64_t length = Utf8Length(s), n = args[1].int_value();
      const int64_t keep = n >= 0 ? std::min(n, length) : std::max<int64_t>(length + n, 0);
      const bool left = e.function == ScalarFunction::kLeft;
      const size_t from = left ? 0 : Utf8Offset(s, length - keep);
      const size_t to = left ? Utf8Offset(s, keep) : s.size();
      *out = Value::Text(s.substr(from, to - from));
      return Status::OK();
    }
    case ScalarFunction::kInitcap:
      *out = Value::Text(Initcap(text(0)));
      return Status::OK();
    case ScalarFunction::kMd5:
      return Md5(text(0), out);
    case ScalarFunction::kChr:
      return Chr(args[0].int_value(), out);
    case ScalarFunction::kAscii:
      *out = Value::Int32(Ascii(text(0)));
      return Status::OK();
    case ScalarFunction::kStartsWith: {
      const std::string s = text(0), prefix = text(1);
      *out = Value::Bool(std::string_view(s).substr(0, prefix.size()) == prefix);
      return Status::OK();
    }
    case ScalarFunction::kTranslate:
      *out = Value::Text(Translate(text(0), text(1), text(2)));
      return Status::OK();
    case ScalarFunction::kEncode:
    case ScalarFunction::kDecode:
      return EvaluateEncoding(e.function == ScalarFunction::kEncode, args, out);
    case ScalarFunction::kRegexpReplace:
      return EvaluateRegexpReplace(args, out);
    default:
      return InternalError("unknown string function");
  }
}

}  // namespace paceline::sql::eval
