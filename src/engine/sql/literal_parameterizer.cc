// LiteralParameterizer: a lexer for one statement, the choice of the
// literals to replace, and the conversion of their values (see
// literal_parameterizer.h). Organised as: tokens and keywords; the lexer;
// the choice; BindLiterals.
#include "engine/sql/literal_parameterizer.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "common/decimal.h"
#include "engine/sql/prepared_statement.h"

namespace paceline::sql {

namespace {

// ---------------------------------------------------------------- tokens

enum class TokenKind : uint8_t {
  kWord,         // identifier or keyword
  kQuotedIdent,  // "..."
  kString,       // '...', E'...', $tag$...$tag$
  kNumber,
  kParam,        // $n
  kOp,           // an operator (see OpKind)
  kLParen,
  kRParen,
  kComma,
  kSemicolon,
  kOther,        // . [ ] : :=
};

enum class OpKind : uint8_t { kNone, kEq, kNe, kLt, kGt, kLe, kGe, kPlus, kMinus, kStar, kSlash, kTypecast, kOther };

enum class StringKind : uint8_t { kPlain, kEscape, kDollar };

// Keywords the choice needs; every other word is kNone (an identifier, or a
// keyword that ends an operand: NULL, TRUE, CURRENT_DATE, ...).
enum class Keyword : uint8_t {
  kNone,
  kSelect, kInsert, kUpdate, kDelete,
  kFrom, kWhere, kSet, kValues, kJoin, kOn, kUsing, kInto,
  kAnd, kOr, kNot, kWhen, kThen, kElse, kEnd,
  kStop,         // ORDER GROUP HAVING LIMIT OFFSET FETCH FOR RETURNING WINDOW UNION INTERSECT EXCEPT CONFLICT WITH LATERAL
  kNonOperand,   // other keywords after which an operator cannot be binary (IS, IN, LIKE, CASE, ...)
};

struct Token {
  TokenKind kind;
  OpKind op = OpKind::kNone;
  Keyword keyword = Keyword::kNone;
  StringKind string_kind = StringKind::kPlain;
  uint32_t begin = 0;          // byte range of the token in the text
  uint32_t end = 0;
  uint32_t content_begin = 0;  // kString: the characters between the quotes
  uint32_t content_end = 0;
  bool integer = false;        // kNumber: no '.' and no exponent
};

bool IsIdentStart(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsIdentContinue(unsigned char c) { return IsIdentStart(c) || IsDigit(c) || c == '$'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool IsOpChar(char c) { return c != '\0' && std::strchr("~!@#^&|`?+-*/%<>=", c) != nullptr; }

Keyword ClassifyWord(std::string_view word) {
  constexpr size_t kLongest = 9;  // RETURNING, INTERSECT
  if (word.size() > kLongest) return Keyword::kNone;
  char lower[kLongest];
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view w(lower, word.size());
  struct Entry {
    std::string_view word;
    Keyword keyword;
  };
  static constexpr Entry kWords[] = {
      {"select", Keyword::kSelect}, {"insert", Keyword::kInsert}, {"update", Keyword::kUpdate},
      {"delete", Keyword::kDelete}, {"from", Keyword::kFrom},     {"where", Keyword::kWhere},
      {"set", Keyword::kSet},       {"values", Keyword::kValues}, {"join", Keyword::kJoin},
      {"on", Keyword::kOn},         {"using", Keyword::kUsing},   {"into", Keyword::kInto},
      {"and", Keyword::kAnd},       {"or", Keyword::kOr},         {"not", Keyword::kNot},
      {"when", Keyword::kWhen},     {"then", Keyword::kThen},     {"else", Keyword::kElse},
      {"end", Keyword::kEnd},
      {"order", Keyword::kStop},    {"group", Keyword::kStop},    {"having", Keyword::kStop},
      {"limit", Keyword::kStop},    {"offset", Keyword::kStop},   {"fetch", Keyword::kStop},
      {"for", Keyword::kStop},      {"returning", Keyword::kStop}, {"window", Keyword::kStop},
      {"union", Keyword::kStop},    {"intersect", Keyword::kStop}, {"except", Keyword::kStop},
      {"conflict", Keyword::kStop}, {"with", Keyword::kStop},     {"lateral", Keyword::kStop},
      {"is", Keyword::kNonOperand}, {"in", Keyword::kNonOperand}, {"like", Keyword::kNonOperand},
      {"ilike", Keyword::kNonOperand}, {"similar", Keyword::kNonOperand}, {"between", Keyword::kNonOperand},
      {"case", Keyword::kNonOperand}, {"as", Keyword::kNonOperand}, {"by", Keyword::kNonOperand},
      {"distinct", Keyword::kNonOperand}, {"all", Keyword::kNonOperand}, {"any", Keyword::kNonOperand},
      {"some", Keyword::kNonOperand}, {"exists", Keyword::kNonOperand}, {"escape", Keyword::kNonOperand},
      {"array", Keyword::kNonOperand}, {"row", Keyword::kNonOperand}, {"collate", Keyword::kNonOperand},
      {"at", Keyword::kNonOperand}, {"symmetric", Keyword::kNonOperand}, {"overlaps", Keyword::kNonOperand},
  };
  for (const Entry& e : kWords) {
    if (e.word == w) return e.keyword;
  }
  return Keyword::kNone;
}

OpKind ClassifyOp(std::string_view op) {
  if (op == "=") return OpKind::kEq;
  if (op == "<>" || op == "!=") return OpKind::kNe;
  if (op == "<") return OpKind::kLt;
  if (op == ">") return OpKind::kGt;
  if (op == "<=") return OpKind::kLe;
  if (op == ">=") return OpKind::kGe;
  if (op == "+") return OpKind::kPlus;
  if (op == "-") return OpKind::kMinus;
  if (op == "*") return OpKind::kStar;
  if (op == "/") return OpKind::kSlash;
  return OpKind::kOther;
}

// ---------------------------------------------------------------- lexer

// Splits `s` into tokens as PostgreSQL 15's scanner does, for the subset it
// recognises; false for anything else. `max_param` receives the highest $n.
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  bool Run(std::vector<Token>* out, size_t* max_param) {
    out_ = out;
    *max_param = 0;
    const size_t n = s_.size();
    while (i_ < n) {
      const char c = s_[i_];
      if (IsSpace(c)) {
        ++i_;
      } else if (c == '-' && At(i_ + 1) == '-') {
        while (i_ < n && s_[i_] != '\n' && s_[i_] != '\r') ++i_;
      } else if (c == '/' && At(i_ + 1) == '*') {
        if (!SkipBlockComment()) return false;
      } else if (IsIdentStart(static_cast<unsigned char>(c))) {
        if (!Word()) return false;
      } else if (c == '"') {
        if (!QuotedIdent()) return false;
      } else if (c == '\'') {
        if (!String(i_, StringKind::kPlain)) return false;
      } else if (c == '$') {
        if (IsDigit(static_cast<unsigned char>(At(i_ + 1)))) {
          if (!Param(max_param)) return false;
        } else if (!DollarString()) {
          return false;
        }
      } else if (IsDigit(static_cast<unsigned char>(c)) || (c == '.' && IsDigit(static_cast<unsigned char>(At(i_ + 1))))) {
        if (!Number()) return false;
      } else if (c == '(' || c == ')' || c == ',' || c == ';' || c == '[' || c == ']' || c == '.') {
        TokenKind kind = c == '(' ? TokenKind::kLParen
                         : c == ')' ? TokenKind::kRParen
                         : c == ',' ? TokenKind::kComma
                         : c == ';' ? TokenKind::kSemicolon
                                    : TokenKind::kOther;
        Push(kind, i_, i_ + 1);
        ++i_;
      } else if (c == ':') {
        if (At(i_ + 1) == ':') {
          Push(TokenKind::kOp, i_, i_ + 2).op = OpKind::kTypecast;
          i_ += 2;
        } else {
          const size_t len = At(i_ + 1) == '=' ? 2 : 1;
          Push(TokenKind::kOther, i_, i_ + len);
          i_ += len;
        }
      } else if (IsOpChar(c)) {
        Operator();
      } else {
        return false;  // a backslash, a brace, a NUL, \v, ...
      }
    }
    return true;
  }

 private:
  char At(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  Token& Push(TokenKind kind, size_t begin, size_t end) {
    Token t;
    t.kind = kind;
    t.begin = static_cast<uint32_t>(begin);
    t.end = static_cast<uint32_t>(end);
    out_->push_back(t);
    return out_->back();
  }

  bool SkipBlockComment() {  // nested, as PostgreSQL's
    int depth = 0;
    while (i_ < s_.size()) {
      if (s_[i_] == '/' && At(i_ + 1) == '*') {
        ++depth;
        i_ += 2;
      } else if (s_[i_] == '*' && At(i_ + 1) == '/') {
        i_ += 2;
        if (--depth == 0) return true;
      } else {
        ++i_;
      }
    }
    return false;  // unterminated
  }

  bool Word() {
    size_t j = i_ + 1;
    while (j < s_.size() && IsIdentContinue(static_cast<unsigned char>(s_[j]))) ++j;
    const size_t len = j - i_;
    if (At(j) == '\'') {
      // E'...' escapes; B'..', X'..', N'..' (and any other prefix glued to
      // a quote) are not classified.
      if (len == 1 && (s_[i_] == 'e' || s_[i_] == 'E')) return String(i_, StringKind::kEscape);
      return false;
    }
    if (len == 1 && (s_[i_] == 'u' || s_[i_] == 'U') && At(j) == '&') return false;  // U&'..', U&".."
    Token& t = Push(TokenKind::kWord, i_, j);
    t.keyword = ClassifyWord(s_.substr(i_, len));
    i_ = j;
    return true;
  }

  bool QuotedIdent() {
    size_t j = i_ + 1;
    while (true) {
      if (j >= s_.size()) return false;
      if (s_[j] == '"') {
        if (At(j + 1) == '"') {
          j += 2;
          continue;
        }
        break;
      }
      ++j;
    }
    Push(TokenKind::kQuotedIdent, i_, j + 1);
    i_ = j + 1;
    return true;
  }

  // A quoted string from `begin` (the prefix E, or the quote itself).
  bool String(size_t begin, StringKind kind) {
    size_t j = (kind == StringKind::kEscape ? begin + 1 : begin) + 1;
    const size_t content = j;
    while (true) {
      if (j >= s_.size()) return false;
      const char c = s_[j];
      if (c == '\'') {
        if (At(j + 1) == '\'') {
          j += 2;
          continue;
        }
        break;
      }
      if (c == '\\' && kind == StringKind::kEscape) {
        const char d = At(j + 1);
        // Octal, hex and Unicode escapes are left to PostgreSQL's scanner.
        if (d == '\0' || (d >= '0' && d <= '7') || d == 'x' || d == 'u' || d == 'U') return false;
        j += 2;
        continue;
      }
      ++j;
    }
    return PushString(begin, j + 1, content, j, kind);
  }

  bool DollarString() {
    size_t j = i_ + 1;
    if (j < s_.size() && IsIdentStart(static_cast<unsigned char>(s_[j]))) {
      ++j;
      while (j < s_.size() && (IsIdentStart(static_cast<unsigned char>(s_[j])) || IsDigit(static_cast<unsigned char>(s_[j])))) {
        ++j;
      }
    }
    if (At(j) != '$') return false;
    const std::string_view tag = s_.substr(i_, j + 1 - i_);
    const size_t close = s_.find(tag, j + 1);
    if (close == std::string_view::npos) return false;
    return PushString(i_, close + tag.size(), j + 1, close, StringKind::kDollar);
  }

  bool PushString(size_t begin, size_t end, size_t content_begin, size_t content_end, StringKind kind) {
    // Two strings in a row ('a' 'b', which PostgreSQL joins across a
    // newline) are not classified.
    if (!out_->empty() && out_->back().kind == TokenKind::kString) return false;
    Token& t = Push(TokenKind::kString, begin, end);
    t.string_kind = kind;
    t.content_begin = static_cast<uint32_t>(content_begin);
    t.content_end = static_cast<uint32_t>(content_end);
    i_ = end;
    return true;
  }

  bool Param(size_t* max_param) {
    size_t j = i_ + 1;
    size_t number = 0;
    while (j < s_.size() && IsDigit(static_cast<unsigned char>(s_[j]))) {
      number = number * 10 + static_cast<size_t>(s_[j] - '0');
      if (number > 65535) return false;
      ++j;
    }
    if (number == 0 || IsIdentContinue(static_cast<unsigned char>(At(j)))) return false;
    if (number > *max_param) *max_param = number;
    Push(TokenKind::kParam, i_, j);
    i_ = j;
    return true;
  }

  bool Number() {
    size_t j = i_;
    bool integer = true;
    while (IsDigit(static_cast<unsigned char>(At(j)))) ++j;
    if (At(j) == '.') {
      if (At(j + 1) == '.') return false;  // 1..2
      integer = false;
      ++j;
      while (IsDigit(static_cast<unsigned char>(At(j)))) ++j;
    }
    if (At(j) == 'e' || At(j) == 'E') {
      size_t k = j + 1;
      if (At(k) == '+' || At(k) == '-') ++k;
      if (!IsDigit(static_cast<unsigned char>(At(k)))) return false;
      while (IsDigit(static_cast<unsigned char>(At(k)))) ++k;
      integer = false;
      j = k;
    }
    // Trailing junk (123abc, 1.5.3) is not classified.
    if (IsIdentContinue(static_cast<unsigned char>(At(j))) || At(j) == '.') return false;
    Push(TokenKind::kNumber, i_, j).integer = integer;
    i_ = j;
    return true;
  }

  // PostgreSQL's operator rule: the longest run of operator characters, cut
  // before a comment start, and with trailing + and - given back unless the
  // operator holds one of ~!@#^&|`?% (so that `x=-5` is = then -5).
  void Operator() {
    size_t j = i_;
    while (j < s_.size() && IsOpChar(s_[j])) ++j;
    size_t len = j - i_;
    for (size_t k = i_ + 1; k + 1 < j; ++k) {
      if ((s_[k] == '-' && At(k + 1) == '-') || (s_[k] == '/' && At(k + 1) == '*')) {
        len = k - i_;
        break;
      }
    }
    if (len > 1 && (s_[i_ + len - 1] == '+' || s_[i_ + len - 1] == '-')) {
      bool special = false;
      for (size_t k = i_; k + 1 < i_ + len; ++k) {
        if (std::strchr("~!@#^&|`?%", s_[k]) != nullptr) special = true;
      }
      if (!special) {
        while (len > 1 && (s_[i_ + len - 1] == '+' || s_[i_ + len - 1] == '-')) --len;
      }
    }
    Push(TokenKind::kOp, i_, i_ + len).op = ClassifyOp(s_.substr(i_, len));
    i_ += len;
  }

  std::string_view s_;
  size_t i_ = 0;
  std::vector<Token>* out_ = nullptr;
};

// ---------------------------------------------------------------- the choice

enum class Clause : uint8_t {
  kNone,        // nothing is replaced
  kWhere,       // WHERE of SELECT, UPDATE, DELETE
  kSet,         // SET of UPDATE
  kValues,      // INSERT's VALUES, between rows
  kRow,         // a VALUES row: whole elements, and after operators
  kRowExpr,     // parentheses inside a row: after operators only
};

bool IsReplaceAfter(const Token& t) {
  if (t.kind != TokenKind::kOp) return false;
  switch (t.op) {
    case OpKind::kEq: case OpKind::kNe: case OpKind::kLt: case OpKind::kGt: case OpKind::kLe: case OpKind::kGe:
    case OpKind::kPlus: case OpKind::kMinus: case OpKind::kStar: case OpKind::kSlash:
      return true;
    default:
      return false;
  }
}

// Whether an operand ends with `t` (so that an operator after it is binary).
bool EndsOperand(const Token& t) {
  switch (t.kind) {
    case TokenKind::kWord:
      return t.keyword == Keyword::kNone || t.keyword == Keyword::kEnd;
    case TokenKind::kQuotedIdent: case TokenKind::kString: case TokenKind::kNumber: case TokenKind::kParam:
    case TokenKind::kRParen:
      return true;
    default:
      return false;
  }
}

// Whether the token after a replaced literal ends it as an operand.
bool EndsLiteral(const Token* next) {
  if (next == nullptr) return true;
  switch (next->kind) {
    case TokenKind::kSemicolon: case TokenKind::kRParen: case TokenKind::kComma:
      return true;
    case TokenKind::kOp:
      return next->op != OpKind::kTypecast;
    case TokenKind::kWord:
      switch (next->keyword) {
        case Keyword::kAnd: case Keyword::kOr: case Keyword::kThen: case Keyword::kElse: case Keyword::kEnd:
        case Keyword::kWhen: case Keyword::kWhere: case Keyword::kStop:
          return true;
        default:
          return false;
      }
    default:
      return false;
  }
}

// A literal's value and type as the parser and binder make them.
bool NumberValue(std::string_view text, bool integer, Value* value, Type* type) {
  if (integer) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && ptr == text.data() + text.size()) {
      if (v >= INT32_MIN && v <= INT32_MAX) {
        *value = Value::Int32(static_cast<int32_t>(v));
        *type = Type(TypeId::kInt32);
      } else {
        *value = Value::Int64(v);
        *type = Type(TypeId::kInt64);
      }
      return true;
    }
  }
  Decimal d;
  if (!Decimal::Parse(text, &d).ok()) return false;
  *value = Value::Numeric(d);
  *type = Type(TypeId::kNumeric);
  return true;
}

std::string StringValue(std::string_view s, const Token& t) {
  const std::string_view content = s.substr(t.content_begin, t.content_end - t.content_begin);
  if (t.string_kind == StringKind::kDollar) return std::string(content);
  std::string out;
  out.reserve(content.size());
  for (size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (c == '\'') {
      out.push_back('\'');
      ++i;  // '' → '
    } else if (c == '\\' && t.string_kind == StringKind::kEscape) {
      const char d = content[++i];
      switch (d) {
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        default: out.push_back(d); break;  // \\, \', and any other character as itself
      }
    } else {
      out.push_back(c);
    }
  }
  return out;
}

struct Replacement {
  uint32_t begin;
  uint32_t end;
};

}  // namespace

bool LiteralParameterizer::Parameterize(std::string_view sql, size_t supplied, ParameterizedStatement* out) {
  if (sql.size() > (1u << 24)) return false;
  std::vector<Token> tokens;
  tokens.reserve(64);
  size_t max_param = 0;
  if (!Lexer(sql).Run(&tokens, &max_param)) return false;
  if (tokens.empty() || tokens[0].kind != TokenKind::kWord || max_param != supplied) return false;
  const Keyword statement = tokens[0].keyword;
  if (statement != Keyword::kSelect && statement != Keyword::kInsert && statement != Keyword::kUpdate &&
      statement != Keyword::kDelete) {
    return false;
  }
  // One statement: only semicolons may follow the first one.
  size_t end = tokens.size();
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kSemicolon) continue;
    for (size_t j = i; j < tokens.size(); ++j) {
      if (tokens[j].kind != TokenKind::kSemicolon) return false;
    }
    end = i;
    break;
  }

  out->kind = statement == Keyword::kSelect   ? StatementKind::kSelect
              : statement == Keyword::kInsert ? StatementKind::kInsert
              : statement == Keyword::kUpdate ? StatementKind::kUpdate
                                              : StatementKind::kDelete;
  out->literals.clear();
  out->natural.clear();
  out->declared.assign(supplied, Type());
  out->first_literal = supplied;
  std::vector<Replacement> replacements;
  std::vector<Clause> frames{Clause::kNone};  // one per open parenthesis, plus the statement's
  bool stopped = false;                       // after ORDER BY, LIMIT, RETURNING, ...
  for (size_t t = 0; t < end; ++t) {
    const Token& tok = tokens[t];
    const Token* prev = t > 0 ? &tokens[t - 1] : nullptr;
    Clause& clause = frames.back();
    const bool top = frames.size() == 1;
    switch (tok.kind) {
      case TokenKind::kWord:
        switch (tok.keyword) {
          case Keyword::kStop: stopped = true; break;
          case Keyword::kInto:
            if (statement == Keyword::kSelect) return false;  // SELECT ... INTO creates a table
            clause = Clause::kNone;
            break;
          case Keyword::kSelect: case Keyword::kFrom: case Keyword::kJoin: case Keyword::kOn: case Keyword::kUsing:
            clause = Clause::kNone;
            break;
          case Keyword::kWhere:
            clause = statement == Keyword::kInsert ? Clause::kNone : Clause::kWhere;
            break;
          case Keyword::kSet:
            clause = statement == Keyword::kUpdate && top ? Clause::kSet : Clause::kNone;
            break;
          case Keyword::kValues:
            clause = statement == Keyword::kInsert && top ? Clause::kValues : Clause::kNone;
            break;
          default:
            break;
        }
        continue;
      case TokenKind::kLParen: {
        Clause inner = Clause::kNone;
        const bool grouping =
            prev != nullptr &&
            (prev->kind == TokenKind::kOp || prev->kind == TokenKind::kLParen || prev->kind == TokenKind::kComma ||
             (prev->kind == TokenKind::kWord &&
              (prev->keyword == Keyword::kWhere || prev->keyword == Keyword::kAnd || prev->keyword == Keyword::kOr ||
               prev->keyword == Keyword::kNot || prev->keyword == Keyword::kWhen || prev->keyword == Keyword::kThen ||
               prev->keyword == Keyword::kElse)));
        if (clause == Clause::kValues && top && prev != nullptr &&
            (prev->kind == TokenKind::kComma || (prev->kind == TokenKind::kWord && prev->keyword == Keyword::kValues))) {
          inner = Clause::kRow;
        } else if (grouping) {
          inner = clause == Clause::kRow || clause == Clause::kRowExpr ? Clause::kRowExpr
                  : clause == Clause::kValues                       ? Clause::kNone
                                                                     : clause;
        }
        frames.push_back(inner);
        continue;
      }
      case TokenKind::kRParen:
        if (frames.size() == 1) return false;
        frames.pop_back();
        continue;
      case TokenKind::kNumber: case TokenKind::kString:
        break;
      default:
        continue;
    }
    // A literal: is it in a value position?
    if (stopped || clause == Clause::kNone || clause == Clause::kValues) continue;
    size_t first = t;  // the sign, when it has one
    bool replace = false;
    bool assignment = false;
    const Token* next = t + 1 < end ? &tokens[t + 1] : nullptr;
    auto row_element_start = [&](size_t i) {
      return clause == Clause::kRow && (tokens[i].kind == TokenKind::kLParen || tokens[i].kind == TokenKind::kComma);
    };
    auto after_binary_operator = [&](size_t i) {  // tokens[i] is a binary operator to replace after
      return IsReplaceAfter(tokens[i]) && i > 0 && EndsOperand(tokens[i - 1]);
    };
    size_t before = t - 1;  // t > 0: the statement starts with a word
    if (tok.kind == TokenKind::kNumber && tokens[before].kind == TokenKind::kOp && tokens[before].op == OpKind::kMinus &&
        before > 0 && (after_binary_operator(before - 1) || row_element_start(before - 1))) {
      first = before;  // a unary minus: part of the literal
      --before;
    }
    if (row_element_start(before)) {
      // A whole VALUES element: an assignment to its column.
      replace = next != nullptr && (next->kind == TokenKind::kComma || next->kind == TokenKind::kRParen);
      assignment = true;
    } else if (after_binary_operator(before)) {
      replace = EndsLiteral(next);
      // SET col = <literal>, the whole value: an assignment too.
      assignment = clause == Clause::kSet && top && tokens[before].op == OpKind::kEq && before >= 2 &&
                   (tokens[before - 1].kind == TokenKind::kWord || tokens[before - 1].kind == TokenKind::kQuotedIdent) &&
                   (tokens[before - 2].kind == TokenKind::kComma ||
                    (tokens[before - 2].kind == TokenKind::kWord && tokens[before - 2].keyword == Keyword::kSet)) &&
                   (next == nullptr || next->kind == TokenKind::kComma || next->kind == TokenKind::kSemicolon ||
                    (next->kind == TokenKind::kWord && (next->keyword == Keyword::kWhere || next->keyword == Keyword::kStop)));
    }
    if (!replace) continue;
    if (out->literals.size() == kMaxLiterals) return false;
    Value value;
    Type natural;
    if (tok.kind == TokenKind::kNumber) {
      std::string text;
      if (first != t) text.push_back('-');
      text.append(sql.substr(tok.begin, tok.end - tok.begin));
      if (!NumberValue(text, tok.integer, &value, &natural)) return false;
    } else {
      value = Value::String(TypeId::kUnknown, StringValue(sql, tok));
    }
    out->declared.push_back(assignment ? Type() : natural);
    out->natural.push_back(natural);
    out->literals.push_back(std::move(value));
    replacements.push_back({tokens[first].begin, tok.end});
  }
  if (frames.size() != 1 || replacements.empty()) return false;

  out->text.clear();
  out->text.reserve(sql.size() + 4 * replacements.size());
  size_t from = 0;
  size_t number = supplied;
  for (const Replacement& r : replacements) {
    out->text.append(sql.substr(from, r.begin - from));
    out->text.push_back('$');
    out->text.append(std::to_string(++number));
    // $1 glued to a word or digit after it would read as one token.
    if (r.end < sql.size() && IsIdentContinue(static_cast<unsigned char>(sql[r.end]))) out->text.push_back(' ');
    from = r.end;
  }
  out->text.append(sql.substr(from));
  return true;
}

