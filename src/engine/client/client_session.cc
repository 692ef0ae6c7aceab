#include "engine/client/client_session.h"

#include "engine/client/copy_statement.h"
#include "engine/client/pipeline_runner.h"
#include "engine/client/query_runner.h"
#include "engine/client/result_sink.h"
#include "engine/client/statement_ref.h"
#include "engine/database.h"
#include "engine/session.h"
#include "sql/prepared_statement.h"

namespace paceline::engine {

ClientSession::ClientSession(Database* db) : db_(db), session_(db->CreateSession()), names_(session_.get()) {}

ClientSession::~ClientSession() = default;

void ClientSession::RunQuery(std::string_view text, ResultSink* sink, ClientInput* input) {
  session_->NoteQuery(text);
  QueryRunner(this, db_, session_.get(), sink, input).Run(text);
}

bool ClientSession::RunPipeline(const PipelineRequest& request, ResultSink* sink, ClientInput* input) {
  PipelineRunner(this, db_, session_.get(), &names_, sink, input, &pipeline_failed_).Run(request);
  return pipeline_failed_;
}

Status ClientSession::RunStatement(const StatementRef& ref, const std::vector<Value>& params, QueryResult* result,
                                   bool* written, ResultSink* sink, ClientInput* input) {
  *written = false;
  if (ref.kind == sql::StatementKind::kSet || ref.kind == sql::StatementKind::kTransaction) settings_changed_ = true;
  Status s = RunStatementHere(ref, params, result, written, sink, input);
  if (!s.ok()) session_->FailOpenBlock();  // PostgreSQL: an error in a block fails it
  for (const Status& warning : result->warnings) sink->Warning(warning);
  result->warnings.clear();  // reported once (EXECUTE runs its statement through here too)
  return s;
}

Status ClientSession::RunStatementHere(const StatementRef& ref, const std::vector<Value>& params,
                                       QueryResult* result, bool* written, ResultSink* sink, ClientInput* input) {
  if (ref.kind == sql::StatementKind::kCopy && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    PL_RETURN_IF_ERROR(CopyStatement(session_.get(), *ref.ast->copy).Run(sink, input));
    *written = true;
    return Status::OK();
  }
  if (ref.kind == sql::StatementKind::kDiscard && ref.ast != nullptr &&
      ref.ast->discard->target == sql::DiscardTarget::kAll && session_->state() == TransactionState::kIdle) {
    // The client's part of DISCARD ALL: its prepared statements (the
    // session resets its settings below). Outside a block no portal
    // outlives its Sync but the one running this statement.
    names_.DiscardAll();
  }
  if (ref.kind == sql::StatementKind::kDeallocate && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    result->Clear();
    return names_.Deallocate(ref.ast->deallocate->name, &result->command_tag);
  }
  if (ref.kind == sql::StatementKind::kPrepare && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    result->Clear();
    PL_RETURN_IF_ERROR(names_.SqlPrepare(*ref.ast->prepare));
    result->command_tag = "PREPARE";
    return Status::OK();
  }
  if (ref.kind == sql::StatementKind::kExecute && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    std::shared_ptr<const sql::PreparedStatement> prepared;  // kept alive while it runs
    std::vector<Value> args;
    PL_RETURN_IF_ERROR(names_.SqlExecute(*ref.ast->execute, &prepared, &args));
    StatementRef executed{prepared->ast.get(), prepared.get(), prepared->kind, prepared->text};
    return RunStatement(executed, args, result, written, sink, input);
  }
  if (ref.prepared != nullptr) return session_->ExecutePrepared(*ref.prepared, params, result);
  return session_->Execute(ref.text, params, result);
}

bool ClientSession::SubmitAllowed() const {
  if (db_->workers() == 0) return false;
  if (session_->state() != TransactionState::kIdle) return false;
  std::string read_only;
  if (session_->GetSetting("default_transaction_read_only", &read_only).ok() && read_only == "on") return false;
  return true;
}

void ClientSession::BeginRequest() { session_->BeginRequest(); }

void ClientSession::EndRequest() { session_->EndRequest(); }

void ClientSession::Cancel() { session_->Cancel(); }

TransactionState ClientSession::state() const { return session_->state(); }

Status ClientSession::GetSetting(std::string_view name, std::string* value) const {
  return session_->GetSetting(name, value);
}

Status ClientSession::SetSetting(std::string_view name, std::string value) {
  return session_->SetSetting(name, std::move(value));
}

bool ClientSession::TakeSettingsChanged() {
  const bool changed = settings_changed_;
  settings_changed_ = false;
  return changed;
}

void ClientSession::SetBackendPid(int32_t pid) { session_->SetBackendPid(pid); }

void ClientSession::SetClient(std::string address, int32_t port) { session_->SetClient(std::move(address), port); }

void ClientSession::SetServer(std::string address, int32_t port) { session_->SetServer(std::move(address), port); }

void ClientSession::SetTerminator(std::function<void()> terminator) { session_->SetTerminator(std::move(terminator)); }

void ClientSession::SetIdentity(std::string user, std::string database) {
  session_->SetIdentity(std::move(user), std::move(database));
}

std::vector<Notification> ClientSession::TakeNotifications() { return session_->TakeNotifications(); }

void ClientSession::SetNotificationWaker(std::function<void()> waker) {
  session_->SetNotificationWaker(std::move(waker));
}

}  // namespace paceline::engine
