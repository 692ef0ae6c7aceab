// json/jsonb values: validation, normalization as jsonb_out prints, numbers
// kept as numeric keeps them, jsonb's order, hash and containment, json
// text navigation, and the casts of json Values.
#include "common/json_value.h"

#include <gtest/gtest.h>

#include "common/value.h"

namespace paceline::json {
namespace {

std::string Norm(std::string_view text) {
  std::string out;
  Status s = NormalizeJsonb(text, &out);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message() + (s.detail().empty() ? "" : " / " + s.detail());
  return out;
}

TEST(JsonValueTest, NormalizesAsJsonbPrints) {
  EXPECT_EQ(Norm(R"({"b": 1, "a": [1,2,{"c":null}], "aa": true, "a": "dup"})"), R"({"a": "dup", "b": 1, "aa": true})");
  EXPECT_EQ(Norm(" [ ] "), "[]");
  EXPECT_EQ(Norm("{}"), "{}");
  EXPECT_EQ(Norm(R"("\u00e9\n\t\u001f\/ \"q\" \\")"), "\"\u00e9\\n\\t\\u001f/ \\\"q\\\" \\\\\"");
  EXPECT_EQ(Norm("true"), "true");
  EXPECT_EQ(Norm("null"), "null");
}

TEST(JsonValueTest, NumbersKeepNumericDigitsAndScale) {
  EXPECT_EQ(Norm("1.50"), "1.50");
  EXPECT_EQ(Norm("-0"), "0");
  EXPECT_EQ(Norm("-0.0"), "0.0");
  EXPECT_EQ(Norm("1.5e1"), "15");
  EXPECT_EQ(Norm("12.5e-1"), "1.25");
  EXPECT_EQ(Norm("1E+2"), "100");
  EXPECT_EQ(Norm("1e-3"), "0.001");
  EXPECT_EQ(Norm("123456789012345678901234567890.5"), "123456789012345678901234567890.5");
  EXPECT_EQ(Norm("18446744073709551616"), "18446744073709551616");
  EXPECT_EQ(Norm("-9223372036854775809"), "-9223372036854775809");
  EXPECT_EQ(Norm("1e400"), "1" + std::string(400, '0'));
  EXPECT_EQ(Norm("1e-17000"), "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(Norm("1e5000"), "ERROR 22P02 invalid input syntax for type json");  // beyond the lexer's long double
}

TEST(JsonValueTest, RejectsWhatIsNotJson) {
  EXPECT_EQ(Norm(""), "ERROR 22P02 invalid input syntax for type json / The input string ended unexpectedly.");
  EXPECT_EQ(Norm("{\"a\":1"), "ERROR 22P02 invalid input syntax for type json / The input string ended unexpectedly.");
  EXPECT_EQ(Norm("{a:1}"), "ERROR 22P02 invalid input syntax for type json");
  EXPECT_EQ(Norm("[1,]"), "ERROR 22P02 invalid input syntax for type json");
  EXPECT_EQ(Norm("01"), "ERROR 22P02 invalid input syntax for type json");
  EXPECT_EQ(Norm("1 2"), "ERROR 22P02 invalid input syntax for type json");
  EXPECT_EQ(Norm("\"\\u0000\""), "ERROR 22P05 unsupported Unicode escape sequence / \\u0000 cannot be converted to text.");
  EXPECT_TRUE(ValidateJson("\"\\u0000\"").ok());  // json only validates
  EXPECT_TRUE(ValidateJson(" {\"a\": [1, 2e5]} ").ok());
  EXPECT_FALSE(ValidateJson("{").ok());
}

TEST(JsonValueTest, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  EXPECT_EQ(Norm(deep).substr(0, 11), "ERROR 54001");
  EXPECT_FALSE(ValidateJson(deep).ok());
}

int Cmp(std::string_view a, std::string_view b) { return CompareJsonbText(Norm(a), Norm(b)); }

TEST(JsonValueTest, OrderIsJsonbOrder) {
  // Object > Array > Boolean > Number > String > Null; a top-level scalar
  // sorts as a one-element array, before a real one.
  const std::vector<std::string> ordered = {"[]", "null", "\"a\"", "\"b\"", "-1", "9.5", "10", "false", "true",
                                            "[1]", "[0, 1]", "{}", "{\"a\": 1}", "{\"b\": 0}", "{\"a\": 1, \"b\": 2}"};
  for (size_t i = 0; i < ordered.size(); ++i) {
    for (size_t j = 0; j < ordered.size(); ++j) {
      const int c = Cmp(ordered[i], ordered[j]);
      EXPECT_EQ(c < 0, i < j) << ordered[i] << " vs " << ordered[j];
      EXPECT_EQ(c == 0, i == j) << ordered[i] << " vs " << ordered[j];
    }
  }
  EXPECT_EQ(Cmp("1.0", "1"), 0);
  EXPECT_EQ(Cmp("{\"a\": [1.50]}", "{\"a\": [1.5]}"), 0);
  EXPECT_EQ(HashJsonbText(Norm("{\"a\": [1.50]}")), HashJsonbText(Norm("{\"a\": [1.5]}")));
  EXPECT_NE(HashJsonbText(Norm("1")), HashJsonbText(Norm("2")));
  EXPECT_LT(Cmp("-10", "-9.5"), 0);
  EXPECT_LT(Cmp("0.001", "0.01"), 0);
  EXPECT_LT(Cmp("-0.12", "-0.1"), 0);
}

bool HasIn(std::string_view a, std::string_view b) {
  JsonNode x, y;
  EXPECT_TRUE(ParseJsonb(a, &x).ok());
  EXPECT_TRUE(ParseJsonb(b, &y).ok());
  return Contains(x, y);
}

TEST(JsonValueTest, ContainmentFollowsPostgres) {
  EXPECT_TRUE(HasIn("[1,2,3]", "[3,1]"));
  EXPECT_TRUE(HasIn("[1,2,3]", "[3,3,1]"));
  EXPECT_TRUE(HasIn("[1,2]", "1"));       // a top-level array contains a scalar it has
  EXPECT_FALSE(HasIn("1", "[1]"));
  EXPECT_TRUE(HasIn("1", "1.0"));
  EXPECT_TRUE(HasIn(R"({"a":{"b":1,"c":2},"d":3})", R"({"a":{"b":1}})"));
  EXPECT_FALSE(HasIn(R"({"a":{"b":1}})", R"({"a":{"b":1,"c":2}})"));
  EXPECT_TRUE(HasIn("[[1,2]]", "[[2]]"));
  EXPECT_FALSE(HasIn("[1]", "[[1]]"));
  EXPECT_FALSE(HasIn(R"({"a":1})", "[]"));
  EXPECT_TRUE(HasIn(R"({"a":1})", "{}"));
  EXPECT_FALSE(HasIn(R"({"a":[1]})", R"({"a":1})"));
}

TEST(JsonValueTest, JsonTextNavigationKeepsTheText) {
  std::string_view v;
  ASSERT_TRUE(JsonTextField(R"( {"a":  [1,  2] , "b": "x\"}"} )", "a", &v));
  EXPECT_EQ(v, "[1,  2]");
  ASSERT_TRUE(JsonTextField(R"({"a":1,"a":2})", "a", &v));
  EXPECT_EQ(v, "2");  // the last of repeated keys
  ASSERT_TRUE(JsonTextField(R"({"a\"b": {"c": "}"}})", "a\"b", &v));
  EXPECT_EQ(v, R"({"c": "}"})");
  EXPECT_FALSE(JsonTextField("[1]", "a", &v));
  ASSERT_TRUE(JsonTextElement(R"([1, "two" , {"x": [3]}])", -1, &v));
  EXPECT_EQ(v, R"({"x": [3]})");
  ASSERT_TRUE(JsonTextElement(R"([1, "two" , 3])", 1, &v));
  EXPECT_EQ(v, "\"two\"");
  EXPECT_FALSE(JsonTextElement("[1]", 1, &v));
  EXPECT_FALSE(JsonTextElement("1", 0, &v));
}

