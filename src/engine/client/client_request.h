// The extended protocol's Parse and Bind messages as plain values, decoded
// by the protocol layer from the wire and carried out by the engine
// (PreparedNamespace). Every string_view borrows the caller's message
// buffer and must stay valid for the call it is passed to. A caller that
// decodes many messages reuses one value of each (Clear keeps the vectors'
// capacity), so decoding allocates nothing once warm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"

namespace paceline::engine {

// The format (0 text, 1 binary) of field i under a message's format codes:
// none means all text, one applies to every field, else one per field.
inline int16_t FormatOf(const std::vector<int16_t>& formats, size_t i) {
  if (formats.empty()) return 0;
  if (formats.size() == 1) return formats[0];
  return i < formats.size() ? formats[i] : 0;
}

// Parse: prepare `text` as statement `name` ("" the unnamed one).
struct ParseMessage {
  std::string_view name;
  std::string_view text;
  // The parameter types the client declared, $1 first; kUnknown where it
  // left the type to the server (OID 0, or a type Paceline does not have).
  std::vector<Type> declared;
};

// Bind: portal `portal` ("" the unnamed one) from statement `statement`
// with parameter values, and the result formats for its rows.
struct BindMessage {
  std::string_view portal;
  std::string_view statement;
  std::vector<int16_t> param_formats;
  int16_t param_count = 0;  // as the message states it
  // The parameter values the message holds, in the wire's bytes (decoded
  // by ClientInput against the statement's types); nullopt is NULL.
  std::vector<std::optional<std::string_view>> params;
  std::vector<int16_t> result_formats;
  // A message that ends early or is malformed is decoded as far as it
  // goes; `malformed` is the error where it stopped, reported when Bind
  // reaches that field (so an unknown statement or a bad value before it
  // is reported first, as it would be by reading the message in order).
  // `header_complete`: the fields up to param_count were all decoded.
  Status malformed;
  bool header_complete = false;

  void Clear() {
    portal = {};
    statement = {};
    param_formats.clear();
    param_count = 0;
    params.clear();
    result_formats.clear();
    malformed = Status::OK();
    header_complete = false;
  }
};

}  // namespace paceline::engine
