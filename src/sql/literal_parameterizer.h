// LiteralParameterizer: automatic parameterization of literals ("simple
// parameterization"), so that statement texts differing only in literal
// values share one cached PreparedStatement.
//
//   UPDATE a SET bal = bal + -12 WHERE id = 5
//     → text     UPDATE a SET bal = bal + $1 WHERE id = $2
//       declared {int4, int4}, literals {-12, 5}
//
// Parameterize reads one statement with a small SQL lexer of its own
// (SqlLexer, sql_lexer.h; no libpg_query: it must cost about a microsecond;
// the engine's other lexer, SplitStatements', is libpg_query's scanner
// behind protobuf) and replaces only the literals whose replacement by a
// parameter cannot change what the statement means:
//   - only in statements that start with SELECT, INSERT, UPDATE or DELETE;
//   - only in a WHERE clause, an UPDATE's SET clause or an INSERT's VALUES
//     rows, never after ORDER BY, GROUP BY, HAVING, LIMIT, OFFSET, FETCH,
//     FOR, RETURNING, ON CONFLICT, set operations or WINDOW, never in a
//     select list, FROM/JOIN/ON, an IN list or a function's arguments;
//   - a number or string right after a binary comparison operator
//     (= <> != < > <= >=) or arithmetic operator (+ - * /), a number with a
//     unary minus right after such an operator (the sign belongs to the
//     literal, as PostgreSQL's grammar folds it), or a whole element of an
//     INSERT ... VALUES row;
//   - and only when the token after it ends the operand (an operator other
//     than `::`, `,`, `)`, `;`, the end, or AND, OR, THEN, ELSE, END, WHEN
//     and the clause keywords above): never next to a cast, COLLATE, AT TIME
//     ZONE, a subscript, or as a typed literal (DATE '...', whose string
//     follows a type name, not an operator).
// Anything the lexer cannot classify (an unterminated quote or comment,
// U&'..', B'..', X'..', N'..', E'..' with octal/hex/Unicode escapes, a number
// with trailing letters, several statements, a character it does not know)
// makes the statement not applicable: the caller prepares the original text.
//
// Types, as the binder types the literal it replaces: an integer (with its
// sign) int4 when it fits, else int8 when it fits, else numeric; a number
// with '.' or an exponent numeric. A string is declared unknown, so the
// binder infers its type from the context exactly as it coerces an untyped
// string literal; so is a number that is a whole assignment (a VALUES
// element, or the whole value of `SET col = <literal>`), which the binder
// then types as the column. BindLiterals afterwards converts those values
// as the binder would have converted the literal (same CastValue, same
// assignment check), and fails when the literal would have failed: the
// caller then prepares the original text, whose error is the one it always
// was, with its position in the original text. The caller must likewise fall
// back to the original text on any error preparing the normalized one.
//
// Thread-safety: stateless; every function may be called from any thread.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"
#include "common/value.h"
#include "sql/ast.h"
#include "sql/sql_lexer.h"

namespace paceline::sql {

struct PreparedStatement;

// One statement's text with some literals replaced by parameters.
struct ParameterizedStatement {
  std::string text;             // the normalized text
  StatementKind kind = StatementKind::kSelect;  // from its first word: kSelect, kInsert, kUpdate or kDelete
  size_t first_literal = 0;     // the caller's parameters are $1..$first_literal
  std::vector<Type> declared;   // one per parameter of `text`: kUnknown for the caller's, then one per literal
  std::vector<Value> literals;  // the values of $first_literal+1, ... in order
  std::vector<Type> natural;    // each literal's own type (int4/int8/numeric; kUnknown for a string)
};

// One statement of a script, as LiteralParameterizer::SplitScript finds it.
struct ScriptStatement {
  enum class Kind : uint8_t {
    kDml,     // first word SELECT, INSERT, UPDATE or DELETE
    kBegin,   // exactly BEGIN [WORK | TRANSACTION] or START TRANSACTION
    kCommit,  // exactly COMMIT or END [WORK | TRANSACTION]
    kOther,
  };
  std::string_view text;  // from its first token to its last (no ';')
  size_t offset = 0;      // byte offset of `text` in the script
  Kind kind = Kind::kOther;
};

class LiteralParameterizer {
 public:
  // At most this many literals are replaced in one statement (a longer one,
  // a bulk INSERT, is unlikely to repeat: not applicable).
  static constexpr size_t kMaxLiterals = 128;

  // Parameterizes `sql`, one statement whose caller supplies `supplied`
  // values for its parameters $1..$n. False when not applicable: not a
  // SELECT/INSERT/UPDATE/DELETE, no literal to replace, something the lexer
  // cannot classify, or `supplied` differs from the highest $n in the text
  // (the original text then reports the mismatch as before).
  static bool Parameterize(std::string_view sql, size_t supplied, ParameterizedStatement* out);

  // Appends to `params` (the caller's `first_literal` values) the literal
  // values converted to the types `prepared` (out->text prepared with
  // out->declared) gave their parameters, exactly as the binder converts the
  // literals themselves. False when one would not convert, or when
  // `prepared` does not have the expected parameters: then prepare the
  // original text instead.
  // Splits `sql` at its semicolons into its non-empty statements, with the
  // same lexer (about a microsecond per statement, where libpg_query costs
  // tens), so that a caller can recognise a script of plain transaction
  // control and DML without parsing it. False when the lexer cannot classify
  // something in it (then parse it properly).
  // With `normalized`: also each statement parameterized as Parameterize
  // would (with no parameters supplied), from the same lexing —
  // (*normalized)[i] for (*out)[i], its text empty when not applicable.
  static bool SplitScript(std::string_view sql, std::vector<ScriptStatement>* out,
                          std::vector<ParameterizedStatement>* normalized = nullptr);

  static bool BindLiterals(const ParameterizedStatement& statement, const PreparedStatement& prepared,
                           std::vector<Value>* params);

 private:
  // Parameterize, on `sql`'s tokens (offsets into `sql`), without $n
  // checks.
  static bool ParameterizeTokens(std::string_view sql, std::span<const Token> tokens, size_t supplied,
                                 ParameterizedStatement* out);
};

}  // namespace paceline::sql
