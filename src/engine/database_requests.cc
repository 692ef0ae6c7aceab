// Database: whole transactions — Submit, Run (here or queued), SubmitTo and
// Execute; a request's footprint and the plans it was read from; one
// attempt of a request (statements or a registered procedure) and the
// retry loop of Execute (database.h). The rest of Database is database.cc.
#include "engine/database.h"
#include "engine/session_activity.h"

#include <algorithm>

#include "common/datetime.h"
#include "engine/execution/retry_pause.h"
#include "engine/footprint_builder.h"
#include "sql/literal_parameterizer.h"
#include "sql/statement_kind.h"

namespace paceline::engine {

// The ProcedureContext a procedure body sees: statements by index inside the
// request's transaction.
class Database::ProcedureRun : public ProcedureContext {
 public:
  ProcedureRun(Database* db, Database::RegisteredProcedure* proc, Transaction* txn, int64_t start)
      : db_(db), proc_(proc), txn_(txn), start_(start) {}

  Status Execute(size_t statement, const std::vector<Value>& params, QueryResult* result) override {
    if (statement >= proc_->prepared.size()) {
      return Status(sqlstate::kInvalidParameterValue,
                    "procedure " + proc_->procedure.name + " has no statement " + std::to_string(statement));
    }
    const sql::PreparedStatement* prepared = proc_->prepared[statement]->load(std::memory_order_acquire);
    if (prepared->catalog_version != db_->catalog_.version()) {
      std::shared_ptr<const sql::PreparedStatement> fresh;
      PL_RETURN_IF_ERROR(db_->statements_->Prepare(prepared->text, {}, &fresh));
      prepared = fresh.get();
      proc_->Set(statement, std::move(fresh));
    }
    result->Clear();
    return db_->statements_->RunDml(*prepared, params, txn_, start_, result);
  }

  Status Rollback(std::string message) override {
    user_abort_ = true;
    return Status(sqlstate::kRaiseException, std::move(message));
  }

  void Return(QueryResult result) override { returned_ = {std::move(result)}; }

  bool user_abort() const { return user_abort_; }
  std::vector<QueryResult> TakeReturned() { return std::move(returned_); }

 private:
  Database* db_;
  Database::RegisteredProcedure* proc_;
  Transaction* txn_;
  int64_t start_;
  bool user_abort_ = false;
  std::vector<QueryResult> returned_;
};

// A statement list's statements, prepared (TransactionRequest::prepared).
struct PreparedCalls {
  std::vector<std::shared_ptr<const sql::PreparedStatement>> statements;  // null: it did not prepare
  std::vector<std::vector<Value>> literals;  // per statement: its parameters with the text's literals, or empty
};

void Database::Submit(TransactionRequest request, ResultCallback done) {
  if (!pool_) {
    TransactionResult result;
    result.status = Status(sqlstate::kObjectNotInPrerequisiteState,
                           "this database runs no workers (Options::workers is 0): use Execute or a session");
    done(std::move(result));
    return;
  }
  scheduler::Footprint footprint = FootprintOf(request, &request.prepared);
  Queue(std::move(request), std::move(footprint), std::move(done));
}

size_t Database::Queue(TransactionRequest request, scheduler::Footprint footprint, ResultCallback done) {
  const scheduler::Placement placement = scheduler_->Place(footprint);
  pool_->Submit(placement.queue, std::move(request), std::move(footprint), AfterDurable(std::move(done)),
                placement.pinned ? JobPlacement::kPinned : JobPlacement::kPicked);
  return placement.queue;
}

namespace {

// A procedure's predictions, fed to a FootprintBuilder through the
// procedure's prepared statements.
class PredictionsToFootprint : public StatementPredictions {
 public:
  PredictionsToFootprint(const std::vector<std::unique_ptr<std::atomic<const sql::PreparedStatement*>>>& prepared,
                         FootprintBuilder* builder)
      : prepared_(prepared), builder_(builder) {}
  void Add(size_t statement, std::span<const Value> params) override {
    if (statement >= prepared_.size()) return;  // a bad prediction predicts nothing
    builder_->Add(*prepared_[statement]->load(std::memory_order_acquire), params);
  }

