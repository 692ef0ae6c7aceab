// Advisory locks that wait, for every concurrency control × every
// scheduler, through sessions: what advisory_locks.test cannot show with
// one statement at a time. A step expected to wait runs on another thread;
// the test waits on the condition "a session waits for an advisory lock"
// (Database::AdvisoryLockWaiters), never on a sleep.
//
//   1 B waits for A's lock; A's unlock lets B in (no wait lost)
//   2 a transaction-level lock: B waits until A's block ends
//   3 A holds 1 and waits for 2; B holds 2 and asks for 1: 40P01 at once
//     for B, whose wait would close the cycle; A gets 2 once B lets go
//   4 a wait past lock_timeout: 55P03; a canceled wait: 57014
//   5 a closed session's locks are gone
//   6 mutual exclusion: 4 sessions increment a counter outside the database
//     under pg_advisory_lock; no increment is lost (the anomaly excluded:
//     two holders of one exclusive lock at once)
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

class AdvisoryLockTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override { Open(std::chrono::milliseconds(20000)); }
  void Open(std::chrono::milliseconds lock_timeout) {
    a_.reset();
    b_.reset();
    db_.reset();
    Options options;
    options.cc = std::get<0>(GetParam());
    options.scheduler = std::get<1>(GetParam());
    options.workers = 2;
    options.lock_timeout = lock_timeout;
    Status s = Database::Open(options, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
  }
  void TearDown() override {
    a_.reset();
    b_.reset();
    db_.reset();
  }

  static std::future<Status> Async(const std::unique_ptr<Session>& s, const std::string& sql) {
    Session* session = s.get();
    return std::async(std::launch::async, [session, sql] {
      QueryResult result;
      return session->Execute(sql, &result);
    });
  }
  // Until `n` sessions wait for an advisory lock (20 s at most).
  bool Waiting(size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (db_->AdvisoryLockWaiters() < n && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    return db_->AdvisoryLockWaiters() >= n;
  }
  bool Try(const std::unique_ptr<Session>& s, const std::string& key) {
    QueryResult r;
    Status st = RunSql(s, "SELECT pg_try_advisory_lock(" + key + ")", &r);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return st.ok() && r.rows[0][0].bool_value();
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_P(AdvisoryLockTest, AWaiterGetsTheLockWhenItIsUnlocked) {
  Ok(a_, "SELECT pg_advisory_lock(5)");
  auto waiter = Async(b_, "SELECT pg_advisory_lock(5)");
  ASSERT_TRUE(Waiting(1));
  Ok(a_, "SELECT pg_advisory_unlock(5)");
  ASSERT_TRUE(waiter.get().ok());
  EXPECT_FALSE(Try(a_, "5"));
  Ok(b_, "SELECT pg_advisory_unlock(5)");
  EXPECT_TRUE(Try(a_, "5"));
}

TEST_P(AdvisoryLockTest, ATransactionLevelLockIsHeldUntilTheBlockEnds) {
  Ok(a_, "BEGIN");
  Ok(a_, "SELECT pg_advisory_xact_lock(1, 2)");
  auto waiter = Async(b_, "SELECT pg_advisory_xact_lock_shared(1, 2)");
  ASSERT_TRUE(Waiting(1));
  Ok(a_, "COMMIT");
  ASSERT_TRUE(waiter.get().ok());  // b's own transaction (autocommit) took it and ended
  EXPECT_TRUE(Try(a_, "1, 2"));
}

TEST_P(AdvisoryLockTest, AWaitThatWouldCloseACycleIsRefused) {
  Ok(a_, "SELECT pg_advisory_lock(1)");
  Ok(b_, "SELECT pg_advisory_lock(2)");
  auto a_waits = Async(a_, "SELECT pg_advisory_lock(2)");
  ASSERT_TRUE(Waiting(1));
  QueryResult r;
  Status refused = RunSql(b_, "SELECT pg_advisory_lock(1)", &r);
  EXPECT_TRUE(refused.Is(sqlstate::kDeadlockDetected)) << refused.ToString();
  Ok(b_, "SELECT pg_advisory_unlock(2)");
  ASSERT_TRUE(a_waits.get().ok());
  EXPECT_FALSE(Try(b_, "2"));
}

TEST_P(AdvisoryLockTest, AWaitEndsAtTheLockTimeoutOrACancel) {
  Open(std::chrono::milliseconds(50));
  Ok(a_, "SELECT pg_advisory_lock(3)");
  QueryResult r;
  Status timed_out = RunSql(b_, "SELECT pg_advisory_lock(3)", &r);
  EXPECT_TRUE(timed_out.Is(sqlstate::kLockNotAvailable)) << timed_out.ToString();
  Open(std::chrono::milliseconds(20000));
  Ok(a_, "SELECT pg_advisory_lock_shared(3)");
  auto waiter = Async(b_, "SELECT pg_advisory_lock(3)");
  ASSERT_TRUE(Waiting(1));
  b_->cancel_token()->Cancel();
  Status canceled = waiter.get();
  EXPECT_TRUE(canceled.Is(sqlstate::kQueryCanceled)) << canceled.ToString();
  EXPECT_EQ(db_->AdvisoryLockWaiters(), 0u);
}

TEST_P(AdvisoryLockTest, AClosedSessionsLocksAreGone) {
  Ok(a_, "SELECT pg_advisory_lock(8)");
  Ok(a_, "SELECT pg_advisory_lock_shared(9)");
  auto waiter = Async(b_, "SELECT pg_advisory_lock(8)");
  ASSERT_TRUE(Waiting(1));
  a_.reset();
  ASSERT_TRUE(waiter.get().ok());
  EXPECT_TRUE(Try(b_, "9"));
}

TEST_P(AdvisoryLockTest, OneHolderAtATime) {
  constexpr int kSessions = 4, kRounds = 200;
  int64_t counter = 0;  // outside the database: only the advisory lock protects it
  auto worker = [&] {
    auto s = db_->CreateSession();
    for (int i = 0; i < kRounds; ++i) {
      Status st = RunSql(s, "SELECT pg_advisory_lock(42)");
      if (!st.ok()) {
        ADD_FAILURE() << st.ToString();
        return;
      }
      const int64_t seen = counter;
      std::this_thread::yield();
      counter = seen + 1;
      st = RunSql(s, "SELECT pg_advisory_unlock(42)");
      if (!st.ok()) ADD_FAILURE() << st.ToString();
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < kSessions; ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  EXPECT_EQ(counter, kSessions * kRounds);
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, AdvisoryLockTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
