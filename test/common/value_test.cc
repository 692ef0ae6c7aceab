// Tests for Value: PostgreSQL text output (including float formatting),
// hashing and ordering across type families, structural equality, CastValue
// with PostgreSQL's cast semantics and messages, and CanAssign. Expected
// texts were checked against PostgreSQL 15.
#include "common/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "common/datetime.h"

namespace paceline {
namespace {

Decimal D(std::string_view text) {
  Decimal d;
  EXPECT_TRUE(Decimal::Parse(text, &d).ok()) << text;
  return d;
}

Value Unknown(std::string s) { return Value::String(TypeId::kUnknown, std::move(s)); }

// The cast's text output, or "ERROR <sqlstate> <message>".
std::string Cast(const Value& v, const Type& target, bool explicit_cast = true) {
  Value out;
  Status s = CastValue(v, target, explicit_cast, &out);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  EXPECT_EQ(out.type(), target.id);
  return out.is_null() ? "NULL" : out.ToString();
}

TEST(ValueTest, IntegersAreCheapToCopy) {
  static_assert(std::is_nothrow_move_constructible_v<Value>);
  const Value v = Value::Int64(42);
  const Value copy = v;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(copy.int_value(), 42);
  EXPECT_TRUE(copy.string_value().empty());
}

TEST(ValueTest, NullsKeepTheirType) {
  const Value v;
  EXPECT_TRUE(v.is_null());
  EXPECT_EQ(v.type(), TypeId::kUnknown);
  const Value n = Value::Null(TypeId::kInt32);
  EXPECT_TRUE(n.is_null());
  EXPECT_EQ(n.type(), TypeId::kInt32);
  EXPECT_EQ(n.ToString(), "");
}

TEST(ValueTest, ToStringMatchesPostgresTextOutput) {
  EXPECT_EQ(Value::Bool(true).ToString(), "t");
  EXPECT_EQ(Value::Bool(false).ToString(), "f");
  EXPECT_EQ(Value::Int16(-32768).ToString(), "-32768");
  EXPECT_EQ(Value::Int32(42).ToString(), "42");
  EXPECT_EQ(Value::Int64(std::numeric_limits<int64_t>::min()).ToString(), "-9223372036854775808");
  EXPECT_EQ(Value::Numeric(D("0.30")).ToString(), "0.30");
  EXPECT_EQ(Value::Numeric(D("-0.05")).ToString(), "-0.05");
  EXPECT_EQ(Value::Numeric(D("12")).ToString(), "12");
  EXPECT_EQ(Value::Text("héllo").ToString(), "héllo");
  EXPECT_EQ(Value::String(TypeId::kChar, "ab  ").ToString(), "ab  ");
  EXPECT_EQ(Unknown("lit").ToString(), "lit");
  int32_t days = 0;
  ASSERT_TRUE(ParseDate("2024-01-02", &days).ok());
  EXPECT_EQ(Value::Date(days).ToString(), "2024-01-02");
  int64_t micros = 0;
  ASSERT_TRUE(ParseTimestamp("2024-01-02 03:04:05.250", false, &micros).ok());
  EXPECT_EQ(Value::Timestamp(micros).ToString(), "2024-01-02 03:04:05.25");
  EXPECT_EQ(Value::TimestampTz(micros).ToString(), "2024-01-02 03:04:05.25+00");

  std::string out = "x=";
  Value::Int32(7).AppendTo(&out);
  Value::Text(",y").AppendTo(&out);
  Value::Null(TypeId::kInt32).AppendTo(&out);
  EXPECT_EQ(out, "x=7,y");
}

TEST(ValueTest, Float8OutputIsShortestRoundTrip) {
  struct Case {
    double v;
    const char* text;
  };
  const Case cases[] = {
      {0.1, "0.1"},
      {1e20, "1e+20"},
      {1e15, "1e+15"},
      {1e14, "100000000000000"},
      {123456789012345.0, "123456789012345"},
      {1e16, "1e+16"},
      {1.2345678901234567e15, "1.2345678901234568e+15"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {1.5e-5, "1.5e-05"},
      {12.5, "12.5"},
      {-0.0, "-0"},
      {0.0, "0"},
      {1e-300, "1e-300"},
      {5e-324, "5e-324"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e+308"},
      {9007199254740992.0, "9.007199254740992e+15"},
      {123456789012345678.0, "1.2345678901234568e+17"},
      {static_cast<double>(0.1f), "0.10000000149011612"},
      {std::nan(""), "NaN"},
      {std::numeric_limits<double>::infinity(), "Infinity"},
      {-std::numeric_limits<double>::infinity(), "-Infinity"},
      // PostgreSQL never prints a decimal lying exactly halfway between two
      // doubles, so these take one digit more than std::to_chars would.
      {-2.653061460806361e16, "-2.6530614608063608e+16"},
      {2.603126830369973e16, "2.6031268303699728e+16"},
  };
  for (const Case& c : cases) EXPECT_EQ(Value::Float64(c.v).ToString(), c.text) << c.text;
}

TEST(ValueTest, Float4OutputIsShortestRoundTrip) {
  struct Case {
    float v;
    const char* text;
  };
  const Case cases[] = {
      {1e6f, "1e+06"},       {1234567.0f, "1.234567e+06"}, {100000.0f, "100000"},
      {123456.0f, "123456"}, {0.0001f, "0.0001"},          {0.00001f, "1e-05"},
      {1.5f, "1.5"},         {0.1f, "0.1"},                {1e10f, "1e+10"},
      {3.4028235e38f, "3.4028235e+38"}, {1.4e-45f, "1e-45"},
      {-986824832.0f, "-9.8682483e+08"},  // a midpoint would be "-9.868248e+08"
      {57194928.0f, "5.7194928e+07"},
  };
  for (const Case& c : cases) EXPECT_EQ(Value::Float32(c.v).ToString(), c.text) << c.text;
}

TEST(ValueTest, CompareAcrossNumberFamilies) {
  EXPECT_EQ(Value::Compare(Value::Int16(5), Value::Int64(5)), 0);
  EXPECT_LT(Value::Compare(Value::Int32(-1), Value::Int64(0)), 0);
  EXPECT_EQ(Value::Compare(Value::Int32(1), Value::Numeric(D("1.000"))), 0);
  EXPECT_LT(Value::Compare(Value::Int64(std::numeric_limits<int64_t>::max()),
                           Value::Numeric(D("9223372036854775807.5"))),
            0);  // exact: as doubles these would be equal
  EXPECT_EQ(Value::Compare(Value::Int32(1), Value::Float64(1.0)), 0);
  EXPECT_EQ(Value::Compare(Value::Numeric(D("0.1")), Value::Float64(0.1)), 0);  // as double, like PostgreSQL
  EXPECT_NE(Value::Compare(Value::Numeric(D("0.1")), Value::Float32(0.1f)), 0);
  EXPECT_NE(Value::Compare(Value::Float32(0.1f), Value::Float64(0.1)), 0);
  EXPECT_EQ(Value::Compare(Value::Float64(0.0), Value::Float64(-0.0)), 0);
  // NaN equals NaN and sorts above everything, even infinity.
  const Value nan = Value::Float64(std::nan(""));
  EXPECT_EQ(Value::Compare(nan, Value::Float64(std::nan(""))), 0);
  EXPECT_GT(Value::Compare(nan, Value::Float64(std::numeric_limits<double>::infinity())), 0);
  EXPECT_LT(Value::Compare(Value::Int64(1), nan), 0);
}

TEST(ValueTest, CompareStringsLikePostgres) {
  const Value char3 = Value::String(TypeId::kChar, "ab ");
  EXPECT_LT(Value::Compare(Value::Text("a"), Value::Text("b")), 0);
  EXPECT_LT(Value::Compare(Value::Text("ab"), Value::Text("ab ")), 0);  // text keeps blanks
  EXPECT_GT(Value::Compare(Value::Text("é"), Value::Text("z")), 0);     // byte-wise
  // bpchar ignores trailing blanks on both sides...
  EXPECT_EQ(Value::Compare(char3, Value::String(TypeId::kChar, "ab")), 0);
  EXPECT_EQ(Value::Compare(char3, Value::String(TypeId::kVarchar, "ab  ")), 0);
  EXPECT_EQ(Value::Compare(Unknown("ab   "), char3), 0);
  // ...but CHAR against TEXT compares as text: only the CHAR side is trimmed.
  EXPECT_EQ(Value::Compare(char3, Value::Text("ab")), 0);
  EXPECT_LT(Value::Compare(Value::String(TypeId::kChar, "a "), Value::Text("a ")), 0);
  EXPECT_GT(Value::Compare(Value::Text("a "), Value::String(TypeId::kChar, "a ")), 0);
}

TEST(ValueTest, CompareOtherFamilies) {
  EXPECT_LT(Value::Compare(Value::Bool(false), Value::Bool(true)), 0);
  EXPECT_EQ(Value::Compare(Value::Bool(true), Value::Bool(true)), 0);
  int64_t midnight = 0, later = 0;
  ASSERT_TRUE(ParseTimestamp("2024-01-02 00:00", false, &midnight).ok());
  ASSERT_TRUE(ParseTimestamp("2024-01-02 00:00:01", false, &later).ok());
  int32_t day = 0;
  ASSERT_TRUE(ParseDate("2024-01-02", &day).ok());
  EXPECT_EQ(Value::Compare(Value::Date(day), Value::Timestamp(midnight)), 0);
  EXPECT_LT(Value::Compare(Value::Date(day), Value::Timestamp(later)), 0);
  EXPECT_EQ(Value::Compare(Value::TimestampTz(later), Value::Timestamp(later)), 0);
  EXPECT_LT(Value::Compare(Value::Date(day - 1), Value::Date(day)), 0);
  // NULLs order last.
  EXPECT_GT(Value::Compare(Value::Null(TypeId::kInt32), Value::Int32(1)), 0);
  EXPECT_EQ(Value::Compare(Value::Null(TypeId::kInt32), Value::Null(TypeId::kInt32)), 0);
}

TEST(ValueTest, HashAgreesWithCompareWithinFamilies) {
  EXPECT_EQ(Value::Int16(7).Hash(), Value::Int64(7).Hash());
  EXPECT_EQ(Value::Int32(7).Hash(), Value::Numeric(D("7.00")).Hash());
  EXPECT_EQ(Value::Numeric(D("1.0")).Hash(), Value::Numeric(D("1.00")).Hash());
  EXPECT_EQ(Value::Float64(3.0).Hash(), Value::Int64(3).Hash());
  EXPECT_EQ(Value::Float64(0.0).Hash(), Value::Float64(-0.0).Hash());
  EXPECT_EQ(Value::Float64(std::nan("")).Hash(), Value::Float64(-std::nan("1")).Hash());
  EXPECT_EQ(Value::Float32(0.5f).Hash(), Value::Float64(0.5).Hash());
  EXPECT_EQ(Value::String(TypeId::kChar, "ab  ").Hash(), Value::String(TypeId::kChar, "ab").Hash());
  EXPECT_EQ(Value::Text("ab").Hash(), Value::String(TypeId::kVarchar, "ab").Hash());
  EXPECT_NE(Value::Text("ab ").Hash(), Value::Text("ab").Hash());
  EXPECT_EQ(Value::Null(TypeId::kInt32).Hash(), Value().Hash());
  int32_t day = 0;
  ASSERT_TRUE(ParseDate("2024-01-02", &day).ok());
  EXPECT_EQ(Value::Date(day).Hash(), Value::Timestamp(int64_t{day} * 86400 * 1000000).Hash());
  EXPECT_NE(Value::Int64(1).Hash(), Value::Int64(2).Hash());
  EXPECT_NE(Value::Text("a").Hash(), Value::Text("b").Hash());
}

TEST(ValueTest, EqualityIsStructural) {
  EXPECT_EQ(Value(), Value::Null(TypeId::kInt32));  // NULL equals NULL here
  EXPECT_FALSE(Value::Null(TypeId::kInt32) == Value::Int32(0));
  EXPECT_EQ(Value::Int32(5), Value::Int32(5));
  EXPECT_FALSE(Value::Int32(5) == Value::Int64(5));  // different types
  EXPECT_EQ(Value::Numeric(D("1.0")), Value::Numeric(D("1.00")));
  EXPECT_EQ(Value::String(TypeId::kChar, "a "), Value::String(TypeId::kChar, "a"));
  EXPECT_FALSE(Value::Text("a ") == Value::Text("a"));
  EXPECT_EQ(Value::Float64(std::nan("")), Value::Float64(std::nan("")));
  EXPECT_FALSE(Value::Bool(true) == Value::Bool(false));
}

TEST(ValueTest, CastNullStaysNullWithTheTargetType) {
  Value out;
  ASSERT_TRUE(CastValue(Value(), Type::Numeric(5, 2), false, &out).ok());
  EXPECT_TRUE(out.is_null());
  EXPECT_EQ(out.type(), TypeId::kNumeric);
  ASSERT_TRUE(CastValue(Value::Null(TypeId::kBool), Type(TypeId::kDate), false, &out).ok());
  EXPECT_TRUE(out.is_null());
}

TEST(ValueTest, CastBetweenIntegers) {
  EXPECT_EQ(Cast(Value::Int64(32767), Type(TypeId::kInt16)), "32767");
  EXPECT_EQ(Cast(Value::Int32(99999), Type(TypeId::kInt16)), "ERROR 22003 smallint out of range");
  EXPECT_EQ(Cast(Value::Int64(3000000000), Type(TypeId::kInt32)), "ERROR 22003 integer out of range");
  EXPECT_EQ(Cast(Value::Int64(-2147483648), Type(TypeId::kInt32)), "-2147483648");
  EXPECT_EQ(Cast(Value::Int16(-5), Type(TypeId::kInt64)), "-5");
}

TEST(ValueTest, CastFloatToIntegerRoundsHalfToEven) {
  EXPECT_EQ(Cast(Value::Float64(2.5), Type(TypeId::kInt32)), "2");
  EXPECT_EQ(Cast(Value::Float64(3.5), Type(TypeId::kInt32)), "4");
  EXPECT_EQ(Cast(Value::Float64(-2.5), Type(TypeId::kInt32)), "-2");
  EXPECT_EQ(Cast(Value::Float64(32767.5), Type(TypeId::kInt16)), "ERROR 22003 smallint out of range");
  EXPECT_EQ(Cast(Value::Float64(32766.5), Type(TypeId::kInt16)), "32766");
  EXPECT_EQ(Cast(Value::Float64(2147483647.5), Type(TypeId::kInt32)), "ERROR 22003 integer out of range");
  EXPECT_EQ(Cast(Value::Float64(3e9), Type(TypeId::kInt32)), "ERROR 22003 integer out of range");
  EXPECT_EQ(Cast(Value::Float64(1e10), Type(TypeId::kInt64)), "10000000000");
  EXPECT_EQ(Cast(Value::Float64(9.2233720368547758e18), Type(TypeId::kInt64)), "ERROR 22003 bigint out of range");
  EXPECT_EQ(Cast(Value::Float64(-9.2233720368547758e18), Type(TypeId::kInt64)), "-9223372036854775808");
  EXPECT_EQ(Cast(Value::Float64(std::nan("")), Type(TypeId::kInt32)), "ERROR 22003 integer out of range");
  EXPECT_EQ(Cast(Value::Float64(-std::numeric_limits<double>::infinity()), Type(TypeId::kInt64)),
            "ERROR 22003 bigint out of range");
  EXPECT_EQ(Cast(Value::Float32(2.5f), Type(TypeId::kInt16)), "2");
}

TEST(ValueTest, CastNumericToIntegerRoundsHalfAwayFromZero) {
  EXPECT_EQ(Cast(Value::Numeric(D("2.5")), Type(TypeId::kInt32)), "3");
  EXPECT_EQ(Cast(Value::Numeric(D("-2.5")), Type(TypeId::kInt32)), "-3");
  EXPECT_EQ(Cast(Value::Numeric(D("0.49999")), Type(TypeId::kInt32)), "0");
  EXPECT_EQ(Cast(Value::Numeric(D("32767.5")), Type(TypeId::kInt16)), "ERROR 22003 smallint out of range");
  EXPECT_EQ(Cast(Value::Numeric(D("3000000000")), Type(TypeId::kInt32)), "ERROR 22003 integer out of range");
  EXPECT_EQ(Cast(Value::Numeric(D("1e19")), Type(TypeId::kInt64)), "ERROR 22003 bigint out of range");
  EXPECT_EQ(Cast(Value::Numeric(D("1e30")), Type(TypeId::kInt16)), "ERROR 22003 smallint out of range");
}

TEST(ValueTest, CastToNumericAppliesTypmod) {
  EXPECT_EQ(Cast(Value::Numeric(D("123.456")), Type::Numeric(5, 2)), "123.46");
  EXPECT_EQ(Cast(Value::Numeric(D("1234.5")), Type::Numeric(5, 2)), "ERROR 22003 numeric field overflow");
  EXPECT_EQ(Cast(Value::Numeric(D("1.5")), Type::Numeric(10, 2)), "1.50");
  EXPECT_EQ(Cast(Value::Int32(12), Type::Numeric(4, 2)), "12.00");
  EXPECT_EQ(Cast(Value::Int32(123), Type::Numeric(4, 2)), "ERROR 22003 numeric field overflow");
  EXPECT_EQ(Cast(Value::Int64(-7), Type(TypeId::kNumeric)), "-7");
  // float → numeric goes through 15 (float8) or 6 (float4) significant digits.
  EXPECT_EQ(Cast(Value::Float64(0.1 + 0.2), Type(TypeId::kNumeric)), "0.3");
  EXPECT_EQ(Cast(Value::Float64(123456789.123456789), Type(TypeId::kNumeric)), "123456789.123457");
  EXPECT_EQ(Cast(Value::Float64(1.5e-5), Type(TypeId::kNumeric)), "0.000015");
  EXPECT_EQ(Cast(Value::Float32(0.1f), Type(TypeId::kNumeric)), "0.1");
  EXPECT_EQ(Cast(Value::Float32(123456.7f), Type(TypeId::kNumeric)), "123457");
  EXPECT_EQ(Cast(Value::Float64(2.345), Type::Numeric(10, 2)), "2.35");
  EXPECT_EQ(Cast(Value::Float64(std::nan("")), Type(TypeId::kNumeric)), "ERROR 22003 cannot convert NaN to numeric");
}

TEST(ValueTest, CastToFloat) {
  EXPECT_EQ(Cast(Value::Int64(16777217), Type(TypeId::kFloat32)), "1.6777216e+07");
  EXPECT_EQ(Cast(Value::Int64(9007199254740993), Type(TypeId::kFloat64)), "9.007199254740992e+15");
  EXPECT_EQ(Cast(Value::Numeric(D("0.1")), Type(TypeId::kFloat64)), "0.1");
  EXPECT_EQ(Cast(Value::Numeric(D("0.1")), Type(TypeId::kFloat32)), "0.1");
  EXPECT_EQ(Cast(Value::Numeric(D("12345678901234567890.123")), Type(TypeId::kFloat64)), "1.2345678901234567e+19");
  EXPECT_EQ(Cast(Value::Float32(0.1f), Type(TypeId::kFloat64)), "0.10000000149011612");
  EXPECT_EQ(Cast(Value::Float64(0.1), Type(TypeId::kFloat32)), "0.1");
  EXPECT_EQ(Cast(Value::Float64(1e300), Type(TypeId::kFloat32)), "ERROR 22003 value out of range: overflow");
  EXPECT_EQ(Cast(Value::Float64(1e-300), Type(TypeId::kFloat32)), "ERROR 22003 value out of range: underflow");
  EXPECT_EQ(Cast(Value::Float64(std::numeric_limits<double>::infinity()), Type(TypeId::kFloat32)), "Infinity");
}

TEST(ValueTest, CastFromTextParsesInputSyntax) {
  EXPECT_EQ(Cast(Unknown(" 12 "), Type(TypeId::kInt32)), "12");
  EXPECT_EQ(Cast(Unknown("+12"), Type(TypeId::kInt32)), "12");
  EXPECT_EQ(Cast(Unknown("-0"), Type(TypeId::kInt32)), "0");
  EXPECT_EQ(Cast(Unknown("-2147483648"), Type(TypeId::kInt32)), "-2147483648");
  EXPECT_EQ(Cast(Value::Text("-32768"), Type(TypeId::kInt16)), "-32768");
  EXPECT_EQ(Cast(Unknown("-9223372036854775808"), Type(TypeId::kInt64)), "-9223372036854775808");
  EXPECT_EQ(Cast(Unknown("1.5"), Type(TypeId::kInt32)), "ERROR 22P02 invalid input syntax for type integer: \"1.5\"");
  EXPECT_EQ(Cast(Unknown("1.5"), Type(TypeId::kInt16)), "ERROR 22P02 invalid input syntax for type smallint: \"1.5\"");
  EXPECT_EQ(Cast(Unknown(""), Type(TypeId::kInt64)), "ERROR 22P02 invalid input syntax for type bigint: \"\"");
  EXPECT_EQ(Cast(Unknown("x"), Type(TypeId::kInt32)), "ERROR 22P02 invalid input syntax for type integer: \"x\"");
  EXPECT_EQ(Cast(Unknown("1 2"), Type(TypeId::kInt32)), "ERROR 22P02 invalid input syntax for type integer: \"1 2\"");
  EXPECT_EQ(Cast(Unknown("99999999999"), Type(TypeId::kInt32)),
            "ERROR 22003 value \"99999999999\" is out of range for type integer");
  EXPECT_EQ(Cast(Unknown("2147483648"), Type(TypeId::kInt32)),
            "ERROR 22003 value \"2147483648\" is out of range for type integer");
  EXPECT_EQ(Cast(Unknown("-32769"), Type(TypeId::kInt16)),
            "ERROR 22003 value \"-32769\" is out of range for type smallint");

  EXPECT_EQ(Cast(Unknown("  -12.50 "), Type(TypeId::kNumeric)), "-12.50");
  EXPECT_EQ(Cast(Unknown("abc"), Type(TypeId::kNumeric)), "ERROR 22P02 invalid input syntax for type numeric: \"abc\"");
  EXPECT_EQ(Cast(Unknown("999.995"), Type::Numeric(5, 2)), "ERROR 22003 numeric field overflow");

  EXPECT_EQ(Cast(Unknown("0.1"), Type(TypeId::kFloat64)), "0.1");
  EXPECT_EQ(Cast(Unknown("  NaN "), Type(TypeId::kFloat64)), "NaN");
  EXPECT_EQ(Cast(Unknown("-Infinity"), Type(TypeId::kFloat64)), "-Infinity");
  EXPECT_EQ(Cast(Unknown("+inf"), Type(TypeId::kFloat64)), "Infinity");
  EXPECT_EQ(Cast(Unknown("1e-310"), Type(TypeId::kFloat64)), "1e-310");
  EXPECT_EQ(Cast(Unknown("abc"), Type(TypeId::kFloat64)),
            "ERROR 22P02 invalid input syntax for type double precision: \"abc\"");
  EXPECT_EQ(Cast(Unknown("abc"), Type(TypeId::kFloat32)), "ERROR 22P02 invalid input syntax for type real: \"abc\"");
  EXPECT_EQ(Cast(Unknown("1e400"), Type(TypeId::kFloat64)),
            "ERROR 22003 \"1e400\" is out of range for type double precision");
  EXPECT_EQ(Cast(Unknown("1e-400"), Type(TypeId::kFloat64)),
            "ERROR 22003 \"1e-400\" is out of range for type double precision");
  EXPECT_EQ(Cast(Unknown("1e40"), Type(TypeId::kFloat32)), "ERROR 22003 \"1e40\" is out of range for type real");

  EXPECT_EQ(Cast(Unknown("2024-1-2"), Type(TypeId::kDate)), "2024-01-02");
  EXPECT_EQ(Cast(Unknown("abc"), Type(TypeId::kDate)), "ERROR 22007 invalid input syntax for type date: \"abc\"");
  EXPECT_EQ(Cast(Unknown("2024-01-02 03:04:05.250"), Type(TypeId::kTimestamp)), "2024-01-02 03:04:05.25");
  EXPECT_EQ(Cast(Unknown("2024-01-02 03:04:05+05:30"), Type(TypeId::kTimestampTz)), "2024-01-01 21:34:05+00");
  // A CHAR value parses the same, padding and all.
  EXPECT_EQ(Cast(Value::String(TypeId::kChar, "7   "), Type(TypeId::kInt32)), "7");
}

TEST(ValueTest, CastTextToBoolean) {
  for (const char* t : {"t", "true", "TRUE", "tr", "y", "yes", "on", " on ", "1", "On"}) {
    EXPECT_EQ(Cast(Unknown(t), Type(TypeId::kBool)), "t") << t;
  }
  for (const char* f : {"f", "false", "fa", "n", "no", "off", "of", "0", "OFF"}) {
    EXPECT_EQ(Cast(Unknown(f), Type(TypeId::kBool)), "f") << f;
  }
  for (const char* bad : {"x", "o", "", "truex", "10", "2"}) {
    EXPECT_EQ(Cast(Unknown(bad), Type(TypeId::kBool)),
              "ERROR 22P02 invalid input syntax for type boolean: \"" + std::string(bad) + "\"");
  }
}

TEST(ValueTest, CastToStringTypes) {
  EXPECT_EQ(Cast(Value::Int32(42), Type(TypeId::kText)), "42");
  EXPECT_EQ(Cast(Value::Float64(1e20), Type(TypeId::kText)), "1e+20");
  EXPECT_EQ(Cast(Value::Numeric(D("12.30")), Type(TypeId::kText)), "12.30");
  EXPECT_EQ(Cast(Value::Bool(true), Type(TypeId::kText)), "true");  // booltext(), not boolout()
  EXPECT_EQ(Cast(Value::Bool(false), Type::Varchar(10)), "false");
  EXPECT_EQ(Cast(Value::Bool(true), Type::Char(1)), "t");           // "true" truncated
  EXPECT_EQ(Cast(Value::Bool(true), Type::Char(1), false), "ERROR 22001 value too long for type character(1)");
  EXPECT_EQ(Cast(Value::Bool(true), Type::Char(5)), "true ");
  int32_t day = 0;
  ASSERT_TRUE(ParseDate("2024-01-02", &day).ok());
  EXPECT_EQ(Cast(Value::Date(day), Type::Varchar(10)), "2024-01-02");
  // CHAR → TEXT/VARCHAR drops the padding; CHAR(n) pads.
  EXPECT_EQ(Cast(Value::String(TypeId::kChar, "ab "), Type(TypeId::kText)), "ab");
  EXPECT_EQ(Cast(Value::String(TypeId::kChar, "ab  "), Type::Varchar(10)), "ab");
  EXPECT_EQ(Cast(Value::Text("ab"), Type::Char(4)), "ab  ");
  EXPECT_EQ(Cast(Value::String(TypeId::kChar, "ab  "), Type::Char(6)), "ab    ");
}

TEST(ValueTest, CastChecksStringLength) {
  // Assignment: too long is an error unless the excess is blanks.
  EXPECT_EQ(Cast(Value::Text("abcd"), Type::Varchar(3), false),
            "ERROR 22001 value too long for type character varying(3)");
  EXPECT_EQ(Cast(Value::Text("abcd"), Type::Char(3), false), "ERROR 22001 value too long for type character(3)");
  EXPECT_EQ(Cast(Value::Text("ab    "), Type::Varchar(3), false), "ab ");
  EXPECT_EQ(Cast(Value::Text("abc "), Type::Varchar(3), false), "abc");
  EXPECT_EQ(Cast(Value::Text("abc   "), Type::Char(3), false), "abc");
  // Explicit casts truncate.
  EXPECT_EQ(Cast(Value::Text("abcd"), Type::Varchar(3)), "abc");
  EXPECT_EQ(Cast(Value::Numeric(D("12.5")), Type::Varchar(3)), "12.");
  // Lengths count characters, not bytes.
  EXPECT_EQ(Cast(Value::Text("äöüß"), Type::Varchar(2)), "äö");
  EXPECT_EQ(Cast(Value::Text("äöü"), Type::Varchar(3), false), "äöü");
  EXPECT_EQ(Cast(Value::Text("äö"), Type::Char(3)), "äö ");
  EXPECT_EQ(Cast(Value::Text("äöüß"), Type::Varchar(3), false),
            "ERROR 22001 value too long for type character varying(3)");
  // Unbounded targets keep everything.
  EXPECT_EQ(Cast(Value::Text("abcdef"), Type(TypeId::kVarchar), false), "abcdef");
}

TEST(ValueTest, CastBoolAndInt4) {
  EXPECT_EQ(Cast(Value::Bool(true), Type(TypeId::kInt32)), "1");
  EXPECT_EQ(Cast(Value::Bool(false), Type(TypeId::kInt32)), "0");
  EXPECT_EQ(Cast(Value::Int32(5), Type(TypeId::kBool)), "t");
  EXPECT_EQ(Cast(Value::Int32(0), Type(TypeId::kBool)), "f");
  EXPECT_EQ(Cast(Value::Int64(1), Type(TypeId::kBool)), "ERROR 42846 cannot cast type bigint to boolean");
  EXPECT_EQ(Cast(Value::Bool(true), Type(TypeId::kInt64)), "ERROR 42846 cannot cast type boolean to bigint");
  EXPECT_EQ(Cast(Value::Bool(true), Type(TypeId::kNumeric)), "ERROR 42846 cannot cast type boolean to numeric");
}

TEST(ValueTest, CastBetweenDatesAndTimestamps) {
  int32_t day = 0;
  ASSERT_TRUE(ParseDate("2024-01-02", &day).ok());
  int64_t ts = 0;
  ASSERT_TRUE(ParseTimestamp("1969-12-31 23:59:59.999999", false, &ts).ok());
  EXPECT_EQ(Cast(Value::Date(day), Type(TypeId::kTimestamp)), "2024-01-02 00:00:00");
  EXPECT_EQ(Cast(Value::Date(day), Type(TypeId::kTimestampTz)), "2024-01-02 00:00:00+00");
  EXPECT_EQ(Cast(Value::Timestamp(ts), Type(TypeId::kDate)), "1969-12-31");
  EXPECT_EQ(Cast(Value::TimestampTz(ts), Type(TypeId::kTimestamp)), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(Cast(Value::Timestamp(ts), Type(TypeId::kTimestampTz)), "1969-12-31 23:59:59.999999+00");
}

// Dates and timestamps at the ends of their integer ranges (typed parameter
// values need not be valid): comparing, hashing and casting them neither
// overflows nor wraps.
TEST(ValueTest, DatesAndTimestampsAtTheEnds) {
  const Value far_date = Value::Date(INT32_MAX), first_date = Value::Date(INT32_MIN);
  EXPECT_GT(Value::Compare(far_date, Value::Timestamp(INT64_MAX - 1)), 0);
  EXPECT_LT(Value::Compare(first_date, Value::Timestamp(INT64_MIN + 1)), 0);
  EXPECT_EQ(far_date.Hash(), Value::Date(INT32_MAX).Hash());
  EXPECT_EQ(Cast(far_date, Type(TypeId::kTimestamp)), "ERROR 22008 date out of range for timestamp");
  EXPECT_EQ(Cast(first_date, Type(TypeId::kTimestampTz)), "ERROR 22008 date out of range for timestamp");
  EXPECT_EQ(Cast(Value::Timestamp(INT64_MAX), Type(TypeId::kDate)), "ERROR 22008 date out of range");
  EXPECT_EQ(Cast(Value::TimestampTz(INT64_MIN), Type(TypeId::kDate)), "ERROR 22008 date out of range");
  EXPECT_EQ(Cast(Value::Date(INT32_MAX), Type(TypeId::kDate)), Value::Date(INT32_MAX).ToString());
}

TEST(ValueTest, CastRejectsOtherPairs) {
  EXPECT_EQ(Cast(Value::Bool(true), Type(TypeId::kDate)), "ERROR 42846 cannot cast type boolean to date");
  EXPECT_EQ(Cast(Value::Int32(1), Type(TypeId::kDate)), "ERROR 42846 cannot cast type integer to date");
  EXPECT_EQ(Cast(Value::Date(0), Type(TypeId::kInt32)), "ERROR 42846 cannot cast type date to integer");
  EXPECT_EQ(Cast(Value::Date(0), Type::Numeric(10, 2)), "ERROR 42846 cannot cast type date to numeric");
  EXPECT_EQ(Cast(Value::Timestamp(0), Type(TypeId::kInt64)),
            "ERROR 42846 cannot cast type timestamp without time zone to bigint");
  EXPECT_EQ(Cast(Value::Float64(1), Type(TypeId::kTimestampTz)),
            "ERROR 42846 cannot cast type double precision to timestamp with time zone");
}

// bytea: hex output, hex and escape input, byte-wise order, casts only
// from and to the string types. Messages as PostgreSQL 15's byteain.
Value Bytes(std::string_view b) { return Value::Bytea(std::string(b)); }

TEST(ValueTest, ByteaPrintsInHex) {
  EXPECT_EQ(Bytes("").ToString(), "\\x");
  EXPECT_EQ(Bytes(std::string_view("\x01\xff\x00" "A", 4)).ToString(), "\\x01ff0041");
  std::string appended = "b=";
  Bytes("\x0a").AppendTo(&appended);
  EXPECT_EQ(appended, "b=\\x0a");
  EXPECT_EQ(Value::Null(TypeId::kBytea).type(), TypeId::kBytea);
}

TEST(ValueTest, ByteaKeepsEveryByte) {
  const std::string all = [] {
    std::string s;
    for (int b = 0; b < 256; ++b) s.push_back(static_cast<char>(b));
    return s;
  }();
  const Value v = Value::Bytea(all);
  EXPECT_EQ(v.type(), TypeId::kBytea);
  EXPECT_EQ(v.bytes_value(), all);
  Value back;
  ASSERT_TRUE(CastValue(Value::Text(v.ToString()), Type(TypeId::kBytea), false, &back).ok());
  EXPECT_EQ(back.bytes_value(), all);
}

TEST(ValueTest, ByteaInputHexFormat) {
  EXPECT_EQ(Cast(Unknown("\\x0102"), Type(TypeId::kBytea)), "\\x0102");
  EXPECT_EQ(Cast(Unknown("\\xDEadBeef"), Type(TypeId::kBytea)), "\\xdeadbeef");
  EXPECT_EQ(Cast(Unknown("\\x"), Type(TypeId::kBytea)), "\\x");
  EXPECT_EQ(Cast(Unknown("\\x 01\t02\n03\r "), Type(TypeId::kBytea)), "\\x010203");
  EXPECT_EQ(Cast(Unknown("\\x0g"), Type(TypeId::kBytea)), "ERROR 22023 invalid hexadecimal digit: \"g\"");
  EXPECT_EQ(Cast(Unknown("\\x0 1"), Type(TypeId::kBytea)), "ERROR 22023 invalid hexadecimal digit: \" \"");
  EXPECT_EQ(Cast(Unknown("\\x\u00e9"), Type(TypeId::kBytea)), "ERROR 22023 invalid hexadecimal digit: \"\u00e9\"");
  EXPECT_EQ(Cast(Unknown("\\x012"), Type(TypeId::kBytea)),
            "ERROR 22023 invalid hexadecimal data: odd number of digits");
}

TEST(ValueTest, ByteaInputEscapeFormat) {
  EXPECT_EQ(Cast(Unknown("abc"), Type(TypeId::kBytea)), "\\x616263");
  EXPECT_EQ(Cast(Unknown(""), Type(TypeId::kBytea)), "\\x");
  EXPECT_EQ(Cast(Unknown("a\\\\b\\001"), Type(TypeId::kBytea)), "\\x615c6201");
  EXPECT_EQ(Cast(Unknown("\\377\\000"), Type(TypeId::kBytea)), "\\xff00");
  EXPECT_EQ(Cast(Unknown("\\X41"), Type(TypeId::kBytea)), "ERROR 22P02 invalid input syntax for type bytea");
  EXPECT_EQ(Cast(Unknown("a\\b"), Type(TypeId::kBytea)), "ERROR 22P02 invalid input syntax for type bytea");
  EXPECT_EQ(Cast(Unknown("\\400"), Type(TypeId::kBytea)), "ERROR 22P02 invalid input syntax for type bytea");
  EXPECT_EQ(Cast(Unknown("\\01"), Type(TypeId::kBytea)), "ERROR 22P02 invalid input syntax for type bytea");
  EXPECT_EQ(Cast(Unknown("x\\"), Type(TypeId::kBytea)), "ERROR 22P02 invalid input syntax for type bytea");
}

TEST(ValueTest, ByteaCastsOnlyFromAndToStrings) {
  EXPECT_EQ(Cast(Value::Text("\\x41"), Type(TypeId::kBytea)), "\\x41");
  EXPECT_EQ(Cast(Value::String(TypeId::kVarchar, "A"), Type(TypeId::kBytea)), "\\x41");
  EXPECT_EQ(Cast(Bytes("AB"), Type(TypeId::kBytea)), "\\x4142");
  EXPECT_EQ(Cast(Bytes("AB"), Type(TypeId::kText)), "\\x4142");
  EXPECT_EQ(Cast(Bytes("AB"), Type::Varchar(3)), "\\x4");  // explicit: truncated, as PostgreSQL
  EXPECT_EQ(Cast(Bytes("AB"), Type::Varchar(3), false), "ERROR 22001 value too long for type character varying(3)");
  EXPECT_EQ(Cast(Value::Int32(1), Type(TypeId::kBytea)), "ERROR 42846 cannot cast type integer to bytea");
  EXPECT_EQ(Cast(Bytes("A"), Type(TypeId::kInt32)), "ERROR 42846 cannot cast type bytea to integer");
  EXPECT_EQ(Cast(Bytes("A"), Type(TypeId::kBool)), "ERROR 42846 cannot cast type bytea to boolean");
  EXPECT_TRUE(CanAssign(TypeId::kUnknown, TypeId::kBytea));
  EXPECT_TRUE(CanAssign(TypeId::kBytea, TypeId::kText));
  EXPECT_FALSE(CanAssign(TypeId::kText, TypeId::kBytea));
  EXPECT_FALSE(CanAssign(TypeId::kInt32, TypeId::kBytea));
}

TEST(ValueTest, ByteaComparesUnsignedBytesPrefixFirst) {
  EXPECT_LT(Value::Compare(Bytes("\x01"), Bytes("\xff")), 0);  // unsigned: 0xff is the largest byte
  EXPECT_LT(Value::Compare(Bytes("\x01"), Bytes(std::string_view("\x01\x00", 2))), 0);
  EXPECT_LT(Value::Compare(Bytes(""), Bytes(std::string_view("\x00", 1))), 0);
  EXPECT_EQ(Value::Compare(Bytes("ab"), Bytes("ab")), 0);
  EXPECT_GT(Value::Compare(Bytes("b"), Bytes("ab")), 0);
  EXPECT_EQ(Bytes("ab"), Bytes("ab"));
  EXPECT_FALSE(Bytes("ab") == Value::Text("ab"));  // different types
  EXPECT_EQ(Bytes(std::string_view("a\x00", 2)).Hash(), Bytes(std::string_view("a\x00", 2)).Hash());
  EXPECT_NE(Bytes("a").Hash(), Bytes(std::string_view("a\x00", 2)).Hash());
}

TEST(ValueTest, CanAssignFollowsPostgresAssignmentCasts) {
  EXPECT_TRUE(CanAssign(TypeId::kInt32, TypeId::kInt32));
  EXPECT_TRUE(CanAssign(TypeId::kInt64, TypeId::kInt16));
  EXPECT_TRUE(CanAssign(TypeId::kNumeric, TypeId::kInt32));
  EXPECT_TRUE(CanAssign(TypeId::kFloat64, TypeId::kNumeric));
  EXPECT_TRUE(CanAssign(TypeId::kVarchar, TypeId::kChar));
  EXPECT_TRUE(CanAssign(TypeId::kText, TypeId::kVarchar));
  EXPECT_TRUE(CanAssign(TypeId::kUnknown, TypeId::kDate));
  EXPECT_TRUE(CanAssign(TypeId::kUnknown, TypeId::kBool));
  EXPECT_TRUE(CanAssign(TypeId::kDate, TypeId::kTimestamp));
  EXPECT_TRUE(CanAssign(TypeId::kTimestampTz, TypeId::kDate));
  EXPECT_TRUE(CanAssign(TypeId::kInt32, TypeId::kText));
  EXPECT_TRUE(CanAssign(TypeId::kBool, TypeId::kVarchar));
  EXPECT_FALSE(CanAssign(TypeId::kBool, TypeId::kDate));
  EXPECT_FALSE(CanAssign(TypeId::kBool, TypeId::kInt32));
  EXPECT_FALSE(CanAssign(TypeId::kInt32, TypeId::kBool));
  EXPECT_FALSE(CanAssign(TypeId::kText, TypeId::kInt32));
  EXPECT_FALSE(CanAssign(TypeId::kInt32, TypeId::kDate));
  EXPECT_FALSE(CanAssign(TypeId::kDate, TypeId::kInt32));
}

}  // namespace
}  // namespace paceline
