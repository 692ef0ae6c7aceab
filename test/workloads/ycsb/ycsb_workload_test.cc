// YcsbWorkload: options validation, schema and load, the generator, the
// procedure, and the consistency check — including a concurrent run under
// every concurrency control and baseline scheduler on a few hot keys, after
// which Check must pass (no update lost or applied twice).
#include "workloads/ycsb/ycsb_workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <latch>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/database.h"
#include "workloads/statement_latency.h"

namespace paceline::workloads::ycsb {
namespace {

using engine::Database;
using engine::TransactionRequest;
using engine::TransactionResult;

YcsbOptions SmallOptions() {
  YcsbOptions o;
  o.records = 1000;
  o.fields = 3;
  o.field_length = 20;
  o.operations = 4;
  return o;
}

std::unique_ptr<Database> OpenDatabase(size_t workers, const std::string& cc = "occ",
                                       const std::string& scheduler = "random") {
  engine::Options options;
  options.workers = workers;
  options.cc = cc;
  options.scheduler = scheduler;
  options.max_retries = 1000;
  options.lock_timeout = std::chrono::milliseconds(20000);
  std::unique_ptr<Database> db;
  Status s = Database::Open(options, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return db;
}

QueryResult Query(Database* db, const std::string& sql) {
  auto session = db->CreateSession();
  QueryResult r;
  Status s = session->Execute(sql, &r);
  EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
  return r;
}

// The keys of a generated transaction's operations.
std::vector<int64_t> Keys(const GeneratedTransaction& t) {
  std::vector<int64_t> keys;
  for (size_t i = 0; i < t.request.args.size(); i += 3) keys.push_back(t.request.args[i].int_value());
  return keys;
}

// --- Options ---------------------------------------------------------------

TEST(YcsbOptionsTest, DefaultsAreValid) { EXPECT_TRUE(YcsbOptions{}.Validate().ok()); }

TEST(YcsbOptionsTest, OutOfRangeNamesTheFlagAndRange) {
  struct Case {
    void (*mutate)(YcsbOptions*);
    std::string message;
  };
  const Case cases[] = {
      {[](YcsbOptions* o) { o->theta = 1.2; }, "--ycsb-theta must be in [0, 1): 1.2"},
      {[](YcsbOptions* o) { o->theta = 1.0; }, "--ycsb-theta must be in [0, 1): 1"},
      {[](YcsbOptions* o) { o->theta = -0.1; }, "--ycsb-theta must be in [0, 1): -0.1"},
      {[](YcsbOptions* o) { o->read_fraction = 1.5; }, "--ycsb-read-fraction must be in [0, 1]: 1.5"},
      {[](YcsbOptions* o) { o->records = 0; }, "--ycsb-records must be between 1 and 2147483647: 0"},
      {[](YcsbOptions* o) { o->records = 1ull << 31; }, "--ycsb-records must be between 1 and 2147483647"},
      {[](YcsbOptions* o) { o->fields = 0; }, "--ycsb-fields must be between 1 and 100: 0"},
      {[](YcsbOptions* o) { o->fields = 101; }, "--ycsb-fields must be between 1 and 100: 101"},
      {[](YcsbOptions* o) { o->field_length = 0; }, "--ycsb-field-length must be between 1 and 10000: 0"},
      {[](YcsbOptions* o) { o->operations = 0; }, "--ycsb-operations must be between 1 and 1000"},
      {[](YcsbOptions* o) {
         o->records = 5;
         o->operations = 6;
       },
       "--ycsb-operations must be between 1 and 5"},
      {[](YcsbOptions* o) { o->statement_latency = std::chrono::microseconds(-1); },
       "--stmt-latency-us must be at least 0: -1"},
  };
  for (const Case& c : cases) {
    YcsbOptions o;
    c.mutate(&o);
    Status s = o.Validate();
    EXPECT_TRUE(s.Is(sqlstate::kInvalidParameterValue)) << c.message << ": " << s.ToString();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
  YcsbOptions edge;
  edge.records = 3;
  edge.operations = 3;
  edge.theta = 0;
  edge.read_fraction = 1;
  EXPECT_TRUE(edge.Validate().ok());
}

// --- Setup, Check, Describe ------------------------------------------------

TEST(YcsbWorkloadTest, SetupLoadsEveryRecord) {
  auto db = OpenDatabase(4);
  YcsbWorkload workload(SmallOptions());
  EXPECT_EQ(workload.Name(), "ycsb");
  EXPECT_EQ(workload.TransactionTypes(), (std::vector<std::string>{"ReadOnly", "ReadWrite"}));
  Status s = workload.Setup(db.get());
  ASSERT_TRUE(s.ok()) << s.ToString();

  QueryResult r = Query(db.get(), "SELECT count(*), sum(ycsb_updates), min(ycsb_key), max(ycsb_key) FROM usertable");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0].ToString(), "1000");
  EXPECT_EQ(r.rows[0][1].ToString(), "0");
  EXPECT_EQ(r.rows[0][2].ToString(), "0");
  EXPECT_EQ(r.rows[0][3].ToString(), "999");
  r = Query(db.get(), "SELECT * FROM usertable");
  ASSERT_EQ(r.columns.size(), 5u);
  EXPECT_EQ(r.columns[4].name, "field2");
  EXPECT_EQ(r.columns[4].type, Type::Varchar(20));
  std::set<std::string> distinct;
  for (const auto& row : r.rows) {
    for (size_t c = 2; c < row.size(); ++c) {
      ASSERT_FALSE(row[c].is_null());
      EXPECT_EQ(row[c].string_value().size(), 20u) << row[c].string_value();
      for (char ch : row[c].string_value()) EXPECT_TRUE(ch > ' ' && ch < 127) << row[c].string_value();
      distinct.insert(row[c].string_value());
    }
  }
  EXPECT_GT(distinct.size(), 2990u);  // random, not constant

  std::string report;
  s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_NE(report.find("1000 = 1000 ok"), std::string::npos) << report;
  EXPECT_NE(report.find("0 = 0 ok"), std::string::npos) << report;

  // The same seed loads the same data.
  auto other = OpenDatabase(0);
  YcsbWorkload again(SmallOptions());
  ASSERT_TRUE(again.Setup(other.get()).ok());
  EXPECT_EQ(Query(other.get(), "SELECT field1 FROM usertable WHERE ycsb_key = 7").rows[0][0].string_value(),
            Query(db.get(), "SELECT field1 FROM usertable WHERE ycsb_key = 7").rows[0][0].string_value());
}

TEST(YcsbWorkloadTest, SetupTwiceFails) {
  auto db = OpenDatabase(0);
  YcsbWorkload workload(SmallOptions());
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  YcsbWorkload second(SmallOptions());
  EXPECT_TRUE(second.Setup(db.get()).Is(sqlstate::kDuplicateTable));
}

TEST(YcsbWorkloadTest, DescribeListsEveryOption) {
  YcsbOptions o = SmallOptions();
  o.statement_latency = std::chrono::microseconds(250);
  o.theta = 0.99;
  YcsbWorkload workload(o);
  std::map<std::string, std::string> d;
  for (const auto& [k, v] : workload.Describe()) d[k] = v;
  EXPECT_EQ(d["ycsb_records"], "1000");
  EXPECT_EQ(d["ycsb_fields"], "3");
  EXPECT_EQ(d["ycsb_field_length"], "20");
  EXPECT_EQ(d["ycsb_operations"], "4");
  EXPECT_EQ(d["ycsb_read_fraction"], "0.5");
  EXPECT_EQ(d["ycsb_theta"], "0.99");
  EXPECT_EQ(d["stmt_latency_us"], "250");
  EXPECT_EQ(d["ycsb_seed"], "1");
}

// Changes made outside the workload's transactions break the conditions,
// and the error names them with both numbers.
TEST(YcsbWorkloadTest, CheckDetectsAnUnaccountedUpdateAndAMissingRow) {
  auto db = OpenDatabase(0);
  YcsbWorkload workload(SmallOptions());
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  Query(db.get(), "UPDATE usertable SET ycsb_updates = ycsb_updates + 1 WHERE ycsb_key = 0");
  std::string report;
  Status s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.Is(sqlstate::kInternalError)) << s.ToString();
  EXPECT_NE(s.message().find("sum(ycsb_updates) is 1 but committed transactions made 0"), std::string::npos)
      << s.message();
  EXPECT_NE(report.find("1 != 0 VIOLATED"), std::string::npos) << report;

