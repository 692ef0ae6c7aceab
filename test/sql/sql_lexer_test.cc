// SqlLexer: the kind, range and details of each token it makes, and the
// texts it refuses.
#include "sql/sql_lexer.h"

#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace paceline::sql {
namespace {

std::vector<Token> Lex(std::string_view sql, size_t* max_param = nullptr) {
  std::vector<Token> tokens;
  size_t max = 0;
  EXPECT_TRUE(SqlLexer::Tokenize(sql, &tokens, &max)) << sql;
  if (max_param != nullptr) *max_param = max;
  return tokens;
}

bool Refused(std::string_view sql) {
  std::vector<Token> tokens;
  size_t max = 0;
  return !SqlLexer::Tokenize(sql, &tokens, &max);
}

std::string_view TextOf(std::string_view sql, const Token& t) { return sql.substr(t.begin, t.end - t.begin); }
std::string_view ContentOf(std::string_view sql, const Token& t) {
  return sql.substr(t.content_begin, t.content_end - t.content_begin);
}

TEST(SqlLexerTest, WordsAndKeywords) {
  const std::string_view sql = "SeLeCt foo_1$ FROM \"My \"\"T\"\" \" where null";
  std::vector<Token> t = Lex(sql);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].kind, TokenKind::kWord);
  EXPECT_EQ(t[0].keyword, Keyword::kSelect);
  EXPECT_EQ(t[1].kind, TokenKind::kWord);
  EXPECT_EQ(t[1].keyword, Keyword::kNone);
  EXPECT_EQ(TextOf(sql, t[1]), "foo_1$");
  EXPECT_EQ(t[2].keyword, Keyword::kFrom);
  EXPECT_EQ(t[3].kind, TokenKind::kQuotedIdent);
  EXPECT_EQ(TextOf(sql, t[3]), "\"My \"\"T\"\" \"");
  EXPECT_EQ(t[4].keyword, Keyword::kWhere);
  EXPECT_EQ(t[5].keyword, Keyword::kNone);  // NULL ends an operand
  EXPECT_EQ(Lex("returning")[0].keyword, Keyword::kStop);
  EXPECT_EQ(Lex("Between")[0].keyword, Keyword::kNonOperand);
  EXPECT_EQ(Lex("returnings")[0].keyword, Keyword::kNone);
}

TEST(SqlLexerTest, Strings) {
  struct Case {
    std::string_view sql;
    size_t index;  // of the string token
    StringKind kind;
    std::string_view text;
    std::string_view content;
  };
  const Case cases[] = {
      {"'it''s'", 0, StringKind::kPlain, "'it''s'", "it''s"},
      {"x = E'a\\'b\\n'", 2, StringKind::kEscape, "E'a\\'b\\n'", "a\\'b\\n"},
      {"e''", 0, StringKind::kEscape, "e''", ""},
      {"$$it's$$, $tag$ $$ $t $tag$", 0, StringKind::kDollar, "$$it's$$", "it's"},
      {"$$it's$$, $tag$ $$ $t $tag$", 2, StringKind::kDollar, "$tag$ $$ $t $tag$", " $$ $t "},
  };
  for (const Case& c : cases) {
    const std::vector<Token> t = Lex(c.sql);
    ASSERT_LT(c.index, t.size()) << c.sql;
    const Token& s = t[c.index];
    EXPECT_EQ(s.kind, TokenKind::kString) << c.sql;
    EXPECT_EQ(s.string_kind, c.kind) << c.sql;
    EXPECT_EQ(TextOf(c.sql, s), c.text) << c.sql;
    EXPECT_EQ(ContentOf(c.sql, s), c.content) << c.sql;
  }
}

TEST(SqlLexerTest, CommentsAreSkipped) {
  const std::string_view sql = "a -- b\n/* c /* nested */ d */ e--";
  std::vector<Token> t = Lex(sql);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(TextOf(sql, t[0]), "a");
  EXPECT_EQ(TextOf(sql, t[1]), "e");
}

