// LISTEN / NOTIFY through the engine, for every concurrency control ×
// every scheduler: notifications leave with their transaction's commit
// (autocommit NOTIFY, a block, a statement list run by the workers), are
// dropped with a rollback, a failed statement or ROLLBACK TO SAVEPOINT,
// reach every listener between its transactions (not inside its block),
// fold a transaction's duplicates, and keep commit order; LISTEN in a
// block counts from its commit.
//
// The interleaving exercised: eight sessions send from threads while the
// listener takes its inbox between its own transactions; the anomalies
// excluded: a notification lost, delivered twice, delivered from a
// transaction that did not commit, or out of one sender's commit order.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "test/cc/every_cc_and_scheduler.h"
#include "test/engine/client_progress.h"
#include "test/engine/session_sql.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;

class NotificationTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override {
    test_clients::OpenForClients(GetParam(), &db_);
    ASSERT_NE(db_, nullptr);
    listener_ = db_->CreateSession();
    sender_ = db_->CreateSession();
  }

  // The payloads the listener has on `channel`, in order.
  std::vector<std::string> Take(const std::string& channel = "jobs") {
    std::vector<std::string> out;
    for (const Notification& n : listener_->TakeNotifications()) {
      if (n.channel == channel) out.push_back(n.payload);
    }
    return out;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> listener_;
  std::unique_ptr<Session> sender_;
};

using Payloads = std::vector<std::string>;

TEST_P(NotificationTest, CommittedOnlyInOrderFolded) {
  Ok(listener_, "LISTEN jobs");
  Ok(sender_, "NOTIFY jobs, 'a'");
  Ok(sender_, "SELECT pg_notify('jobs', 'b')");
  Ok(sender_, "BEGIN");
  Ok(sender_, "NOTIFY jobs, 'c'");
  Ok(sender_, "NOTIFY jobs, 'c'");
  Ok(sender_, "SELECT pg_notify('jobs', 'd')");
  EXPECT_EQ(Take(), (Payloads{"a", "b"}));  // not before the block commits
  Ok(sender_, "COMMIT");
  EXPECT_EQ(Take(), (Payloads{"c", "d"}));
  // Rolled back, or undone with a failed statement or a savepoint.
  Ok(sender_, "BEGIN");
  Ok(sender_, "NOTIFY jobs, 'rolled back'");
  Ok(sender_, "ROLLBACK");
  Ok(sender_, "CREATE TABLE t (id INT PRIMARY KEY)");
  Ok(sender_, "BEGIN");
  Ok(sender_, "SAVEPOINT s");
  Ok(sender_, "SELECT pg_notify('jobs', 'undone by the savepoint')");
  Ok(sender_, "ROLLBACK TO SAVEPOINT s");
  EXPECT_FALSE(RunSql(sender_, "SELECT pg_notify('jobs', 'failed'), 1 / 0").ok());
  Ok(sender_, "ROLLBACK TO SAVEPOINT s");
  Ok(sender_, "SELECT pg_notify('jobs', 'kept')");
  Ok(sender_, "COMMIT");
  EXPECT_EQ(Take(), Payloads{"kept"});
  EXPECT_EQ(listener_->TakeNotifications().size(), 0u);  // taken once
}