 private:
  const std::vector<std::unique_ptr<std::atomic<const sql::PreparedStatement*>>>& prepared_;
  FootprintBuilder* builder_;
};

}  // namespace

void Database::AddFootprint(const TransactionRequest& request, FootprintBuilder* builder,
                            std::shared_ptr<const PreparedCalls>* prepared) {
  if (!request.procedure.empty()) {
    std::shared_ptr<RegisteredProcedure> proc;
    {
      std::lock_guard lock(procedures_mu_);
      auto it = procedures_.find(request.procedure);
      if (it == procedures_.end()) return;  // fails when it runs
      proc = it->second;
    }
    if (!proc->procedure.predict) return;
    PredictionsToFootprint out(proc->prepared, builder);
    try {
      proc->procedure.predict(request.args, out);
    } catch (...) {
      // A prediction is a hint: what was added before the throw stays.
    }
    return;
  }
  if (const PreparedCalls* ready = request.prepared.get(); ready != nullptr && prepared == nullptr) {
    // Naming a footprint already read: its statements as prepared for it
    // (the same references in the same order, and nothing lexed again).
    for (size_t i = 0; i < ready->statements.size() && i < request.statements.size(); ++i) {
      if (ready->statements[i] == nullptr) continue;
      builder->Add(*ready->statements[i], ready->literals[i].empty() ? request.statements[i].params : ready->literals[i]);
    }
    return;
  }
  // Statement lists: prepared (from the cache) under the gate, as when they
  // run; a statement that does not prepare adds nothing (it fails when it
  // runs).
  StatementRunner::ScopedGate gate(statements_.get());
  if (!gate.Enter().ok()) return;
  auto calls = std::make_shared<PreparedCalls>();
  calls->statements.resize(request.statements.size());
  calls->literals.resize(request.statements.size());
  const uint64_t version = catalog_.version();  // stable: this holds the execution gate
  for (size_t i = 0; i < request.statements.size(); ++i) {
    const StatementCall& call = request.statements[i];
    std::shared_ptr<const sql::PreparedStatement>& p = calls->statements[i];
    if (statements_->PrepareCallOf(call, version, &p, &calls->literals[i]).ok()) {
      builder->Add(*p, calls->literals[i].empty() ? call.params : calls->literals[i]);
    } else {
      p = nullptr;  // prepared again when it runs, and fails there as it always did
    }
  }
  if (prepared != nullptr) *prepared = std::move(calls);
}

scheduler::Footprint Database::FootprintOf(const TransactionRequest& request,
                                           std::shared_ptr<const PreparedCalls>* prepared) {
  if (!statements_->needs_footprint()) return {};  // the baselines need none: nothing is computed
  FootprintBuilder builder(statements_->footprint_spec());
  AddFootprint(request, &builder, prepared);
  return builder.Finish();
}

void Database::NameReferences(const TransactionRequest& request, std::vector<std::string>* names) {
  FootprintBuilder builder(statements_->footprint_spec(), /*with_names=*/true);
  AddFootprint(request, &builder);
  builder.Finish();
  *names = builder.Names();
}

TransactionResult Database::Run(TransactionRequest request) {
  if (!pool_) return Submit(std::move(request)).get();  // its 55000
  scheduler::Footprint footprint = FootprintOf(request, &request.prepared);
  if (scheduler_->MayRunHere(footprint)) {
    TransactionResult result = pool_->RunHere(std::move(request), std::move(footprint));
    if (result.committed()) result.status = statements_->AwaitCommitDurable(result.commit_lsn, result.sequence_lsn);
    return result;
  }
  // (The callback owns the promise: it may still run after get() returns.)
  auto promise = std::make_shared<std::promise<TransactionResult>>();
  std::future<TransactionResult> future = promise->get_future();
  SessionActivity* activity = request.activity;
  const size_t queue = Queue(std::move(request), std::move(footprint),
                             [promise](TransactionResult&& r) { promise->set_value(std::move(r)); });
  if (activity == nullptr) return future.get();
  activity->Wait("RunQueue", "queue " + std::to_string(queue));
  TransactionResult result = future.get();
  activity->ClearWait();
  return result;
}

std::future<TransactionResult> Database::Submit(TransactionRequest request) {
  auto promise = std::make_shared<std::promise<TransactionResult>>();
  auto future = promise->get_future();
  Submit(std::move(request), [promise](TransactionResult&& r) { promise->set_value(std::move(r)); });
  return future;
}

void Database::SubmitTo(size_t queue, TransactionRequest request, ResultCallback done) {
  if (!pool_ || queue >= pool_->workers()) {
    TransactionResult result;
    result.status = Status(sqlstate::kInvalidParameterValue,
                           "run queue " + std::to_string(queue) + " does not exist (workers: " +
                               std::to_string(workers()) + ")");
    done(std::move(result));
    return;
  }
  scheduler::Footprint footprint = FootprintOf(request, &request.prepared);  // History still learns from it
  pool_->Submit(queue, std::move(request), std::move(footprint), AfterDurable(std::move(done)), JobPlacement::kByHand);
}

Status Database::RegisterProcedure(Procedure procedure) {
  if (procedure.name.empty() || !procedure.body) {
    return Status(sqlstate::kInvalidParameterValue, "a procedure needs a name and a body");
  }
  auto registered = std::make_shared<RegisteredProcedure>();
  StatementRunner::ScopedGate gate(statements_.get());  // preparing reads the catalog
  PL_RETURN_IF_ERROR(gate.Enter());
  Status status;
  for (const auto& text : procedure.statements) {
    std::shared_ptr<const sql::PreparedStatement> p;
    status = statements_->Prepare(text, {}, &p);
    if (!status.ok()) break;
    if (!sql::IsDml(p->kind)) {
      status = Status(sqlstate::kFeatureNotSupported,
                      "procedure " + procedure.name + ": only SELECT, INSERT, UPDATE and DELETE may be declared: " + text);
      break;
    }
    registered->prepared.push_back(std::make_unique<RegisteredProcedure::Slot>(p.get()));
    registered->keep.push_back(std::move(p));
  }
  PL_RETURN_IF_ERROR(status);
  std::lock_guard lock(procedures_mu_);
  if (procedures_.count(procedure.name)) {
    return Status(sqlstate::kDuplicateObject, "procedure \"" + procedure.name + "\" already exists");
  }
  std::string name = procedure.name;
  registered->procedure = std::move(procedure);
  procedures_.emplace(std::move(name), std::move(registered));
  return Status::OK();
}

AttemptOutcome Database::RunAttempt(const TransactionRequest& request, TxnTimestamp timestamp,
                                    TransactionResult* result, cc::AbortReason* reason,
                                    TableId* culprit_table) {
  result->results.clear();
  result->user_abort = false;
  *reason = cc::AbortReason::kNone;
  std::shared_ptr<RegisteredProcedure> proc;
  if (!request.procedure.empty()) {
    std::lock_guard lock(procedures_mu_);
    auto it = procedures_.find(request.procedure);
    if (it == procedures_.end()) {
      result->status = Status(sqlstate::kUndefinedFunction, "procedure \"" + request.procedure + "\" does not exist");
      return AttemptOutcome::kFailed;
    }
    proc = it->second;
  }
  StatementRunner::ScopedGate gate(statements_.get());
  result->status = gate.Enter();
  if (!result->status.ok()) return AttemptOutcome::kFailed;
  std::unique_ptr<Transaction> txn;  // aborts in its destructor if never committed
  result->status = statements_->NewTransaction(timestamp, &txn);
  if (!result->status.ok()) return AttemptOutcome::kFailed;
  txn->SetCancelToken(request.cancel);
  SequenceSession own_sequences(&catalog_, durability_.get());
  SequenceSession* sequences = request.sequences != nullptr ? request.sequences : &own_sequences;
  txn->SetSequences(sequences);
  txn->SetAdvisoryLocks(request.advisory_locks);
  txn->SetSystemInfo(request.system_info);
  const int64_t start = CurrentTimestampMicros();
  Status status;
  if (proc) {
    ProcedureRun ctx(this, proc.get(), txn.get(), start);
    status = proc->procedure.body(ctx, request.args);
    result->user_abort = ctx.user_abort();
    result->results = ctx.TakeReturned();
  } else {
    std::vector<Value> with_literals;
    const uint64_t version = catalog_.version();  // stable: this holds the execution gate
    const PreparedCalls* ready = request.prepared.get();
    for (size_t i = 0; i < request.statements.size(); ++i) {
      const StatementCall& call = request.statements[i];
      result->results.emplace_back();  // the failed statement, too, has its (empty) result
      const sql::PreparedStatement* p;
      const std::vector<Value>* literals;
      std::shared_ptr<const sql::PreparedStatement> fresh;
      if (ready != nullptr && i < ready->statements.size() && ready->statements[i] != nullptr &&
          ready->statements[i]->catalog_version == version) {
        p = ready->statements[i].get();  // as prepared for the footprint
        literals = &ready->literals[i];
      } else {
        status = statements_->PrepareCallOf(call, version, &fresh, &with_literals);
        p = fresh.get();
        literals = &with_literals;
      }
      if (status.ok() && !sql::IsDml(p->kind)) {
        status = Status(sqlstate::kFeatureNotSupported,
                        "a transaction request may hold only SELECT, INSERT, UPDATE and DELETE statements");
      }
      if (!status.ok()) break;
      status = statements_->RunDml(*p, literals->empty() ? call.params : *literals, txn.get(), start,
                                   &result->results.back());
      if (!status.ok()) break;
    }
  }
  if (status.ok()) status = statements_->CheckDeferred(txn.get(), start, /*all=*/true);
  if (status.ok()) {
    status = txn->Commit();
  } else {
    // An error or a business rollback decided on stale reads (possible
    // under OCC) is a conflict: retried.
    status = txn->Explain(std::move(status));
    txn->Abort();
  }
  if (request.advisory_locks != nullptr) request.advisory_locks->EndTransaction();
  result->status = status;
  if (status.ok()) {
    std::vector<Notification> batch;
    for (auto& [channel, payload] : txn->TakeNotifications()) {
      batch.push_back({request.notifier_pid, std::move(channel), std::move(payload)});
    }
    notifications_.Publish(batch);
    result->commit_lsn = txn->commit_lsn();
    result->sequence_lsn = sequences->TakeNeededLsn();
    return AttemptOutcome::kCommitted;
  }
  cc::AbortReason conflict = txn->abort_reason();
  if (cc::IsConflict(conflict)) {
    // A conflict is not a business decision, even if the body then chose
    // to roll back.
    result->user_abort = false;
    *reason = conflict;
    if (culprit_table != nullptr) *culprit_table = txn->culprit_table();
    return AttemptOutcome::kConflict;
  }
  return result->user_abort ? AttemptOutcome::kUserAbort : AttemptOutcome::kFailed;
}

void Database::Execute(const TransactionRequest& request, TransactionResult* result) {
  const TxnTimestamp timestamp = statements_->NextTimestamp();
  for (int attempt = 0;; ++attempt) {
    cc::AbortReason reason;
    if (RunAttempt(request, timestamp, result, &reason) != AttemptOutcome::kConflict) {
      result->conflicts = static_cast<uint32_t>(attempt);
      if (result->committed()) {
        result->status = statements_->AwaitCommitDurable(result->commit_lsn, result->sequence_lsn);
      }
      return;
    }
    if (attempt >= options_.max_retries) {
      result->conflicts = static_cast<uint32_t>(attempt + 1);
      result->status = RetryLimitStatus(attempt + 1, options_.max_retries, reason, result->status);
      return;
    }
    PauseBeforeRetry(attempt + 1, options_.max_retry_pause, options_.retry_yield);
  }
}

}  // namespace paceline::engine
