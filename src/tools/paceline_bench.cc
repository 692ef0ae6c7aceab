// paceline-bench: the workload driver. Loads a TPC-C, YCSB, SmallBank or TATP
// database into an
// embedded Paceline engine, runs the workload closed-loop (N clients) or
// open-loop (Poisson arrivals), optionally bisects the offered rate to a
// target mean latency, prints a progress line per second on stderr and a
// result table on stdout, writes JSON (--json), and checks the workload's
// consistency conditions (--check). Flags are copied into options here; the
// logic lives in src/workloads.
#include <gflags/gflags.h>

#include <fstream>
#include <iostream>
#include <thread>

#include "engine/database.h"
#include "tools/engine_flags.h"
#include "tools/flag_names.h"
#include "workloads/driver/bench_driver.h"
#include "workloads/driver/bench_report.h"
#include "workloads/driver/rate_bisection.h"
#include "workloads/workload_factory.h"

DEFINE_string(workload, "tpcc", "the workload: tpcc, ycsb, smallbank or tatp");
DEFINE_int32(warehouses, 4, "TPC-C: warehouses");
DEFINE_int32(items, 100000, "TPC-C: items (and stock rows per warehouse); the spec's 100000, fewer for quick runs");
DEFINE_int32(tpcc_customers, 3000, "TPC-C: customers (and initial orders) per district; the spec's 3000");
DEFINE_string(mix, "paper",
              "TPC-C mix: paper (NewOrder 50 / Payment 50, the reference paper's Table II), standard "
              "(45/43/4/4/4), or five weights NewOrder,Payment,OrderStatus,Delivery,StockLevel");
DEFINE_uint64(ycsb_records, 100000, "YCSB: rows (keys)");
DEFINE_int32(ycsb_fields, 10, "YCSB: VARCHAR fields per row");
DEFINE_int32(ycsb_field_length, 100, "YCSB: characters per field");
DEFINE_int32(ycsb_operations, 10, "YCSB: operations (distinct keys) per transaction");
DEFINE_double(ycsb_read_fraction, 0.5, "YCSB: fraction of operations that only read (the rest read-modify-write)");
DEFINE_double(ycsb_theta, 0.9, "YCSB: Zipfian skew in [0, 1); 0 is uniform");
DEFINE_uint64(smallbank_accounts, 100000, "SmallBank: customers");
DEFINE_uint64(tatp_subscribers, 100000, "TATP: subscribers");
DEFINE_int64(hot_records, -1,
             "SmallBank/TATP: hot customers or subscribers (default: 50 for smallbank, 20 for tatp; 0: uniform)");
DEFINE_double(hot_fraction, 0.9,
              "SmallBank/TATP (and TPC-C with --tpcc-hot-warehouses): share of choices that fall on the hot set");
DEFINE_int32(tpcc_hot_warehouses, 0, "TPC-C: hot warehouses receiving --hot-fraction of the transactions (0: uniform)");
DEFINE_double(hot_shift_s, 0,
              "the hot set moves to other keys every this many seconds of the measured window (all workloads; "
              "TPC-C needs --tpcc-hot-warehouses); default: never");
DEFINE_int32(series_ms, 1000, "the time series' interval (per-interval tps, abort rate, p99 in the output and JSON)");
DEFINE_int32(top_references, 10, "print (and put in --json) the scheduler's this many heaviest references");
DEFINE_double(duration, 10, "measured seconds");
DEFINE_double(warmup, 2, "seconds run before measuring");
DEFINE_int32(clients, 0, "closed loop: clients, each waiting for its transaction (default: 2 per worker)");
DEFINE_double(rate, 0, "open loop: Poisson arrivals per second (instead of --clients)");
DEFINE_double(target_latency_ms, 0,
              "find by bisection on the offered rate the throughput whose mean latency is this (the paper: 500)");
DEFINE_int32(bisect_steps, 6, "with --target-latency-ms: bisection probes after bracketing");
DEFINE_int32(stmt_latency_us, 0,
             "wait this long after each statement, transaction open (the interactive/network regime)");
DEFINE_string(json, "", "write the results as one JSON object to this file");
DEFINE_bool(check, false, "after the run, check the workload's consistency conditions (exit 1 if violated)");
DEFINE_uint64(load_seed, 1, "seed of the loaded data (and TPC-C's NURand constants)");
DEFINE_string(load, "auto",
              "load the workload's data: yes, no (attach to what --data-dir recovered), or auto (no when the "
              "data directory already holds tables)");
DEFINE_bool(progress, true, "print a progress line each second on stderr");

