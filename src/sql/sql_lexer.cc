// SqlLexer: the scanner behind SqlLexer::Tokenize (see sql_lexer.h): the
// classification of words and operators, then one function per kind of
// token. The scanner is local to this file so that the compiler inlines its
// functions into its Run: lexing costs one call per statement and one per
// token pushed.
#include "sql/sql_lexer.h"

#include <cstring>

namespace paceline::sql {

namespace {

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

// The state of one Tokenize: the text, the position in it, the tokens.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

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

}  // namespace

bool SqlLexer::Tokenize(std::string_view sql, std::vector<Token>* out, size_t* max_param) {
  return Scanner(sql).Run(out, max_param);
}

}  // namespace paceline::sql
