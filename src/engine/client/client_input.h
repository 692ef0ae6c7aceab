// ClientInput: what the engine needs from the client's protocol layer to
// take a request's input — a parameter value in the client's wire format,
// and the data of a COPY FROM STDIN. The wire formats and messages are the
// protocol's, so decoding and reading stay there (server::WireResultSink
// implements it with pg_value_codec.h and the connection's MessageReader).
//
// Thread-safety: called only on the thread that runs the client's request.
// Ownership: the caller owns it; the engine borrows it for one call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
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

  // COPY FROM STDIN (after ResultSink::CopyInStart): the client's next
  // data into *data (*done false), or the end of its data (*done true).
  // The client's failing the COPY is 57014; a message that does not belong
  // to a COPY is 08P01 (and the client's remaining COPY messages are then
  // dropped); a connection that breaks gives its error.
  virtual Status ReadCopyData(std::string* data, bool* done) = 0;
  // The COPY failed before the client's end of data: its remaining COPY
  // messages are dropped.
  virtual void DiscardCopyData() = 0;
  // The longest COPY line accepted (bounded like one protocol message, so
  // that a client cannot grow a line without limit).
  virtual size_t MaxCopyLineBytes() const = 0;
};

}  // namespace paceline::engine
