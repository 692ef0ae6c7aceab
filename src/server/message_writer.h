// MessageWriter: builds PostgreSQL protocol v3 backend messages (1-byte type,
// int32 big-endian length that counts itself, body) into an output buffer
// that the connection sends when it flushes. Nothing here touches a socket.
//
// Row values go through the value codec (pg_value_codec.h): text (format 0)
// or binary (format 1) per column.
//
// Thread-safety: one writer per connection, used by one thread at a time.
// Ownership: owns its buffer; borrows nothing beyond each call.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"
#include "common/query_result.h"
#include "server/sqlstate_counts.h"

namespace paceline::server {

// ErrorResponse / NoticeResponse severities (fields S and V).
enum class Severity { kError, kFatal, kNotice, kWarning };

class MessageWriter {
 public:
  // Raw building blocks: Begin(type) ... Add* ... End() frames one message.
  void Begin(char type);
  void End();
  void AddInt16(int16_t v);
  void AddInt32(int32_t v);
  void AddBytes(std::string_view bytes);
  void AddCString(std::string_view s);  // the bytes, then a NUL

  // Authentication ('R').
  void AuthenticationOk();
  void AuthenticationSasl(std::string_view mechanism);
  void AuthenticationSaslContinue(std::string_view data);
  void AuthenticationSaslFinal(std::string_view data);
  // 'v': the newest minor version of 3 supported (0) and the protocol
  // options ("_pq_.x") not recognised.
  void NegotiateProtocolVersion(const std::vector<std::string>& unrecognized);
  void ParameterStatus(std::string_view name, std::string_view value);
  // NotificationResponse: LISTEN's asynchronous message.
  void NotificationResponse(int32_t pid, std::string_view channel, std::string_view payload);
  void BackendKeyData(int32_t pid, int32_t secret);
  // 'Z' with 'I' (idle), 'T' (in a block) or 'E' (in a failed block).
  void ReadyForQuery(char status);

  // 'E' / 'N' with fields S, V, C, M, then D (detail), P (position in the
  // query text), W (context) when present.
  // An ERROR or FATAL one is counted in the counts given to CountErrorsIn.
  void Error(const Status& status, Severity severity = Severity::kError, std::string_view where = {});
  void CountErrorsIn(SqlStateCounts* counts) { error_counts_ = counts; }
  void Notice(const Status& status, Severity severity = Severity::kNotice);

  // 'T': one field per column, with its format (formats: none = all text,
  // one = all that, else one per column).
  void RowDescription(const std::vector<ResultColumn>& columns, const std::vector<int16_t>& formats);
  // 'D': one row; a value that cannot be encoded gives its Status (and
  // nothing is appended).
  Status DataRow(const std::vector<Value>& row, const std::vector<ResultColumn>& columns,
                 const std::vector<int16_t>& formats);
  void CommandComplete(std::string_view tag);
  void EmptyQueryResponse();
  void ParseComplete();
  void BindComplete();
  void CloseComplete();
  void NoData();
  void PortalSuspended();
  // 't': the OID of each parameter type.
  void ParameterDescription(const std::vector<Type>& types);

  // COPY: 'G' / 'H' (text format, `columns` columns), 'd', 'c'.
  void CopyInResponse(size_t columns);
  void CopyOutResponse(size_t columns);
  void CopyData(std::string_view data);
  void CopyDone();

  // The OID a client should see for `type` (unknown → text).
  static uint32_t OidOf(const Type& type);

  std::string& buffer() { return buffer_; }
  size_t size() const { return buffer_.size(); }
  void Clear() { buffer_.clear(); }

 private:
  std::string buffer_;
  SqlStateCounts* error_counts_ = nullptr;  // borrowed (the Server's)
  size_t message_start_ = 0;  // offset of the open message's length field
};

}  // namespace paceline::server
