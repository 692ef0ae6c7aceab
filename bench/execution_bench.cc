// Benchmarks of concurrent execution (Google Benchmark): transactions
// submitted to the worker pool (Database::Submit / SubmitTo) and run under
// each concurrency control, on wall-clock time.
//
//   BM_PointUpdates/<cc>/<workload>/<workers>
//     Throughput and abort rate of a read-modify-write stored procedure
//     `bump(id)`: SELECT n FROM counter WHERE id = $1, then UPDATE counter
//     SET n = n + 1 WHERE id = $1. The read comes first on purpose: under OCC
//     it opens a read-validate window, under 2PL it takes a shared lock that
//     the UPDATE must upgrade (two readers of one row cannot both upgrade).
//     uncontended: queue i (SubmitTo) only touches rows i*1000+1 .. i*1000+1000,
//                  and no two transactions in flight touch the same row;
//     hot:         every transaction bumps row 1, submitted through the
//                  round-robin scheduler, so every worker runs them at once.
//     Closed loop: 2 transactions in flight per worker; each completion
//     submits the next from the callback (no sleeps). One iteration is a
//     batch of 1,000 transactions; Time is wall clock per batch, CPU is the
//     whole process's (all workers). Counters, from Stats() over the run:
//     txn/s (commits), abort_rate = aborts / (aborts + commits), txns
//     (finished), retries, failures (gave up after max_retries = 1000),
//     steals, p50/p99 latency (submit → end). After each run, the sum of n
//     must equal the number of commits seen by the callbacks.
//   BM_QueueHandoff/<workers>
//     Submit-to-start latency (queue_wait) of an empty procedure, one
//     transaction at a time; the time per iteration is the round trip
//     Submit → worker → callback → future. Counters: queue_wait p50, p99
//     and mean, latency p50 (ns), and steal_share: the fraction of
//     transactions run by a worker other than the one they were queued on.
//
// Workers are threads; with more workers than cores (the project's machine
// has 2, so 4 and 8 workers) they time-share the cores, which is where
// conflicts appear. Results and their reading: docs/results.md.
//
//   build-bench/bench/execution_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"

namespace {

using paceline::QueryResult;
using paceline::Status;
using paceline::Value;
using namespace paceline::engine;

constexpr int kRows = 10000;
constexpr int kRowsPerQueue = 1000;  // uncontended: queue i owns i*1000+1 .. i*1000+1000
constexpr size_t kInFlightPerWorker = 2;
constexpr uint64_t kBatch = 1000;   // transactions per benchmark iteration
constexpr uint64_t kWarmUp = 200;   // transactions before the measured run
constexpr int kMaxRetries = 1000;   // high: a failure (40001) means livelock, not bad luck
constexpr int kHotRow = 1;
const std::vector<size_t> kWorkerCounts = {1, 2, 4, 8};
constexpr double kMinSeconds = 1.0;  // per run; the whole binary takes ~3 minutes with 3 repetitions

enum class Workload { kUncontended, kHot };

const char* WorkloadName(Workload w) { return w == Workload::kHot ? "hot" : "uncontended"; }

Options BenchOptions(const std::string& cc, size_t workers) {
  Options options;
  options.cc = cc;
  options.workers = workers;
  options.scheduler = "round-robin";
  options.max_retries = kMaxRetries;
  return options;
}

// The Database of the configuration being measured. Google Benchmark runs
// the repetitions of one benchmark back to back, so a Database is opened
// once per configuration, kept across its repetitions, and shut down when
// the next configuration starts (or at exit, by Release).
struct BenchDatabase {
  std::string key;
  std::unique_ptr<Database> db;
  uint64_t commits = 0;  // seen by callbacks since Open: the expected sum of n
};

BenchDatabase& Current() {
  static BenchDatabase current;
  return current;
}

void Release() {
  BenchDatabase& current = Current();
  if (current.db) current.db->Shutdown(/*drain=*/true);
  current = BenchDatabase{};
}

// Returns the Database for `key`, opening it with `options` and preparing
// it with `setup` if the current one is for another key; on failure, skips
// the benchmark with the error and returns nullptr.
BenchDatabase* Acquire(benchmark::State& state, const std::string& key, const Options& options,
                       const std::function<Status(Database*)>& setup) {
  BenchDatabase& current = Current();
  if (current.key == key && current.db) return &current;
  Release();
  Status s = Database::Open(options, &current.db);
  if (s.ok()) s = setup(current.db.get());
  if (!s.ok()) {
    Release();
    state.SkipWithError(s.ToString().c_str());
    return nullptr;
  }
  current.key = key;
  return &current;
}

// Keeps `in_flight` transactions outstanding until `total` have been
// submitted, and returns when all of them have completed. Each completion
// submits the next transaction of its slot from the callback (on a worker
// thread). A slot's transactions run one after the other, so its sequence
// number needs no synchronisation.
class ClosedLoop {
 public:
  // Submits transaction number `seq` of slot `slot`; `done` gets its result.
  using SubmitFn = std::function<void(size_t slot, uint64_t seq, ResultCallback done)>;

