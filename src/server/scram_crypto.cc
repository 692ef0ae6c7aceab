// OpenSSL's one-shot SHA256, HMAC and PKCS5_PBKDF2_HMAC (none deprecated in
// OpenSSL 3), RAND_bytes and CRYPTO_memcmp; base64 by hand (a few lines,
// stricter than EVP_DecodeBlock, which accepts whitespace and reports
// padding as data).
#include "server/scram_crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace paceline::server {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6-bit value of a base64 character, or -1.
int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

const unsigned char* Bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

std::string Sha256(std::string_view data) {
  std::string out(kSha256Size, '\0');
  SHA256(Bytes(data), data.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  std::string out(kSha256Size, '\0');
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), Bytes(data), data.size(),
       reinterpret_cast<unsigned char*>(out.data()), &length);
  assert(length == kSha256Size);
  return out;
}

std::string Pbkdf2Sha256(std::string_view password, std::string_view salt, int iterations) {
  assert(iterations >= 1);
  std::string out(kSha256Size, '\0');
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), Bytes(salt), static_cast<int>(salt.size()),
                    iterations, EVP_sha256(), static_cast<int>(out.size()),
                    reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

Status RandomBytes(size_t n, std::string* out) {
  out->assign(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out->data()), static_cast<int>(n)) != 1) {
    return InternalError("could not generate random bytes (OpenSSL RAND_bytes failed)");
  }
  return Status::OK();
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (size_t k = 0; k < 3; ++k) {
      group = (group << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    }
    for (size_t k = 0; k < 4; ++k) {
      out += k <= n ? kAlphabet[(group >> (18 - 6 * k)) & 0x3F] : '=';
    }
  }
  return out;
}

bool Base64Decode(std::string_view text, std::string* out) {
  out->clear();
  if (text.size() % 4 != 0) return false;
  out->reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    size_t padding = 0;
    if (last && text[i + 3] == '=') padding = text[i + 2] == '=' ? 2 : 1;
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      int v = 0;
      if (k < 4 - padding) {
        v = Sextet(text[i + k]);
        if (v < 0) return false;  // includes a '=' that is not final padding
      }
      group = (group << 6) | static_cast<uint32_t>(v);
    }
    // Bits beyond the last decoded byte must be zero (canonical form).
    if (padding == 2 && (group & 0xFFFF) != 0) return false;
    if (padding == 1 && (group & 0xFF) != 0) return false;
    for (size_t k = 0; k < 3 - padding; ++k) out->push_back(static_cast<char>((group >> (16 - 8 * k)) & 0xFF));
  }
  return true;
}

}  // namespace paceline::server
