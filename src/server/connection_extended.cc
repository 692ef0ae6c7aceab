// Connection: the extended query protocol (see connection.h): Parse,
// Bind, Describe, Execute and Close are buffered up to Sync or Flush, then
// decoded into one engine::PipelineRequest that the ClientSession runs.
#include "server/connection.h"

#include <algorithm>

#include "server/pg_value_codec.h"

namespace paceline::server {

namespace {

// A Parse message's body: its name, text and declared parameter types
// (OIDs, through TypeFromOid; 0 or a type Paceline lacks is kUnknown).
// The views borrow `body`.
Status DecodeParse(std::string_view body, engine::ParseMessage* out) {
  Body b(body);
  int16_t count = 0;
  out->declared.clear();
  PL_RETURN_IF_ERROR(b.CString(&out->name));
  PL_RETURN_IF_ERROR(b.CString(&out->text));
  PL_RETURN_IF_ERROR(b.Int16(&count));
  for (int16_t i = 0; i < count; ++i) {
    int32_t oid = 0;
    PL_RETURN_IF_ERROR(b.Int32(&oid));
    Type t;
    if (oid == 0 || !TypeFromOid(static_cast<uint32_t>(oid), &t)) t = Type(TypeId::kUnknown);
    out->declared.push_back(t);
  }
  return Status::OK();
}

// A Bind message's fields in order, as far as `b` holds them (see
// engine::BindMessage::malformed).
Status DecodeBindFields(Body* b, engine::BindMessage* out) {
  PL_RETURN_IF_ERROR(b->CString(&out->portal));
  PL_RETURN_IF_ERROR(b->CString(&out->statement));
  int16_t format_count = 0;
  PL_RETURN_IF_ERROR(b->Int16(&format_count));
  out->param_formats.resize(static_cast<size_t>(std::max<int16_t>(format_count, 0)));
  for (auto& f : out->param_formats) PL_RETURN_IF_ERROR(b->Int16(&f));
  PL_RETURN_IF_ERROR(b->Int16(&out->param_count));
  out->header_complete = true;
  for (int16_t i = 0; i < out->param_count; ++i) {
    int32_t length = 0;
    PL_RETURN_IF_ERROR(b->Int32(&length));
    if (length < 0) {
      out->params.emplace_back();  // NULL
      continue;
    }
    std::string_view bytes;
    PL_RETURN_IF_ERROR(b->Bytes(static_cast<size_t>(length), &bytes));
    out->params.emplace_back(bytes);
  }
  int16_t result_count = 0;
  PL_RETURN_IF_ERROR(b->Int16(&result_count));
  for (int16_t i = 0; i < result_count; ++i) {
    int16_t f = 0;
    PL_RETURN_IF_ERROR(b->Int16(&f));
    out->result_formats.push_back(f);
  }
  return Status::OK();
}


// One buffered message into `request`; an error when it is malformed.
Status DecodeMessage(char type, std::string_view body, engine::PipelineRequest* request) {
  Body b(body);
  switch (type) {
    case 'P': {
      Status s = DecodeParse(body, &request->AddParse());
      if (!s.ok()) request->DropLast();
      return s;
    }
    case 'B': {
      engine::BindMessage& bind = request->AddBind();
      bind.malformed = DecodeBindFields(&b, &bind);  // reported where Bind reaches it
      return Status::OK();
    }
    case 'D':
    case 'C': {
      std::string_view target;
      std::string_view name;
      PL_RETURN_IF_ERROR(b.Bytes(1, &target));
      PL_RETURN_IF_ERROR(b.CString(&name));
      engine::DescribeMessage& m = request->AddDescribe(type);
      m.target = target[0];
      m.name = name;
      return Status::OK();
    }
    case 'E': {
      std::string_view portal;
      int32_t max_rows = 0;
      PL_RETURN_IF_ERROR(b.CString(&portal));
      PL_RETURN_IF_ERROR(b.Int32(&max_rows));
      engine::ExecuteMessage& m = request->AddExecute();
      m.portal = portal;
      m.max_rows = max_rows;
      return Status::OK();
    }
    default:
      return Status::OK();
  }
}

}  // namespace

void Connection::ProcessPending(bool sync) {
  request_.Clear(sync);
  if (!skip_until_sync_) {
    for (const Message& m : pending_) {
      Status s = DecodeMessage(m.type, m.body, &request_);
      if (!s.ok()) {
        request_.SetMalformed(std::move(s));  // reported in its turn; the rest is not run
        break;
      }
    }
  }
  const bool failed = client_->RunPipeline(request_, &sink_, &sink_);
  request_.Clear(sync);  // its views point into pending_
  pending_.clear();
  pending_bytes_ = 0;
  if (!sync) {
    skip_until_sync_ = failed;
    Flush();
    return;
  }
  skip_until_sync_ = false;
  ReadyForQuery();
}

}  // namespace paceline::server
