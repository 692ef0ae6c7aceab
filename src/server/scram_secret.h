// ScramSecret: what a server stores to check a SCRAM-SHA-256 password
// without storing the password (RFC 5802 §3), in PostgreSQL's pg_authid
// text form
//
//   SCRAM-SHA-256$<iterations>:<salt base64>$<StoredKey base64>:<ServerKey base64>
//
// so a secret taken from PostgreSQL (SELECT rolpassword FROM pg_authid) works
// here, and one made here works there. From a password p:
//   SaltedPassword = PBKDF2-HMAC-SHA-256(p, salt, iterations)
//   StoredKey = SHA-256(HMAC(SaltedPassword, "Client Key"))
//   ServerKey = HMAC(SaltedPassword, "Server Key")
//
// The password is used as its bytes. PostgreSQL first normalizes it with
// SASLprep, which changes nothing for ASCII passwords (and, for the rest,
// nothing when the password is already in NFKC form without non-ASCII
// spaces or ignorable characters); Paceline does not implement SASLprep.
//
// ScramSecret is a plain value type; the functions are thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline::server {

struct ScramSecret {
  static constexpr int kDefaultIterations = 4096;  // PostgreSQL's scram_iterations default
  static constexpr size_t kDefaultSaltBytes = 16;  // PostgreSQL's SCRAM_DEFAULT_SALT_LEN

  int iterations = kDefaultIterations;
  std::string salt;        // raw bytes
  std::string stored_key;  // raw, 32 bytes
  std::string server_key;  // raw, 32 bytes
};

// The prefix that marks a SCRAM-SHA-256 secret (vs. a plain password).
inline constexpr std::string_view kScramSecretPrefix = "SCRAM-SHA-256$";

// Parses the pg_authid form. Anything else (wrong prefix, a missing '$' or
// ':', iterations not a positive decimal integer, bad base64, an empty salt,
// keys that are not 32 bytes) → 22023 naming what is wrong.
Status ParseScramSecret(std::string_view text, ScramSecret* out);
// The pg_authid form of `secret`.
std::string FormatScramSecret(const ScramSecret& secret);

// Derives the secret of `password` with the given salt (raw bytes) and
// iteration count (≥ 1; else 22023). An empty password → 22023, as
// PostgreSQL refuses to build a SCRAM secret for one.
Status MakeScramSecret(std::string_view password, std::string_view salt, int iterations, ScramSecret* out);
// Same with a fresh random 16-byte salt and 4096 iterations.
Status MakeScramSecret(std::string_view password, ScramSecret* out);

}  // namespace paceline::server
