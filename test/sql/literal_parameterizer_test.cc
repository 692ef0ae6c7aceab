// LiteralParameterizer: which literals are replaced, their values and
// declared types, the lexer's quotes, comments and operators, and the
// statements left alone.
#include "sql/literal_parameterizer.h"

#include <gtest/gtest.h>

#include "common/decimal.h"

namespace paceline::sql {
namespace {

// The normalized text, or "n/a" when not applicable.
std::string Normalize(std::string_view sql, size_t supplied = 0) {
  ParameterizedStatement p;
  if (!LiteralParameterizer::Parameterize(sql, supplied, &p)) return "n/a";
  return p.text;
}

ParameterizedStatement Must(std::string_view sql, size_t supplied = 0) {
  ParameterizedStatement p;
  EXPECT_TRUE(LiteralParameterizer::Parameterize(sql, supplied, &p)) << sql;
  return p;
}

TEST(LiteralParameterizerTest, PgbenchStatements) {
  ParameterizedStatement p = Must("UPDATE pgbench_accounts SET abalance = abalance + -1234 WHERE aid = 56789");
  EXPECT_EQ(p.text, "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2");
  ASSERT_EQ(p.literals.size(), 2u);
  EXPECT_EQ(p.literals[0], Value::Int32(-1234));
  EXPECT_EQ(p.literals[1], Value::Int32(56789));
  ASSERT_EQ(p.declared.size(), 2u);
  EXPECT_EQ(p.declared[0], Type(TypeId::kInt32));
  EXPECT_EQ(p.declared[1], Type(TypeId::kInt32));
  EXPECT_EQ(p.first_literal, 0u);
  EXPECT_EQ(p.kind, StatementKind::kUpdate);

  EXPECT_EQ(Normalize("SELECT abalance FROM pgbench_accounts WHERE aid = 56789;"),
            "SELECT abalance FROM pgbench_accounts WHERE aid = $1;");
  p = Must("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (5, 1, 56789, -1234, CURRENT_TIMESTAMP)");
  EXPECT_EQ(p.text, "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)");
  ASSERT_EQ(p.literals.size(), 4u);
  EXPECT_EQ(p.literals[3], Value::Int32(-1234));
  // Whole VALUES elements are assignments: typed by their column.
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(p.declared[i].id, TypeId::kUnknown);
  EXPECT_EQ(p.natural[3], Type(TypeId::kInt32));
}

TEST(LiteralParameterizerTest, NumberTypes) {
  ParameterizedStatement p = Must(
      "SELECT a FROM t WHERE a = 2147483647 AND b = 2147483648 AND c = -2147483648 AND d = 9223372036854775807 "
      "AND e = 9223372036854775808 AND f = 1.5 AND g = .5 AND h = 1e3 AND i = -0.25 AND j = 007");
  ASSERT_EQ(p.literals.size(), 10u);
  EXPECT_EQ(p.declared[0], Type(TypeId::kInt32));
  EXPECT_EQ(p.declared[1], Type(TypeId::kInt64));
  EXPECT_EQ(p.literals[1], Value::Int64(2147483648LL));
  EXPECT_EQ(p.declared[2], Type(TypeId::kInt32));  // the sign belongs to the literal
  EXPECT_EQ(p.literals[2], Value::Int32(INT32_MIN));
  EXPECT_EQ(p.declared[3], Type(TypeId::kInt64));
  EXPECT_EQ(p.declared[4], Type(TypeId::kNumeric));
  for (size_t i = 5; i < 9; ++i) EXPECT_EQ(p.declared[i], Type(TypeId::kNumeric)) << i;
  Decimal d;
  ASSERT_TRUE(Decimal::Parse("-0.25", &d).ok());
  EXPECT_EQ(p.literals[8], Value::Numeric(d));
  EXPECT_EQ(p.literals[9], Value::Int32(7));
}

TEST(LiteralParameterizerTest, ValuePositionsOnly) {
  // Comparison and arithmetic operators, and the unary minus after them.
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a <> 1 AND b != 2 AND c < 3 AND d <= 4 AND e > 5 AND f >= 6"),
            "SELECT a FROM t WHERE a <> $1 AND b != $2 AND c < $3 AND d <= $4 AND e > $5 AND f >= $6");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a=-5"), "SELECT a FROM t WHERE a=$1");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = b * 2 - 3 / 4"), "SELECT a FROM t WHERE a = b * $1 - $2 / $3");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 5 - 3"), "SELECT a FROM t WHERE a = $1 - $2");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE (a = 1 OR b = 2)"), "SELECT a FROM t WHERE (a = $1 OR b = $2)");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 5and b = 6"), "n/a");  // trailing junk after a number
  // Never in the select list, ORDER BY, GROUP BY, LIMIT, OFFSET, IN lists,
  // BETWEEN, function arguments, JOIN ... ON.
  EXPECT_EQ(Normalize("SELECT a + 1, 'x' FROM t WHERE a = 2 ORDER BY 1 LIMIT 10 OFFSET 5"),
            "SELECT a + 1, 'x' FROM t WHERE a = $1 ORDER BY 1 LIMIT 10 OFFSET 5");
  EXPECT_EQ(Normalize("SELECT a FROM t GROUP BY a HAVING count(*) > 1"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a IN (1, 2, 3)"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a BETWEEN 1 AND 2"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = abs(-5) AND b = round(c * 2)"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE abs(a) = 5"), "SELECT a FROM t WHERE abs(a) = $1");
  EXPECT_EQ(Normalize("SELECT a FROM t JOIN u ON t.a = u.a AND u.b = 5"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t JOIN u ON t.a = u.a WHERE u.b = 5"),
            "SELECT a FROM t JOIN u ON t.a = u.a WHERE u.b = $1");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 1 FOR UPDATE"), "SELECT a FROM t WHERE a = $1 FOR UPDATE");
  // Not after an operator: a literal as the left operand, after WHERE, NOT, (.
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE 1 = 1"), "SELECT a FROM t WHERE 1 = $1");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = (5)"), "n/a");
  // A unary operator is not an operator to replace after; a double minus
  // keeps its literal.
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = +5"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = - -5"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = b - -5"), "SELECT a FROM t WHERE a = b - $1");
}

