// Message syntax follows RFC 5802 §7; the checks and their error codes follow
// PostgreSQL's auth-scram.c behaviour (not its code).
#include "server/scram_sha256.h"

#include <utility>
#include <vector>

#include "server/scram_crypto.h"

namespace paceline::server {

namespace {

using sqlstate::kProtocolViolation;

Status Malformed(std::string detail) {
  return Status(kProtocolViolation, "malformed SCRAM message").WithDetail(std::move(detail));
}

std::vector<std::string_view> SplitCommas(std::string_view s) {
  std::vector<std::string_view> parts;
  for (;;) {
    const size_t comma = s.find(',');
    parts.push_back(s.substr(0, comma));
    if (comma == std::string_view::npos) return parts;
    s.remove_prefix(comma + 1);
  }
}

// True when `part` is the attribute `name=...`; sets *value to what follows '='.
bool IsAttribute(std::string_view part, char name, std::string_view* value) {
  if (part.size() < 2 || part[0] != name || part[1] != '=') return false;
  *value = part.substr(2);
  return true;
}

// An optional extension attribute: a letter, '=', anything.
bool IsExtension(std::string_view part) {
  return part.size() >= 2 && ((part[0] >= 'a' && part[0] <= 'z') || (part[0] >= 'A' && part[0] <= 'Z')) &&
         part[1] == '=';
}

// RFC 5802 c-nonce: printable ASCII except ','.
bool IsValidNonce(std::string_view nonce) {
  if (nonce.empty()) return false;
  for (char c : nonce) {
    if (c < 0x21 || c > 0x7E || c == ',') return false;
  }
  return true;
}

Status ExpectedAttribute(char name, std::string_view message_name, std::string_view found) {
  return Malformed("Expected attribute \"" + std::string(1, name) + "\" in " + std::string(message_name) +
                   ", found \"" + std::string(found.substr(0, 16)) + "\".");
}

}  // namespace

ScramSha256Server::ScramSha256Server(std::string user, ScramSecret secret, std::string server_nonce)
    : user_(std::move(user)), secret_(std::move(secret)), server_nonce_(std::move(server_nonce)) {}

std::unique_ptr<ScramSha256Server> ScramSha256Server::ForUnknownUser(std::string user, std::string_view mock_key,
                                                                     std::string server_nonce) {
  ScramSecret secret;
  secret.iterations = ScramSecret::kDefaultIterations;
  secret.salt = HmacSha256(mock_key, "salt:" + user).substr(0, ScramSecret::kDefaultSaltBytes);
  secret.stored_key = HmacSha256(mock_key, "stored key:" + user);
  secret.server_key = HmacSha256(mock_key, "server key:" + user);
  auto exchange = std::make_unique<ScramSha256Server>(std::move(user), std::move(secret), std::move(server_nonce));
  exchange->mock_ = true;
  return exchange;
}

Status ScramSha256Server::Fail(Status s) {
  phase_ = Phase::kFailed;
  return s;
}

Status ScramSha256Server::AuthenticationFailed() {
  return Fail(Status(sqlstate::kInvalidPassword, "password authentication failed for user \"" + user_ + "\""));
}

Status ScramSha256Server::HandleClientFirst(std::string_view message, std::string* server_first) {
  if (phase_ != Phase::kClientFirst) return Fail(Malformed("Unexpected client-first-message."));
  // gs2-header: a channel-binding flag, an optional authzid, a comma.
  if (message.empty()) return Fail(Malformed("The client-first-message is empty."));
  const char flag = message[0];
  if (flag == 'p') {
    return Fail(Malformed("The client requires channel binding (SCRAM-SHA-256-PLUS), which this server does not offer."));
  }
  if (flag != 'n' && flag != 'y') {
    return Fail(Malformed("Unexpected channel-binding flag \"" + std::string(1, flag) + "\"."));
  }
  if (message.size() < 2 || message[1] != ',') return Fail(Malformed("Comma expected after the channel-binding flag."));
  if (message.substr(2).starts_with("a=")) {
    return Fail(Status(sqlstate::kFeatureNotSupported, "client uses authorization identity, but it is not supported"));
  }
  if (message.size() < 3 || message[2] != ',') return Fail(Malformed("Comma expected after the gs2 header."));
  gs2_header_ = std::string(message.substr(0, 3));
  const std::string_view bare = message.substr(3);

  // client-first-message-bare: [m=...,] n=<user>,r=<nonce>[,extensions]
  const std::vector<std::string_view> parts = SplitCommas(bare);
  std::string_view value;
  if (IsAttribute(parts[0], 'm', &value)) {
    return Fail(Status(sqlstate::kFeatureNotSupported, "client requires an unsupported SCRAM extension"));
  }
  if (!IsAttribute(parts[0], 'n', &value)) return Fail(ExpectedAttribute('n', "client-first-message", parts[0]));
  if (parts.size() < 2 || !IsAttribute(parts[1], 'r', &value)) {
    return Fail(ExpectedAttribute('r', "client-first-message", parts.size() < 2 ? "" : parts[1]));
  }
  if (!IsValidNonce(value)) return Fail(Malformed("The client nonce is empty or has non-printable characters."));
  const std::string_view client_nonce = value;
  for (size_t i = 2; i < parts.size(); ++i) {
    if (!IsExtension(parts[i])) return Fail(Malformed("Garbage at the end of client-first-message."));
  }

  if (server_nonce_.empty()) {
    std::string raw;
    Status s = RandomBytes(kNonceBytes, &raw);
    if (!s.ok()) return Fail(s);
    server_nonce_ = Base64Encode(raw);
  }
  client_first_bare_ = std::string(bare);
  nonce_ = std::string(client_nonce) + server_nonce_;
  server_first_ = "r=" + nonce_ + ",s=" + Base64Encode(secret_.salt) + ",i=" + std::to_string(secret_.iterations);
  *server_first = server_first_;
  phase_ = Phase::kClientFinal;
  return Status::OK();
}

Status ScramSha256Server::HandleClientFinal(std::string_view message, std::string* server_final) {
  if (phase_ != Phase::kClientFinal) return Fail(Malformed("Unexpected client-final-message."));
  // client-final-message: c=<cbind>,r=<nonce>[,extensions],p=<proof>
  const size_t proof_at = message.rfind(",p=");
  if (proof_at == std::string_view::npos) return Fail(Malformed("Could not find the proof in client-final-message."));
  const std::string_view without_proof = message.substr(0, proof_at);
  const std::vector<std::string_view> parts = SplitCommas(without_proof);
  std::string_view value;
  if (!IsAttribute(parts[0], 'c', &value)) return Fail(ExpectedAttribute('c', "client-final-message", parts[0]));
  std::string channel_binding;
  if (!Base64Decode(value, &channel_binding)) return Fail(Malformed("Invalid channel-binding data."));
  if (channel_binding != gs2_header_) return Fail(Status(kProtocolViolation, "SCRAM channel binding check failed"));
  if (parts.size() < 2 || !IsAttribute(parts[1], 'r', &value)) {
    return Fail(ExpectedAttribute('r', "client-final-message", parts.size() < 2 ? "" : parts[1]));
  }
  const std::string_view final_nonce = value;
  for (size_t i = 2; i < parts.size(); ++i) {
    if (!IsExtension(parts[i])) return Fail(Malformed("Garbage in client-final-message."));
  }
  std::string proof;
  if (!Base64Decode(message.substr(proof_at + 3), &proof) || proof.size() != kSha256Size) {
    return Fail(Malformed("Malformed proof in client-final-message."));
  }

  // Every step is computed whether or not an earlier one failed, so the
  // time taken does not tell a wrong nonce or a mock exchange apart.
  const std::string auth_message = client_first_bare_ + "," + server_first_ + "," + std::string(without_proof);
  const std::string client_signature = HmacSha256(secret_.stored_key, auth_message);
  std::string client_key(kSha256Size, '\0');
  for (size_t i = 0; i < kSha256Size; ++i) client_key[i] = static_cast<char>(proof[i] ^ client_signature[i]);
  const bool proof_ok = ConstantTimeEquals(Sha256(client_key), secret_.stored_key);
  const bool nonce_ok = final_nonce == nonce_;
  if (!proof_ok || !nonce_ok || mock_) return AuthenticationFailed();

  *server_final = "v=" + Base64Encode(HmacSha256(secret_.server_key, auth_message));
  phase_ = Phase::kDone;
  return Status::OK();
}

Status ScramSha256Server::Step(std::string_view client_message, std::string* server_message, bool* done) {
  *done = false;
  switch (phase_) {
    case Phase::kClientFirst:
      return HandleClientFirst(client_message, server_message);
    case Phase::kClientFinal: {
      Status s = HandleClientFinal(client_message, server_message);
      *done = s.ok();
      return s;
    }
    case Phase::kDone:
    case Phase::kFailed:
      break;
  }
  return Fail(Malformed("The SCRAM exchange is over."));
}

}  // namespace paceline::server
