// Tests for Type: PostgreSQL display names (format_type), OIDs, typlen and
// atttypmod for RowDescription, and resolution of built-in type names with
// modifiers, including PostgreSQL's error codes and messages.
#include "common/types.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace paceline {
namespace {

std::string Resolve(std::string_view name, std::vector<int32_t> mods = {}) {
  Type t;
  Status s = ResolveBuiltinType(name, mods, &t);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return t.ToString();
}

TEST(TypesTest, ToStringMatchesFormatType) {
  EXPECT_EQ(Type(TypeId::kUnknown).ToString(), "unknown");
  EXPECT_EQ(Type(TypeId::kBool).ToString(), "boolean");
  EXPECT_EQ(Type(TypeId::kInt16).ToString(), "smallint");
  EXPECT_EQ(Type(TypeId::kInt32).ToString(), "integer");
  EXPECT_EQ(Type(TypeId::kInt64).ToString(), "bigint");
  EXPECT_EQ(Type(TypeId::kFloat32).ToString(), "real");
  EXPECT_EQ(Type(TypeId::kFloat64).ToString(), "double precision");
  EXPECT_EQ(Type(TypeId::kNumeric).ToString(), "numeric");
  EXPECT_EQ(Type::Numeric(12, 2).ToString(), "numeric(12,2)");
  EXPECT_EQ(Type::Numeric(5, 0).ToString(), "numeric(5,0)");
  EXPECT_EQ(Type::Char(2).ToString(), "character(2)");
  EXPECT_EQ(Type(TypeId::kChar).ToString(), "bpchar");
  EXPECT_EQ(Type::Varchar(16).ToString(), "character varying(16)");
  EXPECT_EQ(Type(TypeId::kVarchar).ToString(), "character varying");
  EXPECT_EQ(Type(TypeId::kText).ToString(), "text");
  EXPECT_EQ(Type(TypeId::kDate).ToString(), "date");
  EXPECT_EQ(Type(TypeId::kTimestamp).ToString(), "timestamp without time zone");
  EXPECT_EQ(Type(TypeId::kTimestampTz).ToString(), "timestamp with time zone");
  EXPECT_EQ(Type(TypeId::kBytea).ToString(), "bytea");
}

TEST(TypesTest, OidsAndTypLenMatchPgType) {
  struct Case {
    TypeId id;
    uint32_t oid;
    int16_t typlen;
    std::string_view name;
  };
  const Case cases[] = {
      {TypeId::kUnknown, 705, -2, "unknown"},       {TypeId::kBool, 16, 1, "bool"},
      {TypeId::kInt16, 21, 2, "int2"},              {TypeId::kInt32, 23, 4, "int4"},
      {TypeId::kInt64, 20, 8, "int8"},              {TypeId::kFloat32, 700, 4, "float4"},
      {TypeId::kFloat64, 701, 8, "float8"},         {TypeId::kNumeric, 1700, -1, "numeric"},
      {TypeId::kChar, 1042, -1, "bpchar"},          {TypeId::kVarchar, 1043, -1, "varchar"},
      {TypeId::kText, 25, -1, "text"},              {TypeId::kDate, 1082, 4, "date"},
      {TypeId::kTimestamp, 1114, 8, "timestamp"},   {TypeId::kTimestampTz, 1184, 8, "timestamptz"},
      {TypeId::kBytea, 17, -1, "bytea"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Type(c.id).Oid(), c.oid) << c.name;
    EXPECT_EQ(Type(c.id).WireSize(), c.typlen) << c.name;
    EXPECT_EQ(TypeIdName(c.id), c.name);
  }
}

TEST(TypesTest, WireModifierMatchesAtttypmod) {
  EXPECT_EQ(Type::Varchar(16).WireModifier(), 20);
  EXPECT_EQ(Type::Char(1).WireModifier(), 5);
  EXPECT_EQ(Type::Numeric(12, 2).WireModifier(), (12 << 16 | 2) + 4);
  EXPECT_EQ(Type::Numeric(38, 0).WireModifier(), (38 << 16) + 4);
  EXPECT_EQ(Type(TypeId::kNumeric).WireModifier(), -1);
  EXPECT_EQ(Type(TypeId::kVarchar).WireModifier(), -1);
  EXPECT_EQ(Type(TypeId::kInt32).WireModifier(), -1);
  EXPECT_EQ(Type(TypeId::kTimestamp).WireModifier(), -1);
}

TEST(TypesTest, EqualityIncludesModifiers) {
  EXPECT_EQ(Type::Numeric(10, 2), Type::Numeric(10, 2));
  EXPECT_FALSE(Type::Numeric(10, 2) == Type::Numeric(10, 3));
  EXPECT_FALSE(Type::Varchar(3) == Type(TypeId::kVarchar));
  EXPECT_TRUE(Type(TypeId::kInt32).IsInteger());
  EXPECT_TRUE(Type(TypeId::kNumeric).IsNumber());
  EXPECT_TRUE(Type::Char(1).IsString());
  EXPECT_TRUE(Type(TypeId::kTimestampTz).IsTemporal());
  EXPECT_FALSE(Type(TypeId::kText).IsNumber());
}

TEST(TypesTest, ResolvesNamesAndAliases) {
  EXPECT_EQ(Resolve("int4"), "integer");
  EXPECT_EQ(Resolve("integer"), "integer");
  EXPECT_EQ(Resolve("int"), "integer");
  EXPECT_EQ(Resolve("int2"), "smallint");
  EXPECT_EQ(Resolve("smallint"), "smallint");
  EXPECT_EQ(Resolve("int8"), "bigint");
  EXPECT_EQ(Resolve("bigint"), "bigint");
  EXPECT_EQ(Resolve("bool"), "boolean");
  EXPECT_EQ(Resolve("boolean"), "boolean");
  EXPECT_EQ(Resolve("float4"), "real");
  EXPECT_EQ(Resolve("real"), "real");
  EXPECT_EQ(Resolve("float8"), "double precision");
  EXPECT_EQ(Resolve("double precision"), "double precision");
  EXPECT_EQ(Resolve("float"), "double precision");
  EXPECT_EQ(Resolve("float", {24}), "real");
  EXPECT_EQ(Resolve("float", {25}), "double precision");
  EXPECT_EQ(Resolve("text"), "text");
  EXPECT_EQ(Resolve("date"), "date");
  EXPECT_EQ(Resolve("timestamp"), "timestamp without time zone");
  EXPECT_EQ(Resolve("timestamptz"), "timestamp with time zone");
  EXPECT_EQ(Resolve("pg_catalog.int4"), "integer");
  EXPECT_EQ(Resolve("INT4"), "integer");
  EXPECT_EQ(Resolve("bytea"), "bytea");
  EXPECT_EQ(Resolve("pg_catalog.bytea"), "bytea");
  EXPECT_EQ(Resolve("bytea", {4}), "ERROR 42601 type modifier is not allowed for type \"bytea\"");
}

TEST(TypesTest, ByteaIsVariableLengthButNotAString) {
  const Type bytea(TypeId::kBytea);
  EXPECT_TRUE(bytea.IsVariableLength());
  EXPECT_FALSE(bytea.IsString());
  EXPECT_FALSE(bytea.IsNumber());
  EXPECT_TRUE(Type(TypeId::kText).IsVariableLength());
  EXPECT_TRUE(Type::Char(3).IsVariableLength());
  EXPECT_FALSE(Type(TypeId::kInt32).IsVariableLength());
  EXPECT_EQ(bytea.WireModifier(), -1);
}

TEST(TypesTest, ResolvesModifiers) {
  EXPECT_EQ(Resolve("numeric"), "numeric");
  EXPECT_EQ(Resolve("numeric", {12, 2}), "numeric(12,2)");
  EXPECT_EQ(Resolve("numeric", {5}), "numeric(5,0)");
  EXPECT_EQ(Resolve("decimal", {38, 38}), "numeric(38,38)");
  EXPECT_EQ(Resolve("varchar"), "character varying");
  EXPECT_EQ(Resolve("varchar", {16}), "character varying(16)");
  EXPECT_EQ(Resolve("bpchar", {2}), "character(2)");
  EXPECT_EQ(Resolve("bpchar"), "character(1)");  // CHAR without a length is CHAR(1)

  Type t;
  ASSERT_TRUE(ResolveBuiltinType("numeric", {12, 2}, &t).ok());
  EXPECT_EQ(t.id, TypeId::kNumeric);
  EXPECT_EQ(t.precision, 12);
  EXPECT_EQ(t.scale, 2);
  ASSERT_TRUE(ResolveBuiltinType("numeric", {}, &t).ok());
  EXPECT_EQ(t.precision, -1);
  EXPECT_EQ(t.scale, -1);
  ASSERT_TRUE(ResolveBuiltinType("varchar", {3}, &t).ok());
  EXPECT_EQ(t, Type::Varchar(3));
}

TEST(TypesTest, RejectsBadModifiersLikePostgres) {
  EXPECT_EQ(Resolve("numeric", {0}), "ERROR 22023 NUMERIC precision 0 must be between 1 and 1000");
  EXPECT_EQ(Resolve("numeric", {1001}), "ERROR 22023 NUMERIC precision 1001 must be between 1 and 1000");
  EXPECT_EQ(Resolve("numeric", {39}), "ERROR 0A000 NUMERIC precision 39 is not supported (at most 38)");
  EXPECT_EQ(Resolve("numeric", {50}), "ERROR 0A000 NUMERIC precision 50 is not supported (at most 38)");
  EXPECT_EQ(Resolve("numeric", {2, 5}), "ERROR 22023 NUMERIC scale 5 must be between 0 and precision 2");
  EXPECT_EQ(Resolve("numeric", {5, -1}), "ERROR 22023 NUMERIC scale -1 must be between 0 and precision 5");
  EXPECT_EQ(Resolve("numeric", {5, 2, 1}), "ERROR 22023 invalid NUMERIC type modifier");
  EXPECT_EQ(Resolve("varchar", {0}), "ERROR 22023 length for type varchar must be at least 1");
  EXPECT_EQ(Resolve("bpchar", {0}), "ERROR 22023 length for type char must be at least 1");
  EXPECT_EQ(Resolve("varchar", {20000000}), "ERROR 22023 length for type varchar cannot exceed 10485760");
  EXPECT_EQ(Resolve("float", {0}), "ERROR 22023 precision for type float must be at least 1 bit");
  EXPECT_EQ(Resolve("float", {54}), "ERROR 22023 precision for type float must be less than 54 bits");
  EXPECT_EQ(Resolve("int4", {3}), "ERROR 42601 type modifier is not allowed for type \"int4\"");
  EXPECT_TRUE(Resolve("timestamp", {3}).starts_with("ERROR 0A000"));
}

TEST(TypesTest, UuidJsonAndJsonb) {
  EXPECT_EQ(Resolve("uuid"), "uuid");
  EXPECT_EQ(Resolve("json"), "json");
  EXPECT_EQ(Resolve("pg_catalog.jsonb"), "jsonb");
  EXPECT_EQ(Resolve("jsonb", {1}), "ERROR 42601 type modifier is not allowed for type \"jsonb\"");
  EXPECT_EQ(Type(TypeId::kUuid).Oid(), 2950u);
  EXPECT_EQ(Type(TypeId::kJson).Oid(), 114u);
  EXPECT_EQ(Type(TypeId::kJsonb).Oid(), 3802u);
  EXPECT_EQ(Type(TypeId::kUuid).WireSize(), 16);
  EXPECT_EQ(Type(TypeId::kJsonb).WireSize(), -1);
  EXPECT_FALSE(Type(TypeId::kUuid).IsVariableLength());  // 16 bytes in the tuple's fixed part
  EXPECT_TRUE(Type(TypeId::kJson).IsVariableLength());
  EXPECT_TRUE(Type(TypeId::kJsonb).IsJson());
  EXPECT_FALSE(Type(TypeId::kJsonb).IsString());
}

TEST(TypesTest, IntervalAndVoid) {
  EXPECT_EQ(Resolve("interval"), "interval");
  EXPECT_EQ(Resolve("pg_catalog.interval"), "interval");
  EXPECT_EQ(Resolve("interval", {3}), "ERROR 0A000 interval fields or precision is not supported");
  EXPECT_EQ(Type(TypeId::kInterval).Oid(), 1186u);
  EXPECT_EQ(Type(TypeId::kInterval).WireSize(), 16);
  EXPECT_EQ(Type::Array(Type(TypeId::kInterval)).Oid(), 1187u);
  EXPECT_EQ(Type(TypeId::kVoid).ToString(), "void");
  EXPECT_EQ(Type(TypeId::kVoid).Oid(), 2278u);
}

TEST(TypesTest, RejectsUnknownAndUnsupportedTypes) {
  EXPECT_EQ(Resolve("foo"), "ERROR 42704 type \"foo\" does not exist");
  for (const char* name : {"time", "timetz", "money", "inet", "xml", "bit", "varbit"}) {
    EXPECT_EQ(Resolve(name), "ERROR 0A000 type " + std::string(name) + " is not supported");
  }
  // serial is no type (CREATE TABLE expands it), as in PostgreSQL.
  for (const char* name : {"serial", "bigserial", "smallserial", "serial4"}) {
    EXPECT_EQ(Resolve(name), "ERROR 42704 type \"" + std::string(name) + "\" does not exist");
  }
}

}  // namespace
}  // namespace paceline

