// ScramSha256Server: the server side of one SCRAM-SHA-256 authentication
// exchange (RFC 5802, RFC 7677) as PostgreSQL runs it, without channel
// binding:
//
//   client-first  n,,n=<ignored>,r=<client nonce>
//   server-first  r=<client nonce><server nonce>,s=<salt base64>,i=<iterations>
//   client-final  c=biws,r=<client nonce><server nonce>,p=<ClientProof base64>
//   server-final  v=<ServerSignature base64>
//
// The user name comes from the StartupMessage, not from the SCRAM messages
// (libpq sends "n=" empty). "y,," (a client that could do channel binding
// but thinks the server cannot) is accepted too, with c= its base64; "p=..."
// (channel binding required) is refused, as SCRAM-SHA-256-PLUS is not
// offered. The server nonce is 18 random bytes in base64, as PostgreSQL's.
//
// The proof is checked against the stored secret (scram_secret.h): with
// AuthMessage = client-first-bare "," server-first "," client-final-without-proof,
// ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage) must hash to
// StoredKey. Then ServerSignature = HMAC(ServerKey, AuthMessage) proves the
// server knew the secret too.
//
// For a user that does not exist, a mock exchange (ForUnknownUser) answers
// exactly like a real one — a salt derived from the user name and a key, so
// it is the same on every attempt, and the usual iteration count — and fails
// only at the end, with the same error as a wrong password, so a client
// cannot tell which users exist.
//
// Errors: 28P01 `password authentication failed for user "x"` (wrong
// proof, a nonce that is not the one of this exchange, an unknown user);
// 08P01 "malformed SCRAM message" with a DETAIL for bad syntax or a message
// out of turn; 0A000 for SCRAM features PostgreSQL does not support either
// (an authorization identity, mandatory extensions "m="). Any error ends
// the exchange: later messages get 08P01.
//
// Thread-safety: one exchange per object, used by one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "server/sasl_mechanism.h"
#include "server/scram_secret.h"

namespace paceline::server {

class ScramSha256Server : public SaslMechanism {
 public:
  static constexpr std::string_view kMechanismName = "SCRAM-SHA-256";
  static constexpr size_t kNonceBytes = 18;  // PostgreSQL's SCRAM_RAW_NONCE_LEN

  // An exchange for `user` (used in error messages only), checked against
  // `secret`. `server_nonce` is the server's part of the nonce: empty for a
  // fresh random one; tests pass a fixed one (printable ASCII except ',').
  ScramSha256Server(std::string user, ScramSecret secret, std::string server_nonce = {});

  // The mock exchange for a `user` that does not exist. `mock_key` is a
  // per-server random secret (PasswordFile holds one): the salt is derived
  // from it and the user name.
  static std::unique_ptr<ScramSha256Server> ForUnknownUser(std::string user, std::string_view mock_key,
                                                           std::string server_nonce = {});

  // Reads the client-first-message and produces the server-first-message.
  Status HandleClientFirst(std::string_view message, std::string* server_first);
  // Reads the client-final-message, checks the proof and produces the
  // server-final-message. OK means the client is authenticated.
  Status HandleClientFinal(std::string_view message, std::string* server_final);

  // SaslMechanism: the first Step is HandleClientFirst, the second
  // HandleClientFinal (and reports done).
  std::string_view Name() const override { return kMechanismName; }
  Status Step(std::string_view client_message, std::string* server_message, bool* done) override;

 private:
  enum class Phase { kClientFirst, kClientFinal, kDone, kFailed };

  Status Fail(Status s);
  Status AuthenticationFailed();

  std::string user_;
  ScramSecret secret_;
  bool mock_ = false;
  Phase phase_ = Phase::kClientFirst;
  std::string server_nonce_;
  std::string gs2_header_;         // "n,," or "y,,"
  std::string client_first_bare_;  // "n=...,r=..."
  std::string nonce_;              // client nonce + server nonce
  std::string server_first_;
};

}  // namespace paceline::server