// ---------------------------------------------------------------- SplitScript

namespace {

bool WordIs(std::string_view sql, const Token& t, std::string_view lower) {
  if (t.kind != TokenKind::kWord || t.end - t.begin != lower.size()) return false;
  for (size_t i = 0; i < lower.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(sql[t.begin + i])) != lower[i]) return false;
  }
  return true;
}

// The kind of the statement made of tokens [begin, end).
ScriptStatement::Kind StatementKindOf(std::string_view sql, const std::vector<Token>& tokens, size_t begin,
                                      size_t end) {
  const size_t n = end - begin;
  const Token& first = tokens[begin];
  const Keyword k = first.keyword;
  if (first.kind == TokenKind::kWord &&
      (k == Keyword::kSelect || k == Keyword::kInsert || k == Keyword::kUpdate || k == Keyword::kDelete)) {
    return ScriptStatement::Kind::kDml;
  }
  const bool noise = n == 2 && (WordIs(sql, tokens[begin + 1], "work") || WordIs(sql, tokens[begin + 1], "transaction"));
  if (n == 1 || noise) {
    if (WordIs(sql, first, "begin")) return ScriptStatement::Kind::kBegin;
    if (WordIs(sql, first, "commit") || WordIs(sql, first, "end")) return ScriptStatement::Kind::kCommit;
  }
  if (n == 2 && WordIs(sql, first, "start") && WordIs(sql, tokens[begin + 1], "transaction")) {
    return ScriptStatement::Kind::kBegin;
  }
  return ScriptStatement::Kind::kOther;
}

}  // namespace

