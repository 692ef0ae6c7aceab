// Cancellation (PostgreSQL's CancelRequest → 57014), written as explicit
// schedules and run for every CC by name. A step expected to block runs on
// a helper thread; the test waits on an observable condition (a lock waiter
// counted by the CC, a statement polling its cancel token), never on a
// sleep. Ages: a block's timestamp is taken at BEGIN (first BEGIN = older);
// wait-die lets only an older requester wait, wound-wait only a younger one.
//
// | schedule                          | interleaving                                        | excluded anomaly                          |
// |-----------------------------------|-----------------------------------------------------|-------------------------------------------|
// | LockWaitCanceled (waiting 2PL)    | A: BEGIN; UPDATE x1   B: BEGIN; UPDATE x1 (waits)    | a cancel that leaves B asleep until       |
// |                                   | C (third thread): B.Cancel() → B: 57014 at once     | lock_timeout; a cancel that hurts A, or   |
// |                                   | B: 25P02 until ROLLBACK; A: UPDATE x2; COMMIT       | leaves B's lock request queued (A's and   |
// |                                   | B: UPDATE x1 (autocommit) succeeds                  | B's later writes would then block)        |
// | LongJoinCanceledWhileRunning      | B: SELECT count(*) over a 2000×2000 nested loop;    | a running scan/join that ignores cancel;  |
// |                                   | C: B.Cancel() once B polls → 57014; B usable after  | a canceled statement that half-applies    |
// | CancelWithNothingRunningIsIgnored | C: B.Cancel() while B is idle; B: a 4000-row scan,  | a stale cancel killing the next statement |
// |                                   | a block and a script all succeed; but a cancel      | (PostgreSQL: cancel affects only what     |
// |                                   | inside B's owner's RequestScope stops the next call | runs); a cancel lost between two calls    |
// | QueuedSubmitCanceled (wound-wait) | A: BEGIN; UPDATE x1; T1 (submitted) waits for x1 on | a canceled queued transaction that still  |
// |                                   | the only worker; T2 (submitted) queued behind it;   | runs; a cancel counted as a conflict      |
// |                                   | cancel T2, then T1 → both 57014, neither writes;    | (retried, an abort in History)            |
// |                                   | A commits                                           |                                           |
// | SleepCanceled                     | B: SELECT pg_sleep(60) (autocommit); C: B.Cancel()  | a sleep deaf to cancel (B would hang a    |
// |                                   | once B polls → 57014 at once; again inside a block  | minute); a sleep that polls in a loop     |
// |                                   | (pg_sleep_for): the block fails; B usable after     | instead of waking on the token            |
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "test/engine/session_sql.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;

using std::chrono::steady_clock;

bool Waits(const std::string& cc) { return cc == "2pl-wait-die" || cc == "2pl-wound-wait"; }

class CancelTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    Options options;
    options.cc = GetParam();
    options.workers = 1;  // one run queue: a blocked transaction keeps the next queued
    options.scheduler = "count-max-literal";  // learns History: a cancel must not count
    options.max_retries = 3;
    options.lock_timeout = std::chrono::milliseconds(60000);  // "promptly" is far below this
    Status s = Database::Open(options, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
    Ok(a_, "CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)");
    Ok(a_, "INSERT INTO x VALUES (1, 10), (2, 20)");
  }

  std::string cc() const { return GetParam(); }

  static void ExpectCanceled(const Status& st) {
    EXPECT_TRUE(st.Is(sqlstate::kQueryCanceled)) << "expected 57014, got " << st.ToString();
    EXPECT_EQ(st.message(), "canceling statement due to user request");
  }
  int64_t V(int id) { return test_sql::ValueOfX(db_.get(), id); }
  // Waits (bounded) until `done` or the future is ready.
  template <typename Pred, typename T>
  static bool WaitFor(Pred done, std::future<T>& f) {
    const auto deadline = steady_clock::now() + std::chrono::seconds(30);
    while (!done() && steady_clock::now() < deadline && f.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      std::this_thread::yield();
    }
    return done();
  }
  // Two tables of 2000 rows without an index on k: a join on k is a nested
  // loop over 4 million pairs.
  void LoadJoinTables() {
    Ok(a_, "CREATE TABLE l (id INT PRIMARY KEY, k INT NOT NULL)");
    Ok(a_, "CREATE TABLE r (id INT PRIMARY KEY, k INT NOT NULL)");
    std::vector<std::vector<Value>> rows;
    for (int i = 0; i < 2000; ++i) rows.push_back({Value::Int32(i), Value::Int32(i % 97)});
    Status s = db_->BulkLoad("l", rows);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s = db_->BulkLoad("r", rows);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_P(CancelTest, LockWaitCanceled) {
  if (!Waits(cc())) GTEST_SKIP() << cc() << " never waits for a lock";
  if (cc() == "2pl-wait-die") {
    Ok(b_, "BEGIN");  // B older: it may wait for A
    Ok(a_, "BEGIN");
  } else {
    Ok(a_, "BEGIN");  // B younger: it may wait for A
    Ok(b_, "BEGIN");
  }
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  Session* b = b_.get();
  auto update = std::async(std::launch::async, [b] {
    QueryResult r;
    return b->Execute("UPDATE x SET v = 12 WHERE id = 1", &r);
  });
  ASSERT_TRUE(WaitFor([&] { return db_->concurrency_control().Waiting() == 1; }, update))
      << "B's UPDATE was expected to wait for A's lock";
  const auto start = steady_clock::now();
  std::thread([b] { b->Cancel(); }).join();  // a third thread, like a CancelRequest
  ExpectCanceled(update.get());
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(10)) << "the cancel did not wake the waiter";
  EXPECT_EQ(db_->concurrency_control().Waiting(), 0u);
  EXPECT_EQ(b_->state(), TransactionState::kFailed);
  EXPECT_TRUE(RunSql(b_, "SELECT v FROM x WHERE id = 2").Is(sqlstate::kInFailedSqlTransaction));
  Ok(b_, "ROLLBACK");
  // A is unaffected: it goes on and commits.
  Ok(a_, "UPDATE x SET v = 21 WHERE id = 2");
  Ok(a_, "COMMIT");
  EXPECT_EQ(V(1), 11);
  EXPECT_EQ(V(2), 21);
  // B is usable, and its queued request is gone (nothing waits on x1).
  Ok(b_, "UPDATE x SET v = 13 WHERE id = 1");
  EXPECT_EQ(V(1), 13);
}