namespace paceline::tools {
namespace {

int Fail(const Status& s, const char* what) {
  std::cerr << "paceline-bench: " << what << ": " << s.message() << "\n";
  return 2;
}

int Main() {
  using workloads::WorkloadOptions;
  // Options from flags.
  WorkloadOptions wopts;
  wopts.name = FLAGS_workload;
  wopts.tpcc.warehouses = FLAGS_warehouses;
  wopts.tpcc.items = FLAGS_items;
  wopts.tpcc.customers_per_district = FLAGS_tpcc_customers;
  Status s = workloads::tpcc::TpccMix::Parse(FLAGS_mix, &wopts.tpcc.mix);
  if (!s.ok()) return Fail(s, "--mix");
  wopts.tpcc.statement_latency = std::chrono::microseconds(FLAGS_stmt_latency_us);
  wopts.tpcc.seed = FLAGS_load_seed;
  wopts.ycsb.records = FLAGS_ycsb_records;
  wopts.ycsb.fields = FLAGS_ycsb_fields;
  wopts.ycsb.field_length = FLAGS_ycsb_field_length;
  wopts.ycsb.operations = FLAGS_ycsb_operations;
  wopts.ycsb.read_fraction = FLAGS_ycsb_read_fraction;
  wopts.ycsb.theta = FLAGS_ycsb_theta;
  wopts.ycsb.statement_latency = std::chrono::microseconds(FLAGS_stmt_latency_us);
  wopts.ycsb.seed = FLAGS_load_seed;

  auto invalid = [](const std::string& message) {
    std::cerr << "paceline-bench: " << message << "\n";
    return 2;
  };
  // Moving hot sets, for every workload.
  const bool shift_given = !gflags::GetCommandLineFlagInfoOrDie("hot_shift_s").is_default;
  if (shift_given && !(FLAGS_hot_shift_s > 0)) {
    return invalid("--hot-shift-s must be positive (seconds between moves of the hot set): " +
                   std::to_string(FLAGS_hot_shift_s));
  }
  const auto hot_shift = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(shift_given ? FLAGS_hot_shift_s : 0.0));
  if (FLAGS_hot_records < -1) return invalid("--hot-records must not be negative: " + std::to_string(FLAGS_hot_records));
  wopts.smallbank.accounts = FLAGS_smallbank_accounts;
  if (FLAGS_hot_records >= 0) wopts.smallbank.hot_records = static_cast<uint64_t>(FLAGS_hot_records);
  wopts.smallbank.hot_fraction = FLAGS_hot_fraction;
  wopts.smallbank.hot_shift = hot_shift;
  wopts.smallbank.statement_latency = std::chrono::microseconds(FLAGS_stmt_latency_us);
  wopts.smallbank.seed = FLAGS_load_seed;
  wopts.tatp.subscribers = FLAGS_tatp_subscribers;
  if (FLAGS_hot_records >= 0) wopts.tatp.hot_records = static_cast<uint64_t>(FLAGS_hot_records);
  wopts.tatp.hot_fraction = FLAGS_hot_fraction;
  wopts.tatp.hot_shift = hot_shift;
  wopts.tatp.statement_latency = std::chrono::microseconds(FLAGS_stmt_latency_us);
  wopts.tatp.seed = FLAGS_load_seed;
  wopts.tpcc.hot_warehouses = FLAGS_tpcc_hot_warehouses;
  wopts.tpcc.hot_fraction = FLAGS_hot_fraction;
  wopts.tpcc.hot_shift = hot_shift;
  wopts.ycsb.hot_shift = hot_shift;
  if (FLAGS_workload == "tpcc" && shift_given && FLAGS_tpcc_hot_warehouses == 0) {
    return invalid("--hot-shift-s with --workload=tpcc needs --tpcc-hot-warehouses (the hot warehouses are what moves)");
  }
  if (FLAGS_series_ms < 1) return invalid("--series-ms must be at least 1: " + std::to_string(FLAGS_series_ms));

  if (FLAGS_clients < 0) return invalid("--clients must not be negative: " + std::to_string(FLAGS_clients));
  if (FLAGS_clients > 0 && FLAGS_rate > 0) return invalid("give --clients (closed loop) or --rate (open loop), not both");
  if (FLAGS_target_latency_ms > 0 && FLAGS_rate > 0) {
    return invalid("--target-latency-ms chooses the rate itself; do not give --rate with it");
  }
  if (FLAGS_target_latency_ms < 0) return invalid("--target-latency-ms must be positive");
  if (FLAGS_stmt_latency_us < 0) return invalid("--stmt-latency-us must not be negative");
  if (!(FLAGS_duration > 0)) return invalid("--duration must be positive");
  if (!(FLAGS_warmup >= 0)) return invalid("--warmup must not be negative");
  if (FLAGS_rate < 0) return invalid("--rate must not be negative");

