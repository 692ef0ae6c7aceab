// Session: statement entry points and dispatch, autocommit, settings and
// SHOW (see session.h; the transaction-block rules are in session_block.cc,
// SHOW of the paceline.* settings in session_show.cc).
#include "engine/session.h"

#include <algorithm>

#include "common/datetime.h"
#include "engine/database.h"
#include "engine/execution/abort_culprit.h"
#include "engine/execution/retry_pause.h"
#include "engine/footprint_builder.h"
#include "engine/session_statement_gate.h"
#include "sql/literal_parameterizer.h"
#include "sql/explain/plan_counters.h"
#include "sql/parser.h"
#include "sql/statement_kind.h"

namespace paceline::engine {

namespace {

// Settings a session starts with (SHOW name); SET may change them. Names
// with a dot (custom settings, e.g. "paceline.x" or "myapp.y") may be set freely.
bool IsDdl(sql::StatementKind kind) {
  switch (kind) {
    case sql::StatementKind::kCreateTable: case sql::StatementKind::kCreateDomain:
    case sql::StatementKind::kCreateIndex: case sql::StatementKind::kCreateView: case sql::StatementKind::kDrop:
    case sql::StatementKind::kTruncate:
    case sql::StatementKind::kAlterTable:
    case sql::StatementKind::kCreateSequence: case sql::StatementKind::kAlterSequence:
      return true;
    default:
      return false;
  }
}

// What PostgreSQL calls a statement in "cannot execute X in a read-only
// transaction", or nullptr when the statement may run in one.
const char* ReadOnlyViolation(const sql::PreparedStatement& statement) {
  if (!statement.modifying_ctes.empty()) {
    const sql::DerivedPlan& first = *statement.modifying_ctes.front();
    return first.insert ? "INSERT" : first.update ? "UPDATE" : "DELETE";
  }
  switch (statement.kind) {
    case sql::StatementKind::kSelect:
      return statement.select->for_update() ? "SELECT FOR UPDATE" : statement.sequence_write;
    case sql::StatementKind::kInsert: return "INSERT";
    case sql::StatementKind::kUpdate: return "UPDATE";
    case sql::StatementKind::kDelete: return "DELETE";
    case sql::StatementKind::kCreateTable: return "CREATE TABLE";
    case sql::StatementKind::kCreateDomain: return "CREATE DOMAIN";
    case sql::StatementKind::kCreateIndex: return "CREATE INDEX";
    case sql::StatementKind::kCreateView: return "CREATE VIEW";
    case sql::StatementKind::kTruncate: return "TRUNCATE TABLE";
    case sql::StatementKind::kAlterTable: return "ALTER TABLE";
    case sql::StatementKind::kCreateSequence: return "CREATE SEQUENCE";
    case sql::StatementKind::kAlterSequence: return "ALTER SEQUENCE";
    case sql::StatementKind::kDrop:
      switch (statement.ast->drop->kind) {
        case sql::ObjectKind::kTable: return "DROP TABLE";
        case sql::ObjectKind::kIndex: return "DROP INDEX";
        case sql::ObjectKind::kDomain: return "DROP DOMAIN";
        case sql::ObjectKind::kView: return "DROP VIEW";
        case sql::ObjectKind::kSequence: return "DROP SEQUENCE";
        case sql::ObjectKind::kOther: return "DROP";
      }
      return "DROP";
    default:
      return nullptr;
  }
}

bool SameResultShape(const sql::PreparedStatement& a, const sql::PreparedStatement& b) {
  if (a.returns_rows != b.returns_rows || a.columns.size() != b.columns.size()) return false;
  for (size_t i = 0; i < a.columns.size(); ++i) {
    if (!(a.columns[i].type == b.columns[i].type)) return false;
  }
  return true;
}

}  // namespace

Session::Session(Database* db, StatementRunner* runner)
    : db_(db),
      runner_(runner),
      sequences_(&db->catalog(), runner->durability()),
      advisory_locks_(&runner->advisory_lock_table(), &cancel_, db->options().lock_timeout),
      system_info_(this, &db->catalog()),
      settings_(Session::DefaultSettings()),
      id_(runner->NextSessionId()) {
  activity_.SetPid(backend_pid());
  runner_->activity().Add(id_, this, &activity_, &advisory_locks_);
}

Session::~Session() {
  if (txn_) EndTransaction(false);
  db_->notifications().UnlistenAll(id_, /*forget_inbox=*/true);
  runner_->activity().Remove(id_);
}

void Session::SetTerminator(std::function<void()> terminator) {
  std::lock_guard lock(terminator_mu_);
  terminator_ = std::move(terminator);
}

bool Session::Signal(bool terminate) {
  if (!terminate) {
    Cancel();
    return true;
  }
  std::lock_guard lock(terminator_mu_);
  if (!terminator_) return false;
  terminator_();
  return true;
}

bool Session::SignalBackend(int32_t pid, bool terminate) { return runner_->activity().Signal(pid, terminate); }

void Session::FinishActivity() {
  auto it = settings_.find("application_name");
  activity_.Finish(state_, it == settings_.end() ? std::string_view() : std::string_view(it->second));
}

Status Session::Prepare(std::string_view sql, const std::vector<Type>& declared_types,
                        std::shared_ptr<const sql::PreparedStatement>* out) {
  // Binding reads the catalog, which DDL changes only while holding the
  // gate exclusively.
  StatementGate gate(this);
  PL_RETURN_IF_ERROR(gate.Enter());
  return runner_->Prepare(sql, declared_types, out);
}

bool Session::PrepareNormalized(const sql::ParameterizedStatement& normalized,
                                std::shared_ptr<const sql::PreparedStatement>* out, std::vector<Value>* with_literals) {
  StatementGate gate(this);  // binding reads the catalog
  if (!gate.Enter().ok()) return false;
  return runner_->PrepareNormalized(normalized, {}, out, with_literals);
}

Status Session::Execute(std::string_view sql, const std::vector<Value>& params, QueryResult* result) {
  RequestScope request(this, sql);
  result->Clear();
  if (const RecentStatements::Entry* recent = recent_.Find(sql, db_->catalog().version())) {
    if (recent->literals.empty()) return ExecutePrepared(*recent->statement, params, result);
    std::vector<Value> with_literals;
    if (recent->WithLiterals(params, &with_literals)) return ExecutePrepared(*recent->statement, with_literals, result);
  }
  // A text that does not prepare fails the open block like a statement.
  auto failed = [this](Status status) {
    FailOpenBlock();
    return status;
  };
  std::shared_ptr<const sql::PreparedStatement> statement;
  if (db_->options().parameterize_literals) {
    std::vector<Value> with_literals;
    bool applied = false;
    Status status = PrepareParameterized(sql, params, &statement, &with_literals, &applied);
    if (!status.ok()) return failed(std::move(status));
    if (applied) return ExecutePrepared(*statement, with_literals, result);
  }
  Status status = Prepare(sql, {}, &statement);
  if (!status.ok()) return failed(std::move(status));
  recent_.Remember(std::string(sql), {statement, 0, {}});
  return ExecutePrepared(*statement, params, result);
}

Status Session::PrepareParameterized(std::string_view sql, const std::vector<Value>& params,
                                     std::shared_ptr<const sql::PreparedStatement>* out,
                                     std::vector<Value>* with_literals, bool* applied) {
  *applied = false;
  sql::ParameterizedStatement normalized;
  if (!sql::LiteralParameterizer::Parameterize(sql, params.size(), &normalized)) return Status::OK();
  // Keyed by the normalized text and the literals' declared types (x = 5
  // and x = 5000000000 differ); a NUL never ends a text that prepares.
  std::string key = normalized.text;
  key.push_back('\0');
  for (size_t i = normalized.first_literal; i < normalized.declared.size(); ++i) {
    key.push_back(static_cast<char>('A' + static_cast<int>(normalized.declared[i].id)));
  }
  std::shared_ptr<const sql::PreparedStatement> statement;
  if (const RecentStatements::Entry* recent = recent_.Find(key, db_->catalog().version())) {
    statement = recent->statement;
    *with_literals = params;
    if (!sql::LiteralParameterizer::BindLiterals(normalized, *statement, with_literals)) return Status::OK();
  } else {
    // The rule (StatementRunner::PrepareNormalized): any failure falls back to the
    // original text, which then fails exactly as it always did. Only a gate
    // timeout is this call's error: the original would just time out again.
    StatementGate gate(this);  // binding reads the catalog
    PL_RETURN_IF_ERROR(gate.Enter());
    if (!runner_->PrepareNormalized(normalized, params, &statement, with_literals)) return Status::OK();
    recent_.Remember(std::move(key), {statement, 0, {}});
  }
  // The text itself, on its second sighting: Execute then runs it without
  // lexing it again.
  if (recent_.SeenBefore(sql)) {
    recent_.Remember(std::string(sql), {statement, params.size(),
                                        std::vector<Value>(with_literals->begin() + params.size(), with_literals->end())});
  }
  *out = std::move(statement);
  *applied = true;
  return Status::OK();
}

Status Session::ExecuteScript(std::string_view sql, std::vector<QueryResult>* results) {
  RequestScope request(this, sql);
  results->clear();
  if (db_->options().parameterize_literals) {
    // One DML statement whose literals parameterize: run it like Execute
    // (a script of one statement is no implicit block); anything else, or
    // any failure to prepare it, goes the way below.
    std::shared_ptr<const sql::PreparedStatement> statement;
    std::vector<Value> with_literals;
    bool applied = false;
    const RecentStatements::Entry* recent = recent_.Find(sql, db_->catalog().version());
    if (recent != nullptr && recent->WithLiterals({}, &with_literals)) {
      statement = recent->statement;
      applied = true;
    } else {
      PL_RETURN_IF_ERROR(PrepareParameterized(sql, {}, &statement, &with_literals, &applied));
    }
    if (applied) {
      results->emplace_back();
      Status status = ExecutePrepared(*statement, with_literals, &results->back());
      if (!status.ok()) results->pop_back();
      return status;
    }
  }
  std::vector<std::unique_ptr<sql::Statement>> statements;
  Status parsed = sql::Parse(sql, &statements);
  if (!parsed.ok()) {
    FailOpenBlock();  // a text that does not parse fails the open block, as in PostgreSQL
    return parsed;
  }
  size_t failed;
  return RunStatements(
      statements.size(),
      [&](size_t i) {
        std::shared_ptr<sql::PreparedStatement> prepared;
        Status status;
        {
          // Bound just before it runs, so it sees what earlier statements created.
          StatementGate gate(this);  // binding reads the catalog
          status = gate.Enter();
          if (status.ok()) {
            status = sql::PreparedStatement::FromStatement(std::move(statements[i]), db_->catalog(), {}, &prepared);
          }
        }
        if (!status.ok()) return status;
        results->emplace_back();
        status = ExecutePrepared(*prepared, {}, &results->back());
        if (!status.ok()) results->pop_back();
        return status;
      },
      &failed);
}

Status Session::ExecutePrepared(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                                QueryResult* result) {
  RequestScope request(this, statement.text);
  result->Clear();
  if (!sql::EndsBlock(statement.ast.get()) && !sql::IsTransaction(statement.ast.get(), sql::TransactionKind::kRollbackTo)) {
    PL_RETURN_IF_ERROR(CheckNotInFailedBlock());
  }
  if (statement.kind == sql::StatementKind::kTransaction) {
    return RunTransactionControl(*statement.ast->transaction, result);
  }
  Status status = Run(statement, params, result);
  if (!status.ok()) FailOpenBlock();
  return status;
}

Status Session::RunUtility(const sql::PreparedStatement& statement, QueryResult* result) {
  const sql::Statement& ast = *statement.ast;
  switch (ast.kind) {
    case sql::StatementKind::kSet: {
      const sql::SetStmt& set = *ast.set;
      if (set.name == "transaction_isolation" || set.name == "transaction" ||
          set.name == "session characteristics") {
        result->command_tag = "SET";  // every transaction is serializable already
        return Status::OK();
      }
      result->command_tag = set.reset ? "RESET" : "SET";
      // SET LOCAL and SET TRANSACTION last until the block ends; outside a
      // block they have no effect (PostgreSQL only warns).
      const bool block_scoped = set.local || set.name.rfind("transaction_", 0) == 0;
      if (block_scoped && state_ == TransactionState::kIdle) return Status::OK();
      if (set.reset && set.name == "all") {  // RESET ALL
        ResetAllSettings(block_scoped);
        return Status::OK();
      }
      std::string value;
      if (set.reset) {
        auto it = DefaultSettings().find(set.name);
        value = it == DefaultSettings().end() ? "" : it->second;
      } else {
        for (size_t i = 0; i < set.values.size(); ++i) value += (i ? ", " : "") + set.values[i];
      }
      PL_RETURN_IF_ERROR(SetSetting(set.name, std::move(value)));
      if (block_scoped) local_settings_.push_back(set.name);
      return Status::OK();
    }
    case sql::StatementKind::kSetConstraints:
      return SetConstraints(*ast.set_constraints, result);
    case sql::StatementKind::kListen: case sql::StatementKind::kUnlisten: case sql::StatementKind::kNotify:
      return RunNotifyStatement(ast, result);
    case sql::StatementKind::kLock:
      return RunLock(*ast.lock, result);
    case sql::StatementKind::kShow: {
      const std::string& name = ast.show->name;
      if (ShowPacelineSetting(name, result)) {
        // the database's, not this session's
      } else if (name == "all") {
        result->columns = {{"name", Type(TypeId::kText)}, {"setting", Type(TypeId::kText)}};
        for (const auto& [k, v] : settings_) result->rows.push_back({Value::Text(k), Value::Text(v)});
      } else {
        std::string value;
        PL_RETURN_IF_ERROR(GetSetting(name, &value));
        result->columns = {{name, Type(TypeId::kText)}};
        result->rows.push_back({Value::Text(value)});
      }
      result->returns_rows = true;
      result->rows_affected = result->rows.size();
      result->command_tag = "SHOW";
      return Status::OK();
    }
    case sql::StatementKind::kVacuum: case sql::StatementKind::kAnalyze: {
      const char* tag = ast.kind == sql::StatementKind::kVacuum ? "VACUUM" : "ANALYZE";
      if (ast.kind == sql::StatementKind::kVacuum && state_ != TransactionState::kIdle) {
        return Status(sqlstate::kActiveSqlTransaction, "VACUUM cannot run inside a transaction block");
      }
      result->command_tag = tag;
      return Status::OK();
    }
    case sql::StatementKind::kCheckpoint: {
      // PostgreSQL's CHECKPOINT: written now (in memory only: nothing to do).
      if (state_ != TransactionState::kIdle) {
        return Status(sqlstate::kActiveSqlTransaction, "CHECKPOINT cannot run inside a transaction block");
      }
      if (db_->durable()) {
        durability::CheckpointStats stats;
        PL_RETURN_IF_ERROR(db_->Checkpoint(&stats));
      }
      result->command_tag = "CHECKPOINT";
      return Status::OK();
    }
    case sql::StatementKind::kCopy:  // the wire protocol server carries these out
      return NotSupported("COPY");
    case sql::StatementKind::kDeallocate:
      return NotSupported("DEALLOCATE");
    case sql::StatementKind::kDiscard: {
      // PostgreSQL's DISCARD: ALL resets the session (settings here; the
      // protocol layer closes its prepared statements and portals). Plans
      // are shared by every session and rebuilt after DDL, and temporary
      // tables do not exist; SEQUENCES (and ALL) forget currval and lastval.
      static constexpr const char* kTags[] = {"DISCARD ALL", "DISCARD PLANS", "DISCARD SEQUENCES", "DISCARD TEMP"};
      const sql::DiscardTarget target = ast.discard->target;
      if (target == sql::DiscardTarget::kAll) {
        if (state_ != TransactionState::kIdle) {
          return Status(sqlstate::kActiveSqlTransaction, "DISCARD ALL cannot run inside a transaction block");
        }
        ResetAllSettings(false);
      }
      if (target == sql::DiscardTarget::kAll || target == sql::DiscardTarget::kSequences) sequences_.Discard();
      if (target == sql::DiscardTarget::kAll) ApplyListen(false, "");  // as UNLISTEN *
      result->command_tag = kTags[static_cast<int>(target)];
      return Status::OK();
    }
    case sql::StatementKind::kExplain:
      return InternalError("EXPLAIN runs with its parameters (Session::RunExplain)");
    case sql::StatementKind::kPrepare:
      return NotSupported("PREPARE");
    case sql::StatementKind::kExecute:
      return NotSupported("EXECUTE");
    case sql::StatementKind::kUnsupported:
      if (statement.IsEmpty()) return Status::OK();  // empty query: no tag
      return NotSupported(ast.unsupported_what);
    default:
      return InternalError("unexpected utility statement");
  }
}

Status Session::CheckDdlAfterWrites(const sql::Statement& ast) const {
  // DDL is not transactional, so it must not touch a table this block has
  // uncommitted writes to: a new index would miss them, and DROP, TRUNCATE or
  // ALTER would pull the table from under them. Other DDL (CREATE TABLE,
  // CREATE DOMAIN, DDL on other tables) runs at once, as it would outside.
  for (const auto& table : runner_->TablesNamedBy(ast)) {
    if (txn_->HasWritesTo(table.get())) {
      return Status(sqlstate::kActiveSqlTransaction,
                    "Paceline runs DDL outside transactions: this transaction block has uncommitted writes to \"" +
                        table->name() + "\" (COMMIT or ROLLBACK first)");
    }
  }
  return Status::OK();
}

Status Session::RunDmlInTransaction(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                                    QueryResult* result) {
  const bool block = state_ != TransactionState::kIdle;
  const bool lanes = block && runner_->lanes() != nullptr;
  for (;;) {
    StatementGate gate(this);  // an autocommit attempt holds it already
    PL_RETURN_IF_ERROR(gate.Enter());
    // No DDL runs now; a plan bound before some other session's DDL is
    // bound again (it may name an index or table that no longer exists).
    const sql::PreparedStatement* current = &statement;
    std::shared_ptr<const sql::PreparedStatement> rebound;
    if (statement.catalog_version != db_->catalog().version()) {
      PL_RETURN_IF_ERROR(runner_->Prepare(statement.text, statement.param_types, &rebound));
      current = rebound.get();
      // A client may have described the old result already (as PostgreSQL).
      if (!SameResultShape(statement, *rebound)) {
        return Status(sqlstate::kFeatureNotSupported, "cached plan must not change result type");
      }
    }
    TableId busy;
    if (block && !EnterTableGatesNow(*current, &busy)) {
      // A schema change claims one of its tables: wait for it outside the
      // execution gate (which that change needs next), then look again.
      gate.Leave();
      PL_RETURN_IF_ERROR(runner_->EnterTableGate(this, busy, &cancel_));
      table_gates_.push_back(busy);
      continue;
    }
    LaneWanted lane;
    if (lanes && !TakeLanesNow(*current, params, &lane)) {
      // Another block of its conflict group holds the lane: wait for it
      // outside the execution gate (that block's statements need it), then
      // look again (the free lanes, and a schema that may have changed).
      gate.Leave();
      activity_.Wait("Lock", "lane " + lane.name);
      Status acquired = runner_->lanes()->Acquire(id_, lane.key, lane.name,
                                             std::chrono::steady_clock::now() + db_->options().lock_timeout, &cancel_,
                                             txn_->context());
      activity_.ClearWait();
      PL_RETURN_IF_ERROR(acquired);
      block_lanes_.push_back(lane.key);
      continue;
    }
    if (runner_->footprint_spec().references) {
      if (!footprint_) footprint_ = std::make_unique<FootprintBuilder>(runner_->footprint_spec());
      footprint_->Add(*current, params);
      executed_.push_back({current->text, current->param_types, params});
    }
    if (explain_counters_ != nullptr) explain_counters_->Clear();  // the last attempt's counts
    txn_->SetPlanCounters(explain_counters_);
    Status status = runner_->RunDml(*current, params, txn_.get(), txn_start_, result);
    txn_->SetPlanCounters(nullptr);
    // In a block the result reaches the client before COMMIT: a sequence
    // value in it only once the record covering it is durable (once per
    // kLogAhead values; an autocommit statement's commit covers it).
    const Lsn needed = block ? sequences_.TakeNeededLsn() : Lsn();  // else the commit waits for it
    if (status.ok() && needed != Lsn()) status = runner_->AwaitCommitDurable(needed);
    return status;
  }
}

Status Session::RunSchemaChange(const sql::PreparedStatement& statement, QueryResult* result) {
  Status status = runner_->ChangeSchema(
      this, &cancel_, [&] { return runner_->TablesChangedBy(*statement.ast); },
      [&] {
        if (txn_ && txn_->has_writes()) PL_RETURN_IF_ERROR(CheckDdlAfterWrites(*statement.ast));
        return runner_->RunDdl(statement, result);
      });
  if (txn_) ran_ddl_ = true;  // what it dropped is freed once this block ends
  return status;
}

Status Session::Run(const sql::PreparedStatement& statement, const std::vector<Value>& params, QueryResult* result) {
  const sql::StatementKind kind = statement.kind;
  if (read_only_) {
    if (const char* what = ReadOnlyViolation(statement)) {
      return Status(sqlstate::kReadOnlySqlTransaction, std::string("cannot execute ") + what + " in a read-only transaction");
    }
  }
  if (sql::IsDml(kind)) {
    if (txn_) return RunDmlInTransaction(statement, params, result);
    // An autocommit statement is its own transaction: a conflict is retried
    // here, as a worker retries a submitted transaction (nothing of the
    // failed attempt reached the client), keeping its age for 2PL's rules.
    const TxnTimestamp timestamp = runner_->NextTimestamp();
    for (int attempt = 0;; ++attempt) {
      StatementGate gate(this);  // for the whole attempt, its commit included
      PL_RETURN_IF_ERROR(gate.Enter());
      PL_RETURN_IF_ERROR(Begin(timestamp));
      Status status = RunDmlInTransaction(statement, params, result);
      if (!status.ok()) status = txn_->Explain(std::move(status));  // stale reads: a conflict, retried
      cc::AbortReason reason = txn_->abort_reason();
      Status end = EndTransaction(status.ok(), /*failed=*/!status.ok());
      if (status.ok() && !end.ok()) {
        result->Clear();
        status = end;
        reason = last_abort_reason_;
      }
      const bool conflict = cc::IsConflict(reason);
      if (!conflict || attempt >= db_->options().max_retries) return status;
      activity_.transactions().CountRetry();
      result->Clear();
      gate.Leave();  // DDL need not wait out the pause
      PauseBeforeRetry(attempt + 1, db_->options().max_retry_pause, db_->options().retry_yield);
    }
  }
  if (IsDdl(kind)) return RunSchemaChange(statement, result);
  if (kind == sql::StatementKind::kExplain) return RunExplain(statement, params, result);
  return RunUtility(statement, result);
}

}  // namespace paceline::engine