TEST(LiteralParameterizerTest, CastsAndTypedLiterals) {
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = '5'::int"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 5 ::text"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = CAST(5 AS int)"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE d = DATE '2020-01-01'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE d = TIMESTAMP '2020-01-01 00:00'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE d = date'2020-01-01'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = 'a' COLLATE \"C\""), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE d = '2020-01-01' AND n = 5::numeric(12,2)"),
            "SELECT a FROM t WHERE d = $1 AND n = 5::numeric(12,2)");
}

TEST(LiteralParameterizerTest, Strings) {
  ParameterizedStatement p = Must("SELECT a FROM t WHERE s = 'it''s' AND u = E'a\\'b\\n\\\\' AND v = $$x'y$$ AND "
                                  "w = $q$ $$ $q$ AND x = 'back\\slash'");
  EXPECT_EQ(p.text, "SELECT a FROM t WHERE s = $1 AND u = $2 AND v = $3 AND w = $4 AND x = $5");
  ASSERT_EQ(p.literals.size(), 5u);
  EXPECT_EQ(p.literals[0], Value::String(TypeId::kUnknown, "it's"));
  EXPECT_EQ(p.literals[1], Value::String(TypeId::kUnknown, "a'b\n\\"));
  EXPECT_EQ(p.literals[2], Value::String(TypeId::kUnknown, "x'y"));
  EXPECT_EQ(p.literals[3], Value::String(TypeId::kUnknown, " $$ "));
  EXPECT_EQ(p.literals[4], Value::String(TypeId::kUnknown, "back\\slash"));  // standard_conforming_strings
  for (const Type& t : p.declared) EXPECT_EQ(t.id, TypeId::kUnknown);
  // Glued to a following word: a space keeps $n a token of its own.
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s='x'AND b = 1"), "SELECT a FROM t WHERE s=$1 AND b = $2");
  // Not classified: octal, hex, Unicode escapes; prefixed strings;
  // continued strings; an unterminated quote.
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = E'\\x41'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = E'\\101'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = U&'\\0041'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = B'101'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = N'x'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = 'a'\n'b'"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = 'a"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE s = $q$a"), "n/a");
  // Quoted identifiers are not strings.
  EXPECT_EQ(Normalize("SELECT \"a = 1\" FROM t WHERE \"b\"\"c\" = 'x'"),
            "SELECT \"a = 1\" FROM t WHERE \"b\"\"c\" = $1");
}

TEST(LiteralParameterizerTest, Comments) {
  EXPECT_EQ(Normalize("-- x = 1\nSELECT a FROM t /* a = 2 /* nested = 3 */ b = 4 */ WHERE a = 5 -- = 6"),
            "-- x = 1\nSELECT a FROM t /* a = 2 /* nested = 3 */ b = 4 */ WHERE a = $1 -- = 6");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a =/* c */5"), "SELECT a FROM t WHERE a =/* c */$1");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 5 /* unterminated"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 5--comment"), "SELECT a FROM t WHERE a = $1--comment");
}

