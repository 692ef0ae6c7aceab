// Tests for ScramSha256Server: the RFC 7677 test vector, an exchange captured
// between psycopg and PostgreSQL 15 (shared/pgwire/captures/psycopg_auth.log,
// password "secret"), full exchanges against an independent OpenSSL client,
// wrong passwords, tampered nonces, unknown users (mock exchanges) and
// malformed messages with their SQLSTATEs.
#include "server/scram_sha256.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scram_test_client.h"
#include "server/scram_crypto.h"
#include "server/scram_secret.h"

namespace paceline::server {
namespace {

using scram_test::OpenSslUnbase64;
using scram_test::TestScramClient;

ScramSecret SecretFor(std::string_view password, std::string_view salt_base64 = "W22ZaJ0SNY7soEsUEjb6gQ==") {
  ScramSecret secret;
  EXPECT_TRUE(MakeScramSecret(password, OpenSslUnbase64(salt_base64), 4096, &secret).ok());
  return secret;
}

std::string Error(const Status& s) { return std::string(s.sqlstate()) + " " + s.message(); }

// ---------------------------------------------------------------- known exchanges

TEST(ScramSha256ServerTest, Rfc7677TestVector) {
  ScramSha256Server server("user", SecretFor("pencil"), "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst("n,,n=user,r=rOprNGfwEbeRWgbNEkqO", &server_first).ok());
  EXPECT_EQ(server_first, "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096");
  Status s = server.HandleClientFinal(
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
      &server_final);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(server_final, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
}

TEST(ScramSha256ServerTest, CapturedPostgresExchange) {
  // PostgreSQL 15 authenticating psycopg (libpq 18) as u_scram / "secret".
  ScramSha256Server server("u_scram", SecretFor("secret", "0tS0Pytpanh8JqVku2QIAw=="), "DiqQ2eeEc2Tj0B8sHfIzZZ3H");
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst("n,,n=,r=Rzv2uZxXdMsW1BTy8VPILAQw", &server_first).ok());
  EXPECT_EQ(server_first, "r=Rzv2uZxXdMsW1BTy8VPILAQwDiqQ2eeEc2Tj0B8sHfIzZZ3H,s=0tS0Pytpanh8JqVku2QIAw==,i=4096");
  ASSERT_TRUE(server
                  .HandleClientFinal("c=biws,r=Rzv2uZxXdMsW1BTy8VPILAQwDiqQ2eeEc2Tj0B8sHfIzZZ3H,"
                                     "p=t50BQrRcJUgZbjzadoZgHB1eZSdTM11oFmJDiceq03A=",
                                     &server_final)
                  .ok());
  EXPECT_EQ(server_final, "v=YD4zizDK8/8ShKvI9BcsI1fMMVAmFGg9Ai4KQdBfiG8=");
}

// ---------------------------------------------------------------- full exchanges

TEST(ScramSha256ServerTest, FullExchangeWithAnOpenSslClient) {
  ScramSecret secret;
  ASSERT_TRUE(MakeScramSecret("correct horse battery staple", &secret).ok());  // random salt
  ScramSha256Server server("alice", secret);
  TestScramClient client("correct horse battery staple", "fyko+d2lbbFgONRv9qkxdawL");
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst(client.ClientFirst(), &server_first).ok());
  // A fresh server nonce: 18 random bytes in base64 (24 characters).
  ASSERT_TRUE(server_first.starts_with("r=fyko+d2lbbFgONRv9qkxdawL"));
  EXPECT_EQ(server_first.find(",s="), std::string("r=fyko+d2lbbFgONRv9qkxdawL").size() + 24);
  EXPECT_TRUE(server_first.ends_with(",i=4096"));
  const std::string client_final = client.ClientFinal(server_first);
  ASSERT_FALSE(client_final.empty());
  Status s = server.HandleClientFinal(client_final, &server_final);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(server_final, client.ExpectedServerFinal());
}

TEST(ScramSha256ServerTest, ServerNoncesDiffer) {
  const ScramSecret secret = SecretFor("pw");
  std::string a, b;
  ASSERT_TRUE(ScramSha256Server("u", secret).HandleClientFirst("n,,n=,r=abc", &a).ok());
  ASSERT_TRUE(ScramSha256Server("u", secret).HandleClientFirst("n,,n=,r=abc", &b).ok());
  EXPECT_NE(a, b);
}

TEST(ScramSha256ServerTest, StepDrivesTheExchange) {
  ScramSha256Server server("alice", SecretFor("pw"));
  SaslMechanism& mechanism = server;
  EXPECT_EQ(mechanism.Name(), "SCRAM-SHA-256");
  TestScramClient client("pw", "nonce1");
  std::string reply;
  bool done = true;
  ASSERT_TRUE(mechanism.Step(client.ClientFirst(), &reply, &done).ok());
  EXPECT_FALSE(done);
  ASSERT_TRUE(mechanism.Step(client.ClientFinal(reply), &reply, &done).ok());
  EXPECT_TRUE(done);
  EXPECT_EQ(reply, client.ExpectedServerFinal());
  // Nothing comes after the final message.
  Status s = mechanism.Step("again", &reply, &done);
  EXPECT_TRUE(s.Is("08P01")) << s.ToString();
  EXPECT_FALSE(done);
}

TEST(ScramSha256ServerTest, AcceptsAClientThatCouldBindChannels) {
  // "y,,": the client supports channel binding but believes the server does
  // not; c= is then base64("y,,") = "eSws".
  ScramSha256Server server("u", SecretFor("pw"));
  TestScramClient client("pw", "abc", "y,,");
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst(client.ClientFirst(), &server_first).ok());
  const std::string client_final = client.ClientFinal(server_first);
  ASSERT_TRUE(client_final.starts_with("c=eSws,"));
  Status s = server.HandleClientFinal(client_final, &server_final);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(server_final, client.ExpectedServerFinal());
}

TEST(ScramSha256ServerTest, ChannelBindingMustRepeatTheGs2Header) {
  ScramSha256Server server("u", SecretFor("pw"));
  TestScramClient client("pw", "abc");  // says "n,," in c=
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst("y,,n=,r=abc", &server_first).ok());
  Status s = server.HandleClientFinal(client.ClientFinal(server_first), &server_final);
  EXPECT_EQ(Error(s), "08P01 SCRAM channel binding check failed");
}

