// KeyEncoder: byte order of encoded keys equals SQL order of the values, for
// every type, and composite prefixes are byte prefixes.
#include "storage/key_encoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace paceline::storage {
namespace {

std::string Key(const Type& type, const Value& v, bool nullable = false) {
  std::string out;
  EXPECT_TRUE(AppendKeyColumn(type, nullable, v, &out).ok());
  return out;
}

// Sorting encoded keys must give the same order as Value::Compare.
void ExpectOrderPreserved(const Type& type, std::vector<Value> values) {
  std::vector<std::pair<std::string, Value>> keyed;
  for (const auto& v : values) keyed.emplace_back(Key(type, v), v);
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 1; i < keyed.size(); ++i) {
    EXPECT_LE(Value::Compare(keyed[i - 1].second, keyed[i].second), 0)
        << type.ToString() << ": " << keyed[i - 1].second.ToString() << " sorted before " << keyed[i].second.ToString();
  }
}

TEST(KeyEncoderTest, IntegersKeepSqlOrderAtEveryWidth) {
  std::mt19937 rng(7);
  std::vector<Value> v32, v16, v64;
  for (int i = 0; i < 500; ++i) {
    v32.push_back(Value::Int32(static_cast<int32_t>(rng())));
    v16.push_back(Value::Int16(static_cast<int16_t>(rng())));
    v64.push_back(Value::Int64(static_cast<int64_t>((uint64_t{rng()} << 32) | rng())));
  }
  v32.push_back(Value::Int32(INT32_MIN));
  v32.push_back(Value::Int32(INT32_MAX));
  v32.push_back(Value::Int32(0));
  v32.push_back(Value::Int32(-1));
  ExpectOrderPreserved(Type(TypeId::kInt32), v32);
  ExpectOrderPreserved(Type(TypeId::kInt16), v16);
  ExpectOrderPreserved(Type(TypeId::kInt64), v64);
  EXPECT_EQ(Key(Type(TypeId::kInt32), Value::Int32(5)).size(), 4u) << "int4 keys are 4 bytes";
}

TEST(KeyEncoderTest, Int8ProbeOfInt4ColumnEqualsInt4Key) {
  EXPECT_EQ(Key(Type(TypeId::kInt32), Value::Int64(42)), Key(Type(TypeId::kInt32), Value::Int32(42)));
  std::string out;
  KeyFit fit;
  ASSERT_TRUE(AppendKeyColumn(Type(TypeId::kInt32), false, Value::Int64(int64_t{1} << 40), &out, &fit).ok());
  EXPECT_EQ(fit, KeyFit::kAbove);
  out.clear();
  ASSERT_TRUE(AppendKeyColumn(Type(TypeId::kInt32), false, Value::Int64(-(int64_t{1} << 40)), &out, &fit).ok());
  EXPECT_EQ(fit, KeyFit::kBelow);
}

TEST(KeyEncoderTest, FloatsNumericsStringsKeepOrder) {
  ExpectOrderPreserved(Type(TypeId::kFloat64), {Value::Float64(-1e300), Value::Float64(-2.5), Value::Float64(-0.0),
                                                Value::Float64(0.0), Value::Float64(1e-300), Value::Float64(3.25),
                                                Value::Float64(1e300)});
  Type money = Type::Numeric(12, 2);
  std::vector<Value> nums;
  for (const char* s : {"-99999.99", "-0.01", "0", "0.01", "0.10", "1", "12.50", "1234567890.12"}) {
    Decimal d;
    ASSERT_TRUE(Decimal::Parse(s, &d).ok());
    nums.push_back(Value::Numeric(d));
  }
  ExpectOrderPreserved(money, nums);
  // 1.5 and 1.50 are the same key at scale 2.
  Decimal a, b;
  ASSERT_TRUE(Decimal::Parse("1.5", &a).ok());
  ASSERT_TRUE(Decimal::Parse("1.50", &b).ok());
  EXPECT_EQ(Key(money, Value::Numeric(a)), Key(money, Value::Numeric(b)));
  ExpectOrderPreserved(Type(TypeId::kText), {Value::Text(""), Value::Text("a"), Value::Text(std::string("a\0b", 3)),
                                             Value::Text("ab"), Value::Text("b"), Value::Text("\xff")});
}