TEST(LiteralParameterizerTest, ExistingParameters) {
  ParameterizedStatement p = Must("UPDATE t SET a = a + 1 WHERE k = $1 AND j = $2", 2);
  EXPECT_EQ(p.text, "UPDATE t SET a = a + $3 WHERE k = $1 AND j = $2");
  EXPECT_EQ(p.first_literal, 2u);
  ASSERT_EQ(p.declared.size(), 3u);
  EXPECT_EQ(p.declared[0].id, TypeId::kUnknown);
  EXPECT_EQ(p.declared[1].id, TypeId::kUnknown);
  EXPECT_EQ(p.declared[2], Type(TypeId::kInt32));
  // The caller must supply exactly the text's parameters.
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE k = $1 AND j = 5", 0), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE k = $1 AND j = 5", 2), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE k = $0 AND j = 5", 0), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE k = $1x AND j = 5", 1), "n/a");
}

TEST(LiteralParameterizerTest, Assignments) {
  ParameterizedStatement p = Must("UPDATE t SET a = 5, b = 'x', c = c + 1, d = 1.5 WHERE k = 7");
  EXPECT_EQ(p.text, "UPDATE t SET a = $1, b = $2, c = c + $3, d = $4 WHERE k = $5");
  ASSERT_EQ(p.declared.size(), 5u);
  EXPECT_EQ(p.declared[0].id, TypeId::kUnknown);  // whole values: typed as their column
  EXPECT_EQ(p.declared[1].id, TypeId::kUnknown);
  EXPECT_EQ(p.declared[2], Type(TypeId::kInt32));  // an operand
  EXPECT_EQ(p.declared[3].id, TypeId::kUnknown);
  EXPECT_EQ(p.natural[3], Type(TypeId::kNumeric));
  EXPECT_EQ(p.declared[4], Type(TypeId::kInt32));
  p = Must("INSERT INTO t VALUES (1, -2, 'x', (3), 4 + 5, f(6)), (7, 8, 9, 10, 11, 12) RETURNING a = 1");
  EXPECT_EQ(p.text, "INSERT INTO t VALUES ($1, $2, $3, (3), 4 + $4, f(6)), ($5, $6, $7, $8, $9, $10) RETURNING a = 1");
  EXPECT_EQ(p.declared[3], Type(TypeId::kInt32));  // 5, an operand
  EXPECT_EQ(p.declared[4].id, TypeId::kUnknown);
  EXPECT_EQ(Normalize("INSERT INTO t SELECT a FROM u WHERE a = 5"), "n/a");
  EXPECT_EQ(Normalize("INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 2"),
            "INSERT INTO t VALUES ($1) ON CONFLICT (a) DO UPDATE SET b = 2");
}

TEST(LiteralParameterizerTest, StatementsLeftAlone) {
  EXPECT_EQ(Normalize("CREATE TABLE t (a NUMERIC(12,2) DEFAULT 5)"), "n/a");
  EXPECT_EQ(Normalize("SET statement_timeout = 5"), "n/a");
  EXPECT_EQ(Normalize("SHOW x"), "n/a");
  EXPECT_EQ(Normalize("WITH x AS (SELECT 1) SELECT * FROM x WHERE a = 1"), "n/a");
  EXPECT_EQ(Normalize("(SELECT a FROM t WHERE a = 1)"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t"), "n/a");  // nothing to replace
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 1; SELECT 2"), "n/a");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 1;;"), "SELECT a FROM t WHERE a = $1;;");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 1)"), "n/a");
  EXPECT_EQ(Normalize("SELECT a INTO u FROM t WHERE a = 1"), "n/a");  // creates a table
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 1 \\g"), "n/a");
  EXPECT_EQ(Normalize(""), "n/a");
  EXPECT_EQ(Normalize("select a from t where a = 1"), "select a from t where a = $1");  // any case
  EXPECT_EQ(Normalize("DELETE FROM t WHERE a = 1 RETURNING a + 1"), "DELETE FROM t WHERE a = $1 RETURNING a + 1");
}

TEST(LiteralParameterizerTest, OperatorsAsPostgreSqlLexesThem) {
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a<-5"), "SELECT a FROM t WHERE a<$1");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a<>-5"), "SELECT a FROM t WHERE a<>$1");
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a @- 5"), "n/a");  // some other operator
  EXPECT_EQ(Normalize("SELECT a FROM t WHERE a = 5 || 'x'"), "SELECT a FROM t WHERE a = $1 || 'x'");
}