// ---------------------------------------------------------------- failures

TEST(ScramSha256ServerTest, WrongPasswordIs28P01) {
  ScramSha256Server server("alice", SecretFor("right"));
  TestScramClient client("wrong", "n0nce");
  std::string server_first, server_final = "untouched";
  ASSERT_TRUE(server.HandleClientFirst(client.ClientFirst(), &server_first).ok());
  Status s = server.HandleClientFinal(client.ClientFinal(server_first), &server_final);
  EXPECT_EQ(Error(s), "28P01 password authentication failed for user \"alice\"");
  EXPECT_EQ(server_final, "untouched");
}

TEST(ScramSha256ServerTest, TamperedNonceIs28P01) {
  ScramSha256Server server("alice", SecretFor("pw"), "SRV");
  TestScramClient client("pw", "CLI");
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst(client.ClientFirst(), &server_first).ok());
  // The proof is right for the message sent, but the nonce is not this exchange's.
  Status s = server.HandleClientFinal(client.ClientFinal(server_first, "CLISRX"), &server_final);
  EXPECT_EQ(Error(s), "28P01 password authentication failed for user \"alice\"");
}

TEST(ScramSha256ServerTest, TamperedProofIs28P01) {
  ScramSha256Server server("alice", SecretFor("pw"), "SRV");
  TestScramClient client("pw", "CLI");
  std::string server_first, server_final;
  ASSERT_TRUE(server.HandleClientFirst(client.ClientFirst(), &server_first).ok());
  std::string final_message = client.ClientFinal(server_first);
  final_message[final_message.size() - 5] = final_message[final_message.size() - 5] == 'A' ? 'B' : 'A';
  EXPECT_TRUE(server.HandleClientFinal(final_message, &server_final).Is("28P01"));
}

TEST(ScramSha256ServerTest, AFailedExchangeStaysFailed) {
  ScramSha256Server server("alice", SecretFor("pw"));
  std::string reply;
  EXPECT_TRUE(server.HandleClientFirst("garbage", &reply).Is("08P01"));
  EXPECT_TRUE(server.HandleClientFirst("n,,n=,r=abc", &reply).Is("08P01"));
  EXPECT_TRUE(server.HandleClientFinal("c=biws,r=abc,p=AAAA", &reply).Is("08P01"));
}

TEST(ScramSha256ServerTest, UnknownUserFailsOnlyAtTheEnd) {
  const std::string key = "per-server mock key";
  auto mock = ScramSha256Server::ForUnknownUser("mallory", key);
  TestScramClient client("anything", "n0nce");
  std::string server_first, server_final;
  ASSERT_TRUE(mock->HandleClientFirst(client.ClientFirst(), &server_first).ok());
  // It looks like a real server-first-message: a 16-byte salt, 4096 iterations.
  const size_t s_at = server_first.find(",s="), i_at = server_first.find(",i=");
  ASSERT_NE(s_at, std::string::npos);
  ASSERT_NE(i_at, std::string::npos);
  EXPECT_EQ(OpenSslUnbase64(server_first.substr(s_at + 3, i_at - s_at - 3)).size(), 16u);
  EXPECT_TRUE(server_first.ends_with(",i=4096"));
  Status s = mock->HandleClientFinal(client.ClientFinal(server_first), &server_final);
  EXPECT_EQ(Error(s), "28P01 password authentication failed for user \"mallory\"");

  // The salt is stable per user (a retry cannot tell it is made up) and differs between users.
  const auto salt_of = [&](const std::string& user, std::string_view k) {
    std::string first;
    EXPECT_TRUE(ScramSha256Server::ForUnknownUser(user, k)->HandleClientFirst("n,,n=,r=x", &first).ok());
    return first.substr(first.find(",s="));
  };
  EXPECT_EQ(salt_of("mallory", key), salt_of("mallory", key));
  EXPECT_NE(salt_of("mallory", key), salt_of("eve", key));
  EXPECT_NE(salt_of("mallory", key), salt_of("mallory", "another server"));
}

