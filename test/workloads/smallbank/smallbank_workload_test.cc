// SmallbankWorkload: each transaction's effects on a tiny bank, including
// every business abort; options validation; the loader; the check (which
// must fail when money is created or destroyed behind the ledger's back);
// and a contended run under every concurrency control × {random, partition
// on custid, count-max-canonical}, after which the check passes.
#include "workloads/smallbank/smallbank_workload.h"

#include <gtest/gtest.h>

#include <latch>
#include <mutex>
#include <thread>

#include "engine/database.h"
#include "engine/session.h"
#include "test/cc/every_cc_and_scheduler.h"
#include "workloads/smallbank/smallbank_procedures.h"

namespace paceline::workloads::smallbank {
namespace {

using engine::Database;
using engine::TransactionRequest;
using engine::TransactionResult;

std::unique_ptr<Database> OpenDatabase(size_t workers, const std::string& cc = "occ",
                                       const std::string& scheduler = "random") {
  engine::Options options;
  options.workers = workers;
  options.cc = cc;
  options.scheduler = scheduler;
  options.scheduling.partition_domain = "custid";
  options.max_retries = 1000;
  options.lock_timeout = std::chrono::milliseconds(20000);
  std::unique_ptr<Database> db;
  Status s = Database::Open(options, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return db;
}

int64_t Int(Database* db, const std::string& sql) {
  auto session = db->CreateSession();
  QueryResult r;
  Status s = session->Execute(sql, &r);
  EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
  if (!s.ok() || r.rows.size() != 1) return INT64_MIN;
  return r.rows[0][0].int_value();
}

void Exec(Database* db, const std::string& sql) {
  auto session = db->CreateSession();
  QueryResult r;
  Status s = session->Execute(sql, &r);
  ASSERT_TRUE(s.ok()) << sql << ": " << s.ToString();
}

class SmallbankTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenDatabase(1);
    SmallbankOptions o;
    o.accounts = 4;
    o.hot_records = 2;
    workload_ = std::make_unique<SmallbankWorkload>(o);
    ASSERT_TRUE(workload_->Setup(db_.get()).ok());
    // Known balances: savings 1000·(c+1), checking 100·(c+1) cents.
    for (int c = 0; c < 4; ++c) {
      Exec(db_.get(), "UPDATE savings SET bal = " + std::to_string(1000 * (c + 1)) + " WHERE custid = " +
                          std::to_string(c));
      Exec(db_.get(), "UPDATE checking SET bal = " + std::to_string(100 * (c + 1)) + " WHERE custid = " +
                          std::to_string(c));
    }
  }

  TransactionResult Call(const char* procedure, std::vector<Value> args) {
    TransactionResult r;
    db_->Execute(TransactionRequest::Call(procedure, std::move(args)), &r);
    return r;
  }
  int64_t Savings(int c) { return Int(db_.get(), "SELECT bal FROM savings WHERE custid = " + std::to_string(c)); }
  int64_t Checking(int c) { return Int(db_.get(), "SELECT bal FROM checking WHERE custid = " + std::to_string(c)); }
  static Value C(int c) { return Value::Int32(c); }
  static Value Cents(int64_t v) { return Value::Int64(v); }

