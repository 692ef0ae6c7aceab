// DDL next to open transaction blocks, through sessions, for every
// concurrency control × every scheduler: DDL waits only for the blocks that
// use the tables it changes (table_gates.h), never stalls statements on
// other tables, and two blocks whose DDL would wait for each other are not
// left to the lock timeout. A step expected to wait runs on another
// thread; the test waits on the condition "a schema change is pending" or
// "a session waits at a table's gate", never on a sleep. The lock timeout
// is 20 s: a step that waited for what it must not wait for would fail
// with 55P03 instead of succeeding.
//
//   1 idle block on x; CREATE/DROP TABLE, CREATE INDEX, ALTER on others: run at once
//   2 idle block on items; CREATE INDEX ON items waits; meanwhile work on x
//     (autocommit and a block) runs; the block's COMMIT lets the index in
//   3 a block arriving at items while that DDL waits: waits behind it, then
//     runs against the new schema (the new unique key refuses its insert)
//   4 blocks T1 (on x) and T2 (on items): T1's DDL on items waits for T2;
//     T2's DDL on x would wait for T1: 40P01 at once; T2 rolls back, T1's runs
//   5 a session waiting behind DDL is canceled: 57014, its block fails
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <tuple>

#include "engine/database.h"
#include "test/cc/every_cc_and_scheduler.h"
#include "test/engine/session_sql.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;

class SchemaChangeTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override {
    Options options;
    options.cc = std::get<0>(GetParam());
    options.scheduler = std::get<1>(GetParam());
    options.workers = 2;
    options.lock_timeout = std::chrono::milliseconds(20000);
    Status s = Database::Open(options, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s1_ = db_->CreateSession();
    s2_ = db_->CreateSession();
    s3_ = db_->CreateSession();
    Ok(s1_, "CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)");
    Ok(s1_, "INSERT INTO x VALUES (1, 10), (2, 20)");
    Ok(s1_, "CREATE TABLE items (id INT PRIMARY KEY, k INT NOT NULL)");
    Ok(s1_, "INSERT INTO items VALUES (1, 100)");
  }

