// Tests for the wire formats of values: exact binary byte sequences (several
// taken from captures of PostgreSQL 15 talking to psycopg, see
// shared/pgwire/captures/psycopg_paramtypes.log and psycopg_autocommit.log),
// text parameters decoded as SQL casts with PostgreSQL's messages, round
// trips of every type in both formats, and bad input with its SQLSTATE.
#include "server/pg_value_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/datetime.h"

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

// "<type name> <text output>" of the decoded value, or "ERROR <sqlstate> <message>".
std::string Decode(std::string_view bytes, int16_t format, const Type& type) {
  Value v;
  Status s = DecodeParameter(bytes, format, type, &v);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return std::string(TypeIdName(v.type())) + " " + v.ToString();
}

std::string DecodeText(std::string_view text, const Type& type) { return Decode(text, 0, type); }
std::string DecodeBinaryHex(std::string_view hex, const Type& type) { return Decode(FromHex(hex), 1, type); }

// Hex of the binary encoding, or "ERROR <sqlstate> <message>".
std::string EncodeBinaryHex(const Value& v, const Type& type) {
  std::string out;
  Status s = EncodeResult(v, type, 1, &out);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return ToHex(out);
}

std::string EncodeText(const Value& v, const Type& type) {
  std::string out;
  Status s = EncodeResult(v, type, 0, &out);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return out;
}

Decimal D(std::string_view text) {
  Decimal d;
  EXPECT_TRUE(Decimal::Parse(text, &d).ok()) << text;
  return d;
}

Value Num(std::string_view text) { return Value::Numeric(D(text)); }

int32_t Days(std::string_view text) {
  int32_t days = 0;
  EXPECT_TRUE(ParseDate(text, &days).ok()) << text;
  return days;
}

int64_t Micros(std::string_view text) {
  int64_t micros = 0;
  EXPECT_TRUE(ParseTimestamp(text, false, &micros).ok()) << text;
  return micros;
}

const Type kBool(TypeId::kBool), kInt2(TypeId::kInt16), kInt4(TypeId::kInt32), kInt8(TypeId::kInt64);
const Type kFloat4(TypeId::kFloat32), kFloat8(TypeId::kFloat64), kNumeric(TypeId::kNumeric);
const Type kText(TypeId::kText), kVarchar(TypeId::kVarchar), kBpchar(TypeId::kChar), kUnknown(TypeId::kUnknown);
const Type kDate(TypeId::kDate), kTimestamp(TypeId::kTimestamp), kTimestampTz(TypeId::kTimestampTz);
const Type kBytea(TypeId::kBytea);

// ---------------------------------------------------------------- TypeFromOid

TEST(PgTypeFromOidTest, MapsEveryPacelineTypeAndBack) {
  for (const Type& t : {kBool, kInt2, kInt4, kInt8, kFloat4, kFloat8, kNumeric, kText, kVarchar, kBpchar, kDate,
                        kTimestamp, kTimestampTz, kBytea}) {
    Type got;
    ASSERT_TRUE(TypeFromOid(t.Oid(), &got)) << t.ToString();
    EXPECT_EQ(got, t) << t.ToString();
  }
  Type t;
  ASSERT_TRUE(TypeFromOid(23, &t));
  EXPECT_EQ(t.id, TypeId::kInt32);
  ASSERT_TRUE(TypeFromOid(1700, &t));
  EXPECT_EQ(t, kNumeric);  // no precision or scale
  ASSERT_TRUE(TypeFromOid(17, &t));
  EXPECT_EQ(t, kBytea);
}

TEST(PgTypeFromOidTest, KnowsUuidJsonAndJsonb) {
  Type t;
  ASSERT_TRUE(TypeFromOid(2950, &t));
  EXPECT_EQ(t.id, TypeId::kUuid);
  ASSERT_TRUE(TypeFromOid(114, &t));
  EXPECT_EQ(t.id, TypeId::kJson);
  ASSERT_TRUE(TypeFromOid(3802, &t));
  EXPECT_EQ(t.id, TypeId::kJsonb);
}

