// Tests for ScramSecret: derivation from a password (checked against the
// RFC 7677 example and PostgreSQL's pg_authid form), parsing and formatting
// of "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>", and bad
// secrets with their SQLSTATE.
#include "server/scram_secret.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scram_test_client.h"

namespace paceline::server {
namespace {

using scram_test::OpenSslUnbase64;

// The RFC 7677 example (password "pencil", salt W22ZaJ0SNY7soEsUEjb6gQ==,
// 4096 iterations) in pg_authid form; the keys were computed independently
// (Python's hashlib.pbkdf2_hmac and hmac).
constexpr std::string_view kPencil =
    "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
    "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=";

TEST(ScramSecretTest, DerivesPostgresSecretFromPassword) {
  ScramSecret secret;
  ASSERT_TRUE(MakeScramSecret("pencil", OpenSslUnbase64("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096, &secret).ok());
  EXPECT_EQ(FormatScramSecret(secret), kPencil);
}

TEST(ScramSecretTest, ParsesAndFormatsRoundTrip) {
  ScramSecret secret;
  ASSERT_TRUE(ParseScramSecret(kPencil, &secret).ok());
  EXPECT_EQ(secret.iterations, 4096);
  EXPECT_EQ(secret.salt, OpenSslUnbase64("W22ZaJ0SNY7soEsUEjb6gQ=="));
  EXPECT_EQ(secret.stored_key.size(), 32u);
  EXPECT_EQ(secret.server_key.size(), 32u);
  EXPECT_EQ(FormatScramSecret(secret), kPencil);

  ScramSecret random;
  ASSERT_TRUE(MakeScramSecret("s3cret", &random).ok());
  EXPECT_EQ(random.iterations, 4096);
  EXPECT_EQ(random.salt.size(), 16u);
  ScramSecret back;
  ASSERT_TRUE(ParseScramSecret(FormatScramSecret(random), &back).ok());
  EXPECT_EQ(back.iterations, random.iterations);
  EXPECT_EQ(back.salt, random.salt);
  EXPECT_EQ(back.stored_key, random.stored_key);
  EXPECT_EQ(back.server_key, random.server_key);
}

TEST(ScramSecretTest, OtherIterationCountsAndSaltSizes) {
  ScramSecret secret;
  ASSERT_TRUE(MakeScramSecret("pw", "salt", 1, &secret).ok());
  const std::string text = FormatScramSecret(secret);
  EXPECT_TRUE(text.starts_with("SCRAM-SHA-256$1:c2FsdA==$")) << text;
  ScramSecret back;
  ASSERT_TRUE(ParseScramSecret(text, &back).ok());
  EXPECT_EQ(back.iterations, 1);
  EXPECT_EQ(back.salt, "salt");
}

TEST(ScramSecretTest, RandomSaltsDiffer) {
  ScramSecret a, b;
  ASSERT_TRUE(MakeScramSecret("same", &a).ok());
  ASSERT_TRUE(MakeScramSecret("same", &b).ok());
  EXPECT_NE(a.salt, b.salt);
  EXPECT_NE(a.stored_key, b.stored_key);
}

TEST(ScramSecretTest, RejectsBadPasswordsAndCounts) {
  ScramSecret secret;
  EXPECT_TRUE(MakeScramSecret("", &secret).Is("22023"));
  EXPECT_TRUE(MakeScramSecret("pw", "salt", 0, &secret).Is("22023"));
}

TEST(ScramSecretTest, RejectsMalformedSecrets) {
  const std::string key = "WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=";
  const std::vector<std::string> bad = {
      "",
      "md5a3556571e93b0d20722ba62be61e8c2d",
      "SCRAM-SHA-1$4096:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key,
      "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$" + key,                  // one key
      "SCRAM-SHA-256$4096$" + key + ":" + key,                                // no salt
      "SCRAM-SHA-256$:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key,           // no count
      "SCRAM-SHA-256$0:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key,          // zero
      "SCRAM-SHA-256$-1:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key,
      "SCRAM-SHA-256$4k:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key,
      "SCRAM-SHA-256$99999999999:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key,  // beyond int
      "SCRAM-SHA-256$4096:$" + key + ":" + key,                                // empty salt
      "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ=$" + key + ":" + key,         // bad base64
      "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":AAAA",         // 3-byte key
      "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$" + key + ":" + key + " ", // trailing blank
  };
  for (const std::string& text : bad) {
    ScramSecret secret;
    Status s = ParseScramSecret(text, &secret);
    EXPECT_TRUE(s.Is("22023")) << text << " → " << s.ToString();
    EXPECT_TRUE(s.message().starts_with("invalid SCRAM-SHA-256 secret: ")) << s.message();
  }
}

}  // namespace
}  // namespace paceline::server
