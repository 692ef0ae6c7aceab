#include "engine/client/scheduled_transaction.h"

#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {

namespace {

// The index of the call that failed in a request of `calls` calls that did
// not commit, or `calls` when they all ran and the commit failed.
size_t FailedCall(const TransactionResult& r, size_t calls) {
  if (r.results.empty()) return 0;
  if (r.results.size() == calls && !r.results.back().command_tag.empty()) return calls;
  return r.results.size() - 1;
}

}  // namespace

bool ScheduledTransaction::Add(Part part) {
  switch (part) {
    case Part::kBegin:
      if (begin_ || dml_ > 0) return false;
      begin_ = true;
      return true;
    case Part::kCommit:
      if (commit_ || !begin_ || dml_ == 0) return false;
      commit_ = true;
      return true;
    case Part::kDml:
      if (commit_) return false;
      ++dml_;
      return true;
    case Part::kOther:
      return false;
  }
  return false;
}

void ScheduledTransaction::Run(std::vector<StatementCall> calls) {
  calls_ = calls.size();
  if (!calls.empty()) {  // a pipeline's first statement stands for it (a Query noted its text already)
    session_->NoteQuery(calls[0].prepared != nullptr ? std::string_view(calls[0].prepared->text)
                                                     : std::string_view(calls[0].sql));
  }
  TransactionRequest request = TransactionRequest::Statements(std::move(calls));
  request.cancel = session_->cancel_token();  // outlives the wait below
  request.sequences = session_->sequences();  // a pipeline keeps its currval
  request.advisory_locks = session_->advisory_locks();
  request.system_info = session_->system_info();
  request.notifier_pid = session_->backend_pid();
  request.activity = session_->activity();
  result_ = db_->Run(std::move(request));
  failed_ = result_.committed() ? calls_ + 1 : FailedCall(result_, calls_);
}

void ScheduledTransaction::FinishFailed() {
  if (begin_ && failed_ < calls_) session_->EnterFailedBlock();
}

}  // namespace paceline::engine