  std::unique_ptr<Database> db_;
  std::unique_ptr<SmallbankWorkload> workload_;
};

TEST_F(SmallbankTest, AmalgamateMovesEverythingOfTheFirstToTheSecondsChecking) {
  TransactionResult r = Call(kAmalgamateProcedure, {C(0), C(1)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Savings(0), 0);
  EXPECT_EQ(Checking(0), 0);
  EXPECT_EQ(Checking(1), 200 + 1000 + 100);
  EXPECT_EQ(Savings(1), 2000);
  r = Call(kAmalgamateProcedure, {C(0), C(99)});
  EXPECT_TRUE(r.user_abort);
  EXPECT_EQ(r.status.message(), "unknown customer 99");
}

TEST_F(SmallbankTest, BalanceReturnsTheSumAndChangesNothing) {
  TransactionResult r = Call(kBalanceProcedure, {C(2)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].rows[0][0].int_value(), 3000 + 300);
  EXPECT_TRUE(Call(kBalanceProcedure, {C(-1)}).user_abort);
}

TEST_F(SmallbankTest, DepositCheckingAddsAndRefusesNegativeAmounts) {
  ASSERT_TRUE(Call(kDepositCheckingProcedure, {C(3), Cents(130)}).committed());
  EXPECT_EQ(Checking(3), 400 + 130);
  TransactionResult r = Call(kDepositCheckingProcedure, {C(3), Cents(-5)});
  EXPECT_TRUE(r.user_abort);
  EXPECT_EQ(Checking(3), 530);
  EXPECT_TRUE(Call(kDepositCheckingProcedure, {C(7), Cents(5)}).user_abort);
}

TEST_F(SmallbankTest, SendPaymentNeedsFundsInTheSendersChecking) {
  ASSERT_TRUE(Call(kSendPaymentProcedure, {C(1), C(0), Cents(150)}).committed());
  EXPECT_EQ(Checking(1), 50);
  EXPECT_EQ(Checking(0), 250);
  TransactionResult r = Call(kSendPaymentProcedure, {C(1), C(0), Cents(51)});
  EXPECT_TRUE(r.user_abort);
  EXPECT_EQ(r.status.message(), "insufficient funds in the checking account of 1");
  EXPECT_EQ(Checking(1), 50) << "a business abort changes nothing";
  EXPECT_EQ(Checking(0), 250);
  EXPECT_TRUE(Call(kSendPaymentProcedure, {C(1), C(9), Cents(1)}).user_abort) << "unknown receiver";
  EXPECT_EQ(Checking(1), 50);
}

TEST_F(SmallbankTest, TransactSavingsNeverLeavesSavingsNegative) {
  ASSERT_TRUE(Call(kTransactSavingsProcedure, {C(0), Cents(-1000)}).committed());
  EXPECT_EQ(Savings(0), 0);
  TransactionResult r = Call(kTransactSavingsProcedure, {C(0), Cents(-1)});
  EXPECT_TRUE(r.user_abort);
  EXPECT_EQ(Savings(0), 0);
  ASSERT_TRUE(Call(kTransactSavingsProcedure, {C(0), Cents(2020)}).committed());
  EXPECT_EQ(Savings(0), 2020);
}

TEST_F(SmallbankTest, WriteCheckChargesThePenaltyWhenBothBalancesFallShort) {
  // Customer 0: savings 1000 + checking 100 = 1100.
  TransactionResult r = Call(kWriteCheckProcedure, {C(0), Cents(1100)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].rows[0][0].int_value(), 1100) << "covered: no penalty";
  EXPECT_EQ(Checking(0), -1000);
  r = Call(kWriteCheckProcedure, {C(0), Cents(1)});  // now 1000 − 1000 = 0 < 1
  ASSERT_TRUE(r.committed());
  EXPECT_EQ(r.results[0].rows[0][0].int_value(), 1 + kOverdraftPenaltyCents);
  EXPECT_EQ(Checking(0), -1000 - 1 - kOverdraftPenaltyCents);
  EXPECT_EQ(Savings(0), 1000) << "a check never touches savings";
}

TEST_F(SmallbankTest, BadArgumentsAreErrorsNotAborts) {
  TransactionResult r = Call(kSendPaymentProcedure, {C(1)});
  EXPECT_FALSE(r.committed());
  EXPECT_FALSE(r.user_abort);
  EXPECT_TRUE(r.status.Is(sqlstate::kInvalidParameterValue)) << r.status.ToString();
}

// Generated transactions reported to the ledger: Check passes. Money
// created behind the ledger's back (a lost update looks the same the other
// way round), or a negative savings balance, fails it, naming the condition.
TEST(SmallbankCheckTest, FollowsTheLedgerAndFailsWhenBrokenOnPurpose) {
  auto db = OpenDatabase(1);
  SmallbankOptions o;
  o.accounts = 20;
  o.hot_records = 3;
  SmallbankWorkload w(o);
  ASSERT_TRUE(w.Setup(db.get()).ok());
  Random rng(1);
  int user_aborts = 0;
  for (int i = 0; i < 400; ++i) {
    GeneratedTransaction t;
    w.Next(rng, &t);
    TransactionResult r;
    db->Execute(t.request, &r);
    ASSERT_TRUE(r.committed() || r.user_abort) << r.status.ToString();
    user_aborts += r.user_abort;
    w.OnFinished(t, r);
  }
  EXPECT_GT(user_aborts, 0) << "hot customers run dry: some payments and withdrawals are refused";
  std::string report;
  Status s = w.Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  EXPECT_NE(report.find("money"), std::string::npos);

  Exec(db.get(), "UPDATE checking SET bal = bal + 1 WHERE custid = 0");
  report.clear();
  s = w.Check(db.get(), &report);
  EXPECT_TRUE(s.Is(sqlstate::kInternalError));
  EXPECT_NE(s.message().find("smallbank money"), std::string::npos) << s.message();
  EXPECT_NE(report.find("VIOLATED"), std::string::npos) << report;

  Exec(db.get(), "UPDATE checking SET bal = bal - 1 WHERE custid = 0");
  Exec(db.get(), "UPDATE savings SET bal = -5 WHERE custid = 1");
  s = w.Check(db.get(), &report);
  EXPECT_NE(s.message().find("negative savings"), std::string::npos) << s.message();
}

TEST(SmallbankOptionsTest, ValidateNamesTheFlagAndTheRange) {
  SmallbankOptions o;
  EXPECT_TRUE(o.Validate().ok());
  o.accounts = 1;
  EXPECT_NE(o.Validate().message().find("--smallbank-accounts must be between 2 and"), std::string::npos);
  o.accounts = 10;
  o.hot_records = 11;
  EXPECT_NE(o.Validate().message().find("--hot-records must be between 0 and 10"), std::string::npos);
  o.hot_records = 10;
  o.hot_fraction = -0.1;
  EXPECT_NE(o.Validate().message().find("--hot-fraction must be in [0, 1]"), std::string::npos);
  o.hot_fraction = 1;
  o.hot_shift = std::chrono::seconds(-1);
  EXPECT_NE(o.Validate().message().find("--hot-shift-s"), std::string::npos);
}

TEST(SmallbankLoadTest, LoadsEveryCustomerWithBalancesInRange) {
  auto db = OpenDatabase(1);
  SmallbankOptions o;
  o.accounts = 25000;  // more than one load chunk
  SmallbankWorkload w(o);
  ASSERT_TRUE(w.Setup(db.get()).ok());
  EXPECT_EQ(w.loaded_rows(), 75000u);
  EXPECT_EQ(Int(db.get(), "SELECT count(*) FROM checking WHERE bal < 1000000 OR bal > 5000000"), 0);
  EXPECT_EQ(Int(db.get(), "SELECT count(*) FROM accounts"), 25000);
  std::string report;
  EXPECT_TRUE(w.Check(db.get(), &report).ok()) << report;
}

// --- Concurrent runs -------------------------------------------------------

// 4 hot customers take 90% of the choices among 100, 4 workers and 4 client
// threads submit 300 transactions each at once, with a small statement
// latency so that transactions overlap on 2 cores: transfers into and out of
// the same checking accounts conflict. The anomalies this excludes: a lost
// update (two SendPayments from one account both applied on the same old
// balance), a double debit (an aborted attempt's writes left behind), and a
// withdrawal that drives savings negative (two TransactSavings both passing
// the funds check on the same balance) — each breaks Check.
class SmallbankConcurrentTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SmallbankConcurrentTest, CheckPassesAfterAContendedRun) {
  constexpr int kClients = 4;
  constexpr int kPerClient = 300;
  const auto& [cc, scheduler] = GetParam();
  auto db = OpenDatabase(4, cc, scheduler);
  ASSERT_NE(db, nullptr);
  SmallbankOptions o;
  o.accounts = 100;
  o.hot_records = 4;
  o.statement_latency = std::chrono::microseconds(10);
  SmallbankWorkload workload(o);
  ASSERT_TRUE(workload.Setup(db.get()).ok());
  db->ResetStats();
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
          if (!result.committed() && !result.user_abort) {
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
  const engine::ExecutionStats stats = db->Stats();
  EXPECT_GT(stats.commits, static_cast<uint64_t>(kClients * kPerClient / 2));
  std::string report;
  Status s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  RecordProperty("aborts", std::to_string(stats.aborts()));
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndBaseline, SmallbankConcurrentTest,
                         ::testing::Combine(::testing::ValuesIn(Database::ConcurrencyControlNames()),
                                            ::testing::Values("random", "partition", "count-max-canonical", "adaptive")),
                         engine::test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::workloads::smallbank
