// Connection: the extended query protocol (see connection.h): Parse,
// Bind, Describe, Execute and Close, buffered up to Sync or Flush, then
// run as one scheduled transaction (connection_pipeline.cc) or message by
// message in the implicit block's rules.
#include "server/connection.h"

#include <algorithm>

#include "engine/client/request_errors.h"
#include "engine/sql/statement_kind.h"
#include "server/connection_internal.h"
#include "server/pg_value_codec.h"

namespace paceline::server {

using connection_internal::DecodeParse;

// ---------------------------------------------------------------- extended query

namespace connection_internal {  // connection_internal.h

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

}  // namespace connection_internal

namespace {

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

}  // namespace

Status Connection::HandleParse(std::string_view body) {
  PL_RETURN_IF_ERROR(DecodeParse(body, &parse_));
  Status s = names().Parse(parse_);
  if (!s.ok()) return engine::CatalogError(s, parse_.text);
  sink_.ParseComplete();
  return Status::OK();
}

Status Connection::HandleBind(std::string_view body) {
  bind_.Clear();
  Body b(body);
  bind_.malformed = DecodeBindFields(&b, &bind_);
  PL_RETURN_IF_ERROR(names().Bind(bind_, &sink_));
  sink_.BindComplete();
  return Status::OK();
}

Status Connection::HandleDescribe(std::string_view body) {
  Body b(body);
  std::string_view kind_bytes, name;
  PL_RETURN_IF_ERROR(b.Bytes(1, &kind_bytes));
  PL_RETURN_IF_ERROR(b.CString(&name));
  if (kind_bytes[0] == 'S') {
    const StatementEntry* entry = nullptr;
    PL_RETURN_IF_ERROR(names().LookupStatement(name, &entry));
    const sql::PreparedStatement& p = *entry->prepared;
    sink_.Parameters(p.param_types);
    if (p.returns_rows) sink_.Columns(p.columns, {});
    else sink_.NoData();
    return Status::OK();
  }
  if (kind_bytes[0] != 'P') return Status(kProtocolViolation, "invalid DESCRIBE message subtype");
  Portal* found = nullptr;
  PL_RETURN_IF_ERROR(names().LookupPortal(name, &found));
  Portal& portal = *found;
  const sql::PreparedStatement& p = *portal.statement.prepared;
  if (p.kind == sql::StatementKind::kShow && !portal.started && !deferring_) {
    // Its columns are known once it runs: run it now (PostgreSQL runs
    // utility statements that return rows when their portal starts).
    StatementRef ref{p.ast.get(), &p, p.kind, p.text};
    bool written = false;
    portal.started = true;
    PL_RETURN_IF_ERROR(client_->RunStatement(ref, portal.params, &portal.result, &written, &sink_, &sink_));
  }
  if (portal.started && portal.result.returns_rows) {
    sink_.Columns(portal.result.columns, portal.result_formats);
  } else if (!portal.started && p.returns_rows) {
    sink_.Columns(p.columns, portal.result_formats);
  } else {
    sink_.NoData();
  }
  return Status::OK();
}

Status Connection::SendPortalRows(Portal* portal, int32_t max_rows) {
  const engine::QueryResult& r = portal->result;
  const std::vector<int16_t>& formats = portal->result_formats;
  if (r.command_tag.empty() && !r.returns_rows) {
    sink_.EmptyQuery();
    portal->finished = true;
    return Status::OK();
  }
  size_t end = r.rows.size();
  const size_t first = portal->next_row;
  if (max_rows > 0) end = std::min(end, first + static_cast<size_t>(max_rows));
  for (size_t i = first; i < end; ++i) {
    PL_RETURN_IF_ERROR(sink_.Row(r.rows[i], r.columns, formats));
  }
  portal->next_row = end;
  // As PostgreSQL: an Execute that returned its full row limit suspends
  // the portal, even if no row is left (the next Execute completes it).
  if (end < r.rows.size() || (max_rows > 0 && end - first == static_cast<size_t>(max_rows))) {
    sink_.Suspended();
    return Status::OK();
  }
  portal->finished = true;
  if (first > 0 || (max_rows > 0 && r.command_tag.rfind("SELECT", 0) == 0)) {
    sink_.Complete("SELECT " + std::to_string(end - first));  // rows of this Execute
  } else {
    sink_.Complete(r.command_tag);
  }
  return Status::OK();
}

Status Connection::HandleExecute(std::string_view body, bool autocommit) {
  Body b(body);
  std::string_view name;
  int32_t max_rows = 0;
  PL_RETURN_IF_ERROR(b.CString(&name));
  PL_RETURN_IF_ERROR(b.Int32(&max_rows));
  Portal* found = nullptr;
  PL_RETURN_IF_ERROR(names().LookupPortal(name, &found));
  Portal& portal = *found;
  const sql::PreparedStatement& p = *portal.statement.prepared;
  if (deferring_) {
    Deferred d;
    d.offset = writer_.size();
    d.formats = portal.result_formats;
    if (sql::IsDml(p.kind)) {
      d.call = static_cast<int>(deferred_calls_.size());
      deferred_calls_.push_back({p.text, portal.params, portal.statement.prepared});
    } else {
      d.tag = sql::IsTransaction(p.ast.get(), sql::TransactionKind::kBegin) ? "BEGIN" : "COMMIT";
    }
    deferred_.push_back(std::move(d));
    portal.started = true;
    return Status::OK();
  }
  if (portal.finished) {
    // Already run to completion: PostgreSQL answers with an empty tag-only
    // completion for a SELECT; keep it simple.
    sink_.Complete(p.returns_rows ? "SELECT 0" : portal.result.command_tag);
    return Status::OK();
  }
  if (!portal.started) {
    StatementRef ref{p.ast.get(), &p, p.kind, p.text};
    if (!autocommit && p.kind != sql::StatementKind::kTransaction && p.kind != sql::StatementKind::kVacuum &&
        p.kind != sql::StatementKind::kCheckpoint && !p.IsEmpty()) {
      // Statements up to Sync form one implicit transaction.
      PL_RETURN_IF_ERROR(session()->BeginImplicitBlock());
    }
    bool written = false;
    portal.started = true;
    Status s = client_->RunStatement(ref, portal.params, &portal.result, &written, &sink_, &sink_);
    if (!s.ok()) {
      portal.finished = true;
      return s;
    }
    if (written) {
      portal.finished = true;
      return Status::OK();
    }
  }
  return SendPortalRows(&portal, max_rows);
}

Status Connection::HandleClose(std::string_view body) {
  Body b(body);
  std::string_view kind_bytes, name;
  PL_RETURN_IF_ERROR(b.Bytes(1, &kind_bytes));
  PL_RETURN_IF_ERROR(b.CString(&name));
  if (kind_bytes[0] == 'S') names().CloseStatement(name);
  else if (kind_bytes[0] == 'P') names().ClosePortal(name);
  else return Status(kProtocolViolation, "invalid CLOSE message subtype");
  sink_.CloseComplete();  // closing what does not exist is not an error
  return Status::OK();
}

void Connection::ProcessPending(bool sync) {
  if (sync && !skip_until_sync_ && TrySubmitBatch()) {
    pending_.clear();
    pending_bytes_ = 0;
    batch_failed_ = false;
    if (client_->state() == engine::TransactionState::kIdle) names().ClearPortals();
    ReadyForQuery();
    return;
  }
  size_t executes = 0;
  for (const auto& m : pending_) executes += m.type == 'E';
  // A lone statement before Sync runs as an autocommit statement (its
  // conflicts are retried); more form one implicit block up to Sync.
  const bool autocommit = sync && executes <= 1 && !session()->in_implicit_block();
  for (auto& m : pending_) {
    if (skip_until_sync_) break;
    Status s;
    switch (m.type) {
      case 'P': s = HandleParse(m.body); break;
      case 'B': s = HandleBind(m.body); break;
      case 'D': s = HandleDescribe(m.body); break;
      case 'E': s = HandleExecute(m.body, autocommit); break;
      case 'C': s = HandleClose(m.body); break;
      default: break;
    }
    if (!s.ok()) {
      sink_.Error(s);
      skip_until_sync_ = true;
      batch_failed_ = true;
      session()->FailOpenBlock();
    }
  }
  pending_.clear();
  pending_bytes_ = 0;
  if (!sync) {
    Flush();
    return;
  }
  skip_until_sync_ = false;
  Status end = session()->EndImplicitBlock(batch_failed_);
  if (!batch_failed_ && !end.ok()) sink_.Error(end);
  batch_failed_ = false;
  if (client_->state() == engine::TransactionState::kIdle) names().ClearPortals();
  ReadyForQuery();
}
}  // namespace paceline::server
