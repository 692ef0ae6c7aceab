// LiteralParameterizer: the choice of the literals to replace, the
// conversion of their values, and the split of a script into statements
// (see literal_parameterizer.h), over SqlLexer's tokens. Organised as: the
// choice and Parameterize; SplitScript; BindLiterals.
#include "sql/literal_parameterizer.h"

#include <cctype>
#include <charconv>
#include <cstdint>

#include "common/decimal.h"
#include "sql/prepared_statement.h"
#include "sql/sql_lexer.h"

namespace paceline::sql {

namespace {

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
  if (!SqlLexer::Tokenize(sql, &tokens, &max_param)) return false;
  if (max_param != supplied) return false;
  return ParameterizeTokens(sql, tokens, supplied, out);
}

bool LiteralParameterizer::ParameterizeTokens(std::string_view sql, std::span<const Token> tokens, size_t supplied,
                                              ParameterizedStatement* out) {
  if (tokens.empty() || tokens[0].kind != TokenKind::kWord) return false;
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

bool LiteralParameterizer::SplitScript(std::string_view sql, std::vector<ScriptStatement>* out,
                                       std::vector<ParameterizedStatement>* normalized) {
  out->clear();
  if (normalized != nullptr) normalized->clear();
  if (sql.size() > (1u << 24)) return false;
  std::vector<Token> tokens;
  tokens.reserve(128);
  size_t max_param = 0;
  if (!SqlLexer::Tokenize(sql, &tokens, &max_param)) return false;
  size_t begin = 0;  // the current statement's first token
  for (size_t i = 0; i <= tokens.size(); ++i) {
    if (i < tokens.size() && tokens[i].kind != TokenKind::kSemicolon) continue;
    if (i > begin) {
      ScriptStatement statement;
      statement.offset = tokens[begin].begin;
      statement.text = sql.substr(statement.offset, tokens[i - 1].end - statement.offset);
      statement.kind = StatementKindOf(sql, tokens, begin, i);
      out->push_back(statement);
      if (normalized != nullptr) {
        // From this lexing, not another: the statement's tokens, made
        // relative to its text. Not applicable (text left empty) with a $n.
        normalized->emplace_back();
        std::vector<Token> own(tokens.begin() + static_cast<ptrdiff_t>(begin), tokens.begin() + static_cast<ptrdiff_t>(i));
        bool has_param = false;
        for (Token& t : own) {
          has_param |= t.kind == TokenKind::kParam;
          t.begin -= static_cast<uint32_t>(statement.offset);
          t.end -= static_cast<uint32_t>(statement.offset);
          t.content_begin -= std::min(t.content_begin, static_cast<uint32_t>(statement.offset));
          t.content_end -= std::min(t.content_end, static_cast<uint32_t>(statement.offset));
        }
        if (statement.kind != ScriptStatement::Kind::kDml || has_param ||
            !ParameterizeTokens(statement.text, own, 0, &normalized->back())) {
          normalized->back() = ParameterizedStatement();
        }
      }
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
