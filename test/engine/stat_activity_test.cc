// pg_stat_activity, pg_locks and pg_stat_user_tables through sessions of one
// database: each session's row names what it runs and its state; advisory
// locks are listed by holder and waiter pid; tables count committed
// changes (not rolled-back ones).
//
//   interleaving                                           shown to session C
//   A: BEGIN; SELECT k FROM t WHERE k = 1                  A idle in transaction, query the SELECT
//   A: SELECT pg_advisory_lock(7)  | B: pg_advisory_lock(7) A's lock granted, B's not (waits)
//   A: SELECT pg_advisory_unlock(7) → B takes it           B's granted
//   B: BEGIN (older); A: BEGIN; A: UPDATE k = 1; A: SELECT k = 2
//                                                          A's row locks (2PL): X on k = 1, S on k = 2
//   B: UPDATE k = 1 (waits: wait-die and wound-wait)       B's X request on k = 1, not granted
//   A: ROLLBACK → B takes it, commits                      no row locks
//   B: BEGIN (older); A: BEGIN; A: SELECT k BETWEEN 2 AND 4; SELECT k >= 3
//                                                          A's ranges of t_pkey: one S entry
//   B: INSERT k = 3 (waits: wait-die and wound-wait)       B's X request on t_pkey, not granted
//   A: ROLLBACK → B inserts, commits                       no range locks
//   A: BEGIN; SELECT v BETWEEN 1 AND 3 (t_v); DROP INDEX t_v  no range lock naming t_v
// now() of a transaction is its xact_start as shown. Excluded: a session
// shown in a state it left, a waiter shown as holding,
// a rolled-back insert counted, a row or range lock shown after its
// release (or under OCC, which takes none before commit).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "engine/database.h"
#include "engine/session.h"
#include "test/cc/every_cc_and_scheduler.h"

namespace paceline::engine {
namespace {

class StatActivityTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override {
    Options options;
    options.cc = std::get<0>(GetParam());
    options.scheduler = std::get<1>(GetParam());
    options.workers = 1;
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
    c_ = db_->CreateSession();
    a_->SetBackendPid(101);
    b_->SetBackendPid(102);
    c_->SetBackendPid(103);
    a_->SetIdentity("alice", "paceline");
    Ok(c_.get(), "CREATE TABLE t (k INT PRIMARY KEY, v INT)");
  }
  static void Ok(Session* s, const std::string& sql, QueryResult* r = nullptr) {
    QueryResult local;
    Status st = s->Execute(sql, r ? r : &local);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
  }
  // Rows of `sql` run by session C, each row's columns as text.
  std::vector<std::vector<std::string>> Rows(const std::string& sql) {
    QueryResult r;
    Ok(c_.get(), sql, &r);
    std::vector<std::vector<std::string>> out;
    for (const auto& row : r.rows) {
      out.emplace_back();
      for (const auto& v : row) out.back().push_back(v.is_null() ? "NULL" : v.ToString());
    }
    return out;
  }
  bool AwaitAdvisoryWaiters(size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (db_->AdvisoryLockWaiters() < n && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    return db_->AdvisoryLockWaiters() >= n;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_, c_;
};

TEST_P(StatActivityTest, EachSessionShowsItsStateAndStatement) {
  Ok(a_.get(), "BEGIN");
  Ok(a_.get(), "SELECT k FROM t WHERE k = 1");
  auto rows = Rows("SELECT pid, usename, state, query, xact_start IS NOT NULL, backend_type FROM pg_stat_activity "
                   "ORDER BY pid");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"101", "alice", "idle in transaction", "SELECT k FROM t WHERE k = 1",
                                               "t", "client backend"}));
  EXPECT_EQ(rows[1][2], "idle");
  EXPECT_EQ(rows[1][4], "f") << "an idle session has no transaction";
  EXPECT_EQ(rows[2][2], "active") << "the session reading it runs";
  EXPECT_EQ(rows[2][3].rfind("SELECT pid, usename", 0), 0u);

