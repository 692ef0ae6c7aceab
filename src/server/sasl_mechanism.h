// SaslMechanism: the server side of one SASL authentication exchange
// (SCRAM-SHA-256 is the one PostgreSQL clients speak), as the connection
// drives it: AuthenticationSASL(Name()) → the client's initial response →
// Step → AuthenticationSASLContinue → the client's next message → Step → ...
// until Step reports done (AuthenticationSASLFinal with the last message,
// then AuthenticationOk) or fails (FATAL 28P01, connection closed).
//
// This is the hook that plugs a mechanism (e.g. ScramSha256Server) into the
// protocol layer, which knows nothing of its cryptography.
//
// Thread-safety: one exchange per object, used by one connection thread.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline::server {

class SaslMechanism {
 public:
  virtual ~SaslMechanism() = default;
  // The mechanism name sent in AuthenticationSASL ("SCRAM-SHA-256").
  virtual std::string_view Name() const = 0;
  // Consumes one client message (the initial response's data, then each
  // SASLResponse) and produces the server's answer in *server_message.
  // *done = true: the client is authenticated and *server_message is the
  // final message (AuthenticationSASLFinal). A failed Status (28P01 for a
  // wrong password or unknown user, 08P01 for a malformed message) ends the
  // exchange.
  virtual Status Step(std::string_view client_message, std::string* server_message, bool* done) = 0;
};

}  // namespace paceline::server