// ---------------------------------------------------------------- malformed messages

std::string FirstError(std::string_view client_first) {
  ScramSha256Server server("u", SecretFor("pw"));
  std::string reply;
  Status s = server.HandleClientFirst(client_first, &reply);
  return s.ok() ? "OK " + reply.substr(0, reply.find(',')) : Error(s);
}

TEST(ScramSha256ServerTest, MalformedClientFirstIs08P01) {
  for (std::string_view bad : {"", "n", "n,", "x,,n=,r=abc", "n;,n=,r=abc", "n,x,n=,r=abc", "n,,", "n,,r=abc",
                               "n,,n=", "n,,n=,", "n,,n=,r=", "n,,n=,r=a b", "n,,n=,r=abc\x01", "n,,n=,s=abc",
                               "n,,n=,r=abc,,", "n,,n=,r=abc,1=x", "n,,n=,r=abc,xyz"}) {
    const std::string got = FirstError(bad);
    EXPECT_TRUE(got.starts_with("08P01 malformed SCRAM message")) << "\"" << bad << "\" → " << got;
  }
  EXPECT_EQ(FirstError("p=tls-server-end-point,,n=,r=abc").substr(0, 5), "08P01");  // no -PLUS offered
  EXPECT_TRUE(FirstError("n,,n=,r=abc,e=ext").starts_with("OK r=abc"));  // optional extensions are ignored
  EXPECT_TRUE(FirstError("n,,n=someone,r=abc").starts_with("OK r=abc"));  // the name is ignored
}

TEST(ScramSha256ServerTest, UnsupportedFeaturesAre0A000) {
  EXPECT_EQ(FirstError("n,a=admin,n=,r=abc"), "0A000 client uses authorization identity, but it is not supported");
  EXPECT_EQ(FirstError("n,,m=mandatory,n=,r=abc"), "0A000 client requires an unsupported SCRAM extension");
}

std::string FinalError(std::string_view client_final) {
  ScramSha256Server server("u", SecretFor("pw"), "SRV");
  std::string reply;
  EXPECT_TRUE(server.HandleClientFirst("n,,n=,r=CLI", &reply).ok());
  Status s = server.HandleClientFinal(client_final, &reply);
  return s.ok() ? "OK" : Error(s);
}

TEST(ScramSha256ServerTest, MalformedClientFinalIs08P01) {
  const std::string proof = "p=" + std::string(43, 'A') + "=";  // 32 zero bytes
  EXPECT_EQ(FinalError("c=biws,r=CLISRV," + proof), "28P01 password authentication failed for user \"u\"");
  const std::vector<std::string> malformed = {"", "c=biws,r=CLISRV", "c=biws,r=CLISRV,p=", "r=CLISRV," + proof,
                                             "c=biws," + proof, "c=bi,r=CLISRV," + proof, "c=biws,r=CLISRV,p=AAAA",
                                             "c=biws,r=CLISRV," + proof + ",x=1", "c=biws,r=CLISRV,9=x," + proof,
                                             "c=biws,r=CLISRV,p=" + std::string(44, '*')};
  for (const std::string& bad : malformed) {
    const std::string got = FinalError(bad);
    EXPECT_TRUE(got.starts_with("08P01 malformed SCRAM message")) << "\"" << bad << "\" → " << got;
  }
  EXPECT_EQ(FinalError("c=eSws,r=CLISRV," + proof), "08P01 SCRAM channel binding check failed");
  // Extensions before the proof are allowed (and covered by it).
  EXPECT_EQ(FinalError("c=biws,r=CLISRV,x=ext," + proof).substr(0, 5), "28P01");
}

TEST(ScramSha256ServerTest, MessagesOutOfTurnAre08P01) {
  ScramSha256Server server("u", SecretFor("pw"));
  std::string reply;
  Status s = server.HandleClientFinal("c=biws,r=abc,p=AAAA", &reply);
  EXPECT_TRUE(s.Is("08P01")) << s.ToString();
  EXPECT_EQ(s.detail(), "Unexpected client-final-message.");
}

}  // namespace
}  // namespace paceline::server