  // A failed block, then its end.
  QueryResult r;
  EXPECT_FALSE(a_->Execute("SELECT 1 / 0", &r).ok());
  EXPECT_EQ(Rows("SELECT state FROM pg_stat_activity WHERE pid = 101")[0][0], "idle in transaction (aborted)");
  Ok(a_.get(), "ROLLBACK");
  EXPECT_EQ(Rows("SELECT state, query FROM pg_stat_activity WHERE pid = 101")[0],
            (std::vector<std::string>{"idle", "ROLLBACK"}));

  // A session that is gone is not shown.
  b_.reset();
  EXPECT_EQ(Rows("SELECT count(*) FROM pg_stat_activity")[0][0], "2");
}

// As PostgreSQL's: now() is the start of the request that began the
// transaction, the instant pg_stat_activity shows as xact_start (and, for a
// statement that begins its own transaction, as its query_start). Excluded:
// a transaction that reads one start time and shows another.
TEST_P(StatActivityTest, NowIsTheTransactionsStartAsShown) {
  EXPECT_EQ(Rows("SELECT now() = xact_start, now() = query_start FROM pg_stat_activity WHERE pid = 103")[0],
            (std::vector<std::string>{"t", "t"}));
  Ok(c_.get(), "BEGIN");
  Ok(c_.get(), "SELECT pg_sleep(0.002)");  // a later request: its query_start is later
  EXPECT_EQ(Rows("SELECT now() = xact_start, now() < query_start FROM pg_stat_activity WHERE pid = 103")[0],
            (std::vector<std::string>{"t", "t"}));
  Ok(c_.get(), "COMMIT");
}

TEST_P(StatActivityTest, LocksShowHoldersAndWaitersOfAdvisoryLocks) {
  Ok(a_.get(), "SELECT pg_advisory_lock(7)");
  std::thread waiter([&] { Ok(b_.get(), "SELECT pg_advisory_lock(7)"); });
  ASSERT_TRUE(AwaitAdvisoryWaiters(1));
  const std::string query =
      "SELECT locktype, classid, objid, objsubid, pid, mode, granted FROM pg_locks ORDER BY granted DESC, pid";
  auto rows = Rows(query);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"advisory", "0", "7", "1", "101", "ExclusiveLock", "t"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"advisory", "0", "7", "1", "102", "ExclusiveLock", "f"}));
  Ok(a_.get(), "SELECT pg_advisory_unlock(7)");
  waiter.join();
  rows = Rows(query);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][4], "102");
  EXPECT_EQ(rows[0][6], "t");
  Ok(b_.get(), "SELECT pg_advisory_unlock_all()");
  EXPECT_TRUE(Rows(query).empty());
}

TEST_P(StatActivityTest, LocksShowRowLocksOfTwoPhaseLocking) {
  const std::string cc = std::get<0>(GetParam());
  Ok(c_.get(), "INSERT INTO t VALUES (1, 0), (2, 0)");
  Ok(b_.get(), "BEGIN");
  Ok(a_.get(), "BEGIN");
  Ok(a_.get(), "UPDATE t SET v = 1 WHERE k = 1");
  Ok(a_.get(), "SELECT v FROM t WHERE k = 2");
  const std::string query =
      "SELECT relation = 't'::regclass, page, tuple IS NOT NULL, classid IS NULL, pid, mode, granted "
      "FROM pg_locks WHERE locktype = 'tuple' ORDER BY granted DESC, mode, pid";
  if (cc == "occ") {
    EXPECT_TRUE(Rows(query).empty()) << "OCC takes no row lock before its commit";
    Ok(a_.get(), "ROLLBACK");
    Ok(b_.get(), "ROLLBACK");
    return;
  }
  auto rows = Rows(query);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"t", "0", "t", "t", "101", "ExclusiveLock", "t"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"t", "0", "t", "t", "101", "ShareLock", "t"}));
  if (cc != "2pl") {  // the waiting variants: the older B waits for A's lock (NO_WAIT would abort it)
    std::thread waiter([&] { Ok(b_.get(), "UPDATE t SET v = 2 WHERE k = 1"); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (db_->concurrency_control().Waiting() < 1 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    rows = Rows(query);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2], (std::vector<std::string>{"t", "0", "t", "t", "102", "ExclusiveLock", "f"}));
    Ok(a_.get(), "ROLLBACK");
    waiter.join();
    rows = Rows(query);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0][4], "102");
    EXPECT_EQ(rows[0][6], "t");
    Ok(b_.get(), "COMMIT");
  } else {
    Ok(a_.get(), "ROLLBACK");
    Ok(b_.get(), "ROLLBACK");
  }
  EXPECT_TRUE(Rows(query).empty());
}

