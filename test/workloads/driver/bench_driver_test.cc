// BenchDriver end to end on a tiny TPC-C database: closed and open loop
// runs finish, count every outcome once, and agree with the engine.
#include "workloads/driver/bench_driver.h"

#include <gtest/gtest.h>

#include "workloads/driver/bench_report.h"
#include "workloads/tpcc/tpcc_workload.h"

namespace paceline::workloads {
namespace {

class BenchDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine::Options options;
    options.workers = 3;
    options.max_retries = 1000;
    ASSERT_TRUE(engine::Database::Open(options, &db_).ok());
    tpcc::TpccOptions t;
    t.warehouses = 1;
    t.items = 100;
    t.customers_per_district = 30;
    ASSERT_TRUE(tpcc::TpccMix::Parse("standard", &t.mix).ok());
    workload_ = std::make_unique<tpcc::TpccWorkload>(t);
    ASSERT_TRUE(workload_->Setup(db_.get()).ok());
  }

  static uint64_t TypeCommits(const RunResult& r) {
    uint64_t n = 0;
    for (const TypeResult& t : r.types) n += t.commits;
    return n;
  }

  std::unique_ptr<engine::Database> db_;
  std::unique_ptr<tpcc::TpccWorkload> workload_;
};

TEST_F(BenchDriverTest, ClosedLoopCountsEveryOutcome) {
  DriverOptions options;
  options.warmup_seconds = 0.1;
  options.duration_seconds = 0.4;
  options.clients = 6;
  int progress_lines = 0;
  options.on_progress = [&](const DriverOptions::Progress&) { ++progress_lines; };
  RunResult r;
  ASSERT_TRUE(BenchDriver(db_.get(), workload_.get(), options).Run(&r).ok());
  EXPECT_GT(r.engine.commits, 0u);
  EXPECT_EQ(r.failures, 0u) << r.first_failure;
  EXPECT_EQ(r.clients, 6u);
  EXPECT_DOUBLE_EQ(r.offered_rate, 0);
  EXPECT_GT(r.seconds, 0);
  ASSERT_EQ(r.types.size(), 5u);
  EXPECT_EQ(r.types[0].name, "NewOrder");
  // Every commit the driver counted in the window has its latency recorded.
  const uint64_t driver = TypeCommits(r);
  EXPECT_GT(driver, 0u);
  EXPECT_EQ(r.latency.Count(), driver);
  ASSERT_EQ(r.queues.size(), 3u);
  uint64_t queued = 0, commits = 0;
  for (const auto& q : r.queues) {
    queued += q.queued;
    commits += q.commits;
  }
  EXPECT_GT(queued, 0u);
  EXPECT_EQ(commits, r.engine.commits);  // the totals are the queues' sum
  EXPECT_EQ(progress_lines, 0);  // the run is shorter than the first tick
  // After the run nothing is outstanding, and the workload's state holds.
  std::string report;
  EXPECT_TRUE(workload_->Check(db_.get(), &report).ok()) << report;
}

// The time series: one point per interval of the window (0.9 s at 0.1 s:
// 9), each interval as long as asked but the last (which takes what the
// window ran over), and every commit of the window in exactly one point.
// Queue lengths are sampled for every queue. A HotSetClock workload's shift
// times are the multiples of its shift inside the window.
TEST_F(BenchDriverTest, SeriesPointsCoverTheWindowAndAddUpToTheTotals) {
  DriverOptions options;
  options.warmup_seconds = 0.1;
  options.duration_seconds = 0.9;
  options.series_seconds = 0.1;
  options.clients = 6;
  RunResult r;
  ASSERT_TRUE(BenchDriver(db_.get(), workload_.get(), options).Run(&r).ok());
  ASSERT_EQ(r.series.size(), 9u);
  EXPECT_DOUBLE_EQ(r.series_seconds, 0.1);
  uint64_t commits = 0, conflicts = 0, user_aborts = 0;
  for (size_t i = 0; i < r.series.size(); ++i) {
    const SeriesPoint& p = r.series[i];
    commits += p.commits;
    conflicts += p.conflicts;
    user_aborts += p.user_aborts;
    if (i + 1 < r.series.size()) {
      EXPECT_NEAR(p.t, 0.1 * static_cast<double>(i + 1), 1e-9);
      EXPECT_NEAR(p.seconds, 0.1, 1e-9);
    } else {
      EXPECT_DOUBLE_EQ(p.t, r.seconds);
    }
    if (p.commits > 0) {
      EXPECT_GT(p.p99_ms, 0) << "point " << i;
    }
  }
  uint64_t type_commits = 0, type_conflicts = 0, type_user_aborts = 0;
  for (const TypeResult& t : r.types) {
    type_commits += t.commits;
    type_conflicts += t.conflicts;
    type_user_aborts += t.user_aborts;
  }
  EXPECT_GT(commits, 0u);
  EXPECT_EQ(commits, type_commits);
  EXPECT_EQ(conflicts, type_conflicts);
  EXPECT_EQ(user_aborts, type_user_aborts);
  EXPECT_TRUE(r.shift_times.empty()) << "uniform TPC-C has no moving hot set";
  ASSERT_EQ(r.queue_lengths.size(), 3u);
  EXPECT_GT(r.queue_samples, 10u);  // every 10 ms over 0.9 s
  for (const QueueLengthStats& q : r.queue_lengths) {
    EXPECT_LE(q.mean, static_cast<double>(q.max));
    EXPECT_LE(q.max, 6u) << "6 clients: never more than 6 waiting";
  }
  BenchReport report;
  report.run = r;
  const nlohmann::json j = ReportJson(report);
  EXPECT_EQ(j["series"].size(), 9u);
  EXPECT_EQ(j["queue_length"]["per_queue"].size(), 3u);
}

