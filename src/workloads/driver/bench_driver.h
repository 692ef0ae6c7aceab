// BenchDriver: runs a Workload against a Database and measures it — the
// engine of paceline-bench.
//
// Load generation:
//   closed loop (rate == 0): `clients` clients, each submitting one
//     transaction and waiting for its result before the next (a client is a
//     chain of result callbacks, not a thread: the cores stay with the
//     workers). Latency = submit → result.
//   open loop (rate > 0): Poisson arrivals at `rate` per second (exponential
//     inter-arrival times) from the driver's thread, whatever the engine's
//     progress. Latency = the arrival's scheduled time → result, so queueing
//     (including a late driver) is counted. An arrival that finds
//     `max_in_flight` transactions outstanding is shed and counted, so an
//     overloaded run ends in bounded time.
// A run is a warm-up, then the measured window: at its start the engine's
// statistics are reset; at its end they are read (one snapshot per queue,
// summed for the totals) and generation stops; the
// driver then waits for every outstanding transaction (their results still
// reach Workload::OnFinished, so the workload's checks see everything). The
// driver's own counters (per transaction type) count results that arrive
// inside the window; a result racing the window's edge may fall on either
// side.
//
// Inside the window the driver also records a time series (one point per
// `series_seconds`, by the time each result arrived: commits, aborted
// attempts, user aborts, failures and the p99 of the committed latencies;
// the points' commits add up to the types' commits), samples every run
// queue's length every 10 ms (mean and max per queue), and starts the
// workload's HotSetClock at the window's start, so the hot set moves at
// shift, 2·shift, ... seconds into the window (RunResult::shift_times).
//
// Thread-safety: Run is called from one thread at a time; the workload and
// database must not be shared with another run meanwhile. Ownership: both
// are borrowed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/database.h"
#include "engine/execution/execution_stats.h"
#include "engine/execution/latency_histogram.h"
#include "workloads/workload.h"

namespace paceline::workloads {

struct DriverOptions {
  double warmup_seconds = 2;
  double duration_seconds = 10;
  size_t clients = 16;         // closed loop (when rate == 0)
  double rate = 0;             // open loop: offered transactions per second
  size_t max_in_flight = 0;    // open loop: 0 = max(1000, 2 × rate)
  uint64_t seed = 42;          // clients' and arrivals' random numbers
  double series_seconds = 1;   // the time series' interval (--series-ms / 1000)
  // Called about once a second from the driver's thread.
  struct Progress {
    double elapsed_seconds = 0;
    bool warming_up = false;
    double tps = 0;         // commits per second over the last interval
    double abort_rate = 0;  // over the last interval
    size_t in_flight = 0;
  };
  std::function<void(const Progress&)> on_progress;
};

// One interval of the time series: what finished in (t − interval, t].
struct SeriesPoint {
  double t = 0;  // seconds from the window's start to the end of the interval
  double seconds = 0;  // its length (the last one may be shorter)
  uint64_t commits = 0;
  uint64_t conflicts = 0;    // aborted attempts of the transactions that finished in it
  uint64_t user_aborts = 0;
  uint64_t failures = 0;
  double p99_ms = 0;         // of its committed transactions' latencies; 0 without commits

  double tps() const { return seconds > 0 ? static_cast<double>(commits) / seconds : 0; }
  // conflicts / (conflicts + commits); 0 when both are 0.
  double abort_rate() const {
    return commits + conflicts ? static_cast<double>(conflicts) / static_cast<double>(commits + conflicts) : 0;
  }
};

// A run queue's length (transactions waiting, not the one running), sampled
// every 10 ms in the window.
struct QueueLengthStats {
  double mean = 0;
  size_t max = 0;
};

// What one transaction type did in the window.
struct TypeResult {
  std::string name;
  uint64_t commits = 0;
  uint64_t user_aborts = 0;
  uint64_t conflicts = 0;  // aborted attempts (TransactionResult::conflicts)
  uint64_t failures = 0;   // errors and retry-limit failures
  engine::LatencyHistogram latency;  // committed transactions
};

struct RunResult {
  double seconds = 0;       // the measured window
  double offered_rate = 0;  // open loop; 0 for closed loop
  size_t clients = 0;       // closed loop
  uint64_t shed = 0;        // open-loop arrivals not submitted (max_in_flight), warm-up included
  engine::ExecutionStats engine;               // the engine's statistics of the window
  std::vector<engine::ExecutionStats> queues;  // the same per run queue
  std::vector<TypeResult> types;
  engine::LatencyHistogram latency;  // committed transactions, all types (client side)
  uint64_t failures = 0;             // results that were neither commits nor user aborts
  std::string first_failure;         // the first such result of the run (warm-up included), "SQLSTATE: message"
  std::vector<SeriesPoint> series;   // see above
  double series_seconds = 0;
  std::vector<double> shift_times;   // seconds into the window at which the hot set moved
  std::vector<QueueLengthStats> queue_lengths;  // per run queue
  size_t queue_samples = 0;

  double tps() const { return seconds > 0 ? static_cast<double>(engine.commits) / seconds : 0; }
  double abort_rate() const { return engine.abort_rate(); }
  double aborts_per_commit() const {
    return engine.commits ? static_cast<double>(engine.aborts()) / static_cast<double>(engine.commits) : 0;
  }
};

class BenchDriver {
 public:
  // `workload` must have been set up on `db`, which must have workers.
  BenchDriver(engine::Database* db, Workload* workload, DriverOptions options);

  // One run (warm-up + window). 22023 for invalid options (no clients and no
  // rate, a negative duration, ...).
  Status Run(RunResult* result);

 private:
  engine::Database* const db_;
  Workload* const workload_;
  const DriverOptions options_;
};

}  // namespace paceline::workloads