TEST_P(NotificationTest, ListenerInABlockGetsThemAfterIt) {
  Ok(listener_, "BEGIN");
  Ok(listener_, "LISTEN jobs");
  Ok(sender_, "NOTIFY jobs, 'before the listen commits'");
  Ok(listener_, "COMMIT");
  EXPECT_EQ(Take(), Payloads{});
  Ok(listener_, "BEGIN");
  Ok(sender_, "NOTIFY jobs, 'x'");
  EXPECT_EQ(Take(), Payloads{});  // its block is open
  Ok(listener_, "COMMIT");
  EXPECT_EQ(Take(), Payloads{"x"});
  Ok(listener_, "BEGIN");
  Ok(listener_, "UNLISTEN jobs");
  Ok(listener_, "ROLLBACK");  // the UNLISTEN never happened
  Ok(sender_, "NOTIFY jobs, 'y'");
  EXPECT_EQ(Take(), Payloads{"y"});
  Ok(listener_, "UNLISTEN *");
  Ok(sender_, "NOTIFY jobs, 'z'");
  EXPECT_EQ(Take(), Payloads{});
  // A LISTEN rolled back to a savepoint never happened.
  Ok(listener_, "BEGIN");
  Ok(listener_, "SAVEPOINT s");
  Ok(listener_, "LISTEN jobs");
  Ok(listener_, "ROLLBACK TO SAVEPOINT s");
  Ok(listener_, "COMMIT");
  Ok(sender_, "NOTIFY jobs, 'unheard'");
  EXPECT_EQ(Take(), Payloads{});
  // Delivered but not yet taken: an UNLISTEN since drops it; DISCARD ALL
  // (a pooler's reset) unlistens everything.
  Ok(listener_, "LISTEN jobs");
  Ok(sender_, "NOTIFY jobs, 'queued'");
  Ok(listener_, "UNLISTEN jobs");
  EXPECT_EQ(Take(), Payloads{});
  Ok(listener_, "LISTEN jobs");
  Ok(listener_, "DISCARD ALL");
  Ok(sender_, "NOTIFY jobs, 'after discard'");
  EXPECT_EQ(Take(), Payloads{});
}

TEST_P(NotificationTest, StatementListsFromManySendersNoneLostOrDoubled) {
  constexpr int kSenders = 8, kEach = 40;
  Ok(listener_, "LISTEN jobs");
  Ok(listener_, "CREATE TABLE log (sender INT, n INT, PRIMARY KEY (sender, n))");
  std::vector<std::thread> threads;
  for (int s = 0; s < kSenders; ++s) {
    threads.emplace_back([&, s] {
      auto session = db_->CreateSession();
      for (int n = 0; n < kEach; ++n) {
        const std::string payload = std::to_string(s) + ":" + std::to_string(n);
        Status st;
        if (n % 2 == 0) {  // a statement list run by the workers (a conflict retries it)
          StatementCall insert{"INSERT INTO log VALUES ($1, $2)", {Value::Int32(s), Value::Int32(n)}};
          StatementCall notify{"SELECT pg_notify('jobs', $1)", {Value::Text(payload)}};
          st = db_->Submit(TransactionRequest::Statements({insert, notify})).get().status;
        } else {  // autocommit on the session
          st = RunSql(session, "SELECT pg_notify('jobs', '" + payload + "')");
        }
        EXPECT_TRUE(st.ok()) << st.ToString();
      }
    });
  }
  std::map<int, std::vector<int>> seen;  // sender → its payloads, as received
  auto drain = [&] {
    for (const std::string& p : Take()) {
      const size_t colon = p.find(':');
      seen[std::stoi(p.substr(0, colon))].push_back(std::stoi(p.substr(colon + 1)));
    }
  };
  for (auto& t : threads) t.join();
  drain();
  for (int s = 0; s < kSenders; ++s) {
    std::vector<int> expected;
    for (int n = 0; n < kEach; ++n) expected.push_back(n);
    EXPECT_EQ(seen[s], expected) << "sender " << s;  // each once, in its commit order
  }
}

TEST_P(NotificationTest, PostgresChecks) {
  QueryResult r;
  EXPECT_TRUE(sender_->Execute("SELECT pg_notify('', 'x')", &r).Is(sqlstate::kInvalidParameterValue));
  EXPECT_TRUE(sender_->Execute("SELECT pg_notify(NULL, 'x')", &r).Is(sqlstate::kInvalidParameterValue));
  EXPECT_TRUE(sender_->Execute("SELECT pg_notify('" + std::string(64, 'c') + "', '')", &r)
                  .Is(sqlstate::kInvalidParameterValue));
  EXPECT_TRUE(sender_->Execute("SELECT pg_notify('c', '" + std::string(8000, 'p') + "')", &r)
                  .Is(sqlstate::kInvalidParameterValue));
  Ok(sender_, "SELECT pg_notify('c', '" + std::string(7999, 'p') + "')");  // heard by nobody yet
  Ok(listener_, "LISTEN c");
  Ok(sender_, "SELECT pg_notify('c', NULL)");  // a NULL payload is empty
  std::vector<Notification> got = listener_->TakeNotifications();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].payload, "");
  EXPECT_EQ(got[0].sender_pid, sender_->backend_pid());
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, NotificationTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
