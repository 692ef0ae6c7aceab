// Database: composition of catalog, statement cache, workers and scheduler;
// the execution gate, bulk load, opening and recovery, and the DML runner
// (database.h). Schema changes (table gates, DDL and its log) are
// database_ddl.cc; whole transactions (Submit, Run, footprints, attempts)
// database_requests.cc; checkpoints and durable commits
// database_durability.cc.
#include "engine/database.h"

#include <malloc.h>
#include <tbb/scalable_allocator.h>

#include <algorithm>
#include <iterator>

#include "common/datetime.h"
#include "engine/durability/redo_record.h"
#include "engine/log/log_frame.h"
#include "engine/footprint_builder.h"
#include "engine/sql/ddl_executor.h"
#include "engine/execution/retry_pause.h"
#include "engine/sql/executor.h"
#include "engine/sql/literal_parameterizer.h"
#include "scheduler/scheduler_registry.h"

namespace paceline::engine {

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

// The workers' view of the database: one attempt of a request.
class Database::Runner : public TransactionRunner {
 public:
  explicit Runner(Database* db) : db_(db) {}
  AttemptOutcome RunAttempt(const TransactionRequest& request, AttemptContext& ctx,
                            TransactionResult* result) override {
    if (ctx.timestamp == 0) ctx.timestamp = db_->NextTimestamp();  // kept across retries
    return db_->RunAttempt(request, ctx.timestamp, result, &ctx.abort_reason, &ctx.culprit_table);
  }
  void NameReferences(const TransactionRequest& request, std::vector<std::string>* names) override {
    db_->NameReferences(request, names);
  }