TEST_P(StatActivityTest, LocksShowKeyRangeLocksOfTwoPhaseLocking) {
  const std::string cc = std::get<0>(GetParam());
  Ok(c_.get(), "INSERT INTO t VALUES (1, 0), (5, 0)");
  Ok(b_.get(), "BEGIN");
  Ok(a_.get(), "BEGIN");
  Ok(a_.get(), "SELECT v FROM t WHERE k BETWEEN 2 AND 4");  // an empty range of t_pkey
  Ok(a_.get(), "SELECT v FROM t WHERE k >= 3");             // a second range there: still one entry
  const std::string query =
      "SELECT relation = 't_pkey'::regclass, page IS NULL, tuple IS NULL, classid IS NULL, pid, mode, granted "
      "FROM pg_locks WHERE locktype = 'range' ORDER BY granted DESC, pid";
  if (cc == "occ") {
    EXPECT_TRUE(Rows(query).empty()) << "OCC takes no range lock";
    Ok(a_.get(), "ROLLBACK");
    Ok(b_.get(), "ROLLBACK");
    return;
  }
  auto rows = Rows(query);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"t", "t", "t", "t", "101", "ShareLock", "t"}));
  if (cc != "2pl") {  // the waiting variants: the older B's insert into A's range waits (NO_WAIT would abort it)
    std::thread waiter([&] { Ok(b_.get(), "INSERT INTO t VALUES (3, 0)"); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (db_->concurrency_control().Waiting() < 1 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    rows = Rows(query);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1], (std::vector<std::string>{"t", "t", "t", "t", "102", "ExclusiveLock", "f"}));
    Ok(a_.get(), "ROLLBACK");
    waiter.join();
    EXPECT_TRUE(Rows(query).empty()) << "an insert that went on holds no range";
    Ok(b_.get(), "COMMIT");
  } else {
    Ok(a_.get(), "ROLLBACK");
    Ok(b_.get(), "ROLLBACK");
  }
  EXPECT_TRUE(Rows(query).empty());
}

// A range lock on an index the block then drops is not shown (as a row
// lock on a dropped table is not): it names no relation any more.
TEST_P(StatActivityTest, LocksLeaveOutRangesOfADroppedIndex) {
  if (std::get<0>(GetParam()) == "occ") GTEST_SKIP() << "OCC takes no range lock";
  Ok(c_.get(), "CREATE INDEX t_v ON t (v)");
  Ok(a_.get(), "BEGIN");
  Ok(a_.get(), "SELECT k FROM t WHERE v BETWEEN 1 AND 3");
  const std::string query = "SELECT relation::regclass, pid FROM pg_locks WHERE locktype = 'range'";
  EXPECT_EQ(Rows(query), (std::vector<std::vector<std::string>>{{"t_v", "101"}}));
  Ok(a_.get(), "DROP INDEX t_v");
  EXPECT_TRUE(Rows(query).empty());
  Ok(a_.get(), "COMMIT");
}

TEST_P(StatActivityTest, TablesCountCommittedChangesOnly) {
  Ok(a_.get(), "INSERT INTO t VALUES (1, 0), (2, 0), (3, 0)");
  Ok(a_.get(), "UPDATE t SET v = 1 WHERE k < 3");
  Ok(a_.get(), "DELETE FROM t WHERE k = 3");
  Ok(a_.get(), "BEGIN");
  Ok(a_.get(), "INSERT INTO t VALUES (9, 9)");
  Ok(a_.get(), "ROLLBACK");
  auto rows = Rows("SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, n_live_tup, relid = 't'::regclass "
                   "FROM pg_stat_user_tables");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"t", "3", "2", "1", "2", "t"}));
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, StatActivityTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
