// Connection: an extended-protocol batch up to Sync that holds a whole
// transaction ([BEGIN] DML... [COMMIT]) goes to the scheduler as one
// TransactionRequest (see connection.h); its replies are written in
// protocol order once it has finished.
#include "server/connection.h"

#include "engine/client/request_errors.h"
#include "engine/sql/statement_kind.h"
#include "server/connection_internal.h"

namespace paceline::server {

using connection_internal::DecodeParse;
using engine::FailedCall;

bool Connection::TrySubmitBatch() {
  if (!client_->SubmitAllowed() || pending_.empty()) return false;
  // Dry run: which statements and portals the batch would use; it must be
  // [BEGIN] DML... [COMMIT], every portal bound in the batch and run once,
  // to completion, with no Close.
  std::map<std::string, StatementEntry> parsed;
  std::map<std::string, const StatementEntry*> bound;
  std::map<std::string, bool> executed;
  bool begin = false, commit = false;
  size_t dml = 0;
  for (const auto& m : pending_) {
    Body b(m.body);
    std::string_view name, other;
    switch (m.type) {
      case 'P': {
        if (!DecodeParse(m.body, &parse_).ok()) return false;
        const std::string parse_name(parse_.name);
        if (!parse_name.empty() && (names().FindStatement(parse_name) != nullptr || parsed.count(parse_name))) {
          return false;
        }
        StatementEntry entry;
        if (!names().Prepare(parse_.text, parse_.declared, &entry).ok() || !entry.submittable) return false;
        parsed[parse_name] = std::move(entry);
        break;
      }
      case 'B': {
        if (!b.CString(&name).ok() || !b.CString(&other).ok()) return false;
        const StatementEntry* entry = nullptr;
        auto p = parsed.find(std::string(other));
        if (p != parsed.end()) {
          entry = &p->second;
        } else {
          entry = names().FindStatement(other);
          if (entry == nullptr) return false;
        }
        if (!entry->submittable) return false;
        if (!name.empty() && (names().FindPortal(name) != nullptr || bound.count(std::string(name)))) return false;
        bound[std::string(name)] = entry;
        executed[std::string(name)] = false;
        break;
      }
      case 'D': {
        if (!b.Bytes(1, &other).ok() || !b.CString(&name).ok()) return false;
        if (other[0] == 'P' && !bound.count(std::string(name))) return false;
        if (other[0] == 'S' && !parsed.count(std::string(name)) && names().FindStatement(name) == nullptr) return false;
        break;
      }
      case 'E': {
        int32_t max_rows = 0;
        if (!b.CString(&name).ok() || !b.Int32(&max_rows).ok() || max_rows != 0) return false;
        auto p = bound.find(std::string(name));
        if (p == bound.end() || executed[std::string(name)]) return false;
        executed[std::string(name)] = true;
        const sql::PreparedStatement& ps = *p->second->prepared;
        if (sql::IsDml(ps.kind)) {
          if (commit) return false;
          ++dml;
        } else if (sql::IsPlainBegin(ps.ast.get())) {
          if (begin || dml > 0) return false;
          begin = true;
        } else if (sql::IsTransaction(ps.ast.get(), sql::TransactionKind::kCommit)) {
          if (commit || !begin) return false;
          commit = true;
        } else {
          return false;
        }
        break;
      }
      default:
        return false;  // Close
    }
  }
  if (dml == 0 || begin != commit) return false;

  // Build the replies in order, with each Execute's reply left for later.
  deferring_ = true;
  deferred_.clear();
  deferred_calls_.clear();
  const size_t batch_start = writer_.size();
  Status s;
  for (const auto& m : pending_) {
    switch (m.type) {
      case 'P': s = HandleParse(m.body); break;
      case 'B': s = HandleBind(m.body); break;
      case 'D': s = HandleDescribe(m.body); break;
      case 'E': s = HandleExecute(m.body, false); break;
      default: break;
    }
    if (!s.ok()) break;
  }
  deferring_ = false;
  if (!s.ok()) {
    // Nothing ran: the implicit transaction is rolled back as a whole.
    sink_.Error(s);
    deferred_.clear();
    deferred_calls_.clear();
    return true;
  }
  const size_t n = deferred_calls_.size();
  engine::TransactionRequest request = engine::TransactionRequest::Statements(std::move(deferred_calls_));
  request.cancel = session()->cancel_token();  // outlives the wait below
  engine::TransactionResult r = db_->Run(std::move(request));
  deferred_calls_.clear();
  const size_t failed = r.committed() ? n + 1 : FailedCall(r, n);
  std::string built = writer_.buffer().substr(0, batch_start);
  std::string batch = writer_.buffer().substr(batch_start);
  writer_.Clear();
  writer_.buffer() = std::move(built);
  size_t copied = 0;
  bool stopped = false;
  bool failed_in_block = false;
  for (const Deferred& d : deferred_) {
    writer_.buffer().append(batch, copied, d.offset - batch_start - copied);
    copied = d.offset - batch_start;
    if (d.call < 0) {
      if (d.tag == "COMMIT" && !r.committed()) {
        sink_.Error(r.status);  // the commit failed (retries ran out)
        stopped = true;
        break;
      }
      sink_.Complete(d.tag);
      continue;
    }
    const size_t call = static_cast<size_t>(d.call);
    if (call == failed) {
      sink_.Error(r.status);
      failed_in_block = begin;
      stopped = true;
      break;
    }
    Portal portal;  // the portal as it was bound (a later Bind may have replaced it)
    portal.result = std::move(r.results[call]);
    portal.result_formats = d.formats;
    Status sent = SendPortalRows(&portal, 0);
    if (!sent.ok()) {
      sink_.Error(sent);
      stopped = true;
      break;
    }
  }
  if (!stopped) {
    writer_.buffer().append(batch, copied, std::string::npos);
    if (!r.committed() && failed == n) sink_.Error(r.status);  // the implicit commit failed
  }
  deferred_.clear();
  if (failed_in_block) session()->EnterFailedBlock();
  return true;
}
}  // namespace paceline::server