  ClosedLoop(size_t in_flight, SubmitFn submit) : submit_(std::move(submit)), next_seq_(in_flight, 0) {}

  void Run(uint64_t total) {
    to_submit_.store(static_cast<int64_t>(total));
    pending_.store(total);
    {
      std::lock_guard lock(mu_);
      finished_ = total == 0;
    }
    for (size_t slot = 0; slot < next_seq_.size(); ++slot) Issue(slot);
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return finished_; });
  }

  uint64_t commits() const { return commits_.load(); }
  uint64_t errors() const { return errors_.load(); }
  // Failures other than 40001 (a retry-limit failure, counted by Stats()).
  // The first of them, if any.
  std::string first_error() const {
    std::lock_guard lock(mu_);
    return first_error_;
  }

 private:
  void Issue(size_t slot) {
    if (to_submit_.fetch_sub(1) <= 0) return;
    const uint64_t seq = next_seq_[slot]++;
    submit_(slot, seq, [this, slot](TransactionResult&& result) { Done(slot, result); });
  }

  void Done(size_t slot, const TransactionResult& result) {
    if (result.committed()) {
      commits_.fetch_add(1);
    } else if (!result.status.Is(paceline::sqlstate::kSerializationFailure)) {
      errors_.fetch_add(1);
      std::lock_guard lock(mu_);
      if (first_error_.empty()) first_error_ = result.status.ToString();
    }
    Issue(slot);
    if (pending_.fetch_sub(1) == 1) {
      std::lock_guard lock(mu_);  // notify under the lock: Run may return (and `this` die) right after
      finished_ = true;
      cv_.notify_one();
    }
  }

  const SubmitFn submit_;
  std::vector<uint64_t> next_seq_;  // per slot
  std::atomic<int64_t> to_submit_{0};
  std::atomic<uint64_t> pending_{0};
  std::atomic<uint64_t> commits_{0};
  std::atomic<uint64_t> errors_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool finished_ = false;  // guarded by mu_
  std::string first_error_;  // guarded by mu_
};

Status SetUpCounter(Database* db) {
  auto session = db->CreateSession();
  QueryResult r;
  PL_RETURN_IF_ERROR(session->Execute("CREATE TABLE counter (id INT PRIMARY KEY, n BIGINT NOT NULL)", &r));
  std::vector<std::vector<Value>> rows;
  rows.reserve(kRows);
  for (int id = 1; id <= kRows; ++id) rows.push_back({Value::Int32(id), Value::Int64(0)});
  PL_RETURN_IF_ERROR(db->BulkLoad("counter", rows));
  Procedure bump;
  bump.name = "bump";
  bump.statements = {"SELECT n FROM counter WHERE id = $1", "UPDATE counter SET n = n + 1 WHERE id = $1"};
  bump.body = [](ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    if (r.rows.size() != 1) {
      return paceline::InternalError("bump: SELECT found " + std::to_string(r.rows.size()) + " rows");
    }
    PL_RETURN_IF_ERROR(ctx.Execute(1, {args[0]}, &r));
    if (r.rows_affected != 1) {
      return paceline::InternalError("bump: UPDATE changed " + std::to_string(r.rows_affected) + " rows");
    }
    return Status::OK();
  };
  return db->RegisterProcedure(std::move(bump));
}

Status SumOfN(Database* db, uint64_t* sum) {
  auto session = db->CreateSession();
  QueryResult r;
  PL_RETURN_IF_ERROR(session->Execute("SELECT n FROM counter", &r));
  *sum = 0;
  for (const auto& row : r.rows) *sum += static_cast<uint64_t>(row[0].int_value());
  return Status::OK();
}