TEST_P(CancelTest, LongJoinCanceledWhileRunning) {
  LoadJoinTables();
  const uint64_t checks = b_->cancel_token()->checks();
  Session* b = b_.get();
  auto join = std::async(std::launch::async, [b] {
    QueryResult r;
    return b->Execute("SELECT count(*) FROM l, r WHERE l.k + r.k = -1", &r);
  });
  // Running once it polls its token (it polls every kCancelCheckRows rows).
  ASSERT_TRUE(WaitFor([&] { return b_->cancel_token()->checks() > checks; }, join))
      << "the join finished before it polled its cancel token";
  b_->Cancel();
  ExpectCanceled(join.get());
  EXPECT_EQ(b_->state(), TransactionState::kIdle);  // an autocommit statement: rolled back
  // Canceled inside a block: the block fails, nothing of it is kept.
  Ok(b_, "BEGIN");
  Ok(b_, "UPDATE x SET v = 99 WHERE id = 1");
  const uint64_t again = b_->cancel_token()->checks();
  auto in_block = std::async(std::launch::async, [b] {
    QueryResult r;
    return b->Execute("SELECT count(*) FROM l, r WHERE l.k - r.k = 1000", &r);
  });
  ASSERT_TRUE(WaitFor([&] { return b_->cancel_token()->checks() > again; }, in_block));
  b_->Cancel();
  ExpectCanceled(in_block.get());
  EXPECT_EQ(b_->state(), TransactionState::kFailed);
  EXPECT_TRUE(RunSql(b_, "SELECT 1").Is(sqlstate::kInFailedSqlTransaction));
  Ok(b_, "ROLLBACK");
  EXPECT_EQ(V(1), 10);  // the block's UPDATE was rolled back
  QueryResult r;  // and B is usable
  ASSERT_TRUE(RunSql(b_, "SELECT count(*) FROM l WHERE k = 0", &r).ok());
  EXPECT_EQ(r.rows[0][0].int_value(), 21);  // ids 0, 97, ..., 1940
}

TEST_P(CancelTest, CancelWithNothingRunningIsIgnored) {
  LoadJoinTables();
  b_->Cancel();  // nothing runs: dropped
  const uint64_t checks = b_->cancel_token()->checks();
  QueryResult r;
  Status st = RunSql(b_, "SELECT count(*) FROM l, r WHERE l.id = r.id", &r);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(r.rows[0][0].int_value(), 2000);
  EXPECT_GT(b_->cancel_token()->checks(), checks);  // it did poll, and went on
  Ok(b_, "BEGIN");
  b_->Cancel();  // idle inside a block: dropped too
  Ok(b_, "UPDATE x SET v = 12 WHERE id = 1");
  Ok(b_, "COMMIT");
  EXPECT_EQ(V(1), 12);
  std::vector<QueryResult> results;
  b_->Cancel();
  st = b_->ExecuteScript("UPDATE x SET v = 13 WHERE id = 1; UPDATE x SET v = 23 WHERE id = 2", &results);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(V(1), 13);
  EXPECT_EQ(V(2), 23);
  // Inside an owner's request scope (one client message served by several
  // calls), a cancel that came before a call is not dropped by it.
  {
    Session::RequestScope request(b_.get());
    b_->Cancel();
    ExpectCanceled(RunSql(b_, "UPDATE x SET v = 14 WHERE id = 1"));
  }
  EXPECT_EQ(V(1), 13);
  Ok(b_, "UPDATE x SET v = 14 WHERE id = 1");  // a new request: cleared
  EXPECT_EQ(V(1), 14);
}