TEST(PgCodecTest, UuidTextAndBinary) {
  const Type uuid(TypeId::kUuid);
  EXPECT_EQ(DecodeText("{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}", uuid), "uuid a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
  EXPECT_EQ(DecodeText("nope", uuid), "ERROR 22P02 invalid input syntax for type uuid: \"nope\"");
  EXPECT_EQ(DecodeBinaryHex("a0eebc999c0b4ef8bb6d6bb9bd380a11", uuid), "uuid a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
  EXPECT_TRUE(DecodeBinaryHex("a0eebc99", uuid).starts_with("ERROR 22P03"));
  Value v;
  ASSERT_TRUE(DecodeParameter("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", 0, uuid, &v).ok());
  EXPECT_EQ(EncodeBinaryHex(v, uuid), "a0eebc999c0b4ef8bb6d6bb9bd380a11");
  EXPECT_EQ(EncodeText(v, uuid), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
}

TEST(PgCodecTest, JsonAndJsonbTextAndBinary) {
  const Type json(TypeId::kJson), jsonb(TypeId::kJsonb);
  EXPECT_EQ(DecodeText("{\"b\": 1,  \"a\": 2}", json), "json {\"b\": 1,  \"a\": 2}");
  EXPECT_EQ(DecodeText("{\"b\": 1,  \"a\": 2}", jsonb), "jsonb {\"a\": 2, \"b\": 1}");
  EXPECT_EQ(DecodeText("{", jsonb), "ERROR 22P02 invalid input syntax for type json");
  // jsonb_recv: a version byte 1, then the text; json_recv: the text.
  EXPECT_EQ(Decode(std::string("\x01[1.50, {\"k\":null}]"), 1, jsonb), "jsonb [1.50, {\"k\": null}]");
  EXPECT_EQ(Decode("[1,  2]", 1, json), "json [1,  2]");
  EXPECT_EQ(Decode(std::string("\x02[]"), 1, jsonb), "ERROR XX000 unsupported jsonb version number 2");
  EXPECT_EQ(Decode("", 1, jsonb), "ERROR XX000 unsupported jsonb version number 0");
  EXPECT_EQ(Decode("[1,", 1, json), "ERROR 22P02 invalid input syntax for type json");
  EXPECT_EQ(EncodeBinaryHex(Value::Jsonb("[]"), jsonb), "015b5d");
  EXPECT_EQ(EncodeBinaryHex(Value::Json(" [] "), json), "205b5d20");
  EXPECT_EQ(EncodeText(Value::Jsonb("{\"a\": 1}"), jsonb), "{\"a\": 1}");
}

TEST(PgCodecTest, IntervalTextAndBinary) {
  const Type interval(TypeId::kInterval);
  Type t;
  ASSERT_TRUE(TypeFromOid(1186, &t));
  EXPECT_EQ(t.id, TypeId::kInterval);
  ASSERT_TRUE(TypeFromOid(1187, &t));
  EXPECT_TRUE(t.IsArray() && t.element == TypeId::kInterval);
  EXPECT_EQ(DecodeText("1 year 2 mons 3 days 02:00", interval), "interval 1 year 2 mons 3 days 02:00:00");
  EXPECT_EQ(DecodeText("soon", interval), "ERROR 22007 invalid input syntax for type interval: \"soon\"");
  // interval_send / interval_recv: int64 microseconds, int32 days, int32 months.
  EXPECT_EQ(DecodeBinaryHex("00000001ad274800" "00000003" "0000000e", interval),
            "interval 1 year 2 mons 3 days 02:00:00");
  EXPECT_EQ(DecodeBinaryHex("ffffffffffffffff" "ffffffff" "00000000", interval), "interval -1 days -00:00:00.000001");
  EXPECT_TRUE(DecodeBinaryHex("00000001ad274800", interval).starts_with("ERROR 22P03"));
  Value v;
  ASSERT_TRUE(DecodeParameter("-1 days +02:00:00", 0, interval, &v).ok());
  EXPECT_EQ(EncodeBinaryHex(v, interval), "00000001ad274800" "ffffffff" "00000000");
  EXPECT_EQ(EncodeText(v, interval), "-1 days +02:00:00");
  // void (pg_sleep's result): the empty string in text, no bytes in binary.
  EXPECT_EQ(EncodeText(Value::Void(), Type(TypeId::kVoid)), "");
  EXPECT_EQ(EncodeBinaryHex(Value::Void(), Type(TypeId::kVoid)), "");
  EXPECT_EQ(Type(TypeId::kVoid).Oid(), 2278u);
}

TEST(PgTypeFromOidTest, RejectsUnspecifiedAndMissingTypes) {
  Type t;
  for (uint32_t oid : {0u, 1561u /*bit[]*/, 705u /*unknown*/,
                       1083u /*time*/, 2278u /*void: no parameter*/, 99999u}) {
    EXPECT_FALSE(TypeFromOid(oid, &t)) << oid;
  }
}

// ---------------------------------------------------------------- text in

TEST(PgDecodeTextTest, ParsesLikeASqlCast) {
  EXPECT_EQ(DecodeText("42", kInt4), "int4 42");
  EXPECT_EQ(DecodeText("  -7 ", kInt2), "int2 -7");
  EXPECT_EQ(DecodeText("9223372036854775807", kInt8), "int8 9223372036854775807");
  EXPECT_EQ(DecodeText("yes", kBool), "bool t");
  EXPECT_EQ(DecodeText("F", kBool), "bool f");
  EXPECT_EQ(DecodeText("12.50", kNumeric), "numeric 12.50");  // keeps the written scale
  EXPECT_EQ(DecodeText("1.25", kNumeric), "numeric 1.25");    // psycopg's Decimal (captured)
  EXPECT_EQ(DecodeText("1.5e3", kNumeric), "numeric 1500");
  EXPECT_EQ(DecodeText("0.1", kFloat8), "float8 0.1");
  EXPECT_EQ(DecodeText("NaN", kFloat4), "float4 NaN");
  EXPECT_EQ(DecodeText("-Infinity", kFloat8), "float8 -Infinity");
  EXPECT_EQ(DecodeText("2024-01-02", kDate), "date 2024-01-02");
  EXPECT_EQ(DecodeText("2024-01-02 03:04:05.25", kTimestamp), "timestamp 2024-01-02 03:04:05.25");
  EXPECT_EQ(DecodeText("2024-01-02 03:04:05+02", kTimestampTz), "timestamptz 2024-01-02 01:04:05+00");
  EXPECT_EQ(DecodeText("héllo", kText), "text héllo");
  EXPECT_EQ(DecodeText("", kText), "text ");
}

TEST(PgDecodeTextTest, AppliesTheTypeModifiers) {
  EXPECT_EQ(DecodeText("1.005", Type::Numeric(5, 2)), "numeric 1.01");
  EXPECT_EQ(DecodeText("1234.5", Type::Numeric(5, 2)), "ERROR 22003 numeric field overflow");
  EXPECT_EQ(DecodeText("ab", Type::Char(4)), "bpchar ab  ");
  EXPECT_EQ(DecodeText("abcd", Type::Varchar(3)), "ERROR 22001 value too long for type character varying(3)");
  EXPECT_EQ(DecodeText("abc  ", Type::Varchar(3)), "varchar abc");  // excess blanks are trimmed
}

TEST(PgDecodeTextTest, UnknownTypeBecomesText) {
  EXPECT_EQ(DecodeText("s", kUnknown), "text s");  // psycopg's str, sent with OID 0
  EXPECT_EQ(Decode("raw", 1, kUnknown), "text raw");
}

TEST(PgDecodeTextTest, BadInputHasPostgresMessages) {
  EXPECT_EQ(DecodeText("abc", kInt4), "ERROR 22P02 invalid input syntax for type integer: \"abc\"");
  EXPECT_EQ(DecodeText("", kInt8), "ERROR 22P02 invalid input syntax for type bigint: \"\"");
  EXPECT_EQ(DecodeText("1.5", kInt2), "ERROR 22P02 invalid input syntax for type smallint: \"1.5\"");
  EXPECT_EQ(DecodeText("2147483648", kInt4), "ERROR 22003 value \"2147483648\" is out of range for type integer");
  EXPECT_EQ(DecodeText("maybe", kBool), "ERROR 22P02 invalid input syntax for type boolean: \"maybe\"");
  EXPECT_EQ(DecodeText("1.2.3", kNumeric), "ERROR 22P02 invalid input syntax for type numeric: \"1.2.3\"");
  EXPECT_EQ(DecodeText("x1", kFloat8), "ERROR 22P02 invalid input syntax for type double precision: \"x1\"");
  EXPECT_EQ(DecodeText("1e400", kFloat8), "ERROR 22003 \"1e400\" is out of range for type double precision");
  EXPECT_EQ(DecodeText("2024-13-01", kDate), "ERROR 22008 date/time field value out of range: \"2024-13-01\"");
  EXPECT_EQ(DecodeText("yesterday-ish", kDate), "ERROR 22007 invalid input syntax for type date: \"yesterday-ish\"");
  EXPECT_EQ(DecodeText("NaN", kNumeric), "ERROR 0A000 numeric NaN is not supported");
}

TEST(PgDecodeTextTest, RejectsBytesThatAreNotUtf8) {
  EXPECT_EQ(DecodeText("a\xff", kText), "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xff");
  EXPECT_EQ(DecodeText("\xc3\x28", kText), "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
  EXPECT_EQ(DecodeText(std::string("a\0b", 3), kText), "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0x00");
  EXPECT_EQ(DecodeText("\xed\xa0\x80", kText),  // a UTF-16 surrogate
            "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80");
  EXPECT_EQ(DecodeText("\xc0\xaf", kText),  // overlong '/'
            "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xc0 0xaf");
  EXPECT_EQ(DecodeText("\xf0\x9f\x98", kText),  // truncated 4-byte sequence
            "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xf0 0x9f 0x98");
  EXPECT_EQ(DecodeText("\xf0\x9f\x98\x80 \xe2\x82\xac", kText), "text \xf0\x9f\x98\x80 \xe2\x82\xac");
  EXPECT_EQ(Decode("\xff", 1, kVarchar), "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xff");
}

TEST(PgDecodeTextTest, ByteaTakesHexAndEscapeFormats) {
  EXPECT_EQ(DecodeText("\\x0001ff", kBytea), "bytea \\x0001ff");   // libpq's PQescapeByteaConn, psycopg's text dumper
  EXPECT_EQ(DecodeText("\\xDEADbeef", kBytea), "bytea \\xdeadbeef");
  EXPECT_EQ(DecodeText("\\x", kBytea), "bytea \\x");
  EXPECT_EQ(DecodeText("ab\\\\\\000", kBytea), "bytea \\x61625c00");  // escape format: \\ and \ooo
  EXPECT_EQ(DecodeText("\xc3\xa9", kBytea), "bytea \\xc3a9");       // UTF-8 text stands for its bytes
  EXPECT_EQ(DecodeText("\\x0g", kBytea), "ERROR 22023 invalid hexadecimal digit: \"g\"");
  EXPECT_EQ(DecodeText("\\x123", kBytea), "ERROR 22023 invalid hexadecimal data: odd number of digits");
  EXPECT_EQ(DecodeText("a\\b", kBytea), "ERROR 22P02 invalid input syntax for type bytea");
  // Text parameters are text, whatever their type: the client encoding applies.
  EXPECT_EQ(DecodeText("\xff", kBytea), "ERROR 22021 invalid byte sequence for encoding \"UTF8\": 0xff");
}

TEST(PgDecodeTest, RejectsUnknownFormatCodes) {
  EXPECT_EQ(Decode("1", 2, kInt4), "ERROR 22023 unsupported format code: 2");
  EXPECT_EQ(Decode("1", -1, kInt4), "ERROR 22023 unsupported format code: -1");
  std::string out = "kept";
  EXPECT_TRUE(EncodeResult(Value::Int32(1), kInt4, 2, &out).Is("22023"));
  EXPECT_EQ(out, "kept");
}

// ---------------------------------------------------------------- binary in

TEST(PgDecodeBinaryTest, CapturedPsycopgParameters) {
  EXPECT_EQ(DecodeBinaryHex("0001", kInt2), "int2 1");
  EXPECT_EQ(DecodeBinaryHex("00011170", kInt4), "int4 70000");
  EXPECT_EQ(DecodeBinaryHex("0000010000000000", kInt8), "int8 1099511627776");  // 2^40
  EXPECT_EQ(DecodeBinaryHex("0006000500000000000b1f7b06541c06046a0d60", kNumeric),
            "numeric 1180591620717411303424");  // 2^70
  EXPECT_EQ(DecodeBinaryHex("3ff8000000000000", kFloat8), "float8 1.5");
  EXPECT_EQ(DecodeBinaryHex("01", kBool), "bool t");
  EXPECT_EQ(DecodeBinaryHex("0000223f", kDate), "date 2024-01-02");
  EXPECT_EQ(DecodeBinaryHex("0002b0ec8515f340", kTimestamp), "timestamp 2024-01-02 03:04:05");
  EXPECT_EQ(DecodeBinaryHex("0002b0ec8515f340", kTimestampTz), "timestamptz 2024-01-02 03:04:05+00");
}

TEST(PgDecodeBinaryTest, Integers) {
  EXPECT_EQ(DecodeBinaryHex("ffff", kInt2), "int2 -1");
  EXPECT_EQ(DecodeBinaryHex("8000", kInt2), "int2 -32768");
  EXPECT_EQ(DecodeBinaryHex("7fffffff", kInt4), "int4 2147483647");
  EXPECT_EQ(DecodeBinaryHex("80000000", kInt4), "int4 -2147483648");
  EXPECT_EQ(DecodeBinaryHex("8000000000000000", kInt8), "int8 -9223372036854775808");
  EXPECT_EQ(DecodeBinaryHex("fffffffffffffffe", kInt8), "int8 -2");
}

TEST(PgDecodeBinaryTest, BoolsFloatsAndStrings) {
  EXPECT_EQ(DecodeBinaryHex("00", kBool), "bool f");
  EXPECT_EQ(DecodeBinaryHex("02", kBool), "bool t");  // boolrecv: any non-zero byte
  EXPECT_EQ(DecodeBinaryHex("3fc00000", kFloat4), "float4 1.5");
  EXPECT_EQ(DecodeBinaryHex("7fc00000", kFloat4), "float4 NaN");
  EXPECT_EQ(DecodeBinaryHex("fff0000000000000", kFloat8), "float8 -Infinity");
  EXPECT_EQ(DecodeBinaryHex("8000000000000000", kFloat8), "float8 -0");
  EXPECT_EQ(DecodeBinaryHex("3fb999999999999a", kFloat8), "float8 0.1");
  EXPECT_EQ(Decode("abc", 1, kText), "text abc");
  EXPECT_EQ(Decode("", 1, kText), "text ");
  EXPECT_EQ(Decode("ab", 1, Type::Char(3)), "bpchar ab ");
  EXPECT_EQ(Decode("abcd", 1, Type::Varchar(3)), "ERROR 22001 value too long for type character varying(3)");
}

TEST(PgDecodeBinaryTest, ByteaIsTheRawBytes) {
  // bytearecv: any bytes, NULs and bytes that are no UTF-8 included.
  EXPECT_EQ(DecodeBinaryHex("00ff5c7801", kBytea), "bytea \\x00ff5c7801");
  EXPECT_EQ(Decode("", 1, kBytea), "bytea \\x");
  Value v;
  ASSERT_TRUE(DecodeParameter(std::string("\0\xff", 2), 1, kBytea, &v).ok());
  EXPECT_EQ(v.type(), TypeId::kBytea);
  EXPECT_EQ(v.bytes_value(), std::string("\0\xff", 2));
}

TEST(PgDecodeBinaryTest, DatesAndTimestampsCountFrom2000) {
  EXPECT_EQ(DecodeBinaryHex("00000000", kDate), "date 2000-01-01");
  EXPECT_EQ(DecodeBinaryHex("ffffffff", kDate), "date 1999-12-31");
  EXPECT_EQ(DecodeBinaryHex("ffffd533", kDate), "date 1970-01-01");  // -10957
  EXPECT_EQ(DecodeBinaryHex("0000000000000000", kTimestamp), "timestamp 2000-01-01 00:00:00");
  EXPECT_EQ(DecodeBinaryHex("000000141dd76000", kTimestamp), "timestamp 2000-01-02 00:00:00");  // 86400000000
  EXPECT_EQ(DecodeBinaryHex("ffffffffffffffff", kTimestamp), "timestamp 1999-12-31 23:59:59.999999");
  EXPECT_EQ(DecodeBinaryHex("fffca2fec4c82000", kTimestampTz), "timestamptz 1970-01-01 00:00:00+00");
}

TEST(PgDecodeBinaryTest, Numerics) {
  // 12345.678: ndigits 3, weight 1, positive, dscale 3, digits 1 2345 6780.
  EXPECT_EQ(DecodeBinaryHex("000300010000000300010929" "1a7c", kNumeric), "numeric 12345.678");
  EXPECT_EQ(DecodeBinaryHex("000300014000000300010929" "1a7c", kNumeric), "numeric -12345.678");
  // 11.5 as PostgreSQL sent it for a numeric(.,1) column (captured).
  EXPECT_EQ(DecodeBinaryHex("0002000000000001000b1388", kNumeric), "numeric 11.5");
  EXPECT_EQ(DecodeBinaryHex("0000000000000000", kNumeric), "numeric 0");
  EXPECT_EQ(DecodeBinaryHex("0000000000000002", kNumeric), "numeric 0.00");
  EXPECT_EQ(DecodeBinaryHex("0001ffff40000003000a", kNumeric), "numeric -0.001");  // weight -1, digit 10
  EXPECT_EQ(DecodeBinaryHex("0001fffe0000000503e8", kNumeric), "numeric 0.00001");  // weight -2, digit 1000
  EXPECT_EQ(DecodeBinaryHex("00010002000000000001", kNumeric), "numeric 100000000");  // 1 × 10000^2
  // Digits finer than dscale are truncated (numeric_recv's trunc_var).
  EXPECT_EQ(DecodeBinaryHex("00020000000000010001" "1a7c", kNumeric), "numeric 1.6");
  // The largest 38-digit value: 99 9999 ... (10 groups after "99").
  std::string hex = "000a0009000000000063";
  for (int i = 0; i < 9; ++i) hex += "270f";
  EXPECT_EQ(DecodeBinaryHex(hex, kNumeric), "numeric 99999999999999999999999999999999999999");
  // NUMERIC(p,s) of the parameter is applied.
  EXPECT_EQ(DecodeBinaryHex("000300010000000300010929" "1a7c", Type::Numeric(7, 2)), "numeric 12345.68");
  EXPECT_EQ(DecodeBinaryHex("000300010000000300010929" "1a7c", Type::Numeric(4, 0)),
            "ERROR 22003 numeric field overflow");
}

TEST(PgDecodeBinaryTest, WrongLengthsAre22P03) {
  const std::string bad = "ERROR 22P03 incorrect binary data format in bind parameter";
  EXPECT_EQ(DecodeBinaryHex("000001", kInt4), bad);
  EXPECT_EQ(DecodeBinaryHex("0000000001", kInt4), bad);
  EXPECT_EQ(DecodeBinaryHex("00000001", kInt2), bad);
  EXPECT_EQ(DecodeBinaryHex("0001", kInt8), bad);
  EXPECT_EQ(DecodeBinaryHex("", kBool), bad);
  EXPECT_EQ(DecodeBinaryHex("0101", kBool), bad);
  EXPECT_EQ(DecodeBinaryHex("3fc00000", kFloat8), bad);
  EXPECT_EQ(DecodeBinaryHex("3ff8000000000000", kFloat4), bad);
  EXPECT_EQ(DecodeBinaryHex("0000000000000000", kDate), bad);
  EXPECT_EQ(DecodeBinaryHex("00000000", kTimestamp), bad);
  EXPECT_EQ(DecodeBinaryHex("000000", kNumeric), bad);
  EXPECT_EQ(DecodeBinaryHex("0002000000000000" "0001", kNumeric), bad);        // 2 digits announced, 1 sent
  EXPECT_EQ(DecodeBinaryHex("0001000000000000" "00010002", kNumeric), bad);    // 1 announced, 2 sent
  Value v;
  Status s = DecodeParameter(FromHex("000001"), 1, kInt4, &v);
  EXPECT_EQ(s.detail(), "int4 takes 4 bytes, got 3.");
}

TEST(PgDecodeBinaryTest, BadNumericFields) {
  EXPECT_EQ(DecodeBinaryHex("0001000012340000" "0001", kNumeric),
            "ERROR 22P03 invalid sign in external \"numeric\" value");
  EXPECT_EQ(DecodeBinaryHex("0001000000004000" "0001", kNumeric),
            "ERROR 22P03 invalid scale in external \"numeric\" value");
  EXPECT_EQ(DecodeBinaryHex("0001000000000000" "2710", kNumeric),  // 10000
            "ERROR 22P03 invalid digit in external \"numeric\" value");
  EXPECT_EQ(DecodeBinaryHex("0001000000000000" "ffff", kNumeric),
            "ERROR 22P03 invalid digit in external \"numeric\" value");
  EXPECT_EQ(DecodeBinaryHex("ffff000000000000", kNumeric), "ERROR 22P03 invalid length in external \"numeric\" value");
  EXPECT_EQ(DecodeBinaryHex("00000000c0000000", kNumeric), "ERROR 0A000 numeric NaN is not supported");
  EXPECT_EQ(DecodeBinaryHex("00000000d0000000", kNumeric), "ERROR 0A000 numeric infinity is not supported");
  EXPECT_EQ(DecodeBinaryHex("00000000f0000000", kNumeric), "ERROR 0A000 numeric infinity is not supported");
}

TEST(PgDecodeBinaryTest, OutOfRange) {
  // 39 digits: 999 9999 ×9.
  std::string hex = "000a000900000000" "03e7";
  for (int i = 0; i < 9; ++i) hex += "270f";
  EXPECT_EQ(DecodeBinaryHex(hex, kNumeric), "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(DecodeBinaryHex("00017fff00000000" "0001", kNumeric), "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(DecodeBinaryHex("0000000000000027", kNumeric), "ERROR 22003 value overflows numeric format");  // dscale 39
  EXPECT_EQ(DecodeBinaryHex("7fffffff", kDate), "ERROR 22008 date out of range");   // PostgreSQL's 'infinity'
  EXPECT_EQ(DecodeBinaryHex("80000000", kDate), "ERROR 22008 date out of range");   // '-infinity'
  EXPECT_EQ(DecodeBinaryHex("7fffffffffffffff", kTimestamp), "ERROR 22008 timestamp out of range");
  EXPECT_EQ(DecodeBinaryHex("8000000000000000", kTimestampTz), "ERROR 22008 timestamp out of range");
}

// ---------------------------------------------------------------- binary out

TEST(PgEncodeBinaryTest, Numerics) {
  EXPECT_EQ(EncodeBinaryHex(Num("12345.678"), kNumeric), "000300010000000300010929" "1a7c");
  EXPECT_EQ(EncodeBinaryHex(Num("-12345.678"), kNumeric), "000300014000000300010929" "1a7c");
  EXPECT_EQ(EncodeBinaryHex(Num("11.5"), kNumeric), "0002000000000001000b1388");  // as PostgreSQL sent it
  EXPECT_EQ(EncodeBinaryHex(Num("1180591620717411303424"), kNumeric), "0006000500000000000b1f7b06541c06046a0d60");
  EXPECT_EQ(EncodeBinaryHex(Num("0"), kNumeric), "0000000000000000");
  EXPECT_EQ(EncodeBinaryHex(Num("0.00"), kNumeric), "0000000000000002");
  EXPECT_EQ(EncodeBinaryHex(Num("-0.001"), kNumeric), "0001ffff40000003000a");
  EXPECT_EQ(EncodeBinaryHex(Num("0.00001"), kNumeric), "0001fffe0000000503e8");
  EXPECT_EQ(EncodeBinaryHex(Num("100000000"), kNumeric), "00010002000000000001");  // trailing zero groups stripped
  EXPECT_EQ(EncodeBinaryHex(Num("10000.0001"), kNumeric), "0003000100000004000100000001");
  std::string nines = "000a0009000000000063";
  for (int i = 0; i < 9; ++i) nines += "270f";
  EXPECT_EQ(EncodeBinaryHex(Num("99999999999999999999999999999999999999"), kNumeric), nines);
  // 0.(38 nines): weight -1, dscale 38, ten groups, the last 9900.
  std::string fraction = "000affff00000026";
  for (int i = 0; i < 9; ++i) fraction += "270f";
  fraction += "26ac";
  EXPECT_EQ(EncodeBinaryHex(Num("0.99999999999999999999999999999999999999"), kNumeric), fraction);
}

TEST(PgEncodeBinaryTest, FixedWidthTypes) {
  EXPECT_EQ(EncodeBinaryHex(Value::Bool(true), kBool), "01");
  EXPECT_EQ(EncodeBinaryHex(Value::Bool(false), kBool), "00");
  EXPECT_EQ(EncodeBinaryHex(Value::Int16(-2), kInt2), "fffe");
  EXPECT_EQ(EncodeBinaryHex(Value::Int32(12), kInt4), "0000000c");
  EXPECT_EQ(EncodeBinaryHex(Value::Int32(1), kInt4), "00000001");  // captured: '\x00\x00\x00\x01'
  EXPECT_EQ(EncodeBinaryHex(Value::Int64(-1), kInt8), "ffffffffffffffff");
  EXPECT_EQ(EncodeBinaryHex(Value::Float32(1.5f), kFloat4), "3fc00000");
  EXPECT_EQ(EncodeBinaryHex(Value::Float64(1.5), kFloat8), "3ff8000000000000");
  EXPECT_EQ(EncodeBinaryHex(Value::Date(Days("2000-01-01")), kDate), "00000000");
  EXPECT_EQ(EncodeBinaryHex(Value::Date(Days("2024-01-02")), kDate), "0000223f");
  EXPECT_EQ(EncodeBinaryHex(Value::Date(0), kDate), "ffffd533");
  EXPECT_EQ(EncodeBinaryHex(Value::Timestamp(Micros("2000-01-02 00:00:00")), kTimestamp), "000000141dd76000");
  EXPECT_EQ(EncodeBinaryHex(Value::Timestamp(Micros("2024-01-02 03:04:05")), kTimestamp), "0002b0ec8515f340");
  EXPECT_EQ(EncodeBinaryHex(Value::TimestampTz(Micros("2024-01-02 03:04:05")), kTimestampTz), "0002b0ec8515f340");
}

TEST(PgEncodeBinaryTest, Strings) {
  EXPECT_EQ(EncodeBinaryHex(Value::Text("y"), kText), "79");  // captured
  EXPECT_EQ(EncodeBinaryHex(Value::Text(""), kText), "");
  EXPECT_EQ(EncodeBinaryHex(Value::String(TypeId::kChar, "ab  "), Type::Char(4)), "61622020");  // padding kept
  EXPECT_EQ(EncodeBinaryHex(Value::String(TypeId::kVarchar, "\xc3\xa9"), Type::Varchar(3)), "c3a9");
  EXPECT_EQ(EncodeBinaryHex(Value::String(TypeId::kUnknown, "lit"), kUnknown), "6c6974");
}

TEST(PgEncodeBinaryTest, ByteaIsTheRawBytes) {
  EXPECT_EQ(EncodeBinaryHex(Value::Bytea(std::string("\0\xff\\x", 4)), kBytea), "00ff5c78");  // byteasend
  EXPECT_EQ(EncodeBinaryHex(Value::Bytea(""), kBytea), "");
  EXPECT_EQ(EncodeText(Value::Bytea(std::string("\0\xff\\x", 4)), kBytea), "\\x00ff5c78");  // byteaout, hex
  EXPECT_EQ(EncodeText(Value::Bytea(""), kBytea), "\\x");
  // A bytea value sent for a text column is its hex text.
  EXPECT_EQ(EncodeBinaryHex(Value::Bytea("A"), kText), ToHex("\\x41"));
}

TEST(PgEncodeTest, ConvertsToTheColumnType) {
  EXPECT_EQ(EncodeBinaryHex(Value::Int32(7), kInt8), "0000000000000007");
  EXPECT_EQ(EncodeBinaryHex(Value::Int64(7), kInt2), "0007");
  EXPECT_EQ(EncodeBinaryHex(Value::Int32(5), kNumeric), "0001000000000000" "0005");
  EXPECT_EQ(EncodeBinaryHex(Value::Int32(7), kUnknown), "00000007");  // the value's own type
  EXPECT_EQ(EncodeBinaryHex(Value::Date(Days("2000-01-02")), kTimestamp), "000000141dd76000");
  EXPECT_EQ(EncodeText(Value::Int32(7), kNumeric), "7");
  EXPECT_EQ(EncodeBinaryHex(Value::Int64(70000), kInt2), "ERROR 22003 smallint out of range");
}

TEST(PgEncodeTest, TextIsPostgresOutput) {
  EXPECT_EQ(EncodeText(Value::Bool(true), kBool), "t");
  EXPECT_EQ(EncodeText(Num("12.50"), Type::Numeric(5, 2)), "12.50");
  EXPECT_EQ(EncodeText(Value::Float64(1e20), kFloat8), "1e+20");
  EXPECT_EQ(EncodeText(Value::TimestampTz(Micros("2024-01-02 03:04:05")), kTimestampTz), "2024-01-02 03:04:05+00");
  EXPECT_EQ(EncodeText(Value::String(TypeId::kChar, "ab  "), Type::Char(4)), "ab  ");
  std::string out = "x";
  ASSERT_TRUE(EncodeResult(Value::Int32(1), kInt4, 0, &out).ok());
  EXPECT_EQ(out, "x1");  // appends
}

// ---------------------------------------------------------------- round trips

struct Case {
  Type type;
  Value value;
};

std::vector<Case> RoundTripCases() {
  std::vector<Case> cases = {
      {kBool, Value::Bool(true)},
      {kBool, Value::Bool(false)},
      {kInt2, Value::Int16(0)},
      {kInt2, Value::Int16(std::numeric_limits<int16_t>::min())},
      {kInt2, Value::Int16(std::numeric_limits<int16_t>::max())},
      {kInt4, Value::Int32(-123456)},
      {kInt4, Value::Int32(std::numeric_limits<int32_t>::min())},
      {kInt4, Value::Int32(std::numeric_limits<int32_t>::max())},
      {kInt8, Value::Int64(std::numeric_limits<int64_t>::min())},
      {kInt8, Value::Int64(std::numeric_limits<int64_t>::max())},
      {kFloat4, Value::Float32(0.1f)},
      {kFloat4, Value::Float32(-3.4028235e38f)},
      {kFloat4, Value::Float32(1e-30f)},
      {kFloat4, Value::Float32(std::numeric_limits<float>::infinity())},
      {kFloat8, Value::Float64(0.1)},
      {kFloat8, Value::Float64(-0.0)},
      {kFloat8, Value::Float64(1e-300)},
      {kFloat8, Value::Float64(1.7976931348623157e308)},
      {kFloat8, Value::Float64(std::nan(""))},
      {kFloat8, Value::Float64(-std::numeric_limits<double>::infinity())},
      {kText, Value::Text("")},
      {kText, Value::Text("plain ascii, with commas")},
      {kText, Value::Text("h\xc3\xa9llo w\xc3\xb6rld \xf0\x9f\x98\x80")},
      {kVarchar, Value::String(TypeId::kVarchar, "abc")},
      {Type::Varchar(5), Value::String(TypeId::kVarchar, "abcde")},
      {Type::Char(4), Value::String(TypeId::kChar, "ab  ")},
      {kDate, Value::Date(0)},
      {kDate, Value::Date(Days("2000-01-01"))},
      {kDate, Value::Date(Days("1999-12-31"))},
      {kDate, Value::Date(Days("0001-01-01"))},
      {kDate, Value::Date(Days("9999-12-31"))},
      {kTimestamp, Value::Timestamp(0)},
      {kTimestamp, Value::Timestamp(Micros("2024-02-29 23:59:59.999999"))},
      {kTimestamp, Value::Timestamp(Micros("1969-07-20 20:17:40.5"))},
      {kTimestamp, Value::Timestamp(Micros("1999-12-31 23:59:59.000001"))},
      {kTimestampTz, Value::TimestampTz(Micros("2038-01-19 03:14:08"))},
      {kTimestampTz, Value::TimestampTz(Micros("1900-01-01 00:00:00"))},
      {kBytea, Value::Bytea("")},
      {kBytea, Value::Bytea(std::string("\0\x01\\\xff\x80 x", 7))},
  };
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte.push_back(static_cast<char>(b));
  cases.push_back({kBytea, Value::Bytea(every_byte)});
  for (std::string_view n : {"0", "0.00", "1", "-1", "12345.678", "-12345.678", "0.001", "-0.00001", "10000",
                             "100000000", "9999.9999", "10000.0001", "1180591620717411303424", "3.14159",
                             "99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
                             "0.99999999999999999999999999999999999999", "0.00000000000000000000000000000000000001",
                             "12345678901234567890.123456789012345678", "1e37"}) {
    cases.push_back({kNumeric, Num(n)});
  }
  cases.push_back({Type::Numeric(12, 2), Num("-1234567890.12")});
  return cases;
}

TEST(PgRoundTripTest, EveryTypeInBothFormats) {
  for (const Case& c : RoundTripCases()) {
    for (int16_t format : {int16_t{0}, int16_t{1}}) {
      SCOPED_TRACE(c.type.ToString() + " " + c.value.ToString() + " format " + std::to_string(format));
      std::string wire;
      ASSERT_TRUE(EncodeResult(c.value, c.type, format, &wire).ok());
      Value back;
      Status s = DecodeParameter(wire, format, c.type, &back);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(back.type(), c.value.type());
      EXPECT_EQ(back.ToString(), c.value.ToString());  // same digits, same scale, same padding
      if (c.value.type() == TypeId::kFloat64 || c.value.type() == TypeId::kFloat32) {
        EXPECT_EQ(std::signbit(back.float_value()), std::signbit(c.value.float_value()));
      }
    }
  }
}

TEST(PgRoundTripTest, BinaryDatesBeyondTheTextRange) {
  // The engine computes with dates from 4714-11-24 BC to 32767-12-31
  // (IsValidDate) but reads text dates of years 1 to 9999 only; binary
  // carries the whole range.
  for (int64_t days : {-2440588LL, 11248737LL /* 32767-12-31 */}) {
    ASSERT_TRUE(IsValidDate(days));
    for (const Value& v : {Value::Date(static_cast<int32_t>(days)),
                           Value::Timestamp(days * 86400LL * 1000000LL)}) {
      const Type type(v.type());
      std::string wire;
      ASSERT_TRUE(EncodeResult(v, type, 1, &wire).ok());
      Value back;
      ASSERT_TRUE(DecodeParameter(wire, 1, type, &back).ok()) << v.ToString();
      EXPECT_EQ(back, v) << v.ToString();
    }
  }
  EXPECT_FALSE(IsValidDate(11248738));
  std::string wire;
  ASSERT_TRUE(EncodeResult(Value::Date(11248737), kDate, 1, &wire).ok());
  wire[3] = static_cast<char>(wire[3] + 1);  // one day later
  EXPECT_EQ(Decode(wire, 1, kDate), "ERROR 22008 date out of range");
}

TEST(PgRoundTripTest, TextAndBinaryAgree) {
  // Decoding the binary form and the text form of a value gives the same value.
  for (const Case& c : RoundTripCases()) {
    SCOPED_TRACE(c.type.ToString() + " " + c.value.ToString());
    std::string text, binary;
    ASSERT_TRUE(EncodeResult(c.value, c.type, 0, &text).ok());
    ASSERT_TRUE(EncodeResult(c.value, c.type, 1, &binary).ok());
    Value from_text, from_binary;
    ASSERT_TRUE(DecodeParameter(text, 0, c.type, &from_text).ok());
    ASSERT_TRUE(DecodeParameter(binary, 1, c.type, &from_binary).ok());
    EXPECT_EQ(from_text.ToString(), from_binary.ToString());
  }
}

}  // namespace
}  // namespace paceline::server
