// SqlLexer: a small hand-written SQL lexer, for LiteralParameterizer (see
// literal_parameterizer.h), which must read a statement in about a
// microsecond: no libpg_query, no allocation beyond the caller's vector.
//
// It splits a text into tokens as PostgreSQL 15's scanner does, for the
// subset it recognises:
//   - words (identifiers and keywords, ASCII letters, digits, '_', '$' and
//     any byte >= 0x80), each classified as one of the few Keywords the
//     parameterizer needs;
//   - quoted identifiers "..." (with "" inside);
//   - strings '...' (with '' inside), E'...' (backslash escapes other than
//     octal, hex and Unicode ones) and $tag$...$tag$;
//   - numbers (integer, decimal, exponent), parameters $1..$65535;
//   - operators by PostgreSQL's rule (the longest run of operator
//     characters, cut before a comment, trailing + and - given back unless
//     the operator holds one of ~!@#^&|`?%), `::`, and ( ) , ; [ ] . : :=;
//   - whitespace, -- comments and nested /* */ comments, which it skips.
// Anything else makes Run fail: an unterminated quote or comment, U&'..',
// B'..', X'..', N'..', an E'..' with an octal/hex/Unicode escape, two strings
// in a row, a number with trailing letters or a second '.', a parameter $0
// or above $65535, a character it does not know (a backslash, a brace, ...).
// Tokens refer to the text by byte offsets, so texts are at most 4 GiB (the
// parameterizer stops at 16 MiB).
//
// Thread-safety: stateless; Tokenize may be called from any thread (each
// call with its own output vector). Ownership: the tokens refer to the text
// by offsets and do not keep it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace paceline::sql {

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

// Keywords the parameterizer needs; every other word is kNone (an
// identifier, or a keyword that ends an operand: NULL, TRUE, CURRENT_DATE,
// ...).
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
  OpKind op = OpKind::kNone;                    // kOp
  Keyword keyword = Keyword::kNone;             // kWord
  StringKind string_kind = StringKind::kPlain;  // kString
  uint32_t begin = 0;                           // byte range of the token in the text
  uint32_t end = 0;
  uint32_t content_begin = 0;                   // kString: the characters between the quotes
  uint32_t content_end = 0;
  bool integer = false;                         // kNumber: no '.' and no exponent
};

// Character classes, as PostgreSQL's scanner has them.
inline bool IsIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
inline bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
inline bool IsIdentContinue(unsigned char c) { return IsIdentStart(c) || IsDigit(c) || c == '$'; }

class SqlLexer {
 public:
  // Appends the tokens of `sql` to `out` (empty on entry: a string token is
  // refused right after another) and sets `max_param` to the highest $n (0
  // when none). False when the text holds something the lexer does not
  // recognise (see above); `out` then holds the tokens before it. Allocates
  // nothing but what `out` grows by.
  static bool Tokenize(std::string_view sql, std::vector<Token>* out, size_t* max_param);
};

}  // namespace paceline::sql
