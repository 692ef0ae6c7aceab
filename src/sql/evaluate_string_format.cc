// ExpressionEvaluator: format() and encode()/decode() (bound in
// bind_string_function.cc, dispatched from evaluate_string_function.cc).
//
// format(fmt, args...) as PostgreSQL's: specifiers %[n$][-][width]type with
// type s (the value's text; NULL as nothing), I (quote_ident; NULL is an
// error) or L (quote_literal; NULL as NULL), and %% for a percent sign.
// encode(bytea, format) and decode(text, format) with the formats hex,
// base64 (lines of 76 characters, as PostgreSQL writes them; whitespace
// ignored when read) and escape (bytes 0 and >= 0x80 as \ooo, backslash
// doubled).
#include <openssl/evp.h>

#include <cctype>

#include "sql/evaluator_internal.h"
#include "sql/system_catalog/catalog_objects.h"

namespace paceline::sql::eval {

namespace {

Status FormatError(const std::string& message) { return Status(sqlstate::kInvalidParameterValue, message); }

// Reads digits at `i` (none: -1).
int64_t ReadNumber(const std::string& s, size_t* i) {
  if (*i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[*i]))) return -1;
  int64_t n = 0;
  while (*i < s.size() && std::isdigit(static_cast<unsigned char>(s[*i]))) {
    n = std::min<int64_t>(n * 10 + (s[*i] - '0'), int64_t{1} << 30);
    ++*i;
  }
  return n;
}

std::string HexOf(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

Status FromHex(const std::string& text, std::string* out) {
  auto digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const int hi = digit(text[i]);
    if (hi < 0) return FormatError(std::string("invalid hexadecimal digit: \"") + text[i] + "\"");
    if (i + 1 >= text.size()) return FormatError("invalid hexadecimal data: odd number of digits");
    const int lo = digit(text[i + 1]);
    if (lo < 0) return FormatError(std::string("invalid hexadecimal digit: \"") + text[i + 1] + "\"");
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return Status::OK();
}

std::string Base64Of(const std::string& bytes) {
  std::string encoded(4 * ((bytes.size() + 2) / 3), '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(encoded.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  encoded.resize(static_cast<size_t>(n));
  std::string out;
  for (size_t i = 0; i < encoded.size(); i += 76) {
    if (i > 0) out += '\n';
    out.append(encoded, i, 76);
  }
  return out;
}

Status FromBase64(const std::string& text, std::string* out) {
  std::string clean;
  size_t padding = 0;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '=') {
      ++padding;
    } else if (padding > 0 || !(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/')) {
      return FormatError(std::string("invalid symbol \"") + c + "\" found while decoding base64 sequence");
    }
    clean += c;
  }
  if (clean.size() % 4 != 0 || padding > 2) {
    return FormatError("invalid base64 end sequence");
  }
  out->resize(clean.size() / 4 * 3);
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out->data()),
                                reinterpret_cast<const unsigned char*>(clean.data()), static_cast<int>(clean.size()));
  if (n < 0) return FormatError("invalid base64 end sequence");
  out->resize(static_cast<size_t>(n) - padding);  // EVP_DecodeBlock counts the padding's zero bytes
  return Status::OK();
}

std::string EscapeOf(const std::string& bytes) {
  std::string out;
  for (unsigned char b : bytes) {
    if (b == '\\') {
      out += "\\\\";
    } else if (b == 0 || b >= 0x80) {
      out += '\\';
      out += static_cast<char>('0' + (b >> 6));
      out += static_cast<char>('0' + ((b >> 3) & 7));
      out += static_cast<char>('0' + (b & 7));
    } else {
      out += static_cast<char>(b);
    }
  }
  return out;
}