bool LiteralParameterizer::SplitScript(std::string_view sql, std::vector<ScriptStatement>* out) {
  out->clear();
  if (sql.size() > (1u << 24)) return false;
  std::vector<Token> tokens;
  tokens.reserve(128);
  size_t max_param = 0;
  if (!Lexer(sql).Run(&tokens, &max_param)) return false;
  size_t begin = 0;  // the current statement's first token
  for (size_t i = 0; i <= tokens.size(); ++i) {
    if (i < tokens.size() && tokens[i].kind != TokenKind::kSemicolon) continue;
    if (i > begin) {
      ScriptStatement statement;
      statement.offset = tokens[begin].begin;
      statement.text = sql.substr(statement.offset, tokens[i - 1].end - statement.offset);
      statement.kind = StatementKindOf(sql, tokens, begin, i);
      out->push_back(statement);
    }
    begin = i + 1;
  }
  return true;
}

// ---------------------------------------------------------------- BindLiterals

bool LiteralParameterizer::BindLiterals(const ParameterizedStatement& statement, const PreparedStatement& prepared,
                                        std::vector<Value>* params) {
  if (prepared.param_types.size() != statement.declared.size() || params->size() != statement.first_literal) {
    return false;
  }
  params->reserve(params->size() + statement.literals.size());
  for (size_t i = 0; i < statement.literals.size(); ++i) {
    const size_t p = statement.first_literal + i;
    const Type& declared = statement.declared[p];
    const Type& natural = statement.natural[i];
    const Type& type = prepared.param_types[p];
    const Value& literal = statement.literals[i];
    if (declared.id != TypeId::kUnknown) {
      if (!(type == declared)) return false;
      params->push_back(literal);
      continue;
    }
    if (type == natural) {
      params->push_back(literal);
      continue;
    }
    // As the binder coerces the literal: a number assigned to a column must
    // be assignable (42804 otherwise), then any literal is cast to the type.
    if (natural.id != TypeId::kUnknown && !CanAssign(natural.id, type.id)) return false;
    Value cast;
    if (!CastValue(literal, type, /*explicit_cast=*/false, &cast).ok()) return false;
    params->push_back(std::move(cast));
  }
  return true;
}

}  // namespace paceline::sql