TEST(SqlLexerTest, Numbers) {
  const std::string_view sql = "42 3.5 .5 1e10 2E-3 7.";
  std::vector<Token> t = Lex(sql);
  ASSERT_EQ(t.size(), 6u);
  const bool integer[] = {true, false, false, false, false, false};
  const std::string_view text[] = {"42", "3.5", ".5", "1e10", "2E-3", "7."};
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i].kind, TokenKind::kNumber) << i;
    EXPECT_EQ(t[i].integer, integer[i]) << i;
    EXPECT_EQ(TextOf(sql, t[i]), text[i]) << i;
  }
}

TEST(SqlLexerTest, OperatorsAndPunctuation) {
  // <=-5 is <= then -5 (a trailing minus is given back), but @- keeps it.
  const std::string_view sql = "a<=-5 <> != >= :: := : ( ) , ; [ ] . @- *";
  struct Expected {
    std::string_view text;
    TokenKind kind;
    OpKind op;
  };
  const Expected expected[] = {
      {"a", TokenKind::kWord, OpKind::kNone},       {"<=", TokenKind::kOp, OpKind::kLe},
      {"-", TokenKind::kOp, OpKind::kMinus},        {"5", TokenKind::kNumber, OpKind::kNone},
      {"<>", TokenKind::kOp, OpKind::kNe},          {"!=", TokenKind::kOp, OpKind::kNe},
      {">=", TokenKind::kOp, OpKind::kGe},          {"::", TokenKind::kOp, OpKind::kTypecast},
      {":=", TokenKind::kOther, OpKind::kNone},     {":", TokenKind::kOther, OpKind::kNone},
      {"(", TokenKind::kLParen, OpKind::kNone},     {")", TokenKind::kRParen, OpKind::kNone},
      {",", TokenKind::kComma, OpKind::kNone},      {";", TokenKind::kSemicolon, OpKind::kNone},
      {"[", TokenKind::kOther, OpKind::kNone},      {"]", TokenKind::kOther, OpKind::kNone},
      {".", TokenKind::kOther, OpKind::kNone},      {"@-", TokenKind::kOp, OpKind::kOther},
      {"*", TokenKind::kOp, OpKind::kStar},
  };
  std::vector<Token> t = Lex(sql);
  ASSERT_EQ(t.size(), std::size(expected));
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(TextOf(sql, t[i]), expected[i].text) << i;
    EXPECT_EQ(t[i].kind, expected[i].kind) << i;
    EXPECT_EQ(t[i].op, expected[i].op) << i;
  }

  t = Lex("a*/*c*/b");  // an operator is cut before a comment
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1].op, OpKind::kStar);
}

TEST(SqlLexerTest, Parameters) {
  size_t max_param = 0;
  std::vector<Token> t = Lex("$2 + $10 - $1", &max_param);
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].kind, TokenKind::kParam);
  EXPECT_EQ(t[2].kind, TokenKind::kParam);
  EXPECT_EQ(max_param, 10u);
  Lex("select 1", &max_param);
  EXPECT_EQ(max_param, 0u);
}

TEST(SqlLexerTest, Refusals) {
  EXPECT_TRUE(Refused("'open"));
  EXPECT_TRUE(Refused("\"open"));
  EXPECT_TRUE(Refused("/* open /* */"));
  EXPECT_TRUE(Refused("$tag$ open"));
  EXPECT_TRUE(Refused("'a' 'b'"));  // PostgreSQL joins them across a newline
  EXPECT_TRUE(Refused("E'\\101'"));
  EXPECT_TRUE(Refused("E'\\x41'"));
  EXPECT_TRUE(Refused("E'\\u0041'"));
  EXPECT_TRUE(Refused("B'101'"));
  EXPECT_TRUE(Refused("X'ff'"));
  EXPECT_TRUE(Refused("N'x'"));
  EXPECT_TRUE(Refused("U&'x'"));
  EXPECT_TRUE(Refused("123abc"));
  EXPECT_TRUE(Refused("1.5.3"));
  EXPECT_TRUE(Refused("1..2"));
  EXPECT_TRUE(Refused("1e"));
  EXPECT_TRUE(Refused("$0"));
  EXPECT_TRUE(Refused("$65536"));
  EXPECT_TRUE(Refused("$1a"));
  EXPECT_TRUE(Refused("a \\ b"));
  EXPECT_TRUE(Refused("{}"));
}

}  // namespace
}  // namespace paceline::sql
