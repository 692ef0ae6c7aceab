// Session: transaction blocks — BEGIN, COMMIT and ROLLBACK, implicit and
// failed blocks, ending a transaction (and teaching the scheduler's History
// from it), and what an open block holds between statements: its table
// gates and its conflict lanes (see session.h).
#include <algorithm>

#include "common/datetime.h"
#include "engine/database.h"
#include "engine/execution/abort_culprit.h"
#include "engine/footprint_builder.h"
#include "engine/session.h"
#include "engine/session_statement_gate.h"
#include "sql/deferred_constraints.h"
#include "sql/expression_evaluator.h"

namespace paceline::engine {

Status Session::Begin(TxnTimestamp timestamp) {
  PL_RETURN_IF_ERROR(runner_->NewTransaction(timestamp != TxnTimestamp() ? timestamp : runner_->NextTimestamp(), &txn_));
  txn_->SetCancelToken(&cancel_);
  txn_->SetSequences(&sequences_);
  txn_->SetAdvisoryLocks(&advisory_locks_);
  txn_->SetSystemInfo(&system_info_);
  txn_start_ = query_noted_ ? request_start_ : CurrentTimestampMicros();
  return Status::OK();
}

Status Session::BeginBlock() {
  PL_RETURN_IF_ERROR(Begin());
  state_ = TransactionState::kInBlock;
  return Status::OK();
}

void Session::FailOpenBlock() {
  if (state_ != TransactionState::kInBlock) return;
  state_ = TransactionState::kFailed;
  // A savepoint to go back to keeps the transaction (the failed statement
  // was undone already), unless a conflict ended it (its reads are stale or
  // the CC gave up on it): only a retry of the whole transaction helps then.
  if (!savepoints_.empty() && txn_ && txn_->abort_reason() == cc::AbortReason::kNone) return;
  // As PostgreSQL aborts at the error and cleans up at ROLLBACK: the locks
  // and writes go now (a 2PL waiter need not wait for the client's
  // ROLLBACK; wait-die and wound-wait count on the loser letting go).
  if (txn_) txn_->Abort();
  LeaveTableGates();  // it touches no table any more
  LeaveLanes();
}

Status Session::BeginImplicitBlock() {
  if (state_ != TransactionState::kIdle) return Status::OK();
  PL_RETURN_IF_ERROR(BeginBlock());
  implicit_block_ = true;
  return Status::OK();
}

Status Session::EndImplicitBlock(bool failed) {
  if (!implicit_block_) return Status::OK();
  return EndTransaction(!failed && state_ == TransactionState::kInBlock, failed || state_ == TransactionState::kFailed);
}

Status Session::RunStatements(size_t count, const std::function<Status(size_t)>& run, size_t* failed_statement) {
  RequestScope request(this);  // a cancel while it runs stops it
  *failed_statement = count;
  Status status;
  for (size_t i = 0; i < count; ++i) {
    if (cancel_.Poll()) {  // canceled between statements
      status = CanceledStatus();
      FailOpenBlock();
      break;
    }
    // Several statements outside a block form one implicit transaction
    // (again after an explicit COMMIT or ROLLBACK among them).
    if (count > 1) {
      status = BeginImplicitBlock();
      if (!status.ok()) break;
    }
    status = run(i);
    if (!status.ok()) {
      FailOpenBlock();
      *failed_statement = i;
      break;
    }
  }
  Status end = EndImplicitBlock(!status.ok());
  return status.ok() ? end : status;
}

void Session::EnterFailedBlock() {
  if (state_ == TransactionState::kIdle) state_ = TransactionState::kFailed;
}

Status Session::CheckNotInFailedBlock() const {
  if (state_ != TransactionState::kFailed) return Status::OK();
  return Status(sqlstate::kInFailedSqlTransaction,
                "current transaction is aborted, commands ignored until end of transaction block");
}

void Session::LeaveLanes() {
  if (block_lanes_.empty()) return;
  runner_->lanes()->ReleaseAll(id_);
  block_lanes_.clear();
}

void Session::LanedReferences(const scheduler::Footprint& footprint, std::vector<size_t>* laned) const {
  laned->clear();
  if (runner_->lanes() == nullptr) return;
  runner_->scheduler().LanedReferences(footprint, laned);
  runner_->lanes()->AddRemembered(footprint.references, laned);
}

bool Session::TakeLanesNow(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                           LaneWanted* busy) {
  if (!lane_builder_) lane_builder_ = std::make_unique<FootprintBuilder>(runner_->footprint_spec());
  lane_builder_->Add(statement, params);
  const scheduler::Footprint footprint = lane_builder_->Finish();  // leaves the builder empty, for the next
  if (footprint.references.empty()) return true;
  // The references with conflict evidence, and those whose lanes blocks
  // keep meeting in; in key order (one statement never waits for one lane
  // while holding a later one of its own).
  std::vector<size_t> laned;
  LanedReferences(footprint, &laned);
  if (laned.empty()) return true;
  std::sort(laned.begin(), laned.end(),
            [&](size_t a, size_t b) { return footprint.references[a] < footprint.references[b]; });
  std::vector<std::string> names;  // rendered only when a lane is taken
  for (size_t i : laned) {
    const scheduler::ReferenceKey key = footprint.references[i];
    if (std::find(block_lanes_.begin(), block_lanes_.end(), key) != block_lanes_.end()) continue;  // held
    const size_t most = db_->options().max_lanes_per_block;
    if (most > 0 && block_lanes_.size() >= most) return true;  // later conflicts are the CC's
    if (names.empty()) {
      FootprintBuilder named(runner_->footprint_spec(), /*with_names=*/true);
      named.Add(statement, params);
      named.Finish();
      names = named.Names();
    }
    const std::string name = i < names.size() ? names[i] : std::string();
    if (!runner_->lanes()->TryAcquire(id_, key, name, txn_->context())) {
      *busy = LaneWanted{key, name};
      return false;
    }
    block_lanes_.push_back(key);
  }
  return true;
}

void Session::LeaveTableGates() {
  if (table_gates_.empty()) return;
  runner_->table_gates().LeaveAll(this);
  table_gates_.clear();
}

Status Session::RunNotifyStatement(const sql::Statement& ast, QueryResult* result) {
  const sql::NotifyStmt& stmt = *ast.notify;
  const bool in_block = state_ == TransactionState::kInBlock && txn_;
  switch (ast.kind) {
    case sql::StatementKind::kNotify:
      result->command_tag = "NOTIFY";
      PL_RETURN_IF_ERROR(sql::CheckNotification(stmt.channel, stmt.payload));
      if (in_block) {
        txn_->Notify(stmt.channel, stmt.payload);  // sent when the block commits
      } else {
        PublishNotifications({{stmt.channel, stmt.payload}});
      }
      return Status::OK();
    default: {
      const bool listen = ast.kind == sql::StatementKind::kListen;
      result->command_tag = listen ? "LISTEN" : "UNLISTEN";
      if (in_block) {
        pending_listens_.emplace_back(listen, stmt.channel);  // in effect when the block commits
        return Status::OK();
      }
      ApplyListen(listen, stmt.channel);
      return Status::OK();
    }
  }
}

void Session::ApplyListen(bool listen, const std::string& channel) {
  if (listen) {
    db_->notifications().Listen(id_, channel);
  } else if (channel.empty()) {
    db_->notifications().UnlistenAll(id_, /*forget_inbox=*/false);
  } else {
    db_->notifications().Unlisten(id_, channel);
  }
}

void Session::PublishNotifications(std::vector<std::pair<std::string, std::string>> notifications) {
  std::vector<Notification> batch;
  for (auto& [channel, payload] : notifications) batch.push_back({backend_pid(), std::move(channel), std::move(payload)});
  db_->notifications().Publish(batch);
}

void Session::SetNotificationWaker(std::function<void()> waker) {
  db_->notifications().SetWaker(id_, std::move(waker));
}

std::vector<Notification> Session::TakeNotifications() {
  if (state_ != TransactionState::kIdle) return {};
  return db_->notifications().Take(id_);
}

Status Session::SetConstraints(const sql::SetConstraintsStmt& stmt, QueryResult* result) {
  result->command_tag = "SET CONSTRAINTS";
  // PostgreSQL's order: the warning outside a block, then the names: each
  // must name a constraint (a foreign key, key or CHECK of any table), and
  // one that cannot be deferred cannot be made DEFERRED.
  const bool in_block = state_ == TransactionState::kInBlock && txn_;
  if (!in_block) {
    result->warnings.push_back(
        Status(sqlstate::kNoActiveSqlTransaction, "SET CONSTRAINTS can only be used in transaction blocks"));
  }
  const catalog::Catalog& catalog = db_->catalog();
  for (const std::string& name : stmt.names) {
    bool found = false;
    bool deferrable = false;
    for (const auto& table_name : catalog.TableNames()) {
      std::shared_ptr<storage::Table> table = catalog.FindTable(table_name);
      for (const auto& fk : table->schema().foreign_keys) {
        if (fk.name != name) continue;
        found = true;
        deferrable = deferrable || fk.deferrable;
      }
      for (const auto& check : table->schema().checks) found = found || check.name == name;
      for (const auto& index : table->indexes()) found = found || (index->unique() && index->schema().name == name);
    }
    if (!found) return Status(sqlstate::kUndefinedObject, "constraint \"" + name + "\" does not exist");
    if (stmt.deferred && !deferrable) {
      return Status(sqlstate::kWrongObjectType, "constraint \"" + name + "\" is not deferrable");
    }
  }
  if (!in_block) return Status::OK();
  sql::DeferredConstraints& deferred = txn_->deferred_constraints();
  if (stmt.names.empty()) deferred.SetAll(stmt.deferred);
  for (const std::string& name : stmt.names) deferred.Set(name, stmt.deferred);
  if (stmt.deferred) return Status::OK();
  // What waited for the constraints now immediate is checked now.
  StatementGate gate(this);
  PL_RETURN_IF_ERROR(gate.Enter());
  return runner_->CheckDeferred(txn_.get(), txn_start_, /*all=*/false);
}

void Session::CountOutcome(bool commit, bool failed, const Status& status) {
  SessionActivity::TransactionCounts& counts = activity_.transactions();
  if (commit && status.ok()) {
    counts.CountCommit();
  } else if (last_abort_reason_ != cc::AbortReason::kNone) {
    counts.CountAbort(last_abort_reason_);  // a conflict or lock timeout ended it (at COMMIT or before)
  } else if (commit || failed) {
    counts.CountError();  // an error failed it, or its commit (a deferred constraint, the log)
  } else {
    counts.CountRollback();  // ROLLBACK, or the session ended
  }
}

Status Session::EndTransaction(bool commit, bool failed) {
  implicit_block_ = false;
  if (!txn_) {  // a failed block that ran elsewhere (EnterFailedBlock)
    EndBlockSettings(false);
    state_ = TransactionState::kIdle;
    return Status::OK();
  }
  Status status;
  if (commit) {
    StatementGate gate(this);  // no schema change while it installs its writes
    status = gate.Enter();
    // Deferred foreign keys first; one that fails ends the block as an error does.
    if (status.ok()) status = runner_->CheckDeferred(txn_.get(), txn_start_, /*all=*/true);
    if (status.ok()) status = txn_->Commit();  // a conflict aborts it
    else txn_->Abort();
  } else {
    txn_->Abort();
  }
  LeaveLanes();  // its writes are in (or gone): the next block of its lanes may run
  advisory_locks_.EndTransaction();
  if (ran_ddl_) {
    ran_ddl_ = false;
    runner_->CollectGarbage();
  }
  // Acknowledged only once durable (locks are already released).
  if (commit && status.ok()) status = runner_->AwaitCommitDurable(txn_->commit_lsn(), sequences_.TakeNeededLsn());
  // LISTEN / UNLISTEN of the block take effect, and its notifications go
  // out, once it committed; a rollback forgets them.
  if (commit && status.ok()) {
    for (const auto& [listen, channel] : pending_listens_) ApplyListen(listen, channel);
    PublishNotifications(txn_->TakeNotifications());
  }
  pending_listens_.clear();
  last_abort_reason_ = txn_->abort_reason();
  CountOutcome(commit, failed, status);
  const TableId culprit = txn_->culprit_table();
  if (footprint_) {
    // History learns from this transaction as from a submitted one: a
    // commit, or an abort by a conflict (not a user's ROLLBACK or an error).
    scheduler::Footprint footprint = footprint_->Finish();
    const bool conflict = cc::IsConflict(last_abort_reason_);
    if (!footprint.references.empty()) {
      if (commit && status.ok()) {
        runner_->scheduler().OnCommit(footprint, scheduler::kNoQueue);
      } else if (conflict) {
        // Names the references the same way, from the statements again.
        class Namer : public scheduler::ReferenceNamer {
         public:
          Namer(StatementRunner* runner, const std::vector<Executed>& executed)
              : runner_(runner), executed_(executed) {}
          std::string Name(size_t i) const override {
            if (!built_) {
              built_ = true;
              FootprintBuilder builder(runner_->footprint_spec(), /*with_names=*/true);
              for (const auto& e : executed_) {
                std::shared_ptr<const sql::PreparedStatement> p;
                if (runner_->Prepare(e.text, e.param_types, &p).ok()) builder.Add(*p, e.params);
              }
              builder.Finish();
              names_ = builder.Names();
            }
            return i < names_.size() ? names_[i] : std::string();
          }

         private:
          StatementRunner* runner_;
          const std::vector<Executed>& executed_;
          mutable bool built_ = false;
          mutable std::vector<std::string> names_;
        };
        Namer namer(runner_, executed_);
        runner_->scheduler().OnAbort(footprint, scheduler::kNoQueue, CulpritOf(last_abort_reason_, culprit), &namer);
      }
    }
    executed_.clear();
  }
  if (state_ != TransactionState::kIdle) EndBlockSettings(commit && status.ok());
  savepoints_.clear();
  txn_.reset();
  LeaveTableGates();
  state_ = TransactionState::kIdle;
  return status;
}

Status Session::RunTransactionControl(const sql::TransactionStmt& stmt, QueryResult* result) {
  switch (stmt.kind) {
    case sql::TransactionKind::kBegin:
      result->command_tag = "BEGIN";
      if (implicit_block_) {
        implicit_block_ = false;  // the implicit block becomes an ordinary one
      } else if (state_ != TransactionState::kIdle) {
        result->warnings.emplace_back(sqlstate::kActiveSqlTransaction, "there is already a transaction in progress");
        return Status::OK();
      } else {
        PL_RETURN_IF_ERROR(BeginBlock());
      }
      if (stmt.read_only) read_only_ = true;
      return Status::OK();
    case sql::TransactionKind::kCommit:
    case sql::TransactionKind::kRollback: {
      const bool commit = stmt.kind == sql::TransactionKind::kCommit && state_ != TransactionState::kFailed;
      result->command_tag = commit ? "COMMIT" : "ROLLBACK";  // COMMIT of a failed block rolls back
      // PostgreSQL warns when no BEGIN opened the block: none is open, or
      // it is implicit (then it still ends it).
      if (state_ == TransactionState::kIdle || implicit_block_) {
        result->warnings.emplace_back(sqlstate::kNoActiveSqlTransaction, "there is no transaction in progress");
      }
      if (state_ == TransactionState::kIdle) return Status::OK();
      return EndTransaction(commit, /*failed=*/state_ == TransactionState::kFailed);  // a rollback cannot fail
    }
    case sql::TransactionKind::kSavepoint:
    case sql::TransactionKind::kRelease:
    case sql::TransactionKind::kRollbackTo: {
      Status s = RunSavepointCommand(stmt, result);
      if (!s.ok()) FailOpenBlock();
      return s;
    }
    default: {
      Status s = NotSupported("this transaction command");
      FailOpenBlock();
      return s;
    }
  }
}

Status Session::FindSavepoint(const std::string& name, size_t* index) const {
  for (size_t i = savepoints_.size(); i-- > 0;) {
    if (savepoints_[i].name == name) {
      *index = i;
      return Status::OK();
    }
  }
  return Status(sqlstate::kInvalidSavepoint, "savepoint \"" + name + "\" does not exist");
}

Status Session::RunSavepointCommand(const sql::TransactionStmt& stmt, QueryResult* result) {
  const sql::TransactionKind kind = stmt.kind;
  const char* what = kind == sql::TransactionKind::kSavepoint ? "SAVEPOINT"
                     : kind == sql::TransactionKind::kRelease ? "RELEASE SAVEPOINT"
                                                              : "ROLLBACK TO SAVEPOINT";
  if (state_ == TransactionState::kIdle || implicit_block_) {
    return Status(sqlstate::kNoActiveSqlTransaction, std::string(what) + " can only be used in transaction blocks");
  }
  if (kind == sql::TransactionKind::kSavepoint) {
    Savepoint savepoint;
    savepoint.name = stmt.savepoint_name;
    savepoint.mark = txn_ ? txn_->Mark() : 0;
    savepoint.settings = settings_;
    savepoint.local_settings = local_settings_.size();
    savepoint.read_only = read_only_;
    savepoint.pending_listens = pending_listens_.size();
    savepoint.advisory_mark = advisory_locks_.TransactionMark();
    if (txn_) savepoint.constraint_modes = txn_->deferred_constraints().modes();
    savepoints_.push_back(std::move(savepoint));
    result->command_tag = "SAVEPOINT";
    return Status::OK();
  }
  size_t index = 0;
  PL_RETURN_IF_ERROR(FindSavepoint(stmt.savepoint_name, &index));
  if (kind == sql::TransactionKind::kRelease) {  // it and every later one go; their work stays
    savepoints_.resize(index);
    result->command_tag = "RELEASE";
    return Status::OK();
  }
  // ROLLBACK TO: the work after the savepoint goes, the savepoint stays.
  if (!txn_ || txn_->finished()) {
    return Status(sqlstate::kSerializationFailure,
                  "could not serialize access: a conflict ended the transaction, so it cannot go back to savepoint \"" +
                      stmt.savepoint_name + "\"; roll it back and retry it");
  }
  Savepoint& savepoint = savepoints_[index];
  txn_->RollbackTo(savepoint.mark);
  settings_ = savepoint.settings;
  local_settings_.resize(std::min(local_settings_.size(), savepoint.local_settings));
  read_only_ = savepoint.read_only;
  pending_listens_.resize(std::min(pending_listens_.size(), savepoint.pending_listens));
  advisory_locks_.RollbackTo(savepoint.advisory_mark);
  txn_->deferred_constraints().set_modes(savepoint.constraint_modes);
  savepoints_.resize(index + 1);
  state_ = TransactionState::kInBlock;
  result->command_tag = "ROLLBACK";
  return Status::OK();
}

Status Session::RunLock(const sql::LockStmt& stmt, QueryResult* result) {
  // PostgreSQL's lock modes; those up to SHARE let other transactions read
  // and write the table and keep schema changes out until the block ends,
  // which is what a table gate held by the block does here.
  static constexpr const char* kModes[] = {"",      "ACCESS SHARE",        "ROW SHARE", "ROW EXCLUSIVE",
                                           "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE",
                                           "EXCLUSIVE", "ACCESS EXCLUSIVE"};
  constexpr int kShare = 5;
  if (state_ == TransactionState::kIdle) {
    return Status(sqlstate::kNoActiveSqlTransaction, "LOCK TABLE can only be used in transaction blocks");
  }
  if (stmt.mode > kShare) {
    return NotSupported(std::string("LOCK TABLE IN ") + kModes[std::clamp(stmt.mode, 0, 8)] + " MODE")
        .WithDetail("Paceline takes the modes up to SHARE, which keep schema changes out until the block ends.");
  }
  std::vector<std::pair<TableId, std::string>> tables;  // id, name
  {
    // The names are looked up under the execution gate (DDL changes the
    // catalog only while holding it exclusively), the table gates waited
    // for without it (a schema change holding one needs it).
    StatementGate gate(this);
    PL_RETURN_IF_ERROR(gate.Enter());
    for (const sql::TableRef& ref : stmt.tables) {
      std::shared_ptr<storage::Table> table;
      if (ref.schema.empty() || ref.schema == "public") table = db_->catalog().FindTable(ref.name);
      if (table == nullptr) {
        const std::string name = ref.schema.empty() ? ref.name : ref.schema + "." + ref.name;
        return Status(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
      }
      tables.emplace_back(table->id(), table->name());
    }
  }
  if (gate_held_) return InternalError("LOCK TABLE inside a step that holds the execution gate");
  for (const auto& [table, name] : tables) {
    if (TryEnterTableGate(table)) continue;
    if (stmt.nowait) return Status(sqlstate::kLockNotAvailable, "could not obtain lock on relation \"" + name + "\"");
    PL_RETURN_IF_ERROR(runner_->EnterTableGate(this, table, &cancel_));
    table_gates_.push_back(table);
  }
  result->command_tag = "LOCK TABLE";
  return Status::OK();
}

bool Session::TryEnterTableGate(TableId table) {
  if (std::find(table_gates_.begin(), table_gates_.end(), table) != table_gates_.end()) return true;
  if (!runner_->table_gates().TryEnterShared(this, table)) return false;
  table_gates_.push_back(table);
  return true;
}

bool Session::EnterTableGatesNow(const sql::PreparedStatement& statement, TableId* busy) {
  for (TableId table : statement.table_ids) {
    if (!TryEnterTableGate(table)) {
      *busy = table;
      return false;
    }
  }
  return true;
}

}  // namespace paceline::engine