 private:
  Database* db_;
};

Database::Database(const Options& options) : options_(options), cache_(options.statement_cache_bytes) {}

Database::~Database() {
  Shutdown(true);
  if (checkpointer_.joinable()) {
    {
      std::lock_guard lock(checkpointer_mu_);
      checkpointer_stop_ = true;
    }
    checkpointer_cv_.notify_all();
    checkpointer_.join();
  }
  if (durability_ != nullptr) {
    // A clean close: each sequence's exact state, so that a restart goes on
    // where it stopped (as PostgreSQL's shutdown checkpoint does) rather
    // than past the bound logged ahead.
    for (const std::string& name : catalog_.SequenceNames()) {
      catalog_.FindSequence(name)->LogState([&](int64_t value, bool called) {
        return durability_->AppendSequence(name, value, called);
      });
    }
  }
  if (durability_ != nullptr && options_.checkpoint_on_close && durability_->log_bytes_since_checkpoint() > 0) {
    durability::CheckpointStats stats;
    Checkpoint(&stats);  // a failure leaves the log, which recovery replays
  }
  // The log writer's last callbacks run now, while the (stopped) worker
  // pool they may submit to still exists.
  durability_.reset();
}

std::vector<std::string> Database::ConcurrencyControlNames() {
  cc::CcRegistry registry;
  cc::RegisterBuiltinConcurrencyControls(&registry);
  return registry.Names();
}

std::vector<std::string> Database::SchedulerNames() {
  scheduler::SchedulerRegistry registry;
  scheduler::RegisterBuiltinSchedulers(&registry);
  return registry.Names();
}

Status Database::Open(const Options& options, std::unique_ptr<Database>* out) {
  if (options.statement_cache_bytes < (size_t{1} << 20)) {
    return Status(sqlstate::kInvalidParameterValue, "statement_cache_bytes must be at least 1 MiB");
  }
  if (options.max_retries < 0) return Status(sqlstate::kInvalidParameterValue, "max_retries must not be negative");
  std::unique_ptr<Database> db(new Database(options));
  cc::CcRegistry ccs;
  cc::RegisterBuiltinConcurrencyControls(&ccs);
  cc::CcOptions cc_options;
  cc_options.lock_timeout = options.lock_timeout;
  PL_RETURN_IF_ERROR(ccs.Create(options.cc, cc_options, &db->cc_));
  scheduler::SchedulerRegistry schedulers;
  scheduler::RegisterBuiltinSchedulers(&schedulers);
  scheduler::SchedulerOptions scheduler_options = options.scheduling;
  scheduler_options.queues = options.workers == 0 ? 1 : options.workers;
  scheduler_options.seed = options.seed;
  PL_RETURN_IF_ERROR(schedulers.Create(options.scheduler, scheduler_options, &db->scheduler_));
  if (!options.data_dir.empty()) {
    durability::DurabilityOptions d;
    d.data_dir = options.data_dir;
    PL_RETURN_IF_ERROR(log::ParseSyncMode(options.sync, &d.sync));
    d.segment_bytes = options.log_segment_bytes;
    d.before_sync = options.log_before_sync;
    d.group_commit_delay = options.group_commit_delay;
    Database* raw = db.get();
    auto run_ddl = [raw](const std::string& sql) -> Status {
      std::shared_ptr<const sql::PreparedStatement> p;
      PL_RETURN_IF_ERROR(raw->Prepare(sql, {}, &p));
      QueryResult ignored;
      return raw->RunDdl(*p, &ignored, /*replaying=*/true);  // durability_ is not set yet: not logged again
    };
    PL_RETURN_IF_ERROR(durability::Durability::Open(d, &db->catalog_, run_ddl, &db->recovery_stats_,
                                                    &db->durability_));
    db->checkpointer_ = std::thread([raw] { raw->CheckpointerLoop(); });
  }
  db->footprint_spec_ = db->scheduler_->Needs();
  db->needs_footprint_ = db->footprint_spec_.references || !db->footprint_spec_.partition_domain.empty();
  if (options.conflict_lanes && db->footprint_spec_.references) {
    // A reference stays laned for four evidence half-lives after blocks
    // last met in its lane (lane_table.h, Memory); lane waits keep the
    // CC's deadlock rule.
    db->lanes_ = std::make_unique<LaneTable>(4 * options.scheduling.history_half_life, db->cc_.get());
  }
  if (options.workers > 0) {
    db->runner_ = std::make_unique<Runner>(db.get());
    WorkerPoolOptions pool_options;
    pool_options.workers = options.workers;
    pool_options.steal = options.steal;
    pool_options.steal_threshold = options.steal_threshold;
    pool_options.max_retries = options.max_retries;
    pool_options.seed = options.seed;
    pool_options.max_retry_pause = options.max_retry_pause;
    pool_options.retry_yield = options.retry_yield;
    db->pool_ = std::make_unique<WorkerPool>(pool_options, db->runner_.get(), db->scheduler_.get());
    PL_RETURN_IF_ERROR(db->pool_->Start());
  }
  *out = std::move(db);
  return Status::OK();
}

std::vector<scheduler::HotReference> Database::TopReferences(size_t k) const { return scheduler_->TopReferences(k); }

scheduler::SchedulerStats Database::SchedulerStats() const { return scheduler_->Stats(); }

ExecutionStats Database::Stats() const { return pool_ ? pool_->Stats() : ExecutionStats{}; }

ExecutionStats Database::StatsHere() const { return pool_ ? pool_->HereStats() : ExecutionStats{}; }

std::vector<ExecutionStats> Database::StatsPerQueue() const {
  return pool_ ? pool_->StatsPerQueue() : std::vector<ExecutionStats>{};
}

std::vector<size_t> Database::QueueLengths() const {
  std::vector<size_t> lengths(pool_ ? pool_->workers() : 0);
  for (size_t q = 0; q < lengths.size(); ++q) lengths[q] = pool_->QueueLength(q);
  return lengths;
}

void Database::ResetStats() {
  if (pool_) pool_->ResetStats();
}

void Database::Shutdown(bool drain) {
  if (pool_) pool_->Shutdown(drain);
}

Status Database::NewTransaction(uint64_t timestamp, std::unique_ptr<Transaction>* out) {
  auto txn = std::make_unique<Transaction>(cc_.get(), &epoch_, timestamp);
  PL_RETURN_IF_ERROR(txn->Start());
  txn->SetDurability(durability_.get());
  txn->SetStatements(this);
  *out = std::move(txn);
  return Status::OK();
}

std::unique_ptr<Session> Database::CreateSession() { return std::unique_ptr<Session>(new Session(this)); }

// 55P03 for a gate wait that ran out: "could not <what>: <who> ... ".
Status Database::GateTimedOut(bool entered, const char* what, const char* who) const {
  if (entered) return Status::OK();
  return Status(sqlstate::kLockNotAvailable, std::string("could not ") + what + ": " + who +
                                                 " longer than lock_timeout (" +
                                                 std::to_string(options_.lock_timeout.count()) + " ms)");
}

Status Database::EnterGate() {
  return GateTimedOut(gate_.EnterShared(options_.lock_timeout), "start a transaction",
                      "a schema change waited for running transactions");
}

Status Database::EnterGateExclusive() {
  return GateTimedOut(gate_.EnterExclusive(options_.lock_timeout), "change the schema", "statements stayed running");
}

Status Database::Prepare(std::string_view sql, const std::vector<Type>& declared,
                         std::shared_ptr<const sql::PreparedStatement>* out) {
  return cache_.Get(sql, catalog_, declared, out);
}

Status Database::RunDml(const sql::PreparedStatement& statement, const std::vector<Value>& params, Transaction* txn,
                        int64_t start_time, QueryResult* result) {
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

Status Database::CheckDeferred(Transaction* txn, int64_t start_time, bool all) {
  if (!txn->has_deferred_checks()) return Status::OK();
  sql::Executor executor(txn, nullptr, start_time, options_.statement_memory_bytes);
  Status status = executor.CheckDeferredForeignKeys(all);  // they only read: nothing to undo
  // A violation seen through reads that are no longer current is a
  // conflict (40001, retried), as for a failed statement (RunDml).
  if (!status.ok() && txn->abort_reason() == cc::AbortReason::kNone) status = txn->Explain(std::move(status));
  return status;
}

Status Database::BulkLoad(std::string_view table_name, const std::vector<std::vector<Value>>& rows) {
  // As a schema change: no statement runs and no block uses the table
  // meanwhile.
  const int frame = 0;  // this call's identity among the table gates' owners
  return ChangeSchema(
      &frame, nullptr,
      [&] {
        auto table = catalog_.FindTable(table_name);
        return table ? std::vector<uint32_t>{table->id()} : std::vector<uint32_t>{};
      },
      [&] { return LoadRows(table_name, rows); });
}

Status Database::LoadRows(std::string_view table_name, const std::vector<std::vector<Value>>& rows) {
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
      if (index->KeyOf(tuple, &key, &has_null).ok()) index->Erase(key, has_null, row);
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
      auto live = [&](storage::Row* existing, const std::string& k, bool* is_live) {
        const storage::Tuple* t = existing->tuple.load(std::memory_order_acquire);
        std::string existing_key;
        bool existing_null = false;
        *is_live = t != nullptr && index->KeyOf(*t, &existing_key, &existing_null).ok() && existing_key == k;
        return Status::OK();
      };
      storage::Index::InsertResult inserted;
      status = index->Insert(key, has_null, target, live, &inserted);
      if (!status.ok()) break;
      if (inserted.blocking != nullptr) {
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
    table->ExchangeTuple(target, std::move(tuple));  // nobody reads meanwhile: freed at once
    loaded.push_back(target);
  }
  // With a redo log, the load is one record: a crash keeps all of it or
  // none of it.
  std::string redo;
  if (status.ok() && durability_ != nullptr) {
    for (storage::Row* row : loaded) {
      durability::AppendRowImage(table->name(), row->row_id, row->tuple.load(std::memory_order_acquire), &redo);
    }
    if (redo.size() > log::kMaxFramePayload) {
      status = Status(sqlstate::kProgramLimitExceeded,
                      "bulk load into " + table->name() + ": " + std::to_string(loaded.size()) + " rows make a " +
                          std::to_string(redo.size() >> 20) + " MiB redo record, over the log's limit of " +
                          std::to_string(log::kMaxFramePayload >> 20) + " MiB: load them in smaller calls");
    }
  }
  if (!status.ok()) {
    for (auto it = loaded.rbegin(); it != loaded.rend(); ++it) {
      erase_entries(*it, *(*it)->tuple.load(std::memory_order_acquire), table->indexes().size());
      table->ExchangeTuple(*it, nullptr);
      table->ReleaseRow(*it);
    }
    return status;
  }
  if (!redo.empty()) status = durability_->WaitDurable(durability_->AppendRowImages(redo));
  return status;
}

}  // namespace paceline::engine
