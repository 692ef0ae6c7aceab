// MessageWriter: backend message encoding (see message_writer.h).
#include "server/message_writer.h"

#include "common/array_value.h"

#include "engine/client/client_request.h"
#include "server/pg_value_codec.h"

namespace paceline::server {

void MessageWriter::Begin(char type) {
  buffer_.push_back(type);
  message_start_ = buffer_.size();
  buffer_.append(4, '\0');  // patched by End
}

void MessageWriter::End() {
  const uint32_t length = static_cast<uint32_t>(buffer_.size() - message_start_);
  for (int i = 0; i < 4; ++i) buffer_[message_start_ + i] = static_cast<char>((length >> (24 - 8 * i)) & 0xff);
}

void MessageWriter::AddInt16(int16_t v) {
  const uint16_t u = static_cast<uint16_t>(v);
  buffer_.push_back(static_cast<char>(u >> 8));
  buffer_.push_back(static_cast<char>(u & 0xff));
}

void MessageWriter::AddInt32(int32_t v) {
  const uint32_t u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) buffer_.push_back(static_cast<char>((u >> shift) & 0xff));
}

void MessageWriter::AddBytes(std::string_view bytes) { buffer_.append(bytes); }

void MessageWriter::AddCString(std::string_view s) {
  buffer_.append(s);
  buffer_.push_back('\0');
}

void MessageWriter::AuthenticationOk() {
  Begin('R');
  AddInt32(0);
  End();
}

void MessageWriter::AuthenticationSasl(std::string_view mechanism) {
  Begin('R');
  AddInt32(10);
  AddCString(mechanism);
  buffer_.push_back('\0');  // end of the list
  End();
}

void MessageWriter::AuthenticationSaslContinue(std::string_view data) {
  Begin('R');
  AddInt32(11);
  AddBytes(data);
  End();
}

void MessageWriter::AuthenticationSaslFinal(std::string_view data) {
  Begin('R');
  AddInt32(12);
  AddBytes(data);
  End();
}

void MessageWriter::NegotiateProtocolVersion(const std::vector<std::string>& unrecognized) {
  Begin('v');
  AddInt32(3 << 16);  // 3.0
  AddInt32(static_cast<int32_t>(unrecognized.size()));
  for (const auto& name : unrecognized) AddCString(name);
  End();
}

void MessageWriter::ParameterStatus(std::string_view name, std::string_view value) {
  Begin('S');
  AddCString(name);
  AddCString(value);
  End();
}

void MessageWriter::NotificationResponse(int32_t pid, std::string_view channel, std::string_view payload) {
  Begin('A');
  AddInt32(pid);
  AddCString(channel);
  AddCString(payload);
  End();
}

void MessageWriter::BackendKeyData(int32_t pid, int32_t secret) {
  Begin('K');
  AddInt32(pid);
  AddInt32(secret);
  End();
}

void MessageWriter::ReadyForQuery(char status) {
  Begin('Z');
  buffer_.push_back(status);
  End();
}

namespace {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "ERROR";
    case Severity::kFatal: return "FATAL";
    case Severity::kNotice: return "NOTICE";
    case Severity::kWarning: return "WARNING";
  }
  return "ERROR";
}

}  // namespace

void MessageWriter::Error(const Status& status, Severity severity, std::string_view where) {
  Begin(severity == Severity::kError || severity == Severity::kFatal ? 'E' : 'N');
  const char* name = SeverityName(severity);
  buffer_.push_back('S');
  AddCString(name);
  buffer_.push_back('V');
  AddCString(name);
  buffer_.push_back('C');
  const std::string_view code = status.ok() ? sqlstate::kInternalError : status.sqlstate();
  AddCString(code);
  if (error_counts_ != nullptr && (severity == Severity::kError || severity == Severity::kFatal)) error_counts_->Add(code);
  buffer_.push_back('M');
  AddCString(status.message());
  if (!status.detail().empty()) {
    buffer_.push_back('D');
    AddCString(status.detail());
  }
  if (status.position() > 0) {
    buffer_.push_back('P');
    AddCString(std::to_string(status.position()));
  }
  if (!where.empty()) {
    buffer_.push_back('W');
    AddCString(where);
  }
  buffer_.push_back('\0');
  End();
}

