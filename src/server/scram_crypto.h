// The cryptographic building blocks of SCRAM-SHA-256 (RFC 5802, RFC 7677),
// as thin wrappers over OpenSSL (libssl-dev), plus strict base64 (RFC 4648,
// standard alphabet, with padding), the encoding SCRAM messages and
// PostgreSQL's stored secrets use.
//
// Byte strings are std::string holding raw bytes. All functions are pure
// (RandomBytes aside, which draws from OpenSSL's CSPRNG) and thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline::server {

inline constexpr size_t kSha256Size = 32;

// SHA-256(data): 32 bytes.
std::string Sha256(std::string_view data);
// HMAC-SHA-256(key, data): 32 bytes.
std::string HmacSha256(std::string_view key, std::string_view data);
// SCRAM's Hi(password, salt, iterations) = PBKDF2-HMAC-SHA-256 with a
// 32-byte output (RFC 5802 §2.2, RFC 7677). `iterations` must be ≥ 1.
std::string Pbkdf2Sha256(std::string_view password, std::string_view salt, int iterations);
// `n` bytes from OpenSSL's RAND_bytes; XX000 if it fails (no entropy).
Status RandomBytes(size_t n, std::string* out);
// Byte strings of equal length compared in time independent of their
// contents (CRYPTO_memcmp); false when the lengths differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// Standard base64 with '=' padding.
std::string Base64Encode(std::string_view bytes);
// Strict decoding: the length is a multiple of 4, only the standard
// alphabet, padding only at the end, no whitespace; the unused bits of the
// last character are zero. False (and *out unspecified) otherwise.
bool Base64Decode(std::string_view text, std::string* out);

}  // namespace paceline::server
