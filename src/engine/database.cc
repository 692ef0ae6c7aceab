// Database: composition of catalog, statement cache, gate and procedures;
// one-shot transactions, bulk load, and the DML/DDL runners (database.h).
#include "engine/database.h"

#include "common/datetime.h"
#include "engine/sql/ddl_executor.h"
#include "engine/sql/executor.h"

namespace paceline::engine {

Status CastParameters(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                      std::vector<Value>* out) {
  if (params.size() != statement.param_types.size()) {
    return Status("08P01", "bind message supplies " + std::to_string(params.size()) +
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

// The ProcedureContext a procedure body sees: statements by index inside the
// request's transaction.
class DatabaseProcedureContext : public ProcedureContext {
 public:
  DatabaseProcedureContext(Database* db, Database::RegisteredProcedure* proc, Transaction* txn, int64_t start)
      : db_(db), proc_(proc), txn_(txn), start_(start) {}

  Status Execute(size_t statement, const std::vector<Value>& params, QueryResult* result) override {
    if (statement >= proc_->prepared.size()) {
      return Status(sqlstate::kInvalidParameterValue,
                    "procedure " + proc_->procedure.name + " has no statement " + std::to_string(statement));
    }
    const auto& prepared = proc_->prepared[statement];
    if (prepared->catalog_version != db_->catalog_.version()) {
      std::shared_ptr<const sql::PreparedStatement> fresh;
      PL_RETURN_IF_ERROR(db_->Prepare(prepared->text, {}, &fresh));
      proc_->prepared[statement] = fresh;
    }
    result->Clear();
    return db_->RunDml(*proc_->prepared[statement], params, txn_, start_, result);
  }

  Status Rollback(std::string message) override {
    user_abort_ = true;
    return Status(sqlstate::kRaiseException, std::move(message));
  }

  bool user_abort() const { return user_abort_; }

 private:
  Database* db_;
  Database::RegisteredProcedure* proc_;
  Transaction* txn_;
  int64_t start_;
  bool user_abort_ = false;
};

Database::Database(const Options& options) : options_(options), cache_(options.statement_cache_capacity) {}

Database::~Database() = default;

Status Database::Open(const Options& options, std::unique_ptr<Database>* out) {
  if (options.statement_cache_capacity == 0) {
    return Status(sqlstate::kInvalidParameterValue, "statement_cache_capacity must be at least 1");
  }
  out->reset(new Database(options));
  return Status::OK();
}

std::unique_ptr<Session> Database::CreateSession() { return std::unique_ptr<Session>(new Session(this)); }

Status Database::EnterGate() {
  if (!gate_.Enter(options_.lock_timeout)) {
    return Status(sqlstate::kLockNotAvailable,
                  "could not start a transaction: another session's transaction stayed open longer than "
                  "lock_timeout (" + std::to_string(options_.lock_timeout.count()) + " ms)");
  }
  return Status::OK();
}

Status Database::Prepare(std::string_view sql, const std::vector<Type>& declared,
                         std::shared_ptr<const sql::PreparedStatement>* out) {
  return cache_.Get(sql, catalog_, declared, out);
}

Status Database::RunDml(const sql::PreparedStatement& statement, const std::vector<Value>& params, Transaction* txn,
                        int64_t start_time, QueryResult* result) {
  std::vector<Value> cast;
  PL_RETURN_IF_ERROR(CastParameters(statement, params, &cast));
  sql::Executor executor(txn, &cast, start_time);
  size_t mark = txn->Mark();
  Status status;
  switch (statement.kind) {
    case sql::StatementKind::kSelect: status = executor.Select(*statement.select, result); break;
    case sql::StatementKind::kInsert: status = executor.Insert(*statement.insert, result); break;
    case sql::StatementKind::kUpdate: status = executor.Update(*statement.update, result); break;
    case sql::StatementKind::kDelete: status = executor.Delete(*statement.del, result); break;
    default: return InternalError("not a DML statement");
  }
  if (!status.ok()) {
    txn->RollbackTo(mark);
    result->Clear();
  }
  return status;
}

Status Database::RunDdl(const sql::PreparedStatement& statement, QueryResult* result) {
  sql::DdlExecutor ddl(&catalog_);
  return ddl.Execute(*statement.ast, result);
}

Status Database::RegisterProcedure(Procedure procedure) {
  if (procedure.name.empty() || !procedure.body) {
    return Status(sqlstate::kInvalidParameterValue, "a procedure needs a name and a body");
  }
  auto registered = std::make_shared<RegisteredProcedure>();
  ScopedGate gate(this);  // preparing reads the catalog
  PL_RETURN_IF_ERROR(gate.Enter());
  Status status;
  for (const auto& text : procedure.statements) {
    std::shared_ptr<const sql::PreparedStatement> p;
    status = Prepare(text, {}, &p);
    if (!status.ok()) break;
    if (p->kind != sql::StatementKind::kSelect && p->kind != sql::StatementKind::kInsert &&
        p->kind != sql::StatementKind::kUpdate && p->kind != sql::StatementKind::kDelete) {
      status = Status(sqlstate::kFeatureNotSupported,
                      "procedure " + procedure.name + ": only SELECT, INSERT, UPDATE and DELETE may be declared: " + text);
      break;
    }
    registered->prepared.push_back(std::move(p));
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

void Database::Execute(const TransactionRequest& request, TransactionResult* result) {
  result->results.clear();
  result->user_abort = false;
  std::shared_ptr<RegisteredProcedure> proc;
  if (!request.procedure.empty()) {
    std::lock_guard lock(procedures_mu_);
    auto it = procedures_.find(request.procedure);
    if (it == procedures_.end()) {
      result->status = Status(sqlstate::kUndefinedFunction, "procedure \"" + request.procedure + "\" does not exist");
      return;
    }
    proc = it->second;
  }
  ScopedGate gate(this);
  result->status = gate.Enter();
  if (!result->status.ok()) return;
  Transaction txn;  // aborts in its destructor if never committed
  const int64_t start = CurrentTimestampMicros();
  Status status;
  if (proc) {
    DatabaseProcedureContext ctx(this, proc.get(), &txn, start);
    status = proc->procedure.body(ctx, request.args);
    result->user_abort = ctx.user_abort();
  } else {
    for (const auto& call : request.statements) {
      std::shared_ptr<const sql::PreparedStatement> p;
      status = Prepare(call.sql, {}, &p);
      if (status.ok() && p->kind != sql::StatementKind::kSelect && p->kind != sql::StatementKind::kInsert &&
          p->kind != sql::StatementKind::kUpdate && p->kind != sql::StatementKind::kDelete) {
        status = Status(sqlstate::kFeatureNotSupported,
                        "a transaction request may hold only SELECT, INSERT, UPDATE and DELETE statements");
      }
      if (!status.ok()) break;
      result->results.emplace_back();
      status = RunDml(*p, call.params, &txn, start, &result->results.back());
      if (!status.ok()) break;
    }
  }
  if (status.ok()) txn.Commit();
  else txn.Abort();
  result->status = status;
}

Status Database::BulkLoad(std::string_view table_name, const std::vector<std::vector<Value>>& rows) {
  ScopedGate gate(this);
  PL_RETURN_IF_ERROR(gate.Enter());  // before the lookup: DDL holds the gate too
  auto table = catalog_.FindTable(table_name);
  if (!table) return Status(sqlstate::kUndefinedTable, "relation \"" + std::string(table_name) + "\" does not exist");
  // Rows are installed directly (no write set: nothing else runs while the
  // gate is held); `loaded` lets an error undo the whole call.
  const auto& columns = table->schema().columns;
  std::vector<storage::Row*> loaded;
  loaded.reserve(rows.size());
  auto erase_entries = [&](storage::Row* row, const storage::Tuple& tuple, size_t index_count) {
    std::string key;
    bool has_null = false;
    for (size_t i = 0; i < index_count; ++i) {
      storage::Index* index = table->indexes()[i].get();
      if (index->KeyOf(tuple, &key, &has_null).ok()) index->EraseUnsafe(key, has_null, row);
    }
  };
  Status status;
  std::vector<Value> values;
  std::string key;
  for (const auto& row : rows) {
    if (row.size() != columns.size()) {
      status = Status(sqlstate::kInvalidParameterValue,
                      "bulk load into " + table->name() + ": a row has " + std::to_string(row.size()) +
                          " values, the table has " + std::to_string(columns.size()) + " columns");
      break;
    }
    values.resize(row.size());
    for (size_t c = 0; c < row.size() && status.ok(); ++c) {
      const Type& t = columns[c].type;
      if (row[c].is_null()) {
        if (columns[c].not_null) {
          status = Status(sqlstate::kNotNullViolation, "null value in column \"" + columns[c].name +
                                                           "\" of relation \"" + table->name() +
                                                           "\" violates not-null constraint");
        }
        values[c] = Value::Null(t.id);
      } else if (row[c].type() == t.id && (t.id != TypeId::kNumeric || row[c].numeric_value().scale() == t.scale) &&
                 (!t.IsString() || t.length < 0)) {
        values[c] = row[c];
      } else {
        status = CastValue(row[c], t, false, &values[c]);
      }
    }
    if (!status.ok()) break;
    storage::TuplePtr tuple = table->layout().Build(values);
    storage::Row* target = table->AllocateRow();
    size_t indexed = 0;
    for (; indexed < table->indexes().size(); ++indexed) {
      storage::Index* index = table->indexes()[indexed].get();
      bool has_null = false;
      status = index->KeyOf(*tuple, &key, &has_null);
      if (!status.ok()) break;
      auto live = [&](storage::Row* existing, const std::string& k) {
        const storage::Tuple* t = existing->tuple.load(std::memory_order_acquire);
        std::string existing_key;
        bool existing_null = false;
        return t != nullptr && index->KeyOf(*t, &existing_key, &existing_null).ok() && existing_key == k;
      };
      if (index->Insert(key, has_null, target, live).blocking != nullptr) {
        std::string cols, vals;
        for (int column : index->schema().columns) {
          cols += (cols.empty() ? "" : ", ") + columns[column].name;
          vals += (vals.empty() ? "" : ", ") + values[column].ToString();
        }
        status = Status(sqlstate::kUniqueViolation,
                        "duplicate key value violates unique constraint \"" + index->schema().name + "\"")
                     .WithDetail("Key (" + cols + ")=(" + vals + ") already exists.");
        break;
      }
    }
    if (!status.ok()) {
      erase_entries(target, *tuple, indexed);
      table->ReleaseRow(target);
      break;
    }
    table->ReplaceTuple(target, std::move(tuple));
    loaded.push_back(target);
  }
  if (!status.ok()) {
    for (auto it = loaded.rbegin(); it != loaded.rend(); ++it) {
      erase_entries(*it, *(*it)->tuple.load(std::memory_order_acquire), table->indexes().size());
      table->ReplaceTuple(*it, nullptr);
      table->ReleaseRow(*it);
    }
  }
  return status;
}

}  // namespace paceline::engine
