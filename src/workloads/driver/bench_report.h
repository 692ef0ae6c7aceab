// BenchReport: everything one paceline-bench invocation measured, and its
// two renderings — a text table for people (stdout) and one JSON object for
// scripts (--json; the fields are documented in docs/paceline-bench.md).
//
// Thread-safety: plain value type and pure functions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/log/log_writer.h"
#include "scheduler/scheduler.h"
#include "workloads/driver/bench_driver.h"
#include "workloads/driver/rate_bisection.h"

namespace paceline::workloads {

struct BenchReport {
  // Every setting in effect, as (flag name, value), in a stable order.
  std::vector<std::pair<std::string, std::string>> settings;
  double load_seconds = 0;
  uint64_t load_rows = 0;
  RunResult run;  // the reported run (with --target-latency-ms: the best probe's)
  double target_latency_ms = 0;  // 0: no bisection
  double capacity_tps = 0;       // the closed-loop run that bracketed the bisection
  std::vector<RateProbe> probes;
  bool checked = false;          // --check ran
  bool check_ok = false;
  std::string check_report;      // one line per condition, or the violation
  // The scheduler's heaviest references and bookkeeping at the end.
  std::vector<scheduler::HotReference> hot_references;
  scheduler::SchedulerStats scheduler;
  // With a data directory: what the redo log did during the run (warm-up
  // included).
  bool durable = false;
  engine::log::LogWriterStats log;
  double log_seconds = 0;
};

std::string FormatReport(const BenchReport& report);
nlohmann::json ReportJson(const BenchReport& report);

}  // namespace paceline::workloads