void MessageWriter::Notice(const Status& status, Severity severity) { Error(status, severity); }

uint32_t MessageWriter::OidOf(const Type& type) {
  return type.id == TypeId::kUnknown ? 25 : type.Oid();  // an untyped literal is sent as text
}

void MessageWriter::RowDescription(const std::vector<ResultColumn>& columns,
                                   const std::vector<int16_t>& formats) {
  Begin('T');
  AddInt16(static_cast<int16_t>(columns.size()));
  for (size_t i = 0; i < columns.size(); ++i) {
    const Type& type = columns[i].type;
    AddCString(columns[i].name);
    AddInt32(0);  // table OID: none (Paceline has no pg_class)
    AddInt16(0);  // attribute number
    AddInt32(static_cast<int32_t>(OidOf(type)));
    AddInt16(type.id == TypeId::kUnknown ? int16_t{-1} : type.WireSize());
    AddInt32(type.id == TypeId::kUnknown ? -1 : type.WireModifier());
    AddInt16(engine::FormatOf(formats, i));
  }
  End();
}

Status MessageWriter::DataRow(const std::vector<Value>& row, const std::vector<ResultColumn>& columns,
                              const std::vector<int16_t>& formats) {
  const size_t start = buffer_.size();
  Begin('D');
  AddInt16(static_cast<int16_t>(row.size()));
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i].is_null()) {
      AddInt32(-1);
      continue;
    }
    const int16_t format = engine::FormatOf(formats, i);
    const size_t length_at = buffer_.size();
    AddInt32(0);
    const size_t value_at = buffer_.size();
    if (format == 0) {
      // PostgreSQL's text output (a column's type says which, for the
      // int2vector and oidvector arrays).
      if (i < columns.size() && columns[i].type.vector) {
        AppendTextAs(row[i], columns[i].type, &buffer_);
      } else {
        row[i].AppendTo(&buffer_);
      }
    } else {
      const Type type = i < columns.size() ? columns[i].type : Type(row[i].type());
      Status s = EncodeResult(row[i], type, format, &buffer_);
      if (!s.ok()) {
        buffer_.resize(start);
        return s;
      }
    }
    const uint32_t length = static_cast<uint32_t>(buffer_.size() - value_at);
    for (int b = 0; b < 4; ++b) buffer_[length_at + b] = static_cast<char>((length >> (24 - 8 * b)) & 0xff);
  }
  End();
  return Status::OK();
}

void MessageWriter::CommandComplete(std::string_view tag) {
  Begin('C');
  AddCString(tag);
  End();
}

void MessageWriter::EmptyQueryResponse() {
  Begin('I');
  End();
}

void MessageWriter::ParseComplete() {
  Begin('1');
  End();
}

void MessageWriter::BindComplete() {
  Begin('2');
  End();
}

void MessageWriter::CloseComplete() {
  Begin('3');
  End();
}

void MessageWriter::NoData() {
  Begin('n');
  End();
}

void MessageWriter::PortalSuspended() {
  Begin('s');
  End();
}

void MessageWriter::ParameterDescription(const std::vector<Type>& types) {
  Begin('t');
  AddInt16(static_cast<int16_t>(types.size()));
  for (const Type& t : types) AddInt32(static_cast<int32_t>(OidOf(t)));
  End();
}

void MessageWriter::CopyInResponse(size_t columns) {
  Begin('G');
  buffer_.push_back('\0');  // text
  AddInt16(static_cast<int16_t>(columns));
  for (size_t i = 0; i < columns; ++i) AddInt16(0);
  End();
}

void MessageWriter::CopyOutResponse(size_t columns) {
  Begin('H');
  buffer_.push_back('\0');
  AddInt16(static_cast<int16_t>(columns));
  for (size_t i = 0; i < columns; ++i) AddInt16(0);
  End();
}

void MessageWriter::CopyData(std::string_view data) {
  Begin('d');
  AddBytes(data);
  End();
}

void MessageWriter::CopyDone() {
  Begin('c');
  End();
}

}  // namespace paceline::server
