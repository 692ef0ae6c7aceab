// uuid: uuid_in's accepted forms and its errors, uuid_out's form, byte
// order and hashing of uuid Values, casts, and random version-4 UUIDs.
#include "common/uuid.h"

#include <gtest/gtest.h>

#include <set>

#include "common/value.h"

namespace paceline {
namespace {

std::string Parse(std::string_view text) {
  std::string bytes;
  Status s = ParseUuid(text, &bytes);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  EXPECT_EQ(bytes.size(), kUuidBytes);
  std::string out;
  AppendUuid(bytes, &out);
  return out;
}

constexpr const char* kCanonical = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";

TEST(UuidTest, AcceptsPostgresInputForms) {
  EXPECT_EQ(Parse("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), kCanonical);
  EXPECT_EQ(Parse("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"), kCanonical);
  EXPECT_EQ(Parse("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"), kCanonical);
  EXPECT_EQ(Parse("a0eebc999c0b4ef8bb6d6bb9bd380a11"), kCanonical);
  EXPECT_EQ(Parse("a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11"), kCanonical);
  EXPECT_EQ(Parse("{a0eebc999c0b4ef8bb6d6bb9bd380a11}"), kCanonical);
}

TEST(UuidTest, RejectsEverythingElseWith22P02) {
  for (const char* bad : {"", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111",
                          " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 ",
                          "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
                          "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11", "a0e-ebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                          "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-"}) {
    EXPECT_EQ(Parse(bad), "ERROR 22P02 invalid input syntax for type uuid: \"" + std::string(bad) + "\"") << bad;
  }
}

Value U(std::string_view text) {
  Value v;
  EXPECT_TRUE(CastValue(Value::String(TypeId::kUnknown, std::string(text)), Type(TypeId::kUuid), false, &v).ok());
  return v;
}

TEST(UuidTest, ValuesCompareAndHashByTheirBytes) {
  EXPECT_EQ(U(kCanonical).type(), TypeId::kUuid);
  EXPECT_EQ(U(kCanonical).ToString(), kCanonical);
  EXPECT_EQ(U(kCanonical), U("{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}"));
  EXPECT_EQ(U(kCanonical).Hash(), U("a0eebc999c0b4ef8bb6d6bb9bd380a11").Hash());
  EXPECT_LT(Value::Compare(U("00000000-0000-0000-0000-000000000000"), U(kCanonical)), 0);
  EXPECT_LT(Value::Compare(U(kCanonical), U("ffffffff-0000-0000-0000-000000000000")), 0);  // unsigned bytes
  EXPECT_GT(Value::Compare(U("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"), U(kCanonical)), 0);
}

TEST(UuidTest, CastsOnlyFromAndToText) {
  Value out;
  ASSERT_TRUE(CastValue(U(kCanonical), Type(TypeId::kText), true, &out).ok());
  EXPECT_EQ(out.string_value(), kCanonical);
  ASSERT_TRUE(CastValue(Value::Text("A0EEBC999C0B4EF8BB6D6BB9BD380A11"), Type(TypeId::kUuid), true, &out).ok());
  EXPECT_EQ(out, U(kCanonical));
  Status s = CastValue(Value::Int32(1), Type(TypeId::kUuid), true, &out);
  EXPECT_EQ(s.message(), "cannot cast type integer to uuid");
  s = CastValue(U(kCanonical), Type(TypeId::kBytea), true, &out);
  EXPECT_EQ(s.message(), "cannot cast type uuid to bytea");
  EXPECT_TRUE(CanAssign(TypeId::kUnknown, TypeId::kUuid));
  EXPECT_TRUE(CanAssign(TypeId::kUuid, TypeId::kText));
  EXPECT_FALSE(CanAssign(TypeId::kText, TypeId::kUuid));
}

TEST(UuidTest, RandomUuidsAreVersion4AndDistinct) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string u = GenerateRandomUuid();
    ASSERT_EQ(u.size(), kUuidBytes);
    EXPECT_EQ(static_cast<unsigned char>(u[6]) >> 4, 4);            // version
    EXPECT_EQ(static_cast<unsigned char>(u[8]) & 0xC0, 0x80);       // RFC 4122 variant
    seen.insert(u);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace paceline
