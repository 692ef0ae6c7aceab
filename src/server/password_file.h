// PasswordFile: the users paceline-server --auth=scram-sha-256 accepts, read
// once from a text file of lines
//
//   # a comment
//   alice:correct horse battery staple
//   bob:SCRAM-SHA-256$4096:<salt>$<StoredKey>:<ServerKey>
//
// A line is a user name, ':', then the secret: everything after the first
// ':' up to the end of the line, verbatim (spaces included; a trailing CR is
// dropped). A secret starting with "SCRAM-SHA-256$" is a stored verifier in
// PostgreSQL's pg_authid form (scram_secret.h), so the file need not hold
// passwords in clear; anything else is a plain password, turned into a
// verifier with a random salt when the file is read. Blank lines and lines
// whose first non-blank character is '#' are ignored.
//
// Errors (F0000, PostgreSQL's config_file_error) name the file and line: a
// line without ':', an empty user name or password, a user name with
// blanks at either end, a user listed twice, a malformed verifier. A file
// that cannot be read → 58P01 naming it.
//
// Thread-safety: immutable once loaded; Find and NewExchange may be called
// from any number of threads at once. Exchanges copy what they need and may
// outlive the PasswordFile.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "server/sasl_mechanism.h"
#include "server/scram_secret.h"

namespace paceline::server {

class PasswordFile {
 public:
  // Reads the file at `path`.
  static Status Load(const std::string& path, std::unique_ptr<PasswordFile>* out);
  // Reads `contents` already in memory; `name` stands for the file in
  // error messages.
  static Status Parse(std::string_view contents, std::string_view name, std::unique_ptr<PasswordFile>* out);

  // The secret of `user`, or nullptr when the file does not list it.
  const ScramSecret* Find(std::string_view user) const;
  size_t size() const { return users_.size(); }

  // The server side of one SCRAM-SHA-256 exchange for `user`: a real one, or
  // for a user the file does not list a mock one that fails at the end like
  // a wrong password. Never nullptr; fits ServerOptions::sasl.
  std::unique_ptr<SaslMechanism> NewExchange(const std::string& user) const;

 private:
  PasswordFile() = default;

  std::map<std::string, ScramSecret, std::less<>> users_;
  std::string mock_key_;  // random per PasswordFile: salts of unknown users
};

}  // namespace paceline::server