// "kind:text@offset" per statement, or "n/a".
std::string Split(std::string_view sql) {
  std::vector<ScriptStatement> parts;
  if (!LiteralParameterizer::SplitScript(sql, &parts)) return "n/a";
  std::string out;
  for (const ScriptStatement& p : parts) {
    static const char* const kKinds[] = {"dml", "begin", "commit", "other"};
    out += std::string(kKinds[static_cast<int>(p.kind)]) + ":" + std::string(p.text) + "@" + std::to_string(p.offset) + "\n";
    EXPECT_EQ(sql.substr(p.offset, p.text.size()), p.text);
  }
  return out;
}

TEST(LiteralParameterizerTest, SplitScriptFindsStatementsAndTheirKinds) {
  // pgbench's one-message TPC-B transaction (`\;` joins).
  EXPECT_EQ(Split("BEGIN;UPDATE a SET v = v + 1 WHERE id = 5;SELECT v FROM a WHERE id = 5;END;"),
            "begin:BEGIN@0\ndml:UPDATE a SET v = v + 1 WHERE id = 5@6\ndml:SELECT v FROM a WHERE id = 5@42\n"
            "commit:END@71\n");
  EXPECT_EQ(Split("  start transaction ; insert into t values (1) ;; Commit Work  "),
            "begin:start transaction@2\ndml:insert into t values (1)@22\ncommit:Commit Work@50\n");
  // Semicolons in strings, quoted names and comments do not split.
  EXPECT_EQ(Split("SELECT 'a;b' FROM \"x;y\" -- c;d\n WHERE a = 1 /* e;f */"),
            "dml:SELECT 'a;b' FROM \"x;y\" -- c;d\n WHERE a = 1@0\n");
  // Transaction control with options, and other statements, are kOther.
  EXPECT_EQ(Split("BEGIN ISOLATION LEVEL SERIALIZABLE; ROLLBACK; COMMIT AND CHAIN; CREATE TABLE t (a INT)"),
            "other:BEGIN ISOLATION LEVEL SERIALIZABLE@0\nother:ROLLBACK@36\nother:COMMIT AND CHAIN@46\n"
            "other:CREATE TABLE t (a INT)@64\n");
  EXPECT_EQ(Split(""), "");
  EXPECT_EQ(Split(" ; -- nothing\n;"), "");
  EXPECT_EQ(Split("SELECT 'unterminated"), "n/a");
  EXPECT_EQ(Split("SELECT E'\\x41' FROM t"), "n/a");
}

// SplitScript's statements parameterized from its one lexing are what
// Parameterize makes of each statement's own text (text, types, values),
// and not applicable where Parameterize is not (a $n, no literal, not
// DML). Excluded: a second lexing that disagrees with the first — a
// literal cut at a wrong offset, a string's content shifted, a statement
// of a script parameterized differently than alone.
TEST(LiteralParameterizerTest, SplitScriptParameterizesEachStatementAsParameterizeWould) {
  const std::string_view scripts[] = {
      "BEGIN;UPDATE a SET v = v + -12 WHERE id = 5;SELECT v FROM a WHERE id = 5;END;",
      "  insert into t values (1, 'it''s', -2.5, E'x') ; SELECT * FROM t WHERE s = 'a;b' AND n > 3 ;",
      "SELECT 1; SELECT a FROM t WHERE a = $1; UPDATE t SET a = 'q' WHERE b <= 9e3; DELETE FROM t",
      "CREATE TABLE t (a INT); SELECT a FROM t /* c */ WHERE a = 7 -- d\n",
  };
  for (std::string_view script : scripts) {
    SCOPED_TRACE(script);
    std::vector<ScriptStatement> parts;
    std::vector<ParameterizedStatement> normalized;
    ASSERT_TRUE(LiteralParameterizer::SplitScript(script, &parts, &normalized));
    ASSERT_EQ(normalized.size(), parts.size());
    for (size_t i = 0; i < parts.size(); ++i) {
      SCOPED_TRACE(parts[i].text);
      ParameterizedStatement alone;
      const bool applies = parts[i].kind == ScriptStatement::Kind::kDml &&
                           LiteralParameterizer::Parameterize(parts[i].text, 0, &alone);
      EXPECT_EQ(!normalized[i].text.empty(), applies);
      if (!applies) continue;
      EXPECT_EQ(normalized[i].text, alone.text);
      EXPECT_EQ(normalized[i].kind, alone.kind);
      ASSERT_EQ(normalized[i].literals.size(), alone.literals.size());
      for (size_t j = 0; j < alone.literals.size(); ++j) {
        EXPECT_EQ(normalized[i].literals[j].ToString(), alone.literals[j].ToString());
        EXPECT_EQ(normalized[i].declared[j].id, alone.declared[j].id);
      }
    }
  }
}

}  // namespace
}  // namespace paceline::sql