  Query(db.get(), "UPDATE usertable SET ycsb_updates = 0 WHERE ycsb_key = 0");
  Query(db.get(), "DELETE FROM usertable WHERE ycsb_key = 5");
  report.clear();
  s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.Is(sqlstate::kInternalError)) << s.ToString();
  EXPECT_NE(s.message().find("usertable has 999 rows, expected 1000"), std::string::npos) << s.message();
}

// --- Next and the procedure ------------------------------------------------

TEST(YcsbWorkloadTest, NextDrawsDistinctKeysAndTheMatchingType) {
  YcsbOptions o = SmallOptions();
  o.records = 10;
  o.operations = 6;
  o.theta = 0.99;
  YcsbWorkload workload(o);
  Random rng(3);
  std::map<size_t, int> types;
  std::vector<int> key_counts(o.records, 0);
  for (int i = 0; i < 2000; ++i) {
    GeneratedTransaction t;
    workload.Next(rng, &t);
    EXPECT_EQ(t.request.procedure, YcsbWorkload::kProcedureName);
    ASSERT_EQ(t.request.args.size(), 3u * o.operations);
    std::vector<int64_t> keys = Keys(t);
    EXPECT_EQ(std::set<int64_t>(keys.begin(), keys.end()).size(), keys.size()) << "repeated key";
    bool any_write = false;
    for (size_t j = 0; j < t.request.args.size(); j += 3) {
      EXPECT_EQ(t.request.args[j].type(), TypeId::kInt32);
      EXPECT_GE(t.request.args[j].int_value(), 0);
      EXPECT_LT(t.request.args[j].int_value(), 10);
      ++key_counts[t.request.args[j].int_value()];
      EXPECT_EQ(t.request.args[j + 1].type(), TypeId::kInt32);
      EXPECT_GE(t.request.args[j + 1].int_value(), 0);
      EXPECT_LT(t.request.args[j + 1].int_value(), 3);
      EXPECT_EQ(t.request.args[j + 2].type(), TypeId::kBool);
      any_write |= t.request.args[j + 2].bool_value();
    }
    EXPECT_EQ(t.type, any_write ? YcsbWorkload::kReadWrite : YcsbWorkload::kReadOnly);
    ++types[t.type];
  }
  // Half reads, 6 operations: about 1/64 of the transactions read only.
  EXPECT_GT(types[YcsbWorkload::kReadOnly], 5);
  EXPECT_GT(types[YcsbWorkload::kReadWrite], 1800);
  // Key 0 is the hottest (in every transaction here, the draws being distinct).
  EXPECT_EQ(*std::max_element(key_counts.begin(), key_counts.end()), key_counts[0]);

  // The extremes of --ycsb-read-fraction.
  for (double fraction : {0.0, 1.0}) {
    o.read_fraction = fraction;
    YcsbWorkload extreme(o);
    for (int i = 0; i < 200; ++i) {
      GeneratedTransaction t;
      extreme.Next(rng, &t);
      EXPECT_EQ(t.type, fraction == 1.0 ? YcsbWorkload::kReadOnly : YcsbWorkload::kReadWrite);
      for (size_t j = 2; j < t.request.args.size(); j += 3) EXPECT_EQ(t.request.args[j].bool_value(), fraction == 0);
    }
  }
}

