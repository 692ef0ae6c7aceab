// BenchDriver: closed- and open-loop load, the warm-up/window phases, and the
// per-thread recording of results.
#include "workloads/driver/bench_driver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include <tbb/enumerable_thread_specific.h>

#include "workloads/hot_set.h"

namespace paceline::workloads {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRelaxed = std::memory_order_relaxed;

int64_t Ns(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
int64_t NowNs() { return Ns(Clock::now()); }
Clock::duration Seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

enum class Phase { kWarmup, kMeasure, kDone };

// The counters of one transaction type, written by one thread.
struct TypeCounters {
  std::atomic<uint64_t> commits{0}, user_aborts{0}, conflicts{0}, failures{0};
  engine::LatencyHistogram latency;
};

// One time-series interval as one thread recorded it.
struct SeriesBucket {
  uint64_t commits = 0, conflicts = 0, user_aborts = 0, failures = 0;
  std::vector<uint32_t> latency_us;  // of the commits (exact p99 later; 4 bytes per commit)
};

// What one thread (a worker delivering results) recorded in the window. Read
// by the driver only after every transaction finished (RunState::Finished
// and WaitForAll order it).
struct ThreadRecord {
  explicit ThreadRecord(size_t types) : types(types) {}
  std::vector<TypeCounters> types;
  engine::LatencyHistogram latency;
  std::vector<SeriesBucket> series;
};

constexpr auto kQueueSampleEvery = std::chrono::milliseconds(10);

// One closed-loop client: its random numbers and its transaction in flight.
struct Client {
  Random rng;
  GeneratedTransaction txn;
  int64_t start_ns = 0;
};

// Everything the result callbacks share with the driver's thread. It outlives
// every callback: Run waits for in_flight to reach 0.
struct RunState {
  RunState(engine::Database* db, Workload* workload, size_t types)
      : db(db), workload(workload), records(types) {}

  engine::Database* db;
  Workload* workload;
  std::atomic<Phase> phase{Phase::kWarmup};
  std::atomic<int64_t> window_start_ns{0};  // set before phase becomes kMeasure
  int64_t series_ns = 1000000000;
  tbb::enumerable_thread_specific<ThreadRecord> records;
  std::atomic<size_t> in_flight{0};
  std::mutex done_mu;
  std::condition_variable done_cv;
  std::atomic<bool> failure_seen{false};
  std::string first_failure;  // written once, guarded by done_mu

  void Record(const GeneratedTransaction& txn, const engine::TransactionResult& result, int64_t start_ns) {
    workload->OnFinished(txn, result);
    const bool failed = !result.committed() && !result.user_abort;
    if (failed && !failure_seen.exchange(true)) {
      std::lock_guard lock(done_mu);
      first_failure = std::string(result.status.sqlstate()) + ": " + result.status.message();
    }
    if (phase.load(std::memory_order_acquire) != Phase::kMeasure) return;
    ThreadRecord& record = records.local();
    TypeCounters& type = record.types[txn.type];
    type.conflicts.fetch_add(result.conflicts, kRelaxed);
    const int64_t now = NowNs();
    const auto bucket =
        static_cast<size_t>(std::max<int64_t>(0, now - window_start_ns.load(kRelaxed)) / series_ns);
    if (record.series.size() <= bucket) record.series.resize(bucket + 1);
    SeriesBucket& point = record.series[bucket];
    point.conflicts += result.conflicts;
    if (result.committed()) {
      const auto latency = static_cast<uint64_t>(std::max<int64_t>(0, now - start_ns));
      type.commits.fetch_add(1, kRelaxed);
      type.latency.Record(latency);
      record.latency.Record(latency);
      ++point.commits;
      point.latency_us.push_back(static_cast<uint32_t>(std::min<uint64_t>(latency / 1000, UINT32_MAX)));
    } else if (result.user_abort) {
      type.user_aborts.fetch_add(1, kRelaxed);
      ++point.user_aborts;
    } else {
      type.failures.fetch_add(1, kRelaxed);
      ++point.failures;
    }
  }

  // One transaction fewer outstanding; wakes the driver at the last one.
  // Under done_mu, and nothing of the state touched after: once the count
  // reaches 0 the driver may return and destroy this state.
  void Finished() {
    std::lock_guard lock(done_mu);
    if (in_flight.fetch_sub(1) == 1) done_cv.notify_all();
  }

  void SubmitClient(Client* client) {
    workload->Next(client->rng, &client->txn);
    client->start_ns = NowNs();
    in_flight.fetch_add(1);
    db->Submit(client->txn.request, [this, client](engine::TransactionResult&& result) {
      Record(client->txn, result, client->start_ns);
      // The client's next transaction (not after a shutdown: Submit would
      // fail at once, on this thread, again and again).
      if (phase.load() != Phase::kDone && result.status.sqlstate() != sqlstate::kAdminShutdown) {
        SubmitClient(client);
      }
      Finished();
    });
  }

  void SubmitArrival(GeneratedTransaction txn, int64_t arrival_ns) {
    in_flight.fetch_add(1);
    auto shared = std::make_shared<GeneratedTransaction>(std::move(txn));
    engine::TransactionRequest request = shared->request;
    db->Submit(std::move(request), [this, shared, arrival_ns](engine::TransactionResult&& result) {
      Record(*shared, result, arrival_ns);
      Finished();
    });
  }

  void WaitForAll() {
    std::unique_lock lock(done_mu);
    done_cv.wait(lock, [&] { return in_flight.load() == 0; });
  }
};

}  // namespace

BenchDriver::BenchDriver(engine::Database* db, Workload* workload, DriverOptions options)
    : db_(db), workload_(workload), options_(std::move(options)) {}

Status BenchDriver::Run(RunResult* result) {
  auto invalid = [](std::string message) { return Status(sqlstate::kInvalidParameterValue, std::move(message)); };
  if (!(options_.duration_seconds > 0)) return invalid("--duration must be positive");
  if (!(options_.warmup_seconds >= 0)) return invalid("--warmup must not be negative");
  if (options_.rate < 0) return invalid("--rate must not be negative");
  if (options_.rate == 0 && options_.clients == 0) return invalid("--clients must be at least 1 (or give --rate)");
  if (db_->workers() == 0) return invalid("the database has no workers (Options::workers is 0)");
  if (!(options_.series_seconds > 0)) return invalid("--series-ms must be positive");

  const size_t types = workload_->TransactionTypes().size();
  RunState state(db_, workload_, types);
  state.series_ns = std::max<int64_t>(1, static_cast<int64_t>(options_.series_seconds * 1e9));
  const bool open_loop = options_.rate > 0;
  const size_t max_in_flight =
      options_.max_in_flight ? options_.max_in_flight : std::max<size_t>(1000, static_cast<size_t>(2 * options_.rate));

  const Clock::time_point start = Clock::now();
  const Clock::time_point window_start = start + Seconds(options_.warmup_seconds);
  const Clock::time_point window_end = window_start + Seconds(options_.duration_seconds);
  HotSetClock* hot_clock = workload_->hot_set_clock();
  if (hot_clock != nullptr) hot_clock->Start(window_start);
  db_->ResetStats();

  std::vector<std::unique_ptr<Client>> clients;
  if (!open_loop) {
    for (size_t c = 0; c < options_.clients; ++c) {
      auto client = std::make_unique<Client>();
      client->rng.seed(options_.seed * 7919 + c);
      clients.push_back(std::move(client));
    }
    for (auto& client : clients) state.SubmitClient(client.get());
  }

  Random arrivals(options_.seed);
  std::exponential_distribution<double> gap(open_loop ? options_.rate : 1.0);
  Clock::time_point next_arrival = start + Seconds(open_loop ? gap(arrivals) : 0);
  uint64_t shed = 0;

  // Progress: engine statistics deltas once a second.
  engine::ExecutionStats last = db_->Stats();
  Clock::time_point last_tick = start;
  Clock::time_point next_tick = start + std::chrono::seconds(1);
  engine::ExecutionStats window_stats;
  std::vector<engine::ExecutionStats> window_queues;
  double seconds = 0;
  Clock::time_point reset_at = start;
  // Queue lengths, sampled in the window.
  std::vector<uint64_t> queue_sum(db_->workers(), 0);
  std::vector<size_t> queue_max(db_->workers(), 0);
  size_t queue_samples = 0;
  Clock::time_point next_sample = window_start;

  for (;;) {
    const Clock::time_point now = Clock::now();
    if (state.phase.load() == Phase::kWarmup && now >= window_start) {
      db_->ResetStats();
      reset_at = Clock::now();
      last = engine::ExecutionStats();
      last_tick = reset_at;
      state.window_start_ns.store(Ns(reset_at), kRelaxed);
      state.phase.store(Phase::kMeasure, std::memory_order_release);
    }
    if (now >= window_end) {
      // One snapshot: the totals are the sum of the queues.
      window_queues = db_->StatsPerQueue();
      seconds = std::chrono::duration<double>(Clock::now() - reset_at).count();
      for (const engine::ExecutionStats& q : window_queues) window_stats.Add(q);
      state.phase.store(Phase::kDone);
      break;
    }
    if (open_loop) {
      GeneratedTransaction txn;
      for (; next_arrival <= now; next_arrival += Seconds(gap(arrivals))) {
        if (state.in_flight.load(kRelaxed) < max_in_flight) {
          workload_->Next(arrivals, &txn);
          state.SubmitArrival(std::move(txn), Ns(next_arrival));
        } else {
          ++shed;
        }
      }
    }
    if (state.phase.load() == Phase::kMeasure && now >= next_sample) {
      const std::vector<size_t> lengths = db_->QueueLengths();
      for (size_t q = 0; q < lengths.size() && q < queue_sum.size(); ++q) {
        queue_sum[q] += lengths[q];
        queue_max[q] = std::max(queue_max[q], lengths[q]);
      }
      ++queue_samples;
      while (next_sample <= now) next_sample += kQueueSampleEvery;
    }
    if (now >= next_tick) {
      engine::ExecutionStats stats = db_->Stats();
      const double interval = std::chrono::duration<double>(now - last_tick).count();
      if (options_.on_progress) {
        DriverOptions::Progress p;
        p.elapsed_seconds = std::chrono::duration<double>(now - start).count();
        p.warming_up = state.phase.load() == Phase::kWarmup;
        const uint64_t commits = stats.commits - std::min(stats.commits, last.commits);
        const uint64_t aborts = stats.aborts() - std::min(stats.aborts(), last.aborts());
        p.tps = interval > 0 ? static_cast<double>(commits) / interval : 0;
        p.abort_rate = commits + aborts ? static_cast<double>(aborts) / static_cast<double>(commits + aborts) : 0;
        p.in_flight = state.in_flight.load();
        options_.on_progress(p);
      }
      last = stats;
      last_tick = now;
      next_tick += std::chrono::seconds(1);
    }
    Clock::time_point wake = std::min({next_tick, window_end,
                                       state.phase.load() == Phase::kWarmup ? window_start : next_sample});
    if (open_loop) wake = std::min(wake, next_arrival);
    std::this_thread::sleep_until(wake);  // a timer: the next arrival, tick or phase change
  }
  state.WaitForAll();

  RunResult r;
  r.seconds = seconds;
  r.offered_rate = options_.rate;
  r.clients = open_loop ? 0 : options_.clients;
  r.shed = shed;
  r.engine = std::move(window_stats);
  r.queues = std::move(window_queues);
  r.types.resize(types);
  for (size_t t = 0; t < types; ++t) r.types[t].name = workload_->TransactionTypes()[t];
  for (ThreadRecord& record : state.records) {
    for (size_t t = 0; t < types; ++t) {
      TypeCounters& c = record.types[t];
      TypeResult& out = r.types[t];
      out.commits += c.commits.load();
      out.user_aborts += c.user_aborts.load();
      out.conflicts += c.conflicts.load();
      out.failures += c.failures.load();
      out.latency.Merge(c.latency);
      r.failures += c.failures.load();
    }
    r.latency.Merge(record.latency);
  }
  {
    std::lock_guard lock(state.done_mu);
    r.first_failure = state.first_failure;
  }
  // The series: one point per interval of the window (results racing its
  // end go to the last), merged over threads.
  r.series_seconds = static_cast<double>(state.series_ns) / 1e9;
  // As many points as the nominal window holds (the measured one runs a
  // little longer: its last point takes the rest).
  const auto points =
      std::max<size_t>(1, static_cast<size_t>(std::ceil(options_.duration_seconds / r.series_seconds - 1e-9)));
  std::vector<SeriesBucket> merged(points);
  for (ThreadRecord& record : state.records) {
    for (size_t b = 0; b < record.series.size(); ++b) {
      SeriesBucket& from = record.series[b];
      SeriesBucket& to = merged[std::min(b, points - 1)];
      to.commits += from.commits;
      to.conflicts += from.conflicts;
      to.user_aborts += from.user_aborts;
      to.failures += from.failures;
      to.latency_us.insert(to.latency_us.end(), from.latency_us.begin(), from.latency_us.end());
    }
  }
  for (size_t b = 0; b < points; ++b) {
    SeriesBucket& from = merged[b];
    SeriesPoint p;
    p.t = b + 1 == points ? seconds : static_cast<double>(b + 1) * r.series_seconds;
    p.seconds = p.t - static_cast<double>(b) * r.series_seconds;
    p.commits = from.commits;
    p.conflicts = from.conflicts;
    p.user_aborts = from.user_aborts;
    p.failures = from.failures;
    if (!from.latency_us.empty()) {
      // The nearest-rank p99: the smallest value with at least 99% at or below it.
      const size_t rank = (from.latency_us.size() * 99 + 99) / 100 - 1;
      std::nth_element(from.latency_us.begin(), from.latency_us.begin() + static_cast<ptrdiff_t>(rank),
                       from.latency_us.end());
      p.p99_ms = from.latency_us[rank] / 1000.0;
    }
    r.series.push_back(p);
  }
  if (hot_clock != nullptr && hot_clock->shift_seconds() > 0) {
    const double every = hot_clock->shift_seconds();
    for (double t = every; t < options_.duration_seconds; t += every) r.shift_times.push_back(t);
  }
  r.queue_samples = queue_samples;
  for (size_t q = 0; q < queue_sum.size(); ++q) {
    QueueLengthStats l;
    l.mean = queue_samples ? static_cast<double>(queue_sum[q]) / static_cast<double>(queue_samples) : 0;
    l.max = queue_max[q];
    r.queue_lengths.push_back(l);
  }
  *result = std::move(r);
  return Status::OK();
}

}  // namespace paceline::workloads