TEST(KeyEncoderTest, UuidAndJsonbKeepTheirOrder) {
  auto uuid = [](std::string_view text) {
    Value v;
    EXPECT_TRUE(CastValue(Value::Text(std::string(text)), Type(TypeId::kUuid), false, &v).ok());
    return v;
  };
  ExpectOrderPreserved(Type(TypeId::kUuid), {uuid("00000000-0000-0000-0000-000000000000"),
                                             uuid("00000000-0000-0000-0000-000000000001"),
                                             uuid("7fffffff-0000-0000-0000-000000000000"),
                                             uuid("80000000-0000-0000-0000-000000000000"),
                                             uuid("ffffffff-ffff-ffff-ffff-ffffffffffff")});
  // jsonb_cmp's order; equal values (1.0 and 1) are one key.
  std::vector<Value> docs;
  for (const char* text : {"[]", "null", "\"\"", "\"a\"", "\"ab\"", "\"b\"", "-100", "-1.5", "-1", "0", "0.001", "1",
                           "1.5", "10", "false", "true", "[1]", "[1, 2]", "{}", "{\"a\": null}", "{\"a\": 1}",
                           "{\"b\": 1}", "{\"a\": 1, \"b\": 2}"}) {
    Value v;
    EXPECT_TRUE(CastValue(Value::Text(text), Type(TypeId::kJsonb), false, &v).ok());
    docs.push_back(v);
  }
  ExpectOrderPreserved(Type(TypeId::kJsonb), docs);
  EXPECT_EQ(Key(Type(TypeId::kJsonb), Value::Jsonb("[1.0]")), Key(Type(TypeId::kJsonb), Value::Jsonb("[1]")));
  std::string out;
  EXPECT_TRUE(AppendKeyColumn(Type(TypeId::kJson), false, Value::Json("1"), &out).Is(sqlstate::kUndefinedObject));
}

TEST(KeyEncoderTest, ByteaKeepsByteaOrder) {
  // byteacmp: unsigned bytes, a prefix before its extensions; NULs are data.
  ExpectOrderPreserved(Type(TypeId::kBytea),
                       {Value::Bytea(""), Value::Bytea(std::string("\0", 1)), Value::Bytea(std::string("\0\0", 2)),
                        Value::Bytea(std::string("\0\x01", 2)), Value::Bytea("\x01"), Value::Bytea("a"),
                        Value::Bytea(std::string("a\0", 2)), Value::Bytea("a "), Value::Bytea("\x7f"),
                        Value::Bytea("\x80"), Value::Bytea("\xff"), Value::Bytea("\xff\xff")});
  // No CHAR trimming: a trailing blank is a byte like any other.
  EXPECT_NE(Key(Type(TypeId::kBytea), Value::Bytea("a ")), Key(Type(TypeId::kBytea), Value::Bytea("a")));
}

TEST(KeyEncoderTest, CharIgnoresTrailingBlanksLikeBpchar) {
  EXPECT_EQ(Key(Type::Char(5), Value::String(TypeId::kChar, "ab   ")), Key(Type::Char(5), Value::String(TypeId::kChar, "ab")));
}

TEST(KeyEncoderTest, CompositeKeysCompareColumnByColumnAndPrefixIsBytePrefix) {
  // ("a", 2) < ("ab", 1): the string terminator makes "a" end before "ab".
  std::string k1 = Key(Type(TypeId::kText), Value::Text("a")) + Key(Type(TypeId::kInt32), Value::Int32(2));
  std::string k2 = Key(Type(TypeId::kText), Value::Text("ab")) + Key(Type(TypeId::kInt32), Value::Int32(1));
  EXPECT_LT(k1, k2);
  std::string prefix = Key(Type(TypeId::kText), Value::Text("a"));
  EXPECT_EQ(k1.compare(0, prefix.size(), prefix), 0);
  EXPECT_GT(PrefixSuccessor(prefix), k1);
  EXPECT_LT(PrefixSuccessor(prefix), k2);
}

TEST(KeyEncoderTest, NullsSortLastInNullableColumns) {
  Type t(TypeId::kInt32);
  EXPECT_LT(Key(t, Value::Int32(INT32_MAX), true), Key(t, Value::Null(TypeId::kInt32), true));
}

TEST(KeyEncoderTest, PrefixSuccessorCarries) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor(std::string("a\xff", 2)), "b");
  EXPECT_EQ(PrefixSuccessor(std::string("\xff\xff", 2)), "");
}

}  // namespace
}  // namespace paceline::storage