Status FromEscape(const std::string& text, std::string* out) {
  auto octal = [](char c) { return c >= '0' && c <= '7'; };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out->push_back(text[i]);
    } else if (i + 1 < text.size() && text[i + 1] == '\\') {
      out->push_back('\\');
      ++i;
    } else if (i + 3 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '3' && octal(text[i + 2]) &&
               octal(text[i + 3])) {
      out->push_back(static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 + (text[i + 3] - '0')));
      i += 3;
    } else {
      return FormatError("invalid input syntax for type bytea");
    }
  }
  return Status::OK();
}

}  // namespace

Status EvaluateFormat(const std::vector<Value>& args, Value* out) {
  if (args[0].is_null()) {
    *out = Value::Null(TypeId::kText);
    return Status::OK();
  }
  const std::string fmt = TextOf(args[0]);
  std::string result;
  size_t next_arg = 1;  // the argument a specifier without n$ takes
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      result += fmt[i];
      continue;
    }
    if (++i >= fmt.size()) return FormatError("unterminated format() type specifier");
    if (fmt[i] == '%') {
      result += '%';
      continue;
    }
    // [n$]: which argument (1-based after the format).
    size_t arg = next_arg;
    const size_t mark = i;
    const int64_t number = ReadNumber(fmt, &i);
    if (number >= 0 && i < fmt.size() && fmt[i] == '$') {
      if (number == 0) return FormatError("format specifies argument 0, but arguments are numbered from 1");
      arg = static_cast<size_t>(number);
      ++i;
    } else {
      i = mark;
    }
    bool left = false;
    while (i < fmt.size() && fmt[i] == '-') {
      left = true;
      ++i;
    }
    if (i < fmt.size() && fmt[i] == '*') {
      return Status(sqlstate::kFeatureNotSupported, "format() widths taken from an argument (*) are not supported");
    }
    const int64_t width = ReadNumber(fmt, &i);
    if (i >= fmt.size()) return FormatError("unterminated format() type specifier");
    const char type = fmt[i];
    if (type != 's' && type != 'I' && type != 'L') {
      return Status(sqlstate::kInvalidParameterValue,
                    std::string("unrecognized format() type specifier \"") + type + "\"");
    }
    if (arg >= args.size()) return FormatError("too few arguments for format()");
    next_arg = arg + 1;
    const Value& v = args[arg];
    std::string text;
    if (type == 's') {
      if (!v.is_null()) text = v.ToString();
    } else if (type == 'I') {
      if (v.is_null()) return Status(sqlstate::kNullValueNotAllowed, "null values cannot be formatted as an SQL identifier");
      text = QuoteIdent(v.ToString());
    } else {
      text = v.is_null() ? "NULL" : QuoteLiteral(v.ToString());
    }
    const int64_t pad = width - Utf8Length(text);
    if (pad > 0 && !left) result.append(static_cast<size_t>(pad), ' ');
    result += text;
    if (pad > 0 && left) result.append(static_cast<size_t>(pad), ' ');
  }
  *out = Value::Text(std::move(result));
  return Status::OK();
}

Status EvaluateEncoding(bool encode, const std::vector<Value>& args, Value* out) {
  const std::string format = TextOf(args[1]);
  if (encode) {
    const std::string& bytes = args[0].bytes_value();
    if (format == "hex") *out = Value::Text(HexOf(bytes));
    else if (format == "base64") *out = Value::Text(Base64Of(bytes));
    else if (format == "escape") *out = Value::Text(EscapeOf(bytes));
    else return FormatError("unrecognized encoding: \"" + format + "\"");
    return Status::OK();
  }
  const std::string text = TextOf(args[0]);
  std::string bytes;
  if (format == "hex") PL_RETURN_IF_ERROR(FromHex(text, &bytes));
  else if (format == "base64") PL_RETURN_IF_ERROR(FromBase64(text, &bytes));
  else if (format == "escape") PL_RETURN_IF_ERROR(FromEscape(text, &bytes));
  else return FormatError("unrecognized encoding: \"" + format + "\"");
  *out = Value::Bytea(std::move(bytes));
  return Status::OK();
}

}  // namespace paceline::sql::eval