  std::unique_ptr<workloads::Workload> workload;
  s = workloads::CreateWorkload(wopts, &workload);
  if (!s.ok()) return Fail(s, "--workload");

  engine::Options options;
  s = EngineOptionsFromFlags(&options);
  if (!s.ok()) return invalid(s.message());
  if (FLAGS_top_references < 0) return invalid("--top-references must not be negative");
  std::unique_ptr<engine::Database> db;
  s = engine::Database::Open(options, &db);
  if (!s.ok()) return Fail(s, "options");

  if (db->durable()) {
    const engine::durability::RecoveryStats& r = db->recovery_stats();
    std::cerr << "paceline-bench: data directory " << options.data_dir << " (sync " << options.sync << "): recovered "
              << (r.had_checkpoint ? std::to_string(r.checkpoint_rows) + " checkpointed rows and " : "")
              << r.log_records << " log records (" << r.log_bytes << " bytes) in " << r.seconds << " s\n";
  } else {
    std::cerr << "paceline-bench: no data directory: in memory only\n";
  }

  // Load.
  if (FLAGS_load != "yes" && FLAGS_load != "no" && FLAGS_load != "auto") {
    return invalid("--load must be yes, no or auto: " + FLAGS_load);
  }
  const bool load = FLAGS_load == "yes" || (FLAGS_load == "auto" && db->catalog().TableNames().empty());
  std::cerr << "paceline-bench: " << (load ? "loading " : "attaching to the recovered ") << workload->Name()
            << "...\n";
  const auto load_start = std::chrono::steady_clock::now();
  s = load ? workload->Setup(db.get()) : workload->Attach(db.get());
  if (!s.ok()) return Fail(s, "load");
  workloads::BenchReport report;
  report.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  report.load_rows = workload->loaded_rows();
  std::cerr << "paceline-bench: loaded " << report.load_rows << " rows in " << report.load_seconds << " s\n";

  // Settings in effect.
  const size_t clients = FLAGS_clients > 0 ? static_cast<size_t>(FLAGS_clients) : 2 * options.workers;
  report.settings.push_back({"workload", std::string(workload->Name())});
  for (auto& setting : workload->Describe()) report.settings.push_back(setting);
  report.settings.push_back({"workers", std::to_string(options.workers)});
  report.settings.push_back({"cores", std::to_string(std::thread::hardware_concurrency())});
  report.settings.push_back({"cc", std::string(db->cc_name())});
  report.settings.push_back({"scheduler", std::string(db->scheduler_name())});
  report.settings.push_back({"history_warmup", FLAGS_history_warmup});
  report.settings.push_back({"history_learning", FLAGS_history_learning});
  report.settings.push_back({"state", FLAGS_state});
  report.settings.push_back({"history_capacity", std::to_string(FLAGS_history_capacity)});
  report.settings.push_back({"history_half_life_ms", std::to_string(FLAGS_history_half_life_ms)});
  report.settings.push_back({"exploration", std::to_string(FLAGS_exploration)});
  report.settings.push_back({"reference_sources", FLAGS_reference_sources});
  report.settings.push_back({"reference_multiplicity", FLAGS_reference_multiplicity});
  report.settings.push_back({"partition_domain", FLAGS_partition_domain});
  report.settings.push_back({"steal", options.steal ? "true" : "false"});
  report.settings.push_back({"data_dir", options.data_dir.empty() ? "none (in memory)" : options.data_dir});
  if (!options.data_dir.empty()) {
    report.settings.push_back({"sync", options.sync});
    report.settings.push_back({"group_commit_us", std::to_string(options.group_commit_delay.count())});
  }
  report.settings.push_back({"steal_threshold", std::to_string(options.steal_threshold)});
  report.settings.push_back({"max_retries", std::to_string(options.max_retries)});
  report.settings.push_back({"max_retry_pause_us", std::to_string(options.max_retry_pause.count())});
  report.settings.push_back({"retry_yield", options.retry_yield ? "true" : "false"});
  report.settings.push_back({"lock_timeout_ms", std::to_string(options.lock_timeout.count())});
  report.settings.push_back({"duration", std::to_string(FLAGS_duration)});
  report.settings.push_back({"warmup", std::to_string(FLAGS_warmup)});
  report.settings.push_back({"mode", FLAGS_rate > 0 ? "open" : FLAGS_target_latency_ms > 0 ? "bisection" : "closed"});
  report.settings.push_back({"clients", FLAGS_rate > 0 ? "0" : std::to_string(clients)});
  report.settings.push_back({"rate", std::to_string(FLAGS_rate)});
  report.settings.push_back({"target_latency_ms", std::to_string(FLAGS_target_latency_ms)});
  report.settings.push_back({"seed", std::to_string(FLAGS_seed)});
  report.settings.push_back({"series_ms", std::to_string(FLAGS_series_ms)});

