#include "engine/client/query_runner.h"

#include <memory>

#include "common/cancel_token.h"
#include "common/utf8.h"
#include "engine/client/client_session.h"
#include "engine/client/request_errors.h"
#include "engine/client/result_sink.h"
#include "engine/client/statement_ref.h"
#include "engine/client/scheduled_transaction.h"
#include "engine/database.h"
#include "engine/session.h"
#include "sql/literal_parameterizer.h"
#include "sql/parser.h"
#include "sql/prepared_statement.h"
#include "sql/statement_kind.h"

namespace paceline::engine {

namespace {

const std::vector<int16_t> kTextFormats;  // a Query's results are text

}  // namespace

void QueryRunner::Run(std::string_view text) {
  // Lexed once: split at its semicolons, each statement parameterized.
  std::vector<sql::ScriptStatement> parts;
  std::vector<sql::ParameterizedStatement> normalized;
  const bool literals = db_->options().parameterize_literals;
  if (sql::LiteralParameterizer::SplitScript(text, &parts, literals ? &normalized : nullptr)) {
    if (literals && TrySubmitUnparsed(text, parts, normalized)) return;
    // One statement that is DML or transaction control (inside a block,
    // or a transaction the scheduler does not take): prepared from its
    // text, and libpg_query never sees it unless the cache misses.
    if (parts.size() == 1 && parts[0].kind != sql::ScriptStatement::Kind::kOther) {
      RunUnparsed(text, parts[0], literals ? &normalized[0] : nullptr);
      return;
    }
  }
  std::vector<std::unique_ptr<sql::Statement>> statements;
  Status s = sql::Parse(text, &statements);
  if (!s.ok()) {
    sink_->Error(s);
    session_->FailOpenBlock();
    return;
  }
  if (statements.empty()) {
    sink_->EmptyQuery();
    return;
  }
  parts.clear();  // the statements as parsed
  for (const auto& statement : statements) {
    sql::ScriptStatement part;
    part.text = statement->text;
    part.offset = static_cast<size_t>(statement->location);
    using Kind = sql::ScriptStatement::Kind;
    part.kind = sql::IsPlainBegin(statement.get())                                       ? Kind::kBegin
                : sql::IsTransaction(statement.get(), sql::TransactionKind::kCommit) ? Kind::kCommit
                : sql::IsDml(statement->kind)                                          ? Kind::kDml
                                                                                       : Kind::kOther;
    parts.push_back(part);
  }
  if (TrySubmitScript(text, parts)) return;
  size_t failed;
  s = session_->RunStatements(
      statements.size(), [&](size_t i) { return RunParsed(*statements[i]); }, &failed);
  if (s.ok()) return;
  if (failed < statements.size()) s = Shift(s, Utf8CharPosition(text, statements[failed]->location) - 1);
  sink_->Error(s);
}

bool QueryRunner::TrySubmitUnparsed(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                                    const std::vector<sql::ParameterizedStatement>& normalized) {
  for (size_t i = 0; i < parts.size(); ++i) {
    // DML whose literals parameterize is what the engine runs on a cached
    // plan; a DML text without literals, or anything unusual, is parsed.
    if (parts[i].kind == sql::ScriptStatement::Kind::kOther) return false;
    if (parts[i].kind == sql::ScriptStatement::Kind::kDml && normalized[i].text.empty()) return false;
  }
  return TrySubmitScript(text, parts, &normalized);
}

bool QueryRunner::TrySubmitScript(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                                  const std::vector<sql::ParameterizedStatement>* normalized) {
  using Kind = sql::ScriptStatement::Kind;
  using Part = ScheduledTransaction::Part;
  if (parts.empty() || !client_->SubmitAllowed()) return false;
  ScheduledTransaction transaction(db_, session_);
  for (const sql::ScriptStatement& part : parts) {
    const Part p = part.kind == Kind::kBegin ? Part::kBegin
                   : part.kind == Kind::kCommit ? Part::kCommit
                   : part.kind == Kind::kDml    ? Part::kDml
                                                : Part::kOther;
    if (!transaction.Add(p)) return false;
  }
  if (!transaction.complete()) return false;
  std::vector<StatementCall> calls;
  std::vector<int> offsets;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].kind != Kind::kDml) continue;
    StatementCall call{std::string(parts[i].text), {}};
    // Prepared here from its normalized text, so the engine lexes nothing.
    // (Else the engine prepares the text itself, and reports its error.)
    if (normalized != nullptr && !session_->PrepareNormalized((*normalized)[i], &call.prepared, &call.params)) {
      call.prepared = nullptr;
      call.params.clear();
    }
    calls.push_back(std::move(call));
    offsets.push_back(Utf8CharPosition(text, static_cast<int>(parts[i].offset)) - 1);
  }
  const size_t n = calls.size();
  transaction.Run(std::move(calls));
  TransactionResult& r = transaction.result();
  if (transaction.begin()) sink_->Complete("BEGIN");
  const size_t failed = transaction.failed();
  for (size_t i = 0; i < n && i < failed; ++i) {
    Status s = Report(r.results[i]);
    if (!s.ok()) {
      sink_->Error(s);
      return true;
    }
  }
  if (r.committed()) {
    if (transaction.commit()) sink_->Complete("COMMIT");
    return true;
  }
  sink_->Error(failed < n ? Shift(r.status, offsets[failed]) : r.status);
  transaction.FinishFailed();
  return true;
}

void QueryRunner::RunUnparsed(std::string_view text, const sql::ScriptStatement& part,
                              const sql::ParameterizedStatement* normalized) {
  // One statement, in the rules of a Query message (RunStatements): no
  // implicit block of its own, but it ends one a pipeline left open before
  // it (unsynced Parse/Bind/Execute), and an error fails the open block.
  size_t failed;
  Status s = session_->RunStatements(
      1,
      [&](size_t) {
        std::shared_ptr<const sql::PreparedStatement> prepared;
        std::vector<Value> params;
        if (normalized == nullptr || normalized->text.empty() ||
            !session_->PrepareNormalized(*normalized, &prepared, &params)) {
          params.clear();
          PL_RETURN_IF_ERROR(session_->Prepare(part.text, {}, &prepared));
        }
        StatementRef ref;
        ref.prepared = prepared.get();
        ref.kind = prepared->kind;
        ref.text = part.text;
        QueryResult result;
        bool written = false;
        PL_RETURN_IF_ERROR(client_->RunStatement(ref, params, &result, &written, sink_, input_));
        return written ? Status::OK() : Report(result);
      },
      &failed);
  if (s.ok()) return;
  if (failed == 0) s = Shift(s, Utf8CharPosition(text, static_cast<int>(part.offset)) - 1);
  sink_->Error(s);
}

Status QueryRunner::RunParsed(const sql::Statement& statement) {
  StatementRef ref;
  ref.ast = &statement;
  ref.kind = statement.kind;
  ref.text = statement.text;
  QueryResult result;
  bool written = false;
  PL_RETURN_IF_ERROR(client_->RunStatement(ref, {}, &result, &written, sink_, input_));
  if (written) return Status::OK();
  return Report(result);
}

Status QueryRunner::Report(const QueryResult& result) {
  if (result.command_tag.empty() && !result.returns_rows) {
    sink_->EmptyQuery();
    return Status::OK();
  }
  if (result.returns_rows) {
    sink_->Columns(result.columns, kTextFormats);
    for (const auto& row : result.rows) PL_RETURN_IF_ERROR(sink_->Row(row, result.columns, kTextFormats));
  }
  sink_->Complete(result.command_tag);
  return Status::OK();
}

}  // namespace paceline::engine
