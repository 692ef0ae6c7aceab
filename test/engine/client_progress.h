// Test helpers for concurrency tests whose main thread acts while client
// threads run: ClientProgress counts the clients' steps so that the main
// thread waits for "n more steps" (a condition, never a sleep), and
// OpenForClients opens a database for one CC × scheduler parameter with
// the retry and lock-timeout settings such tests share; ClientsTest is the
// fixture made of it (a database and the main thread's session).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "engine/database.h"
#include "test/engine/session_sql.h"

namespace paceline::engine::test_clients {

class ClientProgress {
 public:
  explicit ClientProgress(int clients) : running_(clients) {}

  // A client finished one step (a commit, an attempt).
  void Step() {
    std::lock_guard lock(mu_);
    ++steps_;
    cv_.notify_all();
  }
  // Returns once `more` steps have happened since the call, or no client
  // runs any more.
  void WaitFor(int64_t more) {
    std::unique_lock lock(mu_);
    const int64_t target = steps_ + more;
    cv_.wait(lock, [&] { return steps_ >= target || running_ == 0; });
  }
  void ClientDone() {
    std::lock_guard lock(mu_);
    --running_;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int64_t steps_ = 0;
  int running_;
};

// A database with the CC and scheduler of `param`, 4 workers, many
// retries and a long lock timeout (clients block on each other by design).
inline void OpenForClients(const std::tuple<std::string, std::string>& param, std::unique_ptr<Database>* db) {
  Options options;
  options.cc = std::get<0>(param);
  options.scheduler = std::get<1>(param);
  options.workers = 4;
  options.max_retries = 10000;
  options.lock_timeout = std::chrono::milliseconds(20000);
  Status s = Database::Open(options, db);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

// Whether a client's statement failed with a conflict it may retry.
inline bool Retried(const Status& s) {
  return s.Is(sqlstate::kSerializationFailure) || s.Is(sqlstate::kDeadlockDetected);
}

// A test of one CC × scheduler whose main thread acts through session_.
class ClientsTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override {
    OpenForClients(GetParam(), &db_);
    ASSERT_NE(db_, nullptr);
    session_ = db_->CreateSession();
  }
  // The first column of the first row of `sql` as an integer (-1, and a
  // test failure, when it fails).
  int64_t QueryInt(const std::string& sql) {
    QueryResult r;
    Status s = test_sql::RunSql(session_, sql, &r);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
    return s.ok() && !r.rows.empty() && !r.rows[0][0].is_null() ? r.rows[0][0].int_value() : -1;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

}  // namespace paceline::engine::test_clients
