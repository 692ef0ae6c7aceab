#include "engine/client/pipeline_runner.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/client/client_session.h"
#include "engine/client/request_errors.h"
#include "engine/client/result_sink.h"
#include "engine/client/statement_ref.h"
#include "engine/client/scheduled_transaction.h"
#include "engine/session.h"
#include "sql/prepared_statement.h"
#include "sql/statement_kind.h"

namespace paceline::engine {

namespace {

using StatementEntry = PreparedNamespace::StatementEntry;

ScheduledTransaction::Part PartOf(const sql::PreparedStatement& p) {
  using Part = ScheduledTransaction::Part;
  if (sql::IsDml(p.kind)) return Part::kDml;
  if (sql::IsPlainBegin(p.ast.get())) return Part::kBegin;
  if (sql::IsTransaction(p.ast.get(), sql::TransactionKind::kCommit)) return Part::kCommit;
  return Part::kOther;
}

// A reply of a scheduled pipeline, reported once its transaction has run.
struct Reply {
  char type;  // 'P' ParseComplete, 'B' BindComplete, 'S' / 'D' a statement's / portal's Describe, 'E' Execute
  std::shared_ptr<const sql::PreparedStatement> statement;  // 'S', 'D', 'E'
  std::vector<int16_t> formats;                              // 'D', 'E': the portal's result formats
  int call = -1;                                             // 'E' of DML: its index in the request
};

}  // namespace

void PipelineRunner::Run(const PipelineRequest& request) {
  if (request.sync() && !*failed_ && TrySubmit(request)) {
    if (session_->state() == TransactionState::kIdle) names_->ClearPortals();
    return;
  }
  size_t executes = 0;
  for (const auto& step : request.steps()) executes += step.type == 'E';
  // A lone statement before Sync runs as an autocommit statement (its
  // conflicts are retried); more form one implicit block up to Sync.
  const bool autocommit = request.sync() && executes <= 1 && !session_->in_implicit_block();
  for (const auto& step : request.steps()) {
    if (*failed_) break;
    Status s;
    switch (step.type) {
      case 'P': s = Parse(request.parse(step)); break;
      case 'B':
        s = names_->Bind(request.bind(step), input_);
        if (s.ok()) sink_->BindComplete();
        break;
      case 'D': s = Describe(request.describe(step)); break;
      case 'E': s = Execute(request.execute(step), autocommit); break;
      case 'C': s = Close(request.describe(step)); break;
      default: break;
    }
    if (!s.ok()) Fail(s);
  }
  if (!*failed_ && !request.malformed().ok()) Fail(request.malformed());
  if (!request.sync()) return;
  Status end = session_->EndImplicitBlock(*failed_);
  if (!*failed_ && !end.ok()) sink_->Error(end);
  *failed_ = false;
  if (session_->state() == TransactionState::kIdle) names_->ClearPortals();
}

void PipelineRunner::Fail(const Status& error) {
  sink_->Error(error);
  *failed_ = true;
  session_->FailOpenBlock();
}

bool PipelineRunner::TrySubmit(const PipelineRequest& request) {
  if (!request.malformed().ok() || request.steps().empty() || !client_->SubmitAllowed()) return false;
  // Dry run: the statements and portals it would use. Each Parse is
  // prepared here, and stored as prepared by the replay below.
  std::vector<StatementEntry> prepared;                     // by Parse, in order
  std::map<std::string_view, size_t> parsed;                // name -> its latest Parse in `prepared`
  struct Bound {
    const StatementEntry* statement;
    bool executed;
  };
  std::map<std::string_view, Bound> bound;  // portal -> its statement, and whether it ran
  size_t parses = 0;
  for (const auto& step : request.steps()) parses += step.type == 'P';
  prepared.reserve(parses);  // `bound` points into it
  ScheduledTransaction transaction(db_, session_);
  for (const auto& step : request.steps()) {
    switch (step.type) {
      case 'P': {
        const ParseMessage& m = request.parse(step);
        if (!m.name.empty() && (names_->FindStatement(m.name) != nullptr || parsed.count(m.name))) return false;
        StatementEntry entry;
        if (!names_->Prepare(m.text, m.declared, &entry).ok()) return false;
        parsed[m.name] = prepared.size();
        prepared.push_back(std::move(entry));
        break;
      }
      case 'B': {
        const BindMessage& m = request.bind(step);
        if (!m.malformed.ok()) return false;
        auto p = parsed.find(m.statement);
        const StatementEntry* entry = p != parsed.end() ? &prepared[p->second] : names_->FindStatement(m.statement);
        if (entry == nullptr) return false;
        if (!m.portal.empty() && (names_->FindPortal(m.portal) != nullptr || bound.count(m.portal))) return false;
        bound[m.portal] = {entry, false};
        break;
      }
      case 'D': {
        const DescribeMessage& m = request.describe(step);
        if (m.target == 'P' && !bound.count(m.name)) return false;
        if (m.target == 'S' && !parsed.count(m.name) && names_->FindStatement(m.name) == nullptr) return false;
        if (m.target != 'S' && m.target != 'P') return false;
        break;
      }
      case 'E': {
        const ExecuteMessage& m = request.execute(step);
        if (m.max_rows != 0) return false;
        auto p = bound.find(m.portal);
        if (p == bound.end() || p->second.executed) return false;
        p->second.executed = true;
        if (!transaction.Add(PartOf(*p->second.statement->prepared))) return false;
        break;
      }
      default:
        return false;  // Close
    }
  }
  if (!transaction.complete()) return false;

  // Replay: the statements stored and the portals bound (an error here
  // runs nothing), the replies kept for after the run.
  std::vector<Reply> replies;
  replies.reserve(request.steps().size());
  std::vector<StatementCall> calls;
  size_t parse_index = 0;
  Status s;
  for (const auto& step : request.steps()) {
    switch (step.type) {
      case 'P':
        names_->Store(request.parse(step).name, std::move(prepared[parse_index++]));
        replies.push_back({'P', nullptr, {}, -1});
        break;
      case 'B':
        s = names_->Bind(request.bind(step), input_);
        replies.push_back({'B', nullptr, {}, -1});
        break;
      case 'D': {
        const DescribeMessage& m = request.describe(step);
        if (m.target == 'S') {
          replies.push_back({'S', names_->FindStatement(m.name)->prepared, {}, -1});
        } else {
          const Portal* portal = names_->FindPortal(m.name);
          replies.push_back({'D', portal->statement.prepared, portal->result_formats, -1});
        }
        break;
      }
      case 'E': {
        Portal* portal = names_->FindPortal(request.execute(step).portal);
        portal->started = true;
        const auto& statement = portal->statement.prepared;
        if (sql::IsDml(statement->kind)) {
          replies.push_back({'E', statement, portal->result_formats, static_cast<int>(calls.size())});
          calls.push_back({statement->text, portal->params, statement});
        } else {
          replies.push_back({'E', statement, {}, -1});
        }
        break;
      }
      default: break;
    }
    if (!s.ok()) {
      replies.pop_back();
      break;
    }
  }
  // Reports a reply that is not an Execute's; false for an Execute's.
  auto report_step = [this](const Reply& reply) {
    switch (reply.type) {
      case 'P': sink_->ParseComplete(); return true;
      case 'B': sink_->BindComplete(); return true;
      case 'S': DescribeStatement(*reply.statement); return true;
      case 'D':
        if (reply.statement->returns_rows) sink_->Columns(reply.statement->columns, reply.formats);
        else sink_->NoData();
        return true;
      default: return false;
    }
  };
  if (!s.ok()) {
    // Nothing ran: the implicit transaction is rolled back as a whole.
    for (const Reply& reply : replies) report_step(reply);
    sink_->Error(s);
    return true;
  }

  const size_t n = calls.size();
  transaction.Run(std::move(calls));
  TransactionResult& r = transaction.result();
  const size_t failed = transaction.failed();
  for (const Reply& reply : replies) {
    if (report_step(reply)) continue;
    if (reply.call < 0) {  // BEGIN or COMMIT
      const bool begin = PartOf(*reply.statement) == ScheduledTransaction::Part::kBegin;
      if (!begin && !r.committed()) {
        sink_->Error(r.status);  // the commit failed (retries ran out)
        return true;
      }
      sink_->Complete(begin ? "BEGIN" : "COMMIT");
      continue;
    }
    const size_t call = static_cast<size_t>(reply.call);
    if (call == failed) {
      sink_->Error(r.status);
      transaction.FinishFailed();
      return true;
    }
    Portal portal;  // the portal as it was bound (a later Bind may have replaced it)
    portal.result = std::move(r.results[call]);
    portal.result_formats = reply.formats;
    Status sent = ReportRows(&portal, 0);
    if (!sent.ok()) {
      sink_->Error(sent);
      return true;
    }
  }
  if (!r.committed() && failed == n) sink_->Error(r.status);  // the implicit commit failed
  return true;
}

Status PipelineRunner::Parse(const ParseMessage& parse) {
  Status s = names_->Parse(parse);
  if (!s.ok()) return s;
  sink_->ParseComplete();
  return Status::OK();
}

void PipelineRunner::DescribeStatement(const sql::PreparedStatement& p) {
  sink_->Parameters(p.param_types);
  if (p.returns_rows) sink_->Columns(p.columns, {});
  else sink_->NoData();
}

Status PipelineRunner::Describe(const DescribeMessage& describe) {
  if (describe.target == 'S') {
    const StatementEntry* entry = nullptr;
    PL_RETURN_IF_ERROR(names_->LookupStatement(describe.name, &entry));
    DescribeStatement(*entry->prepared);
    return Status::OK();
  }
  if (describe.target != 'P') return Status(sqlstate::kProtocolViolation, "invalid DESCRIBE message subtype");
  Portal* portal = nullptr;
  PL_RETURN_IF_ERROR(names_->LookupPortal(describe.name, &portal));
  const sql::PreparedStatement& p = *portal->statement.prepared;
  if (p.kind == sql::StatementKind::kShow && !portal->started) {
    // Its columns are known once it runs: run it now.
    StatementRef ref{p.ast.get(), &p, p.kind, p.text};
    bool written = false;
    portal->started = true;
    PL_RETURN_IF_ERROR(client_->RunStatement(ref, portal->params, &portal->result, &written, sink_, input_));
  }
  if (portal->started && portal->result.returns_rows) {
    sink_->Columns(portal->result.columns, portal->result_formats);
  } else if (!portal->started && p.returns_rows) {
    sink_->Columns(p.columns, portal->result_formats);
  } else {
    sink_->NoData();
  }
  return Status::OK();
}

Status PipelineRunner::Execute(const ExecuteMessage& execute, bool autocommit) {
  Portal* portal = nullptr;
  PL_RETURN_IF_ERROR(names_->LookupPortal(execute.portal, &portal));
  const sql::PreparedStatement& p = *portal->statement.prepared;
  if (portal->finished) {
    // Already run to completion: PostgreSQL answers with an empty tag-only
    // completion for a SELECT.
    sink_->Complete(p.returns_rows ? "SELECT 0" : portal->result.command_tag);
    return Status::OK();
  }
  if (!portal->started) {
    StatementRef ref{p.ast.get(), &p, p.kind, p.text};
    if (!autocommit && p.kind != sql::StatementKind::kTransaction && p.kind != sql::StatementKind::kVacuum &&
        p.kind != sql::StatementKind::kCheckpoint && !p.IsEmpty()) {
      // Statements up to Sync form one implicit transaction.
      PL_RETURN_IF_ERROR(session_->BeginImplicitBlock());
    }
    bool written = false;
    portal->started = true;
    Status s = client_->RunStatement(ref, portal->params, &portal->result, &written, sink_, input_);
    if (!s.ok() || written) {
      portal->finished = true;
      return s;
    }
  }
  return ReportRows(portal, execute.max_rows);
}

Status PipelineRunner::ReportRows(Portal* portal, int32_t max_rows) {
  const QueryResult& r = portal->result;
  const std::vector<int16_t>& formats = portal->result_formats;
  if (r.command_tag.empty() && !r.returns_rows) {
    sink_->EmptyQuery();
    portal->finished = true;
    return Status::OK();
  }
  size_t end = r.rows.size();
  const size_t first = portal->next_row;
  if (max_rows > 0) end = std::min(end, first + static_cast<size_t>(max_rows));
  for (size_t i = first; i < end; ++i) {
    PL_RETURN_IF_ERROR(sink_->Row(r.rows[i], r.columns, formats));
  }
  portal->next_row = end;
  // As PostgreSQL: an Execute that returned its full row limit suspends
  // the portal, even if no row is left (the next Execute completes it).
  if (end < r.rows.size() || (max_rows > 0 && end - first == static_cast<size_t>(max_rows))) {
    sink_->Suspended();
    return Status::OK();
  }
  portal->finished = true;
  if (first > 0 || (max_rows > 0 && r.command_tag.rfind("SELECT", 0) == 0)) {
    sink_->Complete("SELECT " + std::to_string(end - first));  // rows of this Execute
  } else {
    sink_->Complete(r.command_tag);
  }
  return Status::OK();
}

Status PipelineRunner::Close(const CloseMessage& close) {
  if (close.target == 'S') names_->CloseStatement(close.name);
  else if (close.target == 'P') names_->ClosePortal(close.name);
  else return Status(sqlstate::kProtocolViolation, "invalid CLOSE message subtype");
  sink_->CloseComplete();  // closing what does not exist is not an error
  return Status::OK();
}

}  // namespace paceline::engine