double Micros(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

void BM_PointUpdates(benchmark::State& state, std::string cc, Workload workload, size_t workers) {
  const std::string key = "counter/" + cc + "/" + WorkloadName(workload) + "/" + std::to_string(workers);
  BenchDatabase* bench = Acquire(state, key, BenchOptions(cc, workers), SetUpCounter);
  if (bench == nullptr) return;
  Database* db = bench->db.get();
  constexpr int kRowsPerSlot = kRowsPerQueue / static_cast<int>(kInFlightPerWorker);
  auto submit = [db, workload, workers](size_t slot, uint64_t seq, ResultCallback done) {
    if (workload == Workload::kHot) {
      db->Submit(TransactionRequest::Call("bump", {Value::Int32(kHotRow)}), std::move(done));
      return;
    }
    const size_t queue = slot % workers;  // slot j*workers + i is worker i's j-th slot
    const int id = static_cast<int>(queue) * kRowsPerQueue + static_cast<int>(slot / workers) * kRowsPerSlot +
                   static_cast<int>(seq % kRowsPerSlot) + 1;
    db->SubmitTo(queue, TransactionRequest::Call("bump", {Value::Int32(id)}), std::move(done));
  };
  ClosedLoop loop(kInFlightPerWorker * workers, submit);

  loop.Run(kWarmUp);
  const uint64_t warm_up_commits = loop.commits();
  db->ResetStats();  // exact: nothing is in flight between loop runs
  for (auto _ : state) loop.Run(kBatch);
  const ExecutionStats stats = db->Stats();  // the run's delta: every callback has returned
  bench->commits += loop.commits();

  state.counters["txn/s"] = benchmark::Counter(static_cast<double>(stats.commits), benchmark::Counter::kIsRate);
  state.counters["abort_rate"] = stats.abort_rate();
  state.counters["txns"] = static_cast<double>(stats.finished());
  state.counters["retries"] = static_cast<double>(stats.retries);
  state.counters["failures"] = static_cast<double>(stats.retry_limit_failures);
  state.counters["steals"] = static_cast<double>(stats.steals);
  state.counters["p50_us"] = Micros(stats.latency.Percentile(50));
  state.counters["p99_us"] = Micros(stats.latency.Percentile(99));

  if (loop.errors() != 0) {
    state.SkipWithError(("transactions failed: " + loop.first_error()).c_str());
    return;
  }
  if (stats.commits != loop.commits() - warm_up_commits) {
    state.SkipWithError(("the workers counted " + std::to_string(stats.commits) + " commits, the callbacks saw " +
                         std::to_string(loop.commits() - warm_up_commits))
                            .c_str());
    return;
  }
  uint64_t sum = 0;
  const Status s = SumOfN(db, &sum);
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
  } else if (sum != bench->commits) {
    state.SkipWithError(("sum of n is " + std::to_string(sum) + " but " + std::to_string(bench->commits) +
                         " transactions committed")
                            .c_str());
  }
}

Status SetUpNoop(Database* db) {
  Procedure noop;
  noop.name = "noop";
  noop.body = [](ProcedureContext&, const std::vector<Value>&) { return Status::OK(); };
  return db->RegisterProcedure(std::move(noop));
}

void BM_QueueHandoff(benchmark::State& state) {
  const size_t workers = static_cast<size_t>(state.range(0));
  BenchDatabase* bench = Acquire(state, "noop/" + std::to_string(workers), BenchOptions("occ", workers), SetUpNoop);
  if (bench == nullptr) return;
  Database* db = bench->db.get();
  db->ResetStats();
  for (auto _ : state) {
    TransactionResult r = db->Submit(TransactionRequest::Call("noop", {})).get();
    if (!r.committed()) {
      state.SkipWithError(r.status.ToString().c_str());
      break;
    }
  }
  const ExecutionStats stats = db->Stats();
  state.counters["wait_p50_ns"] = static_cast<double>(stats.queue_wait.Percentile(50));
  state.counters["wait_p99_ns"] = static_cast<double>(stats.queue_wait.Percentile(99));
  state.counters["wait_mean_ns"] = stats.queue_wait.Mean();
  state.counters["latency_p50_ns"] = static_cast<double>(stats.latency.Percentile(50));
  state.counters["steal_share"] =
      stats.finished() == 0 ? 0.0 : static_cast<double>(stats.steals) / static_cast<double>(stats.finished());
}

void RegisterBenchmarks() {
  for (const std::string& cc : Database::ConcurrencyControlNames()) {
    for (Workload workload : {Workload::kUncontended, Workload::kHot}) {
      for (size_t workers : kWorkerCounts) {
        const std::string name =
            "BM_PointUpdates/" + cc + "/" + WorkloadName(workload) + "/" + std::to_string(workers);
        benchmark::RegisterBenchmark(name.c_str(), BM_PointUpdates, cc, workload, workers)
            ->UseRealTime()
            ->MeasureProcessCPUTime()
            ->Unit(benchmark::kMillisecond)
            ->MinTime(kMinSeconds);
      }
    }
  }
  auto* handoff = benchmark::RegisterBenchmark("BM_QueueHandoff", BM_QueueHandoff);
  for (size_t workers : kWorkerCounts) handoff->Arg(static_cast<int64_t>(workers));
  handoff->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMicrosecond)->MinTime(kMinSeconds);
}

}  // namespace

int main(int argc, char** argv) {
  RegisterBenchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cores", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("note", "worker threads beyond the core count time-share the cores");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  Release();
  return 0;
}
