// Arrays as Values: the encoding round trip, PostgreSQL's text input and
// output, ordering, hashing and casts (common/array_value.h).
#include "common/array_value.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace paceline {
namespace {

const Type kInt4(TypeId::kInt32), kText(TypeId::kText);

std::string Parse(std::string_view text, const Type& element) {
  Value v;
  Status s = ParseArrayText(text, element, false, &v);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message() + " / " + s.detail();
  return v.ToString();
}

TEST(ArrayValueTest, KeepsEveryElementTypeThroughTheEncoding) {
  Decimal d;
  ASSERT_TRUE(Decimal::Parse("-12.50", &d).ok());
  const std::vector<std::vector<Value>> cases = {
      {Value::Bool(true), Value::Null(TypeId::kBool), Value::Bool(false)},
      {Value::Int16(-3), Value::Int16(7)},
      {Value::Int64(9000000000LL), Value::Null(TypeId::kInt64)},
      {Value::Float64(0.1), Value::Float64(-1e300)},
      {Value::Float32(1.5f)},
      {Value::Numeric(d)},
      {Value::Text(""), Value::Text("a\0b"), Value::Null(TypeId::kText)},
      {Value::Bytea(std::string("\0\xff", 2))},
      {Value::Date(19000), Value::Date(-1)},
      {Value::Timestamp(1)},
      {Value::TimestampTz(-5)},
  };
  for (const auto& elements : cases) {
    const TypeId element = elements[0].type();
    Value array = MakeArray(element, elements);
    EXPECT_EQ(array.type(), TypeId::kArray);
    EXPECT_EQ(array.element_type(), element);
    std::vector<Value> back = ArrayElements(array);
    ASSERT_EQ(back.size(), elements.size());
    for (size_t i = 0; i < back.size(); ++i) {
      EXPECT_EQ(back[i].is_null(), elements[i].is_null());
      if (!elements[i].is_null()) {
        EXPECT_TRUE(back[i] == elements[i]) << elements[i].ToString();
      }
    }
  }
}

TEST(ArrayValueTest, ValueStaysTheSameSize) {
  // The element type sits in padding: an array costs scalars nothing.
  struct Before {
    TypeId t;
    bool n;
    union {
      bool b;
      int64_t i;
      double d;
      Decimal x;
    } u;
    std::string s;
  };
  EXPECT_EQ(sizeof(Value), sizeof(Before));
}

TEST(ArrayValueTest, TextInputAndOutputArePostgresqls) {
  EXPECT_EQ(Parse("{1,2,NULL}", kInt4), "{1,2,NULL}");
  EXPECT_EQ(Parse("  { 1 ,  2 }  ", kInt4), "{1,2}");
  EXPECT_EQ(Parse("{}", kInt4), "{}");
  EXPECT_EQ(Parse(R"({a,"b c","",null,"NULL","x\"y",a\,b,"a\\b", d e })", kText),
            R"({a,"b c","",NULL,"NULL","x\"y","a,b","a\\b","d e"})");
  EXPECT_EQ(Parse("{1,x}", kInt4), "ERROR 22P02 invalid input syntax for type integer: \"x\" / ");
  EXPECT_EQ(Parse("1,2", kInt4),
            "ERROR 22P02 malformed array literal: \"1,2\" / Array value must start with \"{\" or dimension "
            "information.");
  EXPECT_EQ(Parse("{1,2", kInt4), "ERROR 22P02 malformed array literal: \"{1,2\" / Unexpected end of input.");
  EXPECT_EQ(Parse("{1,}", kInt4), "ERROR 22P02 malformed array literal: \"{1,}\" / Unexpected \"}\" character.");
  EXPECT_EQ(Parse("{1} x", kInt4), "ERROR 22P02 malformed array literal: \"{1} x\" / Junk after closing right brace.");
  EXPECT_EQ(Parse("{{1}}", kInt4), "ERROR 0A000 multidimensional arrays is not supported / ");
  EXPECT_EQ(Parse("[1:2]={1,2}", kInt4).substr(0, 12), "ERROR 0A000 ");
}

TEST(ArrayValueTest, OrdersElementByElementThenByLength) {
  auto arr = [](std::vector<Value> v) { return MakeArray(TypeId::kInt32, v); };
  const Value a = arr({Value::Int32(1), Value::Int32(2)});
  const Value b = arr({Value::Int32(1), Value::Int32(2), Value::Int32(0)});
  const Value c = arr({Value::Int32(1), Value::Null(TypeId::kInt32)});
  const Value d = arr({Value::Int32(2)});
  EXPECT_LT(Value::Compare(a, b), 0);  // a prefix first
  EXPECT_LT(Value::Compare(b, c), 0);  // NULL after any value
  EXPECT_LT(Value::Compare(c, d), 0);
  EXPECT_EQ(Value::Compare(a, arr({Value::Int32(1), Value::Int32(2)})), 0);
  // Equal arrays hash alike, across element widths as their elements do.
  EXPECT_EQ(a.Hash(), MakeArray(TypeId::kInt64, {Value::Int64(1), Value::Int64(2)}).Hash());
  EXPECT_NE(a.Hash(), b.Hash());
}

TEST(ArrayValueTest, CastsFromTextAndBetweenElementTypes) {
  Value v;
  ASSERT_TRUE(CastValue(Value::String(TypeId::kUnknown, "{1,2}"), Type::Array(Type(TypeId::kInt64)), false, &v).ok());
  EXPECT_EQ(v.element_type(), TypeId::kInt64);
  Value t;
  ASSERT_TRUE(CastValue(v, Type::Array(kText), true, &t).ok());
  EXPECT_EQ(t.element_type(), TypeId::kText);
  EXPECT_EQ(t.ToString(), "{1,2}");
  Value s;
  ASSERT_TRUE(CastValue(v, kText, true, &s).ok());
  EXPECT_EQ(s.ToString(), "{1,2}");
  Status bad = CastValue(Value::Int32(1), Type::Array(kInt4), true, &s);
  EXPECT_EQ(bad.sqlstate(), "42846");
  EXPECT_EQ(bad.message(), "cannot cast type integer to integer[]");
  Status narrow = CastValue(MakeArray(TypeId::kInt64, {Value::Int64(1LL << 40)}), Type::Array(kInt4), true, &s);
  EXPECT_EQ(narrow.sqlstate(), "22003");
}

}  // namespace
}  // namespace paceline
