// ClientInput: what the engine needs from the client's protocol layer to
// take a request's input — a parameter value in the client's wire format.
// The wire formats are the protocol's, so decoding stays there
// (server::WireResultSink implements it with pg_value_codec.h).
//
// Thread-safety: called only on the thread that runs the client's request.
// Ownership: the caller owns it; the engine borrows it for one call.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline::engine {

class ClientInput {
 public:
  virtual ~ClientInput() = default;
  // Decodes a non-NULL parameter sent in `format` (0 text, 1 binary) as a
  // value of `type` (kUnknown: text). An error is the Bind's error.
  virtual Status DecodeParameter(std::string_view bytes, int16_t format, const Type& type, Value* out) = 0;
};

}  // namespace paceline::engine
