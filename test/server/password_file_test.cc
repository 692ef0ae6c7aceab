// Tests for PasswordFile: plain passwords and stored verifiers, comments,
// blank lines and CRLF, errors that name the file and line, and the
// exchanges it hands out (a real one per known user, a mock one that fails
// like a wrong password for anyone else), driven by an OpenSSL client.
#include "server/password_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>

#include "scram_test_client.h"
#include "server/scram_sha256.h"

namespace paceline::server {
namespace {

using scram_test::TestScramClient;

constexpr std::string_view kPencil =
    "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
    "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=";

// Runs a whole exchange for `user` with `password`: "OK", or the error.
std::string Authenticate(const PasswordFile& file, const std::string& user, const std::string& password) {
  std::unique_ptr<SaslMechanism> exchange = file.NewExchange(user);
  if (!exchange) return "nullptr";
  TestScramClient client(password, "clientnonce");
  std::string reply;
  bool done = false;
  Status s = exchange->Step(client.ClientFirst(), &reply, &done);
  if (!s.ok()) return s.ToString();
  s = exchange->Step(client.ClientFinal(reply), &reply, &done);
  if (!s.ok()) return std::string(s.sqlstate()) + " " + s.message();
  if (!done || reply != client.ExpectedServerFinal()) return "bad server-final " + reply;
  return "OK";
}

std::unique_ptr<PasswordFile> MustParse(std::string_view contents) {
  std::unique_ptr<PasswordFile> file;
  Status s = PasswordFile::Parse(contents, "users.txt", &file);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return file;
}

std::string ParseError(std::string_view contents) {
  std::unique_ptr<PasswordFile> file;
  Status s = PasswordFile::Parse(contents, "users.txt", &file);
  return s.ok() ? "OK" : std::string(s.sqlstate()) + " " + s.message();
}

TEST(PasswordFileTest, PlainPasswordsAndVerifiers) {
  auto file = MustParse(
      "# users of the test server\n"
      "\n"
      "alice:correct horse battery staple\n"
      "   # indented comment\n"
      "user:" + std::string(kPencil) + "\n"
      "colon:a:b:c\n"
      "spaces:  two leading, one trailing \n"
      "crlf:windows\r\n"
      "last:no newline");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->size(), 6u);
  EXPECT_EQ(Authenticate(*file, "alice", "correct horse battery staple"), "OK");
  EXPECT_EQ(Authenticate(*file, "user", "pencil"), "OK");
  EXPECT_EQ(Authenticate(*file, "colon", "a:b:c"), "OK");
  EXPECT_EQ(Authenticate(*file, "spaces", "  two leading, one trailing "), "OK");
  EXPECT_EQ(Authenticate(*file, "crlf", "windows"), "OK");
  EXPECT_EQ(Authenticate(*file, "last", "no newline"), "OK");
  EXPECT_EQ(Authenticate(*file, "alice", "correct horse"), "28P01 password authentication failed for user \"alice\"");
  // A verifier is used as is: its salt is the stored one.
  ASSERT_NE(file->Find("user"), nullptr);
  EXPECT_EQ(file->Find("user")->iterations, 4096);
  // A plain password gets a random 16-byte salt.
  ASSERT_NE(file->Find("alice"), nullptr);
  EXPECT_EQ(file->Find("alice")->salt.size(), 16u);
  EXPECT_EQ(file->Find("nobody"), nullptr);
  EXPECT_EQ(file->Find("Alice"), nullptr);  // names are case-sensitive
}

TEST(PasswordFileTest, UnknownUsersGetAMockExchange) {
  auto file = MustParse("alice:pw\n");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(Authenticate(*file, "mallory", "pw"), "28P01 password authentication failed for user \"mallory\"");
  // Same salt on every attempt for the same unknown user.
  const auto salt_of = [&](const std::string& user) {
    std::string first;
    bool done = false;
    EXPECT_TRUE(file->NewExchange(user)->Step("n,,n=,r=x", &first, &done).ok());
    return first.substr(first.find(",s="));
  };
  EXPECT_EQ(salt_of("mallory"), salt_of("mallory"));
  EXPECT_NE(salt_of("mallory"), salt_of("eve"));
}

TEST(PasswordFileTest, EmptyFileHasNoUsers) {
  auto file = MustParse("");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->size(), 0u);
  EXPECT_EQ(Authenticate(*file, "alice", "pw").substr(0, 5), "28P01");
}

TEST(PasswordFileTest, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(ParseError("alice:pw\nbob\n"), "F0000 users.txt:2: expected user:password");
  EXPECT_EQ(ParseError("# c\n\n:pw\n"), "F0000 users.txt:3: empty user name");
  EXPECT_EQ(ParseError("alice:\n"), "F0000 users.txt:1: empty password for user \"alice\"");
  EXPECT_EQ(ParseError("alice:a\r\nalice:b\r\n"), "F0000 users.txt:2: user \"alice\" is listed more than once");
  EXPECT_EQ(ParseError(" alice:pw\n"), "F0000 users.txt:1: user name \" alice\" begins or ends with a blank");
  EXPECT_EQ(ParseError("alice :pw\n"), "F0000 users.txt:1: user name \"alice \" begins or ends with a blank");
  EXPECT_EQ(ParseError("a:pw\nb:SCRAM-SHA-256$4096:nope\n"),
            "F0000 users.txt:2: invalid SCRAM-SHA-256 secret: expected "
            "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>");
}

TEST(PasswordFileTest, LoadsFromDisk) {
  char path[] = "/tmp/paceline_password_file_testXXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream out(path);
    out << "# test\nalice:pw\nuser:" << kPencil << "\n";
  }
  std::unique_ptr<PasswordFile> file;
  Status s = PasswordFile::Load(path, &file);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(file->size(), 2u);
  EXPECT_EQ(Authenticate(*file, "user", "pencil"), "OK");
  {
    std::ofstream out(path);
    out << "alice:pw\nbroken\n";
  }
  s = PasswordFile::Load(path, &file);
  EXPECT_EQ(s.message(), std::string(path) + ":2: expected user:password");
  std::remove(path);
  s = PasswordFile::Load(path, &file);
  EXPECT_TRUE(s.Is("58P01")) << s.ToString();
  EXPECT_EQ(s.message(), "could not open password file \"" + std::string(path) + "\"");
}

}  // namespace
}  // namespace paceline::server