  // Runs `sql` on `s` on another thread.
  static std::future<Status> Async(const std::unique_ptr<Session>& s, const std::string& sql) {
    Session* session = s.get();
    return std::async(std::launch::async, [session, sql] {
      QueryResult result;
      return session->Execute(sql, &result);
    });
  }
  template <typename Done>
  static bool Eventually(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    return done();
  }
  int64_t Count(const std::string& table) {
    auto s = db_->CreateSession();
    QueryResult r;
    Status st = RunSql(s, "SELECT count(*) FROM " + table, &r);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return st.ok() ? r.rows[0][0].int_value() : -1;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> s1_, s2_, s3_;
};

// 1: before, every DDL waited out the idle block (55P03 after the timeout).
TEST_P(SchemaChangeTest, DdlOnOtherTablesDoesNotWaitForAnIdleBlock) {
  Ok(s1_, "BEGIN");
  Ok(s1_, "UPDATE x SET v = v + 1 WHERE id = 1");
  Ok(s2_, "CREATE TABLE fresh (k INT PRIMARY KEY)");
  Ok(s2_, "INSERT INTO fresh VALUES (1)");
  Ok(s2_, "CREATE INDEX items_k ON items (k)");
  Ok(s2_, "ALTER TABLE items ADD CONSTRAINT items_k_key UNIQUE (k)");
  Ok(s2_, "DROP TABLE fresh");
  Ok(s2_, "BEGIN");
  Ok(s2_, "CREATE TABLE other (k INT)");  // DDL inside a block, too
  Ok(s2_, "COMMIT");
  Ok(s1_, "UPDATE x SET v = v + 1 WHERE id = 1");
  Ok(s1_, "COMMIT");
  QueryResult r;
  ASSERT_TRUE(RunSql(s3_, "SELECT v FROM x WHERE id = 1", &r).ok());
  EXPECT_EQ(r.rows[0][0].int_value(), 12);
  EXPECT_EQ(Count("other"), 0);
}

// 2: the DDL waits for the block that uses its table, and only for it.
TEST_P(SchemaChangeTest, DdlWaitsForTheBlockUsingItsTableWhileOtherWorkRuns) {
  Ok(s1_, "BEGIN");
  Ok(s1_, "SELECT k FROM items WHERE id = 1");
  auto index = Async(s2_, "CREATE UNIQUE INDEX items_k ON items (k)");
  ASSERT_TRUE(Eventually([&] { return db_->schema_change_pending(); }));
  Ok(s3_, "UPDATE x SET v = v + 1 WHERE id = 2");
  Ok(s3_, "BEGIN");
  Ok(s3_, "INSERT INTO x VALUES (3, 30)");
  Ok(s3_, "COMMIT");
  EXPECT_EQ(Count("x"), 3);
  EXPECT_TRUE(db_->schema_change_pending());  // still waiting for s1
  Ok(s1_, "INSERT INTO items VALUES (2, 200)");
  Ok(s1_, "COMMIT");
  Status st = index.get();
  EXPECT_TRUE(st.ok()) << st.ToString();
  // The index exists and saw the block's committed row.
  Status dup = RunSql(s3_, "INSERT INTO items VALUES (3, 200)");
  EXPECT_TRUE(dup.Is(sqlstate::kUniqueViolation)) << dup.ToString();
}

// 3: a block that comes to the table while the DDL waits queues behind it
// (the DDL is not starved) and then runs against the new schema.
TEST_P(SchemaChangeTest, BlockArrivingAtAClaimedTableRunsAfterTheChange) {
  Ok(s1_, "BEGIN");
  Ok(s1_, "SELECT k FROM items WHERE id = 1");
  auto alter = Async(s2_, "ALTER TABLE items ADD CONSTRAINT items_k_key UNIQUE (k)");
  ASSERT_TRUE(Eventually([&] { return db_->schema_change_pending(); }));
  Ok(s3_, "BEGIN");
  Ok(s3_, "SELECT v FROM x WHERE id = 1");
  auto insert = Async(s3_, "INSERT INTO items VALUES (9, 100)");
  ASSERT_TRUE(Eventually([&] { return db_->table_gate_waits() == 2; }));  // the DDL and s3
  Ok(s1_, "COMMIT");
  Status st = alter.get();
  EXPECT_TRUE(st.ok()) << st.ToString();
  st = insert.get();
  EXPECT_TRUE(st.Is(sqlstate::kUniqueViolation)) << st.ToString();
  Ok(s3_, "ROLLBACK");
  EXPECT_EQ(Count("items"), 1);
}

// 4: before, both waited the full lock timeout while unrelated statements
// stalled.
TEST_P(SchemaChangeTest, TwoBlocksChangingEachOthersTablesDoNotDeadlock) {
  Ok(s1_, "BEGIN");
  Ok(s1_, "SELECT v FROM x WHERE id = 1");
  Ok(s2_, "BEGIN");
  Ok(s2_, "SELECT k FROM items WHERE id = 1");
  auto first = Async(s1_, "CREATE INDEX items_k ON items (k)");
  ASSERT_TRUE(Eventually([&] { return db_->table_gate_waits() == 1; }));
  Status st = RunSql(s2_, "CREATE INDEX x_v ON x (v)");
  EXPECT_TRUE(st.Is(sqlstate::kDeadlockDetected)) << st.ToString();
  EXPECT_EQ(s2_->state(), TransactionState::kFailed);
  Ok(s2_, "ROLLBACK");
  st = first.get();
  EXPECT_TRUE(st.ok()) << st.ToString();
  Ok(s1_, "COMMIT");
  QueryResult r;
  EXPECT_TRUE(RunSql(s3_, "DROP INDEX items_k").ok());
  EXPECT_FALSE(RunSql(s3_, "DROP INDEX x_v").ok());
}

// 5: a wait behind a schema change ends at the session's cancel.
TEST_P(SchemaChangeTest, WaitBehindSchemaChangeIsCanceled) {
  Ok(s1_, "BEGIN");
  Ok(s1_, "SELECT k FROM items WHERE id = 1");
  auto truncate = Async(s2_, "TRUNCATE items");
  ASSERT_TRUE(Eventually([&] { return db_->schema_change_pending(); }));
  Ok(s3_, "BEGIN");
  auto read = Async(s3_, "SELECT count(*) FROM items");
  ASSERT_TRUE(Eventually([&] { return db_->table_gate_waits() == 2; }));
  s3_->Cancel();
  Status st = read.get();
  EXPECT_TRUE(st.Is(sqlstate::kQueryCanceled)) << st.ToString();
  EXPECT_EQ(s3_->state(), TransactionState::kFailed);
  Ok(s3_, "ROLLBACK");
  Ok(s1_, "COMMIT");
  st = truncate.get();
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Count("items"), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, SchemaChangeTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
