// The wire forms of arrays (server/pg_value_codec.h): array OIDs in Parse,
// text parameters and results as PostgreSQL's '{..}', binary ones in
// array_send's layout (what psycopg sends for a Python list).
#include <gtest/gtest.h>

#include <string>

#include "common/array_value.h"
#include "server/pg_value_codec.h"

namespace paceline::server {
namespace {

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string ToHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
    out += kHex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

std::string Decode(std::string_view bytes, int16_t format, const Type& type) {
  Value v;
  Status s = DecodeParameter(bytes, format, type, &v);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return std::string(TypeIdName(v.element_type())) + " " + v.ToString();
}

std::string Encode(const Value& v, const Type& type, int16_t format) {
  std::string out;
  Status s = EncodeResult(v, type, format, &out);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return format == 1 ? ToHex(out) : out;
}

const Type kInt4s = Type::Array(Type(TypeId::kInt32));
const Type kTexts = Type::Array(Type(TypeId::kText));

TEST(PgArrayCodecTest, ArrayOidsResolveInParse) {
  Type t;
  ASSERT_TRUE(TypeFromOid(1007, &t));
  EXPECT_EQ(t, kInt4s);
  ASSERT_TRUE(TypeFromOid(1009, &t));
  EXPECT_EQ(t, kTexts);
  ASSERT_TRUE(TypeFromOid(1185, &t));
  EXPECT_EQ(t, Type::Array(Type(TypeId::kTimestampTz)));
  EXPECT_FALSE(TypeFromOid(2951, &t));  // uuid[]
}

TEST(PgArrayCodecTest, TextParametersAndResults) {
  EXPECT_EQ(Decode("{1,2,NULL}", 0, kInt4s), "int4 {1,2,NULL}");
  EXPECT_EQ(Decode("{\"a b\",c}", 0, kTexts), "text {\"a b\",c}");
  EXPECT_EQ(Decode("{1,x}", 0, kInt4s), "ERROR 22P02 invalid input syntax for type integer: \"x\"");
  EXPECT_EQ(Decode("1", 0, kInt4s), "ERROR 22P02 malformed array literal: \"1\"");
  const Value v = MakeArray(TypeId::kText, {Value::Text("a b"), Value::Null(TypeId::kText)});
  EXPECT_EQ(Encode(v, kTexts, 0), "{\"a b\",NULL}");
}

TEST(PgArrayCodecTest, BinaryParametersInArraySendLayout) {
  // int4[] {1, NULL}: ndim 1, has NULLs, element int4 (23), 2 elements from 1.
  EXPECT_EQ(Decode(FromHex("00000001" "00000001" "00000017" "00000002" "00000001"
                           "00000004" "00000001" "ffffffff"),
                   1, kInt4s),
            "int4 {1,NULL}");
  // psycopg sends small Python ints as int2[] (1005): cast to the parameter's int4.
  EXPECT_EQ(Decode(FromHex("00000001" "00000000" "00000015" "00000002" "00000001"
                           "00000002" "0007" "00000002" "fff6"),
                   1, kInt4s),
            "int4 {7,-10}");
  // An empty array has no dimensions.
  EXPECT_EQ(Decode(FromHex("00000000" "00000000" "00000017"), 1, kInt4s), "int4 {}");
  // text[] {"ab"}.
  EXPECT_EQ(Decode(FromHex("00000001" "00000000" "00000019" "00000001" "00000001" "00000002" "6162"), 1, kTexts),
            "text {ab}");
  // Malformed: cut short, trailing bytes, two dimensions, an unknown element type.
  EXPECT_EQ(Decode(FromHex("00000001" "00000000" "00000017" "00000002" "00000001" "00000004" "00000001"), 1, kInt4s)
                .substr(0, 11),
            "ERROR 22P03");
  EXPECT_EQ(Decode(FromHex("00000000" "00000000" "00000017" "00"), 1, kInt4s).substr(0, 11), "ERROR 22P03");
  EXPECT_EQ(Decode(FromHex("00000002" "00000000" "00000017"), 1, kInt4s),
            "ERROR 0A000 multidimensional arrays is not supported");
  EXPECT_EQ(Decode(FromHex("00000001" "00000000" "0000043b" "00000000" "00000001"), 1, kInt4s),
            "ERROR 42804 wrong element type");
  EXPECT_EQ(Decode(FromHex("00000001" "00000002" "00000017" "00000000" "00000001"), 1, kInt4s),
            "ERROR 22P03 invalid array flags");
  // An element of the wrong size for its type.
  EXPECT_EQ(Decode(FromHex("00000001" "00000000" "00000017" "00000001" "00000001" "00000002" "0001"), 1, kInt4s)
                .substr(0, 11),
            "ERROR 22P03");
}

TEST(PgArrayCodecTest, BinaryResultsRoundTrip) {
  const Value v = MakeArray(TypeId::kInt32, {Value::Int32(1), Value::Null(TypeId::kInt32)});
  const std::string hex = Encode(v, kInt4s, 1);
  EXPECT_EQ(hex, "00000001" "00000001" "00000017" "00000002" "00000001" "00000004" "00000001" "ffffffff");
  EXPECT_EQ(Decode(FromHex(hex), 1, kInt4s), "int4 {1,NULL}");
  EXPECT_EQ(Encode(MakeArray(TypeId::kText, {}), kTexts, 1), "00000000" "00000000" "00000019");
  // A value of another element type is converted to the column's.
  EXPECT_EQ(Encode(MakeArray(TypeId::kInt64, {Value::Int64(5)}), kInt4s, 1),
            "00000001" "00000000" "00000017" "00000001" "00000001" "00000004" "00000005");
}

}  // namespace
}  // namespace paceline::server
