// Database: the embedded API and composition root of the engine.
//
//   std::unique_ptr<Database> db;
//   Status s = Database::Open(Options{}, &db);
//   auto session = db->CreateSession();
//   QueryResult r;
//   s = session->Execute("SELECT c_balance FROM customer WHERE c_id = $1", {Value::Int32(7)}, &r);
//
// A Database owns the catalog, the tables, the statement cache and the
// registered stored procedures. Sessions run SQL interactively; Execute runs
// a whole TransactionRequest (statements or a procedure call) in one
// transaction on the calling thread; BulkLoad appends rows without SQL.
//
// Transactions currently run one at a time (ExecutionGate); each is atomic,
// and a failed statement never leaves partial effects.
//
// Thread-safety: every public method may be called from any thread.
// Ownership: sessions must not outlive the Database.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/catalog/catalog.h"
#include "engine/execution_gate.h"
#include "engine/options.h"
#include "engine/procedure.h"
#include "engine/session.h"
#include "engine/sql/statement_cache.h"
#include "engine/transaction_request.h"

namespace paceline::engine {

class Database {
 public:
  static Status Open(const Options& options, std::unique_ptr<Database>* out);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  std::unique_ptr<Session> CreateSession();

  // Registers a stored procedure; its statements are prepared now (so they
  // must be valid against the current schema). 42710 if the name is taken.
  Status RegisterProcedure(Procedure procedure);
  // Runs a whole transaction on the calling thread and commits it, or rolls
  // it back on the first error (result->status).
  void Execute(const TransactionRequest& request, TransactionResult* result);

  // Appends rows to `table` without SQL: each row has one value per column
  // (converted to the column type when needed). Checks NOT NULL and unique
  // keys; on an error nothing of this call is kept.
  Status BulkLoad(std::string_view table, const std::vector<std::vector<Value>>& rows);

  const Options& options() const { return options_; }
  const catalog::Catalog& catalog() const { return catalog_; }
  const sql::StatementCache& statement_cache() const { return cache_; }

 private:
  friend class Session;
  friend class DatabaseProcedureContext;
  explicit Database(const Options& options);

  // Statement execution shared by sessions, requests and procedures.
  Status RunDml(const sql::PreparedStatement& statement, const std::vector<Value>& params, Transaction* txn,
                int64_t start_time, QueryResult* result);
  Status RunDdl(const sql::PreparedStatement& statement, QueryResult* result);
  Status Prepare(std::string_view sql, const std::vector<Type>& declared,
                 std::shared_ptr<const sql::PreparedStatement>* out);
  Status EnterGate();
  void LeaveGate() { gate_.Leave(); }

  // Holds the gate for one scope: Enter() it, and it is left when the scope
  // ends, however it ends (a procedure body that throws included).
  class ScopedGate {
   public:
    explicit ScopedGate(Database* db) : db_(db) {}
    ~ScopedGate() {
      if (held_) db_->LeaveGate();
    }
    ScopedGate(const ScopedGate&) = delete;
    ScopedGate& operator=(const ScopedGate&) = delete;
    Status Enter() {
      PL_RETURN_IF_ERROR(db_->EnterGate());
      held_ = true;
      return Status::OK();
    }

   private:
    Database* db_;
    bool held_ = false;
  };

  struct RegisteredProcedure {
    Procedure procedure;
    // Its statements, prepared; rebuilt (under the gate) after DDL.
    std::vector<std::shared_ptr<const sql::PreparedStatement>> prepared;
  };

  const Options options_;
  catalog::Catalog catalog_;
  sql::StatementCache cache_;
  ExecutionGate gate_;
  std::mutex procedures_mu_;
  std::map<std::string, std::shared_ptr<RegisteredProcedure>, std::less<>> procedures_;
};

}  // namespace paceline::engine
