#include "server/wire_result_sink.h"

#include "server/pg_value_codec.h"

namespace paceline::server {

void WireResultSink::Warning(const Status& warning) { writer_->Notice(warning, Severity::kWarning); }

void WireResultSink::Columns(const std::vector<ResultColumn>& columns, const std::vector<int16_t>& formats) {
  writer_->RowDescription(columns, formats);
}

Status WireResultSink::Row(const std::vector<Value>& row, const std::vector<ResultColumn>& columns,
                           const std::vector<int16_t>& formats) {
  PL_RETURN_IF_ERROR(writer_->DataRow(row, columns, formats));
  return FlushIfLarge();
}

void WireResultSink::Complete(std::string_view command_tag) { writer_->CommandComplete(command_tag); }

void WireResultSink::Suspended() { writer_->PortalSuspended(); }

void WireResultSink::EmptyQuery() { writer_->EmptyQueryResponse(); }

void WireResultSink::Error(const Status& error) { writer_->Error(error); }

void WireResultSink::ParseComplete() { writer_->ParseComplete(); }

void WireResultSink::BindComplete() { writer_->BindComplete(); }

void WireResultSink::CloseComplete() { writer_->CloseComplete(); }

void WireResultSink::Parameters(const std::vector<Type>& types) { writer_->ParameterDescription(types); }

void WireResultSink::NoData() { writer_->NoData(); }

void WireResultSink::CopyOutStart(size_t columns) { writer_->CopyOutResponse(columns); }

Status WireResultSink::CopyOutLine(std::string_view line) {
  writer_->CopyData(line);
  return FlushIfLarge();
}

void WireResultSink::CopyOutDone() { writer_->CopyDone(); }

Status WireResultSink::CopyInStart(size_t columns) {
  writer_->CopyInResponse(columns);
  return flush_();
}

Status WireResultSink::DecodeParameter(std::string_view bytes, int16_t format, const Type& type, Value* out) {
  return server::DecodeParameter(bytes, format, type, out);
}

Status WireResultSink::ReadCopyData(std::string* data, bool* done) {
  for (;;) {
    char type = 0;
    PL_RETURN_IF_ERROR(reader_->ReadMessage(&type, data));
    switch (type) {
      case 'd':
        *done = false;
        return Status::OK();
      case 'c':
        *done = true;
        return Status::OK();
      case 'f': {
        Body b(*data);
        std::string_view message;
        (void)b.CString(&message);
        return Status(sqlstate::kQueryCanceled, "COPY from stdin failed: " + std::string(message));
      }
      case 'H': case 'S':
        break;  // ignored during COPY IN, as PostgreSQL does
      default:
        discarding_copy_ = true;
        return Status(kProtocolViolation, "unexpected message type " + std::to_string(static_cast<unsigned char>(type)) +
                                              " during COPY from stdin");
    }
  }
}

Status WireResultSink::FlushIfLarge() {
  if (writer_->size() < kFlushBytes) return Status::OK();
  return flush_();
}

}  // namespace paceline::server
