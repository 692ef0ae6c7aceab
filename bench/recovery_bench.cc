// Recovery time for a given log size: a data directory whose redo log holds
// N MiB of committed transactions (each updating 10 rows of ~300-byte
// images, TPC-C's NewOrder-sized write sets) and no checkpoint is opened
// again; each iteration times Database::Open, which replays the whole log
// and rebuilds the indexes. Counters: log MiB, replay speed in MiB/s, and
// seconds per GiB of log.
//
//   build/bench/recovery_bench --benchmark_repetitions=3
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/database.h"

namespace paceline::engine {
namespace {

constexpr int kRows = 100000;

Options DirOptions(const std::string& dir) {
  Options o;
  o.data_dir = dir;
  o.workers = 0;
  o.sync = "off";  // building the log fast; recovery reads the same bytes
  o.checkpoint_interval = std::chrono::seconds(0);
  o.checkpoint_log_bytes = 0;
  o.checkpoint_on_close = false;
  return o;
}

// Fills `dir` with a table and `mib` MiB of redo log.
void BuildLog(const std::string& dir, uint64_t mib) {
  std::unique_ptr<Database> db;
  if (!Database::Open(DirOptions(dir), &db).ok()) std::abort();
  QueryResult r;
  auto session = db->CreateSession();
  if (!session->Execute("CREATE TABLE stock (s_id INT PRIMARY KEY, s_quantity INT, s_data TEXT)", &r).ok()) std::abort();
  const std::string pad(280, 's');
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < kRows; ++i) rows.push_back({Value::Int32(i), Value::Int32(50), Value::Text(pad)});
  if (!db->BulkLoad("stock", rows).ok()) std::abort();
  uint64_t n = 0;
  while (db->LogStats().bytes < (mib << 20)) {
    std::vector<StatementCall> calls;
    for (int j = 0; j < 10; ++j) {
      const int key = static_cast<int>((n * 7919 + static_cast<uint64_t>(j) * 104729) % kRows);
      calls.push_back({"UPDATE stock SET s_quantity = s_quantity + 1 WHERE s_id = $1", {Value::Int32(key)}});
    }
    TransactionResult result;
    db->Execute(TransactionRequest::Statements(std::move(calls)), &result);
    if (!result.committed()) std::abort();
    ++n;
  }
}

void BM_RecoverLog(benchmark::State& state) {
  const uint64_t mib = static_cast<uint64_t>(state.range(0));
  char pattern[] = "/tmp/paceline-recovery-XXXXXX";
  const std::string dir = ::mkdtemp(pattern);
  BuildLog(dir, mib);
  uint64_t log_bytes = 0;
  for (auto _ : state) {
    std::unique_ptr<Database> db;
    Status s = Database::Open(DirOptions(dir), &db);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    log_bytes = db->recovery_stats().log_bytes;
    state.PauseTiming();
    db.reset();  // closing (no checkpoint) is not recovery
    state.ResumeTiming();
  }
  std::filesystem::remove_all(dir);
  const double mib_read = static_cast<double>(log_bytes) / (1 << 20);
  state.counters["log_MiB"] = mib_read;
  state.counters["MiB_per_s"] = benchmark::Counter(mib_read, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["s_per_GiB"] =
      benchmark::Counter(mib_read / 1024.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RecoverLog)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
}  // namespace paceline::engine

BENCHMARK_MAIN();
