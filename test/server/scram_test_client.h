// TestScramClient: the client side of SCRAM-SHA-256 (RFC 5802) for tests,
// written straight against OpenSSL (EVP_EncodeBlock, PKCS5_PBKDF2_HMAC,
// HMAC, SHA256) and not against the server's own helpers, so the tests check
// the server against an independent computation. It speaks as libpq does:
// "n,,n=,r=<nonce>", then "c=biws,r=<nonce>,p=<proof>" (c= being the base64
// of the gs2 header "n,,").
//
// Not thread-safe; one exchange per object.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <string>
#include <string_view>

namespace paceline::server::scram_test {

inline std::string OpenSslBase64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

inline std::string OpenSslUnbase64(std::string_view text) {
  std::string out(3 * (text.size() / 4) + 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return "<bad base64>";
  size_t size = static_cast<size_t>(n);
  for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --size;  // EVP counts padding as data
  out.resize(size);
  return out;
}

inline std::string OpenSslHmac(std::string_view key, std::string_view data) {
  unsigned char md[32];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), md, &length);
  return std::string(reinterpret_cast<char*>(md), length);
}

inline std::string OpenSslSha256(std::string_view data) {
  unsigned char md[32];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), md);
  return std::string(reinterpret_cast<char*>(md), 32);
}

class TestScramClient {
 public:
  // `gs2_header` "n,," as libpq sends it, or "y,," (could bind channels).
  TestScramClient(std::string password, std::string nonce, std::string gs2_header = "n,,")
      : password_(std::move(password)), nonce_(std::move(nonce)), gs2_header_(std::move(gs2_header)) {}

  std::string ClientFirst() const { return gs2_header_ + "n=,r=" + nonce_; }

  // From the server-first-message "r=...,s=...,i=...", the client-final-message
  // (with `nonce_override`, when not empty, in place of the server's nonce).
  // "" when the server's message does not parse.
  std::string ClientFinal(const std::string& server_first, const std::string& nonce_override = "") {
    const size_t s_at = server_first.find(",s=");
    const size_t i_at = server_first.find(",i=");
    if (!server_first.starts_with("r=") || s_at == std::string::npos || i_at == std::string::npos) return "";
    const std::string nonce = server_first.substr(2, s_at - 2);
    if (!nonce.starts_with(nonce_)) return "";
    const std::string salt = OpenSslUnbase64(server_first.substr(s_at + 3, i_at - s_at - 3));
    const int iterations = std::stoi(server_first.substr(i_at + 3));
    unsigned char salted[32];
    PKCS5_PBKDF2_HMAC(password_.data(), static_cast<int>(password_.size()),
                      reinterpret_cast<const unsigned char*>(salt.data()), static_cast<int>(salt.size()), iterations,
                      EVP_sha256(), 32, salted);
    const std::string salted_password(reinterpret_cast<char*>(salted), 32);
    const std::string client_key = OpenSslHmac(salted_password, "Client Key");
    server_key_ = OpenSslHmac(salted_password, "Server Key");
    const std::string without_proof = "c=" + OpenSslBase64(gs2_header_) + ",r=" + (nonce_override.empty() ? nonce : nonce_override);
    auth_message_ = "n=,r=" + nonce_ + "," + server_first + "," + without_proof;
    const std::string signature = OpenSslHmac(OpenSslSha256(client_key), auth_message_);
    std::string proof = client_key;
    for (size_t i = 0; i < proof.size(); ++i) proof[i] = static_cast<char>(proof[i] ^ signature[i]);
    return without_proof + ",p=" + OpenSslBase64(proof);
  }

  // The server-final-message the server must send: "v=<ServerSignature>".
  std::string ExpectedServerFinal() const { return "v=" + OpenSslBase64(OpenSslHmac(server_key_, auth_message_)); }

 private:
  std::string password_;
  std::string nonce_;
  std::string gs2_header_;
  std::string server_key_;
  std::string auth_message_;
};

}  // namespace paceline::server::scram_test
