// ScheduledTransaction: a client's whole transaction handed to the
// scheduler as one TransactionRequest (Database::Run) — the rule both
// protocols share. A simple Query's text and an extended-protocol
// pipeline up to Sync go this way when they hold exactly
//   [BEGIN] DML... [COMMIT]
// (at least one DML statement; BEGIN and COMMIT both or neither) and no
// block is open (ClientSession::SubmitAllowed): the scheduler sees the
// statements' references before any runs, the workers retry conflicts,
// and the client sees 40001 only when the retries run out.
//
// Usage: Add each statement's part in order (false: not this shape, run it
// the interactive way), then, when complete(), Run the calls and report
// each result up to failed(); after an error inside BEGIN call
// FinishFailed (the client is left in a failed block, as PostgreSQL's
// would be).
//
// Thread-safety: as its ClientSession. Ownership: borrows the Database and
// Session for its life; one per request.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/transaction_request.h"

namespace paceline::engine {

class Database;
class Session;

class ScheduledTransaction {
 public:
  enum class Part { kBegin, kCommit, kDml, kOther };

  ScheduledTransaction(Database* db, Session* session) : db_(db), session_(session) {}

  // The next statement of the request; false once it cannot be this shape.
  bool Add(Part part);
  // The whole request was this shape.
  bool complete() const { return dml_ > 0 && begin_ == commit_; }
  bool begin() const { return begin_; }
  bool commit() const { return commit_; }

  // Runs the DML statements (`calls`, in order) as one transaction, under
  // the session's cancel token.
  void Run(std::vector<StatementCall> calls);
  const TransactionResult& result() const { return result_; }
  TransactionResult& result() { return result_; }
  bool committed() const { return result_.committed(); }
  // The call that failed: < calls when a statement did; == calls when they
  // all ran and the commit failed; calls + 1 when it committed.
  size_t failed() const { return failed_; }
  // After reporting a failure: a failure inside BEGIN leaves the client in
  // a failed block (the engine has rolled the transaction back).
  void FinishFailed();

 private:
  Database* db_;
  Session* session_;
  bool begin_ = false;
  bool commit_ = false;
  size_t dml_ = 0;
  size_t calls_ = 0;
  TransactionResult result_;
  size_t failed_ = 0;
};

}  // namespace paceline::engine
