#include "server/scram_secret.h"

#include <charconv>

#include "server/scram_crypto.h"

namespace paceline::server {

namespace {

Status BadSecret(std::string why) {
  return Status(sqlstate::kInvalidParameterValue, "invalid SCRAM-SHA-256 secret: " + std::move(why));
}

// Splits `s` at the first `separator` into *head and *tail; false if absent.
bool SplitAt(std::string_view s, char separator, std::string_view* head, std::string_view* tail) {
  const size_t at = s.find(separator);
  if (at == std::string_view::npos) return false;
  *head = s.substr(0, at);
  *tail = s.substr(at + 1);
  return true;
}

}  // namespace

Status ParseScramSecret(std::string_view text, ScramSecret* out) {
  if (!text.starts_with(kScramSecretPrefix)) return BadSecret("it does not start with \"SCRAM-SHA-256$\"");
  std::string_view rest = text.substr(kScramSecretPrefix.size());
  std::string_view salt_part, keys_part, iterations_text, salt_text, stored_text, server_text;
  if (!SplitAt(rest, '$', &salt_part, &keys_part) || !SplitAt(salt_part, ':', &iterations_text, &salt_text) ||
      !SplitAt(keys_part, ':', &stored_text, &server_text)) {
    return BadSecret("expected SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>");
  }
  ScramSecret s;
  const char* end = iterations_text.data() + iterations_text.size();
  const auto [ptr, ec] = std::from_chars(iterations_text.data(), end, s.iterations);
  if (iterations_text.empty() || ec != std::errc() || ptr != end || s.iterations < 1) {
    return BadSecret("iteration count \"" + std::string(iterations_text) + "\" is not a positive integer");
  }
  if (!Base64Decode(salt_text, &s.salt) || s.salt.empty()) return BadSecret("the salt is not base64");
  if (!Base64Decode(stored_text, &s.stored_key) || s.stored_key.size() != kSha256Size) {
    return BadSecret("StoredKey is not 32 bytes of base64");
  }
  if (!Base64Decode(server_text, &s.server_key) || s.server_key.size() != kSha256Size) {
    return BadSecret("ServerKey is not 32 bytes of base64");
  }
  *out = std::move(s);
  return Status::OK();
}

std::string FormatScramSecret(const ScramSecret& secret) {
  return std::string(kScramSecretPrefix) + std::to_string(secret.iterations) + ":" + Base64Encode(secret.salt) +
         "$" + Base64Encode(secret.stored_key) + ":" + Base64Encode(secret.server_key);
}

Status MakeScramSecret(std::string_view password, std::string_view salt, int iterations, ScramSecret* out) {
  if (password.empty()) return Status(sqlstate::kInvalidParameterValue, "empty password");
  if (iterations < 1) return Status(sqlstate::kInvalidParameterValue, "SCRAM iteration count must be positive");
  const std::string salted = Pbkdf2Sha256(password, salt, iterations);
  out->iterations = iterations;
  out->salt = std::string(salt);
  out->stored_key = Sha256(HmacSha256(salted, "Client Key"));
  out->server_key = HmacSha256(salted, "Server Key");
  return Status::OK();
}

Status MakeScramSecret(std::string_view password, ScramSecret* out) {
  std::string salt;
  PL_RETURN_IF_ERROR(RandomBytes(ScramSecret::kDefaultSaltBytes, &salt));
  return MakeScramSecret(password, salt, ScramSecret::kDefaultIterations, out);
}

}  // namespace paceline::server