// Every key of a tiny table in every transaction: the redraw of repeated
// keys terminates.
TEST(YcsbWorkloadTest, NextCanTakeEveryKey) {
  YcsbOptions o = SmallOptions();
  o.records = 5;
  o.operations = 5;
  YcsbWorkload workload(o);
  Random rng(1);
  GeneratedTransaction t;
  workload.Next(rng, &t);
  std::vector<int64_t> keys = Keys(t);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

TEST(YcsbWorkloadTest, ReadModifyWriteRotatesTheFieldAndCountsTheUpdate) {
  auto db = OpenDatabase(0);
  YcsbWorkload workload(SmallOptions());
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  const std::string before =
      Query(db.get(), "SELECT field2 FROM usertable WHERE ycsb_key = 42").rows[0][0].string_value();
  GeneratedTransaction t;
  t.type = YcsbWorkload::kReadWrite;
  t.request = TransactionRequest::Call(YcsbWorkload::kProcedureName,
                                       {Value::Int32(42), Value::Int32(2), Value::Bool(true),    // RMW
                                        Value::Int32(7), Value::Int32(0), Value::Bool(false)});  // read
  TransactionResult result;
  db->Execute(t.request, &result);
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  workload.OnFinished(t, result);
  EXPECT_EQ(workload.committed_writes(), 1u);
  QueryResult r = Query(db.get(), "SELECT field2, ycsb_updates FROM usertable WHERE ycsb_key = 42");
  EXPECT_EQ(r.rows[0][0].string_value(), before.substr(1) + before[0]);
  EXPECT_EQ(r.rows[0][1].ToString(), "1");
  std::string report;
  EXPECT_TRUE(workload.Check(db.get(), &report).ok()) << report;

  // A failed transaction's writes are not counted.
  TransactionResult failed;
  failed.status = Status(sqlstate::kSerializationFailure, "gave up");
  workload.OnFinished(t, failed);
  EXPECT_EQ(workload.committed_writes(), 1u);

}

TEST(YcsbWorkloadTest, MissingKeyIsAnErrorNamingIt) {
  auto db = OpenDatabase(0);
  YcsbWorkload workload(SmallOptions());
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  for (bool write : {false, true}) {
    TransactionResult result;
    db->Execute(TransactionRequest::Call(YcsbWorkload::kProcedureName,
                                         {Value::Int32(3), Value::Int32(0), Value::Bool(true),  // rolled back
                                          Value::Int32(5000), Value::Int32(1), Value::Bool(write)}),
                &result);
    EXPECT_TRUE(result.status.Is(sqlstate::kInternalError)) << result.status.ToString();
    EXPECT_NE(result.status.message().find("ycsb_key = 5000"), std::string::npos) << result.status.message();
  }
  EXPECT_EQ(Query(db.get(), "SELECT sum(ycsb_updates) FROM usertable").rows[0][0].ToString(), "0");

  TransactionResult result;
  db->Execute(
      TransactionRequest::Call(YcsbWorkload::kProcedureName, {Value::Int32(3), Value::Int32(9), Value::Bool(false)}),
      &result);
  EXPECT_TRUE(result.status.Is(sqlstate::kInvalidParameterValue)) << result.status.ToString();
  db->Execute(TransactionRequest::Call(YcsbWorkload::kProcedureName, {Value::Int32(3)}), &result);
  EXPECT_TRUE(result.status.Is(sqlstate::kInvalidParameterValue)) << result.status.ToString();
}

// WithStatementLatency only waits: the same transactions leave the same
// table, with and without it.
TEST(YcsbWorkloadTest, StatementLatencyLeavesResultsUnchanged) {
  std::vector<std::string> tables;
  for (int latency_us : {0, 20}) {
    YcsbOptions o = SmallOptions();
    o.records = 50;
    o.statement_latency = std::chrono::microseconds(latency_us);
    auto db = OpenDatabase(0);
    YcsbWorkload workload(o);
    ASSERT_TRUE(workload.Setup(db.get()).ok());
    Random rng(9);
    for (int i = 0; i < 30; ++i) {
      GeneratedTransaction t;
      workload.Next(rng, &t);
      TransactionResult result;
      db->Execute(t.request, &result);
      ASSERT_TRUE(result.committed()) << result.status.ToString();
      workload.OnFinished(t, result);
    }
    std::string report;
    EXPECT_TRUE(workload.Check(db.get(), &report).ok()) << report;
    std::string table;
    for (const auto& row : Query(db.get(), "SELECT * FROM usertable ORDER BY ycsb_key").rows) {
      for (const Value& v : row) table += v.ToString() + "|";
      table += "\n";
    }
    tables.push_back(table);
  }
  EXPECT_EQ(tables[0], tables[1]);
  EXPECT_NE(tables[0].find("|1|"), std::string::npos);  // some row was updated
}

// --- Concurrent runs -------------------------------------------------------

// Few hot keys (theta 0.99 over 50: key 0 in ~60% of the transactions),
// half read-modify-writes, 4 workers and 4 client threads submitting at once,
// under each concurrency control and baseline scheduler. A small statement
// latency keeps transactions open long enough to overlap on 2 cores, so
// conflicts (aborts, retries) really happen. Afterwards Check must pass:
// Σ ycsb_updates = committed read-modify-writes excludes lost updates,
// double applications and leftovers of aborted attempts.
class YcsbConcurrentTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(YcsbConcurrentTest, CheckPassesAfterAContendedRun) {
  constexpr int kClients = 4;
  constexpr int kPerClient = 500;
  const auto& [cc, scheduler] = GetParam();
  auto db = OpenDatabase(4, cc, scheduler);
  ASSERT_NE(db, nullptr);
  YcsbOptions o;
  o.records = 50;
  o.fields = 2;
  o.field_length = 10;
  o.operations = 4;
  o.read_fraction = 0.5;
  o.theta = 0.99;
  o.statement_latency = std::chrono::microseconds(10);
  YcsbWorkload workload(o);
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  db->ResetStats();

  // Generated up front so that the callbacks can refer to them.
  std::vector<std::vector<GeneratedTransaction>> txns(kClients, std::vector<GeneratedTransaction>(kPerClient));
  for (int c = 0; c < kClients; ++c) {
    Random rng(100 + c);
    for (auto& t : txns[c]) workload.Next(rng, &t);
  }
  std::latch done(kClients * kPerClient);
  std::mutex mu;
  std::vector<std::string> failures;
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (const GeneratedTransaction& t : txns[c]) {
        db->Submit(t.request, [&, t_ptr = &t](TransactionResult result) {
          workload.OnFinished(*t_ptr, result);
          if (!result.committed()) {
            std::lock_guard lock(mu);
            failures.push_back(result.status.ToString());
          }
          done.count_down();
        });
      }
    });
  }
  for (auto& t : clients) t.join();
  done.wait();

  EXPECT_TRUE(failures.empty()) << failures.size() << " failed, the first: " << failures[0];
  engine::ExecutionStats stats = db->Stats();
  EXPECT_EQ(stats.commits, static_cast<uint64_t>(kClients * kPerClient));
  EXPECT_GT(stats.aborts(), 0u) << "no conflict happened: the test does not exercise the concurrency control";
  EXPECT_GT(workload.committed_writes(), static_cast<uint64_t>(kClients * kPerClient));
  std::string report;
  Status s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  RecordProperty("aborts", std::to_string(stats.aborts()));
}

std::string ParamName(const ::testing::TestParamInfo<YcsbConcurrentTest::ParamType>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

// Every scheduler but the "-single" aliases of the short policy names.
std::vector<std::string> DistinctSchedulerNames() {
  std::vector<std::string> names;
  for (const std::string& name : Database::SchedulerNames()) {
    if (!name.ends_with("-single")) names.push_back(name);
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, YcsbConcurrentTest,
                         ::testing::Combine(::testing::ValuesIn(Database::ConcurrencyControlNames()),
                                            ::testing::ValuesIn(DistinctSchedulerNames())),
                         ParamName);

}  // namespace
}  // namespace paceline::workloads::ycsb
