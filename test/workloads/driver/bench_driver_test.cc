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