std::string Cast(const Value& v, TypeId target) {
  Value out;
  Status s = CastValue(v, Type(target), true, &out);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  EXPECT_EQ(out.type(), target);
  return out.ToString();
}

TEST(JsonValueTest, ValueCasts) {
  const Value text = Value::Text(R"({"b": 1,  "a": 2.50})");
  EXPECT_EQ(Cast(text, TypeId::kJson), R"({"b": 1,  "a": 2.50})");
  EXPECT_EQ(Cast(text, TypeId::kJsonb), R"({"a": 2.50, "b": 1})");
  EXPECT_EQ(Cast(Value::Json(R"([1,  2])"), TypeId::kJsonb), "[1, 2]");
  EXPECT_EQ(Cast(Value::Jsonb("[1, 2]"), TypeId::kJson), "[1, 2]");
  EXPECT_EQ(Cast(Value::Jsonb("[1, 2]"), TypeId::kText), "[1, 2]");
  EXPECT_EQ(Cast(Value::Jsonb("2.5"), TypeId::kInt32), "3");
  EXPECT_EQ(Cast(Value::Jsonb("2.50"), TypeId::kNumeric), "2.50");
  EXPECT_EQ(Cast(Value::Jsonb("true"), TypeId::kBool), "t");
  EXPECT_EQ(Cast(Value::Jsonb("\"1\""), TypeId::kInt32), "ERROR 22023 cannot cast jsonb string to type integer");
  EXPECT_EQ(Cast(Value::Jsonb("1"), TypeId::kBool), "ERROR 22023 cannot cast jsonb numeric to type boolean");
  EXPECT_EQ(Cast(Value::Json("1"), TypeId::kInt32), "ERROR 42846 cannot cast type json to integer");
  EXPECT_EQ(Cast(Value::Int32(1), TypeId::kJsonb), "ERROR 42846 cannot cast type integer to jsonb");
  EXPECT_EQ(Cast(Value::Text("{"), TypeId::kJson), "ERROR 22P02 invalid input syntax for type json");
  EXPECT_TRUE(CanAssign(TypeId::kJson, TypeId::kJsonb));
  EXPECT_TRUE(CanAssign(TypeId::kJsonb, TypeId::kJson));
  EXPECT_FALSE(CanAssign(TypeId::kText, TypeId::kJsonb));
  EXPECT_EQ(Value::Jsonb("[1.0]"), Value::Jsonb("[1]"));  // DISTINCT / GROUP BY equality
  EXPECT_EQ(Value::Jsonb("[1.0]").Hash(), Value::Jsonb("[1]").Hash());
}

}  // namespace
}  // namespace paceline::json
