// StatementRunner: transactions, the execution gate, preparing, running DML
// and waiting for durable commits (statement_runner.h). Schema changes
// (table gates, DDL and its log) are statement_runner_ddl.cc.
#include "engine/statement_runner.h"

#include <algorithm>

#include "sql/executor.h"

namespace paceline::engine {

namespace {

// `params` converted to `statement`'s parameter types; 08P01 when their
// number differs.
Status CastParameters(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                      std::vector<Value>* out) {
  if (params.size() != statement.param_types.size()) {
    return Status(sqlstate::kProtocolViolation, "bind message supplies " + std::to_string(params.size()) +
                               " parameters, but prepared statement requires " +
                               std::to_string(statement.param_types.size()));
  }
  out->resize(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const Type& t = statement.param_types[i];
    if (params[i].type() == t.id && t.length < 0 && t.precision < 0) {
      (*out)[i] = params[i];
    } else {
      PL_RETURN_IF_ERROR(CastValue(params[i], t, false, &(*out)[i]));
    }
  }
  return Status::OK();
}

}  // namespace

StatementRunner::StatementRunner(const Parts& parts)
    : options_(*parts.options),
      catalog_(*parts.catalog),
      cache_(*parts.cache),
      cc_(parts.cc),
      epoch_(*parts.epoch),
      scheduler_(parts.scheduler),
      activity_(*parts.activity),
      advisory_lock_table_(*parts.advisory_locks),
      footprint_spec_(parts.scheduler->Needs()),
      needs_footprint_(footprint_spec_.references || !footprint_spec_.partition_domain.empty()) {
  if (options_.conflict_lanes && footprint_spec_.references) {
    // A reference stays laned for four evidence half-lives after blocks
    // last met in its lane (lane_table.h, Memory); lane waits keep the
    // CC's deadlock rule.
    lanes_ = std::make_unique<LaneTable>(4 * options_.scheduling.history_half_life, cc_);
  }
}

Status StatementRunner::NewTransaction(TxnTimestamp timestamp, std::unique_ptr<Transaction>* out) {
  auto txn = std::make_unique<Transaction>(cc_, &epoch_, timestamp);
  PL_RETURN_IF_ERROR(txn->Start());
  txn->SetDurability(durability_);
  txn->SetStatements(this);
  *out = std::move(txn);
  return Status::OK();
}

// 55P03 for a gate wait that ran out: "could not <what>: <who> ... ".
Status StatementRunner::GateTimedOut(bool entered, const char* what, const char* who) const {
  if (entered) return Status::OK();
  return Status(sqlstate::kLockNotAvailable, std::string("could not ") + what + ": " + who +
                                                 " longer than lock_timeout (" +
                                                 std::to_string(options_.lock_timeout.count()) + " ms)");
}

Status StatementRunner::EnterGate() {
  return GateTimedOut(gate_.EnterShared(options_.lock_timeout), "start a transaction",
                      "a schema change waited for running transactions");
}

Status StatementRunner::EnterGateExclusive() {
  return GateTimedOut(gate_.EnterExclusive(options_.lock_timeout), "change the schema", "statements stayed running");
}

Status StatementRunner::Prepare(std::string_view sql, const std::vector<Type>& declared,
                                std::shared_ptr<const sql::PreparedStatement>* out) {
  return cache_.Get(sql, catalog_, declared, out);
}

Status StatementRunner::RunDml(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                               Transaction* txn, int64_t start_time, QueryResult* result) {
  PL_RETURN_IF_ERROR(txn->CheckCanceled());  // between the statements of a transaction
  std::vector<Value> cast;
  PL_RETURN_IF_ERROR(CastParameters(statement, params, &cast));
  sql::Executor executor(txn, &cast, start_time, options_.statement_memory_bytes);
  const size_t observed_before = txn->Observations();
  const size_t predicates_before = txn->Predicates();
  size_t mark = txn->Mark();
  Status status = executor.RunModifyingCtes(statement.modifying_ctes);
  if (status.ok()) {
    switch (statement.kind) {
      case sql::StatementKind::kSelect: status = executor.Select(*statement.select, result); break;
      case sql::StatementKind::kInsert: status = executor.Insert(*statement.insert, result); break;
      case sql::StatementKind::kUpdate: status = executor.Update(*statement.update, result); break;
      case sql::StatementKind::kDelete: status = executor.Delete(*statement.del, result); break;
      default: return InternalError("not a DML statement");
    }
  }
  if (status.ok()) status = executor.RunForeignKeyEvents();
  // No result that contradicts what earlier statements read: under OCC a
  // row or predicate they read may have changed since (this statement may
  // have found the row gone); 40001 now rather than at commit.
  if (status.ok() && observed_before > 0 && txn->Observations() > observed_before) status = txn->CheckReadsCurrent();
  // A statement that failed on an error after earlier statements read (an
  // INSERT meeting the key an earlier SELECT found absent, a DELETE's
  // division by a value that changed): when those reads are stale the error
  // comes from a view no serial order gives, so it is a conflict (40001,
  // retried) instead. A canceled statement stays canceled.
  if (!status.ok() && observed_before > 0 && txn->abort_reason() == cc::AbortReason::kNone &&
      !(status.Is(sqlstate::kQueryCanceled) && txn->canceled())) {
    Status stale = txn->CheckReadsCurrent(predicates_before);
    if (!stale.ok()) status = std::move(stale);
  }
  if (!status.ok()) {
    txn->RollbackTo(mark);
    result->Clear();
  }
  return status;
}

Status StatementRunner::CheckDeferred(Transaction* txn, int64_t start_time, bool all) {
  if (!txn->has_deferred_checks()) return Status::OK();
  sql::Executor executor(txn, nullptr, start_time, options_.statement_memory_bytes);
  Status status = executor.CheckDeferredForeignKeys(all);  // they only read: nothing to undo
  // A violation seen through reads that are no longer current is a
  // conflict (40001, retried), as for a failed statement (RunDml).
  if (!status.ok() && txn->abort_reason() == cc::AbortReason::kNone) status = txn->Explain(std::move(status));
  return status;
}

Status StatementRunner::PrepareCall(std::string_view sql, const std::vector<Value>& params,
                                    std::shared_ptr<const sql::PreparedStatement>* out,
                                    std::vector<Value>* with_literals) {
  sql::ParameterizedStatement normalized;
  // Any failure (an error, a literal that would not convert) falls back to
  // the original text, which then fails exactly as it always did.
  if (options_.parameterize_literals && sql::LiteralParameterizer::Parameterize(sql, params.size(), &normalized) &&
      PrepareNormalized(normalized, params, out, with_literals)) {
    return Status::OK();
  }
  with_literals->clear();
  return Prepare(sql, {}, out);
}

bool StatementRunner::PrepareNormalized(const sql::ParameterizedStatement& normalized,
                                        const std::vector<Value>& params,
                                        std::shared_ptr<const sql::PreparedStatement>* out,
                                        std::vector<Value>* with_literals) {
  std::shared_ptr<const sql::PreparedStatement> p;
  if (normalized.text.empty() || !Prepare(normalized.text, normalized.declared, &p).ok()) return false;
  *with_literals = params;
  if (!sql::LiteralParameterizer::BindLiterals(normalized, *p, with_literals)) return false;
  *out = std::move(p);
  return true;
}

Status StatementRunner::PrepareCallOf(const StatementCall& call, uint64_t version,
                                      std::shared_ptr<const sql::PreparedStatement>* out,
                                      std::vector<Value>* with_literals) {
  if (call.prepared == nullptr) return PrepareCall(call.sql, call.params, out, with_literals);
  with_literals->clear();
  if (call.prepared->catalog_version == version) {
    *out = call.prepared;  // as its caller prepared it: nothing lexed or looked up again
    return Status::OK();
  }
  // Stale: its text again, with the parameter types `params` have.
  return Prepare(call.prepared->text, call.prepared->param_types, out);
}

Lsn StatementRunner::AcknowledgedAfter(Lsn commit_lsn, Lsn sequence_lsn) const {
  // A writer's own record comes after every record it depends on (what it
  // read, the sequence values it drew). A read-only transaction depends on
  // the commits it may have read and on its sequence values' record.
  return commit_lsn != Lsn() ? commit_lsn : std::max(durability_->commit_end_lsn(), sequence_lsn);
}

Status StatementRunner::AwaitCommitDurable(Lsn commit_lsn, Lsn sequence_lsn) {
  if (durability_ == nullptr) return Status::OK();
  return durability_->WaitDurable(AcknowledgedAfter(commit_lsn, sequence_lsn));
}

}  // namespace paceline::engine
