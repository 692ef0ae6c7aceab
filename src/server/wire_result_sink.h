// WireResultSink: the engine's results (engine::ResultSink) as PostgreSQL
// protocol v3 backend messages, appended to a connection's MessageWriter —
// RowDescription, DataRow (values encoded by pg_value_codec.h in each
// column's text or binary format), CommandComplete, EmptyQueryResponse,
// ErrorResponse, NoticeResponse (WARNING), ParseComplete, BindComplete,
// CloseComplete, ParameterDescription, NoData, PortalSuspended,
// CopyOutResponse / CopyData / CopyDone and CopyInResponse. As the
// engine's ClientInput it decodes bind parameters from their wire formats
// (pg_value_codec.h) and reads a COPY FROM's CopyData, CopyDone and
// CopyFail from the connection's MessageReader.
//
// Flushing: a long result is sent as it grows (whenever the writer holds
// kFlushBytes or more after a row or a COPY line), and CopyInResponse at
// once; everything else stays buffered until the connection flushes.
//
// Thread-safety: as its connection, one thread at a time.
// Ownership: borrows the writer, the reader and the flush function, which
// must outlive it (all are its connection's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "engine/client/client_input.h"
#include "engine/client/result_sink.h"
#include "server/message_reader.h"
#include "server/message_writer.h"

namespace paceline::server {

class WireResultSink final : public engine::ResultSink, public engine::ClientInput {
 public:
  // Replies buffered beyond this are sent before the next row or line.
  static constexpr size_t kFlushBytes = 256 * 1024;

  // `flush` sends what `writer` holds; a COPY line may be up to
  // `max_copy_line_bytes` long.
  WireResultSink(MessageWriter* writer, MessageReader* reader, size_t max_copy_line_bytes,
                 std::function<Status()> flush)
      : writer_(writer), reader_(reader), max_copy_line_bytes_(max_copy_line_bytes), flush_(std::move(flush)) {}

  void Warning(const Status& warning) override;
  void Columns(const std::vector<ResultColumn>& columns, const std::vector<int16_t>& formats) override;
  Status Row(const std::vector<Value>& row, const std::vector<ResultColumn>& columns,
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
  // CopyData, CopyDone; CopyFail is 57014; Flush and Sync are ignored, as
  // PostgreSQL does; any other message is 08P01.
  Status ReadCopyData(std::string* data, bool* done) override;
  void DiscardCopyData() override { discarding_copy_ = true; }
  size_t MaxCopyLineBytes() const override { return max_copy_line_bytes_; }

  // After a COPY FROM that failed before the client's CopyDone: the
  // connection drops the client's CopyData, CopyDone and CopyFail until
  // another message comes, then calls EndCopyDiscard.
  bool discarding_copy() const { return discarding_copy_; }
  void EndCopyDiscard() { discarding_copy_ = false; }

 private:
  // Sends the buffered replies once they reach kFlushBytes.
  Status FlushIfLarge();

  MessageWriter* writer_;
  MessageReader* reader_;
  const size_t max_copy_line_bytes_;
  std::function<Status()> flush_;
  bool discarding_copy_ = false;
};

}  // namespace paceline::server
