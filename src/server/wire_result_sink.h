// WireResultSink: the engine's results (engine::ResultSink) as PostgreSQL
// protocol v3 backend messages, appended to a connection's MessageWriter —
// RowDescription, DataRow (values encoded by pg_value_codec.h in each
// column's text or binary format), CommandComplete, EmptyQueryResponse,
// ErrorResponse, NoticeResponse (WARNING), ParseComplete, BindComplete,
// CloseComplete, ParameterDescription, NoData, PortalSuspended,
// CopyOutResponse / CopyData / CopyDone and CopyInResponse. As the
// engine's ClientInput it decodes bind parameters from their wire formats
// (pg_value_codec.h).
//
// Flushing: a long result is sent as it grows (whenever the writer holds
// kFlushBytes or more after a row or a COPY line), and CopyInResponse at
// once; everything else stays buffered until the connection flushes.
//
// Thread-safety: as its connection, one thread at a time.
// Ownership: borrows the writer and the flush function, which must outlive
// it (both are its connection's).
#pragma once

#include <cstddef>
#include <functional>

#include "engine/client/client_input.h"
#include "engine/client/result_sink.h"
#include "server/message_writer.h"

namespace paceline::server {

class WireResultSink final : public engine::ResultSink, public engine::ClientInput {
 public:
  // Replies buffered beyond this are sent before the next row or line.
  static constexpr size_t kFlushBytes = 256 * 1024;

  // `flush` sends what `writer` holds.
  WireResultSink(MessageWriter* writer, std::function<Status()> flush)
      : writer_(writer), flush_(std::move(flush)) {}

  void Warning(const Status& warning) override;
  void Columns(const std::vector<engine::ResultColumn>& columns, const std::vector<int16_t>& formats) override;
  Status Row(const std::vector<Value>& row, const std::vector<engine::ResultColumn>& columns,
             const std::vector<int16_t>& formats) override;
  void Complete(std::string_view command_tag) override;
  void Suspended() override;
  void EmptyQuery() override;
  void Error(const Status& error) override;
  void ParseComplete() override;
  void BindComplete() override;
  void CloseComplete() override;
  void Parameters(const std::vector<Type>& types) override;
  void NoData() override;
  void CopyOutStart(size_t columns) override;
  Status CopyOutLine(std::string_view line) override;
  void CopyOutDone() override;
  Status CopyInStart(size_t columns) override;

  Status DecodeParameter(std::string_view bytes, int16_t format, const Type& type, Value* out) override;

 private:
  // Sends the buffered replies once they reach kFlushBytes.
  Status FlushIfLarge();

  MessageWriter* writer_;
  std::function<Status()> flush_;
};

}  // namespace paceline::server