  const engine::log::LogWriterStats log_before = db->LogStats();
  const auto runs_start = std::chrono::steady_clock::now();
  auto run = [&](const std::string& label, size_t run_clients, double rate, workloads::RunResult* result) {
    workloads::DriverOptions d;
    d.warmup_seconds = FLAGS_warmup;
    d.duration_seconds = FLAGS_duration;
    d.clients = run_clients;
    d.rate = rate;
    d.seed = FLAGS_seed;
    d.series_seconds = FLAGS_series_ms / 1000.0;
    if (FLAGS_progress) {
      d.on_progress = [label](const workloads::DriverOptions::Progress& p) {
        char line[200];
        std::snprintf(line, sizeof line, "%s%6.1f s %s tps %10.1f  abort rate %.3f  in flight %zu\n", label.c_str(),
                      p.elapsed_seconds, p.warming_up ? "(warm-up)" : "         ", p.tps, p.abort_rate, p.in_flight);
        std::cerr << line;
      };
    }
    return workloads::BenchDriver(db.get(), workload.get(), d).Run(result);
  };

  if (FLAGS_target_latency_ms > 0) {
    workloads::RunResult capacity;
    s = run("[capacity] ", clients, 0, &capacity);
    if (!s.ok()) return Fail(s, "run");
    report.capacity_tps = capacity.tps();
    report.target_latency_ms = FLAGS_target_latency_ms;
    std::vector<workloads::RunResult> runs;
    workloads::BisectionOptions b;
    b.target_latency_ms = FLAGS_target_latency_ms;
    b.capacity = std::max(1.0, capacity.tps());
    b.steps = FLAGS_bisect_steps;
    size_t best = 0;
    s = workloads::FindRateForLatency(
        b,
        [&](double rate, workloads::RateProbe* probe) {
          char label[64];
          std::snprintf(label, sizeof label, "[%.0f txn/s] ", rate);
          runs.emplace_back();
          PL_RETURN_IF_ERROR(run(label, 0, rate, &runs.back()));
          probe->mean_latency_ms = runs.back().latency.Mean() / 1e6;
          probe->shed = runs.back().shed > 0;
          return Status::OK();
        },
        &report.probes, &best);
    if (!s.ok()) return Fail(s, "--target-latency-ms");
    report.run = runs[best];
  } else {
    s = run("", FLAGS_rate > 0 ? 0 : clients, FLAGS_rate, &report.run);
    if (!s.ok()) return Fail(s, "run");
  }
  if (db->durable()) {
    report.durable = true;
    const engine::log::LogWriterStats now = db->LogStats();
    report.log = {now.appends - log_before.appends, now.bytes - log_before.bytes, now.writes - log_before.writes,
                  now.syncs - log_before.syncs, now.segments - log_before.segments};
    report.log_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - runs_start).count();
  }

  report.hot_references = db->TopReferences(static_cast<size_t>(FLAGS_top_references));
  report.scheduler = db->SchedulerStats();

  if (FLAGS_check) {
    report.checked = true;
    Status c = workload->Check(db.get(), &report.check_report);
    report.check_ok = c.ok();
    if (!c.ok()) report.check_report += c.message() + "\n";
  }

  std::cout << workloads::FormatReport(report) << std::flush;
  if (!FLAGS_json.empty()) {
    std::ofstream out(FLAGS_json);
    out << workloads::ReportJson(report).dump(2) << "\n";
    if (!out) {
      std::cerr << "paceline-bench: cannot write " << FLAGS_json << "\n";
      return 2;
    }
  }
  if (report.checked && !report.check_ok) return 1;
  if (report.run.engine.errors > 0) {
    std::cerr << "paceline-bench: " << report.run.engine.errors << " transactions failed with errors (first: "
              << report.run.first_failure << ")\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace paceline::tools

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "the Paceline workload driver\n"
      "  paceline-bench --workload=tpcc --warehouses=4 --workers=8 --cc=occ --scheduler=random --duration=10\n"
      "  paceline-bench --workload=ycsb --ycsb-theta=0.99 --rate=20000 --json=out.json\n"
      "  paceline-bench --target-latency-ms=500 --stmt-latency-us=100 --check");
  gflags::SetVersionString("0.1.0");
  if (const std::string unknown = paceline::tools::UnknownFlag(argc, argv); !unknown.empty()) {
    std::cerr << "paceline-bench: unknown flag " << unknown << " (see --help)\n";
    return 2;
  }
  paceline::tools::AcceptDashedFlags(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    std::cerr << "paceline-bench: unexpected argument \"" << argv[1] << "\" (flags only; see --help)\n";
    return 2;
  }
  return paceline::tools::Main();
}
