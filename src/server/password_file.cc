#include "server/password_file.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "server/scram_crypto.h"
#include "server/scram_sha256.h"

namespace paceline::server {

namespace {

Status LineError(std::string_view name, size_t line, std::string message) {
  return Status(sqlstate::kConfigFileError, std::string(name) + ":" + std::to_string(line) + ": " + std::move(message));
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

Status PasswordFile::Load(const std::string& path, std::unique_ptr<PasswordFile>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(sqlstate::kUndefinedFile, "could not open password file \"" + path + "\"");
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return Status(sqlstate::kUndefinedFile, "could not read password file \"" + path + "\"");
  return Parse(contents.str(), path, out);
}

Status PasswordFile::Parse(std::string_view contents, std::string_view name, std::unique_ptr<PasswordFile>* out) {
  std::unique_ptr<PasswordFile> file(new PasswordFile());
  PL_RETURN_IF_ERROR(RandomBytes(kSha256Size, &file->mock_key_));
  size_t line_number = 0;
  while (!contents.empty()) {
    ++line_number;
    const size_t newline = contents.find('\n');
    std::string_view line = contents.substr(0, newline);
    contents.remove_prefix(newline == std::string_view::npos ? contents.size() : newline + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    size_t first = 0;
    while (first < line.size() && IsBlank(line[first])) ++first;
    if (first == line.size() || line[first] == '#') continue;

    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return LineError(name, line_number, "expected user:password");
    const std::string_view user = line.substr(0, colon);
    const std::string_view secret_text = line.substr(colon + 1);
    if (user.empty()) return LineError(name, line_number, "empty user name");
    if (IsBlank(user.front()) || IsBlank(user.back())) {
      return LineError(name, line_number, "user name \"" + std::string(user) + "\" begins or ends with a blank");
    }
    if (secret_text.empty()) return LineError(name, line_number, "empty password for user \"" + std::string(user) + "\"");
    if (file->users_.count(user)) {
      return LineError(name, line_number, "user \"" + std::string(user) + "\" is listed more than once");
    }
    ScramSecret secret;
    Status s = secret_text.starts_with(kScramSecretPrefix) ? ParseScramSecret(secret_text, &secret)
                                                           : MakeScramSecret(secret_text, &secret);
    if (!s.ok()) return LineError(name, line_number, s.message());
    file->users_.emplace(std::string(user), std::move(secret));
  }
  *out = std::move(file);
  return Status::OK();
}

const ScramSecret* PasswordFile::Find(std::string_view user) const {
  auto it = users_.find(user);
  return it == users_.end() ? nullptr : &it->second;
}

std::unique_ptr<SaslMechanism> PasswordFile::NewExchange(const std::string& user) const {
  if (const ScramSecret* secret = Find(user)) return std::make_unique<ScramSha256Server>(user, *secret);
  return ScramSha256Server::ForUnknownUser(user, mock_key_);
}

}  // namespace paceline::server
