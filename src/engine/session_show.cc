// Session: SHOW of the database's own settings, the paceline.* names that
// report the options the database was opened with rather than this
// session's values (see session.h).
#include "common/process_memory.h"
#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {

bool Session::ShowPacelineSetting(const std::string& name, QueryResult* result) const {
  auto one = [&](std::string value) {
    result->columns = {{name, Type(TypeId::kText)}};
    result->rows.push_back({Value::Text(std::move(value))});
  };
  if (name == "paceline.scheduler") {
    one(std::string(db_->scheduler_name()));
  } else if (name == "paceline.cc") {
    one(std::string(db_->cc_name()));
  } else if (name == "paceline.workers") {
    one(std::to_string(db_->workers()));
  } else if (name == "paceline.hot_references") {
    constexpr size_t kShown = 20;
    result->columns = {{"reference", Type(TypeId::kText)},
                       {"aborts", Type(TypeId::kInt64)},
                       {"commits", Type(TypeId::kInt64)},
                       {"weight", Type(TypeId::kFloat64)},
                       {"queued", Type(TypeId::kText)}};
    for (const auto& ref : db_->TopReferences(kShown)) {
      std::string queued = "{";
      for (size_t q = 0; q < ref.queued.size(); ++q) queued += (q ? "," : "") + std::to_string(ref.queued[q]);
      queued += "}";
      result->rows.push_back({Value::Text(ref.name), Value::Int64(static_cast<int64_t>(ref.aborts)),
                              Value::Int64(static_cast<int64_t>(ref.commits)), Value::Float64(ref.weight),
                              Value::Text(std::move(queued))});
    }
  } else if (name == "paceline.session_id") {
    one(std::to_string(id_));
  } else if (name == "paceline.lanes") {
    // The conflict lanes held or waited for now: per lane (a reference with
    // conflict evidence) its holder and its waiting sessions
    // (paceline.session_id), in arrival order.
    result->columns = {{"reference", Type(TypeId::kText)},
                       {"holder", Type(TypeId::kInt64)},
                       {"waiting", Type(TypeId::kText)}};
    if (runner_->lanes()) {
      for (const LaneTable::LaneState& lane : runner_->lanes()->Snapshot()) {
        std::string waiting = "{";
        for (size_t i = 0; i < lane.waiting.size(); ++i) waiting += (i ? "," : "") + std::to_string(lane.waiting[i]);
        waiting += "}";
        result->rows.push_back({Value::Text(lane.reference),
                                lane.holder == 0 ? Value::Null(TypeId::kInt64) : Value::Int64(static_cast<int64_t>(lane.holder)),
                                Value::Text(std::move(waiting))});
      }
    }
  } else if (name == "paceline.scheduler_stats") {
    // What the scheduler did since start (SchedulerStats), one row per
    // field; the flags are 0 or 1.
    result->columns = {{"name", Type(TypeId::kText)}, {"value", Type(TypeId::kInt64)}};
    for (const scheduler::SchedulerStats::Field& f : db_->SchedulerStats().Fields()) {
      result->rows.push_back({Value::Text(std::string(f.name)), Value::Int64(static_cast<int64_t>(f.value))});
    }
  } else if (name == "paceline.log") {
    // The redo log (Options::data_dir): one row; a data directory of ""
    // means in memory only.
    const log::LogWriterStats st = db_->LogStats();
    auto i64 = [](uint64_t v) { return Value::Int64(static_cast<int64_t>(v)); };
    result->columns = {{"data_dir", Type(TypeId::kText)}, {"sync", Type(TypeId::kText)},
                       {"records", Type(TypeId::kInt64)}, {"bytes", Type(TypeId::kInt64)},
                       {"syncs", Type(TypeId::kInt64)},   {"segments", Type(TypeId::kInt64)}};
    result->rows.push_back({Value::Text(db_->durable() ? db_->options().data_dir : ""),
                            Value::Text(db_->durable() ? db_->options().sync : "none"), i64(st.appends), i64(st.bytes),
                            i64(st.syncs), i64(st.segments)});
  } else if (name == "paceline.memory") {
    // What the process holds (ProcessMemory: resident, the C allocator's
    // in-use, kept-free and mmapped bytes, its arenas), the statement
    // cache's entries and the bytes they really hold against its bound,
    // and the bound on one statement's memory: one row per figure.
    result->columns = {{"name", Type(TypeId::kText)}, {"value", Type(TypeId::kInt64)}};
    auto add = [&](const char* figure, uint64_t v) {
      result->rows.push_back({Value::Text(figure), Value::Int64(static_cast<int64_t>(v))});
    };
    const ProcessMemory m = ReadProcessMemory();
    const sql::StatementCache& cache = db_->statement_cache();
    add("resident_bytes", m.resident_bytes);
    add("heap_in_use_bytes", m.heap_in_use_bytes);
    add("heap_free_bytes", m.heap_free_bytes);
    add("heap_mmapped_bytes", m.heap_mmapped_bytes);
    add("heap_arenas", m.arenas);
    add("statement_cache_entries", cache.size());
    add("statement_cache_bytes", cache.bytes());
    add("statement_cache_key_list_bytes", cache.pending_bytes());
    add("statement_cache_capacity_bytes", cache.capacity_bytes());
    add("statement_cache_evictions", cache.evictions());
    add("statement_cache_too_large", cache.too_large());
    add("statement_memory_limit_bytes", db_->options().statement_memory_bytes);
  } else if (name == "paceline.stats") {
    // One row per run queue, then `here` (transactions run on their
    // submitter's thread, WorkerPool::RunHere: its `queued` counts them),
    // then the sum: what the workers did since start (see ExecutionStats).
    // Interactive transactions are not counted.
    result->columns = {{"queue", Type(TypeId::kText)},       {"queued", Type(TypeId::kInt64)},
                       {"commits", Type(TypeId::kInt64)},    {"aborts", Type(TypeId::kInt64)},
                       {"abort_rate", Type(TypeId::kFloat64)}, {"steals", Type(TypeId::kInt64)},
                       {"failed_40001", Type(TypeId::kInt64)}, {"errors", Type(TypeId::kInt64)}};
    auto row = [&](std::string queue, const ExecutionStats& st) {
      auto i64 = [](uint64_t v) { return Value::Int64(static_cast<int64_t>(v)); };
      result->rows.push_back({Value::Text(std::move(queue)), i64(st.queued), i64(st.commits), i64(st.aborts()),
                              Value::Float64(st.abort_rate()), i64(st.steals), i64(st.retry_limit_failures),
                              i64(st.errors)});
    };
    const std::vector<ExecutionStats> per_queue = db_->StatsPerQueue();
    ExecutionStats total;
    for (size_t q = 0; q < per_queue.size(); ++q) {
      row(std::to_string(q), per_queue[q]);
      total.Add(per_queue[q]);
    }
    ExecutionStats here = db_->StatsHere();
    here.queued = here.ran_here;
    row("here", here);
    total.Add(db_->StatsHere());
    row("all", total);
  } else {
    return false;
  }
  return true;
}

}  // namespace paceline::engine
