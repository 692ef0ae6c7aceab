// BenchReport: the text table and the JSON object.
#include "workloads/driver/bench_report.h"

#include <algorithm>
#include <cstdio>

#include "cc/abort_reason.h"

namespace paceline::workloads {

namespace {

double Ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string Format(const char* format, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

nlohmann::json LatencyJson(const engine::LatencyHistogram& h) {
  return {{"count", h.Count()},           {"mean_ms", h.Mean() / 1e6},       {"p50_ms", Ms(h.Percentile(50))},
          {"p95_ms", Ms(h.Percentile(95))}, {"p99_ms", Ms(h.Percentile(99))}, {"max_ms", Ms(h.Max())}};
}

// Over all queues: the mean of their means, the largest and smallest mean
// (one long queue beside idle ones: placement serialises work), and the
// largest max.
struct QueueLengthSummaryStats {
  double mean = 0, busiest_mean = 0, idlest_mean = 0;
  size_t max = 0;
};
QueueLengthSummaryStats QueueLengthSummary(const RunResult& run) {
  QueueLengthSummaryStats all;
  for (size_t q = 0; q < run.queue_lengths.size(); ++q) {
    const QueueLengthStats& l = run.queue_lengths[q];
    all.mean += l.mean / static_cast<double>(run.queue_lengths.size());
    all.busiest_mean = std::max(all.busiest_mean, l.mean);
    all.idlest_mean = q == 0 ? l.mean : std::min(all.idlest_mean, l.mean);
    all.max = std::max(all.max, l.max);
  }
  return all;
}

}  // namespace

std::string FormatReport(const BenchReport& report) {
  const RunResult& run = report.run;
  std::string out;
  auto line = [&](const std::string& name, const std::string& value) {
    out += name;
    out += std::string(name.size() < 26 ? 26 - name.size() : 1, ' ');
    out += value + "\n";
  };
  out += "settings\n";
  for (const auto& [flag, value] : report.settings) line("  " + flag, value);
  if (report.load_rows) {
    line("  load", std::to_string(report.load_rows) + " rows in " + Format("%.2f", report.load_seconds) + " s");
  }
  out += "results\n";
  line("  measured", Format("%.2f", run.seconds) + " s" +
                         (run.offered_rate > 0 ? ", open loop at " + Format("%.1f", run.offered_rate) + " txn/s offered"
                                               : ", closed loop, " + std::to_string(run.clients) + " clients"));
  line("  committed tps", Format("%.1f", run.tps()));
  line("  commits", std::to_string(run.engine.commits));
  line("  aborts", std::to_string(run.engine.aborts()));
  line("  abort rate", Format("%.4f", run.abort_rate()) + "   (aborts / (aborts + commits))");
  line("  aborts per commit", Format("%.3f", run.aborts_per_commit()));
  line("  user aborts", std::to_string(run.engine.user_aborts));
  line("  retry-limit failures", std::to_string(run.engine.retry_limit_failures));
  line("  errors", std::to_string(run.engine.errors));
  if (!run.first_failure.empty()) line("  first failure", run.first_failure);
  if (run.shed) line("  shed arrivals", std::to_string(run.shed));
  line("  latency ms",
       "mean " + Format("%.3f", run.latency.Mean() / 1e6) + "  p50 " + Format("%.3f", Ms(run.latency.Percentile(50))) +
           "  p95 " + Format("%.3f", Ms(run.latency.Percentile(95))) + "  p99 " +
           Format("%.3f", Ms(run.latency.Percentile(99))) + "  max " + Format("%.3f", Ms(run.latency.Max())));
  std::string reasons;
  for (size_t r = 1; r < cc::kAbortReasonCount; ++r) {
    if (run.engine.aborts_by_reason[r] == 0) continue;
    reasons += (reasons.empty() ? "" : ", ") + std::string(cc::AbortReasonName(static_cast<cc::AbortReason>(r))) +
               " " + std::to_string(run.engine.aborts_by_reason[r]);
  }
  if (!reasons.empty()) line("  aborts by reason", reasons);

  out += "per transaction type\n";
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "  %-14s %10s %10s %10s %9s %9s %9s %9s\n", "type", "commits", "conflicts",
                "user abrt", "failures", "mean ms", "p99 ms", "max ms");
  out += buffer;
  for (const TypeResult& t : run.types) {
    std::snprintf(buffer, sizeof buffer, "  %-14s %10llu %10llu %10llu %9llu %9.3f %9.3f %9.3f\n", t.name.c_str(),
                  static_cast<unsigned long long>(t.commits), static_cast<unsigned long long>(t.conflicts),
                  static_cast<unsigned long long>(t.user_aborts), static_cast<unsigned long long>(t.failures),
                  t.latency.Mean() / 1e6, Ms(t.latency.Percentile(99)), Ms(t.latency.Max()));
    out += buffer;
  }
  out += "per run queue (length: transactions waiting, sampled every 10 ms)\n";
  std::snprintf(buffer, sizeof buffer, "  %-6s %10s %10s %10s %10s %12s %10s\n", "queue", "queued", "commits",
                "aborts", "steals", "mean length", "max length");
  out += buffer;
  for (size_t q = 0; q < run.queues.size(); ++q) {
    const engine::ExecutionStats& s = run.queues[q];
    const QueueLengthStats length = q < run.queue_lengths.size() ? run.queue_lengths[q] : QueueLengthStats{};
    std::snprintf(buffer, sizeof buffer, "  %-6zu %10llu %10llu %10llu %10llu %12.2f %10zu\n", q,
                  static_cast<unsigned long long>(s.queued), static_cast<unsigned long long>(s.commits),
                  static_cast<unsigned long long>(s.aborts()), static_cast<unsigned long long>(s.steals), length.mean,
                  length.max);
    out += buffer;
  }
  const QueueLengthSummaryStats all = QueueLengthSummary(run);
  line("  queue length", "mean " + Format("%.2f", all.mean) + " per queue (busiest " + Format("%.2f", all.busiest_mean) +
                             ", idlest " + Format("%.2f", all.idlest_mean) + "), max " + std::to_string(all.max) +
                             " (" + std::to_string(run.queue_samples) + " samples)");
  if (!run.series.empty()) {
    out += "series (every " + Format("%.3g", run.series_seconds) + " s";
    if (!run.shift_times.empty()) out += "; * = the hot set moved in the interval";
    out += ")\n";
    std::snprintf(buffer, sizeof buffer, "  %8s %10s %10s %9s\n", "t s", "tps", "abort rate", "p99 ms");
    out += buffer;
    size_t shift = 0;
    for (const SeriesPoint& p : run.series) {
      bool moved = false;
      while (shift < run.shift_times.size() && run.shift_times[shift] < p.t) {
        moved = true;
        ++shift;
      }
      std::snprintf(buffer, sizeof buffer, "  %8.2f %10.1f %10.4f %9.3f%s\n", p.t, p.tps(), p.abort_rate(), p.p99_ms,
                    moved ? " *" : "");
      out += buffer;
    }
  }
  if (report.durable) {
    const engine::log::LogWriterStats& l = report.log;
    out += "redo log (whole run, warm-up included): " + std::to_string(l.appends) + " records, " +
           Format("%.1f", static_cast<double>(l.bytes) / (1 << 20)) + " MiB, " + std::to_string(l.syncs) +
           " syncs (" + Format("%.1f", l.syncs ? static_cast<double>(l.appends) / static_cast<double>(l.syncs) : 0.0) +
           " records per sync, " +
           Format("%.0f", report.log_seconds > 0 ? static_cast<double>(l.syncs) / report.log_seconds : 0.0) +
           " syncs/s), " + std::to_string(l.segments) + " segments started\n";
  }
  const scheduler::SchedulerStats& sched = report.scheduler;
  if (sched.picks > 0 || sched.history_references > 0) {
    out += "scheduler: " + std::to_string(sched.picks) + " picks (" + std::to_string(sched.warmup_picks) +
           " random in the warm-up, " + std::to_string(sched.default_picks) + " without evidence); History " +
           std::to_string(sched.history_references) + " references (" + std::to_string(sched.history_forgotten) +
           " forgotten), State " + std::to_string(sched.state_references) + ", ~" +
           Format("%.1f", static_cast<double>(sched.bytes) / (1 << 20)) + " MiB" +
           (sched.warming_up ? "; still warming up" : "") + "\n";
    if (sched.homed + sched.explored + sched.spilled + sched.home_moves + sched.moved + sched.sent_home > 0) {
      out += "placements: " + std::to_string(sched.homed) + " at home, " + std::to_string(sched.spilled) +
             " spilled to a shorter queue, " + std::to_string(sched.explored) + " explored, " +
             std::to_string(sched.home_moves) + " home moves, " + std::to_string(sched.moved) +
             " pinned let go to idle workers, " + std::to_string(sched.sent_home) + " retries sent home\n";
    }
    if (sched.spread > 0) {
      out += "spread: hot references on " + std::to_string(sched.spread) + " queue(s) each" +
             (sched.spill ? ", spilling to idle queues," : ", no spills,") + " at the end; " +
             std::to_string(sched.spread_probes) + " other levels probed, " + std::to_string(sched.spread_adopted) +
             " adopted, " + std::to_string(sched.spread_reverted) + " of them undone by their audit\n";
    }
  }
  if (!report.hot_references.empty()) {
    out += "hot references (heaviest first; State = transactions per queue)\n";
    std::snprintf(buffer, sizeof buffer, "  %-36s %10s %10s %9s  %s\n", "reference", "aborts", "commits", "weight",
                  "State per queue");
    out += buffer;
    for (const scheduler::HotReference& h : report.hot_references) {
      std::string queued;
      for (int64_t c : h.queued) queued += (queued.empty() ? "" : " ") + std::to_string(c);
      char key[32];
      std::snprintf(key, sizeof key, "#%016llx", static_cast<unsigned long long>(h.key));
      std::snprintf(buffer, sizeof buffer, "  %-36s %10llu %10llu %9.3f  %s\n", h.name.empty() ? key : h.name.c_str(),
                    static_cast<unsigned long long>(h.aborts), static_cast<unsigned long long>(h.commits), h.weight,
                    queued.c_str());
      out += buffer;
    }
  }
  if (report.target_latency_ms > 0) {
    out += "rate bisection (target mean latency " + Format("%.1f", report.target_latency_ms) +
           " ms; closed-loop capacity " + Format("%.1f", report.capacity_tps) + " txn/s)\n";
    for (const RateProbe& p : report.probes) {
      std::snprintf(buffer, sizeof buffer, "  offered %10.1f txn/s  mean latency %10.3f ms%s  %s\n", p.rate,
                    p.mean_latency_ms, p.shed ? " (shed)" : "", p.met ? "met" : "missed");
      out += buffer;
    }
  }
  if (report.checked) {
    out += std::string("consistency check: ") + (report.check_ok ? "passed" : "FAILED") + "\n";
    out += report.check_report;
    if (!report.check_report.empty() && report.check_report.back() != '\n') out += "\n";
  }
  return out;
}

nlohmann::json ReportJson(const BenchReport& report) {
  const RunResult& run = report.run;
  nlohmann::json settings = nlohmann::json::object();
  for (const auto& [flag, value] : report.settings) settings[flag] = value;
  nlohmann::json reasons = nlohmann::json::object();
  for (size_t r = 1; r < cc::kAbortReasonCount; ++r) {
    reasons[std::string(cc::AbortReasonName(static_cast<cc::AbortReason>(r)))] = run.engine.aborts_by_reason[r];
  }
  nlohmann::json types = nlohmann::json::array();
  for (const TypeResult& t : run.types) {
    types.push_back({{"name", t.name},
                     {"commits", t.commits},
                     {"conflicts", t.conflicts},
                     {"user_aborts", t.user_aborts},
                     {"failures", t.failures},
                     {"tps", run.seconds > 0 ? static_cast<double>(t.commits) / run.seconds : 0.0},
                     {"latency", LatencyJson(t.latency)}});
  }
  nlohmann::json queues = nlohmann::json::array();
  for (size_t q = 0; q < run.queues.size(); ++q) {
    const engine::ExecutionStats& s = run.queues[q];
    queues.push_back({{"queue", q}, {"queued", s.queued}, {"commits", s.commits}, {"aborts", s.aborts()},
                      {"steals", s.steals}});
  }
  nlohmann::json j = {
      {"settings", settings},
      {"load", {{"rows", report.load_rows}, {"seconds", report.load_seconds}}},
      {"seconds", run.seconds},
      {"mode", run.offered_rate > 0 ? "open" : "closed"},
      {"clients", run.clients},
      {"offered_rate", run.offered_rate},
      {"shed", run.shed},
      {"tps", run.tps()},
      {"commits", run.engine.commits},
      {"aborts", run.engine.aborts()},
      {"abort_rate", run.abort_rate()},
      {"aborts_per_commit", run.aborts_per_commit()},
      {"aborts_by_reason", reasons},
      {"user_aborts", run.engine.user_aborts},
      {"retry_limit_failures", run.engine.retry_limit_failures},
      {"errors", run.engine.errors},
      {"first_failure", run.first_failure},
      {"steals", run.engine.steals},
      {"latency", LatencyJson(run.latency)},
      {"types", types},
      {"queues", queues},
  };
  nlohmann::json series = nlohmann::json::array();
  for (const SeriesPoint& p : run.series) {
    series.push_back({{"t", p.t},
                      {"seconds", p.seconds},
                      {"tps", p.tps()},
                      {"commits", p.commits},
                      {"conflicts", p.conflicts},
                      {"abort_rate", p.abort_rate()},
                      {"user_aborts", p.user_aborts},
                      {"failures", p.failures},
                      {"p99_ms", p.p99_ms}});
  }
  j["series"] = series;
  j["series_seconds"] = run.series_seconds;
  j["hot_shifts_s"] = run.shift_times;
  const QueueLengthSummaryStats all = QueueLengthSummary(run);
  nlohmann::json per_queue = nlohmann::json::array();
  for (const QueueLengthStats& l : run.queue_lengths) per_queue.push_back({{"mean", l.mean}, {"max", l.max}});
  j["queue_length"] = {{"mean", all.mean},       {"busiest_mean", all.busiest_mean}, {"idlest_mean", all.idlest_mean},
                       {"max", all.max},         {"samples", run.queue_samples},      {"per_queue", per_queue}};
  if (report.target_latency_ms > 0) {
    nlohmann::json probes = nlohmann::json::array();
    for (const RateProbe& p : report.probes) {
      probes.push_back({{"rate", p.rate}, {"mean_latency_ms", p.mean_latency_ms}, {"shed", p.shed}, {"met", p.met}});
    }
    j["bisection"] = {{"target_latency_ms", report.target_latency_ms},
                      {"capacity_tps", report.capacity_tps},
                      {"probes", probes}};
  }
  if (report.checked) j["check"] = {{"ok", report.check_ok}, {"report", report.check_report}};
  if (report.durable) {
    j["log"] = {{"records", report.log.appends}, {"bytes", report.log.bytes},     {"writes", report.log.writes},
                {"syncs", report.log.syncs},     {"segments", report.log.segments}, {"seconds", report.log_seconds}};
  }
  const scheduler::SchedulerStats& sched = report.scheduler;
  nlohmann::json fields = nlohmann::json::object();
  for (const scheduler::SchedulerStats::Field& f : sched.Fields()) {
    if (f.flag) {
      fields[std::string(f.name)] = f.value != 0;
    } else {
      fields[std::string(f.name)] = f.value;
    }
  }
  j["scheduler"] = std::move(fields);
  nlohmann::json hot = nlohmann::json::array();
  for (const scheduler::HotReference& h : report.hot_references) {
    hot.push_back({{"reference", h.name},
                   {"key", h.key},
                   {"aborts", h.aborts},
                   {"commits", h.commits},
                   {"weight", h.weight},
                   {"queued", h.queued}});
  }
  j["hot_references"] = hot;
  return j;
}

}  // namespace paceline::workloads