namespace paceline {
namespace {

TEST(TypesTest, ArraysHaveTheirElementsNamesOidsAndModifiers) {
  const Type ints = Type::Array(Type(TypeId::kInt32));
  EXPECT_TRUE(ints.IsArray());
  EXPECT_TRUE(ints.IsVariableLength());
  EXPECT_EQ(ints.ToString(), "integer[]");
  EXPECT_EQ(Type::Array(Type::Varchar(10)).ToString(), "character varying(10)[]");
  EXPECT_EQ(Type::Array(Type::Varchar(10)).WireModifier(), 14);  // the element's atttypmod
  EXPECT_EQ(Type::Array(Type::Varchar(10)).ElementType(), Type::Varchar(10));
  EXPECT_EQ(ints.WireSize(), -1);
  EXPECT_FALSE(ints == Type::Array(Type(TypeId::kInt64)));
  const std::pair<TypeId, uint32_t> oids[] = {
      {TypeId::kBool, 1000},    {TypeId::kInt16, 1005},       {TypeId::kInt32, 1007},     {TypeId::kInt64, 1016},
      {TypeId::kFloat32, 1021}, {TypeId::kFloat64, 1022},     {TypeId::kNumeric, 1231},   {TypeId::kChar, 1014},
      {TypeId::kVarchar, 1015}, {TypeId::kText, 1009},        {TypeId::kDate, 1182},      {TypeId::kTimestamp, 1115},
      {TypeId::kTimestampTz, 1185}, {TypeId::kBytea, 1001},
  };
  for (auto [element, oid] : oids) {
    EXPECT_EQ(Type::Array(Type(element)).Oid(), oid) << TypeIdName(element);
    TypeId back = TypeId::kUnknown;
    ASSERT_TRUE(ElementOfArrayOid(oid, &back));
    EXPECT_EQ(back, element);
  }
  TypeId none;
  EXPECT_FALSE(ElementOfArrayOid(23, &none));
}

}  // namespace
}  // namespace paceline
