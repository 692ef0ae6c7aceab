// Tests for the SCRAM building blocks: base64 (RFC 4648 §10 test vectors,
// strict rejection of non-canonical input), SHA-256, HMAC-SHA-256 (RFC 4231
// test case 2) and PBKDF2-HMAC-SHA-256 against known answers.
#include "server/scram_crypto.h"

#include <gtest/gtest.h>

#include <string>

namespace paceline::server {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
    out += kHex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

TEST(ScramBase64Test, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    std::string decoded;
    ASSERT_TRUE(Base64Decode(encoded, &decoded)) << encoded;
    EXPECT_EQ(decoded, plain);
  }
}

TEST(ScramBase64Test, AllByteValuesRoundTrip) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= bytes.size(); n += 37) {
    std::string decoded;
    ASSERT_TRUE(Base64Decode(Base64Encode(bytes.substr(0, n)), &decoded));
    EXPECT_EQ(decoded, bytes.substr(0, n));
  }
  EXPECT_EQ(Base64Encode("\xff\xfe\xfd"), "//79");
  EXPECT_EQ(Base64Encode("\xfb\xef"), "++8=");
}

TEST(ScramBase64Test, RejectsNonCanonicalInput) {
  std::string out;
  for (std::string_view bad : {"Zg", "Zg=", "Zg=a", "Z===", "====", "Zh==", "Zm9=", "Zm9v\n", "Zm 9v", "Zm9v====",
                               "Zg==Zg==", "Zm9-", "Zm9_"}) {
    EXPECT_FALSE(Base64Decode(bad, &out)) << bad;
  }
}

TEST(ScramHashTest, Sha256KnownAnswers) {
  EXPECT_EQ(Hex(Sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex(Sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ScramHashTest, HmacSha256Rfc4231Case2) {
  EXPECT_EQ(Hex(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(ScramHashTest, Pbkdf2Sha256KnownAnswers) {
  // Widely published PBKDF2-HMAC-SHA256 vectors ("password", "salt").
  EXPECT_EQ(Hex(Pbkdf2Sha256("password", "salt", 1)),
            "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b");
  EXPECT_EQ(Hex(Pbkdf2Sha256("password", "salt", 4096)),
            "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
}

TEST(ScramRandomTest, BytesDifferAndHaveTheLength) {
  std::string a, b;
  ASSERT_TRUE(RandomBytes(18, &a).ok());
  ASSERT_TRUE(RandomBytes(18, &b).ok());
  EXPECT_EQ(a.size(), 18u);
  EXPECT_NE(a, b);
}

TEST(ScramConstantTimeEqualsTest, ComparesContentAndLength) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "ab"));
  EXPECT_TRUE(ConstantTimeEquals("", ""));
}

}  // namespace
}  // namespace paceline::server