TEST_F(BenchDriverTest, ShiftTimesAreTheMultiplesOfTheShiftInTheWindow) {
  tpcc::TpccOptions t;
  t.warehouses = 4;
  t.items = 100;
  t.customers_per_district = 30;
  t.hot_warehouses = 1;
  t.hot_shift = std::chrono::milliseconds(300);
  engine::Options options;
  options.workers = 2;
  std::unique_ptr<engine::Database> db;
  ASSERT_TRUE(engine::Database::Open(options, &db).ok());
  tpcc::TpccWorkload workload(t);
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  DriverOptions d;
  d.warmup_seconds = 0.05;
  d.duration_seconds = 1.0;
  d.clients = 2;
  RunResult r;
  ASSERT_TRUE(BenchDriver(db.get(), &workload, d).Run(&r).ok());
  ASSERT_EQ(r.shift_times.size(), 3u);
  EXPECT_NEAR(r.shift_times[0], 0.3, 1e-9);
  EXPECT_NEAR(r.shift_times[2], 0.9, 1e-9);
  // The clock ran from the window's start: by now it is past the last shift.
  EXPECT_GE(workload.hot_set_clock()->Epoch(), 3u);
}

TEST_F(BenchDriverTest, OpenLoopSubmitsArrivalsAtTheOfferedRate) {
  DriverOptions options;
  options.warmup_seconds = 0;
  options.duration_seconds = 1.5;
  options.rate = 300;  // far below what 3 workers sustain, even under sanitizers
  int progress_lines = 0;
  options.on_progress = [&](const DriverOptions::Progress& p) {
    ++progress_lines;
    EXPECT_FALSE(p.warming_up);
  };
  RunResult r;
  ASSERT_TRUE(BenchDriver(db_.get(), workload_.get(), options).Run(&r).ok());
  EXPECT_DOUBLE_EQ(r.offered_rate, 300);
  EXPECT_EQ(r.clients, 0u);
  EXPECT_EQ(r.shed, 0u);
  EXPECT_EQ(r.failures, 0u) << r.first_failure;
  EXPECT_GT(r.engine.commits, 0u);
  EXPECT_LE(progress_lines, 1);  // one tick at 1 s (none if the driver thread was starved past the end)
  std::string report;
  EXPECT_TRUE(workload_->Check(db_.get(), &report).ok()) << report;

  // The report renders it, and its JSON carries the same numbers.
  BenchReport bench;
  bench.settings = {{"workload", "tpcc"}};
  bench.run = r;
  nlohmann::json j = ReportJson(bench);
  EXPECT_EQ(j["mode"], "open");
  EXPECT_EQ(j["commits"].get<uint64_t>(), r.engine.commits);
  EXPECT_EQ(j["types"].size(), 5u);
  EXPECT_EQ(j["settings"]["workload"], "tpcc");
  const std::string table = FormatReport(bench);
  EXPECT_NE(table.find("committed tps"), std::string::npos);
  EXPECT_NE(table.find("StockLevel"), std::string::npos);
}

TEST_F(BenchDriverTest, RejectsOptionsThatCannotRun) {
  RunResult r;
  DriverOptions options;
  options.clients = 0;
  EXPECT_TRUE(BenchDriver(db_.get(), workload_.get(), options).Run(&r).Is(sqlstate::kInvalidParameterValue));
  options.clients = 1;
  options.duration_seconds = 0;
  EXPECT_TRUE(BenchDriver(db_.get(), workload_.get(), options).Run(&r).Is(sqlstate::kInvalidParameterValue));
}

}  // namespace
}  // namespace paceline::workloads