TEST_P(CancelTest, QueuedSubmitCanceled) {
  if (cc() != "2pl-wound-wait") GTEST_SKIP() << "needs a younger submitted transaction that waits for a lock";
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  CancelToken cancel1, cancel2;
  TransactionRequest t1 = TransactionRequest::Statements({{"UPDATE x SET v = v + 100 WHERE id = 1", {}}});
  t1.cancel = &cancel1;
  TransactionRequest t2 = TransactionRequest::Statements({{"UPDATE x SET v = 999 WHERE id = 2", {}}});
  t2.cancel = &cancel2;
  auto f1 = db_->Submit(std::move(t1));
  ASSERT_TRUE(WaitFor([&] { return db_->concurrency_control().Waiting() == 1; }, f1))
      << "T1 was expected to wait for A's lock on the only worker";
  auto f2 = db_->Submit(std::move(t2));  // queued behind T1
  cancel2.Cancel();
  std::thread([&] { cancel1.Cancel(); }).join();
  const auto start = steady_clock::now();
  TransactionResult r1 = f1.get();
  ExpectCanceled(r1.status);
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(10));
  TransactionResult r2 = f2.get();
  ExpectCanceled(r2.status);
  EXPECT_TRUE(r2.results.empty()) << "T2 ran";
  EXPECT_EQ(cancel2.checks(), 1u) << "T2 was to be refused when taken up, before any statement";
  EXPECT_EQ(r1.conflicts + r2.conflicts, 0u);
  Ok(a_, "COMMIT");
  EXPECT_EQ(V(1), 11);
  EXPECT_EQ(V(2), 20);
  // Not conflicts: no aborts, no retries; counted as errors.
  ExecutionStats stats = db_->Stats();
  EXPECT_EQ(stats.aborts(), 0u);
  EXPECT_EQ(stats.retries, 0u);
  EXPECT_EQ(stats.errors, 2u);
  for (const auto& ref : db_->TopReferences(100)) EXPECT_EQ(ref.aborts, 0u) << ref.name;
}

TEST_P(CancelTest, SleepCanceled) {
  Session* b = b_.get();
  // Unhindered, a sleep lasts its time and returns one empty (void) value.
  QueryResult r;
  auto start = steady_clock::now();
  ASSERT_TRUE(RunSql(b_, "SELECT pg_sleep(0.05)", &r).ok());
  EXPECT_GE(steady_clock::now() - start, std::chrono::milliseconds(50));
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_FALSE(r.rows[0][0].is_null());
  EXPECT_EQ(r.rows[0][0].ToString(), "");
  // A minute's sleep ends at once when canceled: the sleeper polls its
  // token once before it waits, so checks() moving means it is past the
  // request's Reset, and the cancel either finds the flag test to come or
  // wakes the wait.
  const uint64_t checks = b_->cancel_token()->checks();
  auto sleep = std::async(std::launch::async, [b] {
    QueryResult out;
    return b->Execute("SELECT pg_sleep(60)", &out);
  });
  ASSERT_TRUE(WaitFor([&] { return b_->cancel_token()->checks() > checks; }, sleep));
  start = steady_clock::now();
  std::thread([b] { b->Cancel(); }).join();
  ExpectCanceled(sleep.get());
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(10)) << "the cancel did not wake the sleeper";
  EXPECT_EQ(b_->state(), TransactionState::kIdle);
  // Inside a block, pg_sleep_for(interval): the block fails and keeps nothing.
  Ok(b_, "BEGIN");
  Ok(b_, "UPDATE x SET v = 99 WHERE id = 1");
  const uint64_t again = b_->cancel_token()->checks();
  auto in_block = std::async(std::launch::async, [b] {
    QueryResult out;
    return b->Execute("SELECT pg_sleep_for('1 minute')", &out);
  });
  ASSERT_TRUE(WaitFor([&] { return b_->cancel_token()->checks() > again; }, in_block));
  b_->Cancel();
  ExpectCanceled(in_block.get());
  EXPECT_EQ(b_->state(), TransactionState::kFailed);
  Ok(b_, "ROLLBACK");
  EXPECT_EQ(V(1), 10);
  Ok(b_, "SELECT pg_sleep(0)");  // B is usable
}

INSTANTIATE_TEST_SUITE_P(EveryCc, CancelTest, ::testing::Values("occ", "2pl", "2pl-wait-die", "2pl-wound-wait"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace paceline::engine
