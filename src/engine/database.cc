// Database: composition of catalog, statement cache, statement runner,
// workers and scheduler; bulk load, opening and recovery (database.h).
// Whole transactions (Submit, Run, footprints, attempts) are
// database_requests.cc; checkpoints and durable commits
// database_durability.cc; how a statement runs, statement_runner.h.
#include "engine/database.h"

#include <malloc.h>
#include <tbb/scalable_allocator.h>

#include <algorithm>
#include <iterator>

#include "common/datetime.h"
#include "engine/durability/redo_record.h"
#include "engine/log/log_frame.h"
#include "engine/footprint_builder.h"
#include "sql/ddl_executor.h"
#include "engine/execution/retry_pause.h"
#include "sql/executor.h"
#include "sql/literal_parameterizer.h"
#include "scheduler/scheduler_registry.h"

namespace paceline::engine {

// The workers' view of the database: one attempt of a request.
class Database::Runner : public TransactionRunner {
 public:
  explicit Runner(Database* db) : db_(db) {}
  AttemptOutcome RunAttempt(const TransactionRequest& request, AttemptContext& ctx,
                            TransactionResult* result) override {
    if (ctx.timestamp == TxnTimestamp()) ctx.timestamp = db_->statements_->NextTimestamp();  // kept across retries
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
  // pool they may submit to still exists; from here on statements are in
  // memory only.
  if (statements_ != nullptr) statements_->SetDurability(nullptr);
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
  StatementRunner::Parts parts;
  parts.options = &db->options_;
  parts.catalog = &db->catalog_;
  parts.cache = &db->cache_;
  parts.cc = db->cc_.get();
  parts.epoch = &db->epoch_;
  parts.scheduler = db->scheduler_.get();
  parts.activity = &db->activity_;
  parts.advisory_locks = &db->advisory_lock_table_;
  db->statements_ = std::make_unique<StatementRunner>(parts);
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
      PL_RETURN_IF_ERROR(raw->statements_->Prepare(sql, {}, &p));
      QueryResult ignored;
      // The runner has no durability yet: what recovery replays is not logged again.
      return raw->statements_->RunDdl(*p, &ignored, /*replaying=*/true);
    };
    PL_RETURN_IF_ERROR(durability::Durability::Open(d, &db->catalog_, run_ddl, &db->recovery_stats_,
                                                    &db->durability_));
    db->statements_->SetDurability(db->durability_.get());
    db->checkpointer_ = std::thread([raw] { raw->CheckpointerLoop(); });
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

std::unique_ptr<Session> Database::CreateSession() { return std::make_unique<Session>(this, statements_.get()); }

Status Database::BulkLoad(std::string_view table_name, const std::vector<std::vector<Value>>& rows) {
  // As a schema change: no statement runs and no block uses the table
  // meanwhile.
  const int frame = 0;  // this call's identity among the table gates' owners
  return statements_->ChangeSchema(
      &frame, nullptr,
      [&] {
        auto table = catalog_.FindTable(table_name);
        return table ? std::vector<TableId>{table->id()} : std::vector<TableId>{};
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
