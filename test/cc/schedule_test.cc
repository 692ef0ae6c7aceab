// Deterministic interleavings, written as schedules of interactive sessions
// (one statement at a time), with the expected winner under each
// concurrency control. Each schedule names the anomaly it excludes. A step
// expected to wait runs on a helper thread; the test waits on the
// condition "one transaction is waiting for a lock", never on a sleep.
//
// Ages: a transaction's timestamp is taken at BEGIN, so the session that
// begins first is the older one.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "engine/database.h"
#include "test/engine/session_sql.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;

class ScheduleTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    Options options;
    options.cc = GetParam();
    options.workers = 0;  // sessions only
    options.max_retries = 3;
    options.lock_timeout = std::chrono::milliseconds(20000);
    Status s = Database::Open(options, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    s1_ = db_->CreateSession();
    s2_ = db_->CreateSession();
    Ok(s1_, "CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)");
    Ok(s1_, "INSERT INTO x VALUES (1, 10), (2, 20)");
    Ok(s1_, "CREATE TABLE items (id INT PRIMARY KEY, k INT NOT NULL)");
    Ok(s1_, "CREATE INDEX items_k ON items (k)");
  }

  std::string cc() const { return GetParam(); }

  static void Conflict(const std::unique_ptr<Session>& s, const std::string& sql) {
    Status st = RunSql(s, sql);
    EXPECT_TRUE(st.Is(sqlstate::kSerializationFailure)) << sql << ": expected 40001, got " << st.ToString();
  }
  int64_t V(int id) { return test_sql::ValueOfX(db_.get(), id); }
  // Runs `sql` on `s` on another thread and returns once it is waiting for
  // a lock (the step is expected to block).
  std::future<Status> RunBlocked(const std::unique_ptr<Session>& s, const std::string& sql) {
    Session* session = s.get();
    auto f = std::async(std::launch::async, [session, sql] {
      QueryResult r;
      return session->Execute(sql, &r);
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (db_->concurrency_control().Waiting() == 0 && std::chrono::steady_clock::now() < deadline &&
           f.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      std::this_thread::yield();
    }
    EXPECT_EQ(db_->concurrency_control().Waiting(), 1u) << sql << " was expected to wait for a lock";
    return f;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> s1_, s2_;
};

// Schedule 1 — a writer meets a reader's lock (excludes the non-repeatable
// read: T1 must not see two different values of x1, nor commit a read that
// a committed writer overwrote in between).
//   T1: BEGIN; SELECT x1          T2 (younger): BEGIN; UPDATE x1
//   occ:            T2 updates and commits; T1's COMMIT fails validation (40001)
//   2pl (NO_WAIT):  T2's UPDATE is refused at once (the requester aborts)
//   2pl-wait-die:   T2 is younger than the holder: it dies (40001)
//   2pl-wound-wait: T2 is younger: it waits until T1 commits, then updates
TEST_P(ScheduleTest, WriterMeetsReader) {
  QueryResult r;
  Ok(s1_, "BEGIN");
  Ok(s1_, "SELECT v FROM x WHERE id = 1");
  Ok(s2_, "BEGIN");
  if (cc() == "occ") {
    Ok(s2_, "UPDATE x SET v = 11 WHERE id = 1");
    Ok(s2_, "COMMIT");
    Conflict(s1_, "COMMIT");
    EXPECT_EQ(V(1), 11);
  } else if (cc() == "2pl" || cc() == "2pl-wait-die") {
    Conflict(s2_, "UPDATE x SET v = 11 WHERE id = 1");
    Ok(s2_, "ROLLBACK");
    ASSERT_TRUE(RunSql(s1_, "SELECT v FROM x WHERE id = 1", &r).ok());
    EXPECT_EQ(r.rows[0][0].int_value(), 10);  // repeatable
    Ok(s1_, "COMMIT");
    EXPECT_EQ(V(1), 10);
  } else {
    auto update = RunBlocked(s2_, "UPDATE x SET v = 11 WHERE id = 1");
    ASSERT_TRUE(RunSql(s1_, "SELECT v FROM x WHERE id = 1", &r).ok());
    EXPECT_EQ(r.rows[0][0].int_value(), 10);  // repeatable
    Ok(s1_, "COMMIT");
    Status st = update.get();
    EXPECT_TRUE(st.ok()) << st.ToString();
    Ok(s2_, "COMMIT");
    EXPECT_EQ(V(1), 11);
  }
}

// Schedule 2 — an older writer meets a younger writer's lock (excludes the
// lost update / dirty write: both writes must never both commit on the same
// base value).
//   T1 (older): BEGIN            T2: BEGIN; UPDATE x1 = x1 + 1
//   T1: UPDATE x1 = x1 + 100
//   occ:            T1's UPDATE is buffered; T2 commits; T1's COMMIT fails (40001)
//   2pl (NO_WAIT):  T1's UPDATE is refused at once
//   2pl-wait-die:   T1 is older: it waits; T2 commits; T1 updates T2's value
//   2pl-wound-wait: T1 wounds T2 and waits; T2's next statement fails (40001);
//                   T1 then updates the original value
TEST_P(ScheduleTest, OlderWriterMeetsYoungerWriter) {
  Ok(s1_, "BEGIN");
  Ok(s2_, "BEGIN");
  Ok(s2_, "UPDATE x SET v = v + 1 WHERE id = 1");
  if (cc() == "occ") {
    Ok(s1_, "UPDATE x SET v = v + 100 WHERE id = 1");
    Ok(s2_, "COMMIT");
    Conflict(s1_, "COMMIT");
    EXPECT_EQ(V(1), 11);
  } else if (cc() == "2pl") {
    Conflict(s1_, "UPDATE x SET v = v + 100 WHERE id = 1");
    Ok(s1_, "ROLLBACK");
    Ok(s2_, "COMMIT");
    EXPECT_EQ(V(1), 11);
  } else if (cc() == "2pl-wait-die") {
    auto update = RunBlocked(s1_, "UPDATE x SET v = v + 100 WHERE id = 1");
    Ok(s2_, "COMMIT");
    Status st = update.get();
    EXPECT_TRUE(st.ok()) << st.ToString();
    Ok(s1_, "COMMIT");
    EXPECT_EQ(V(1), 111);  // both, one after the other
  } else {
    auto update = RunBlocked(s1_, "UPDATE x SET v = v + 100 WHERE id = 1");
    Conflict(s2_, "UPDATE x SET v = v + 1 WHERE id = 2");  // wounded
    Ok(s2_, "ROLLBACK");
    Status st = update.get();
    EXPECT_TRUE(st.ok()) << st.ToString();
    Ok(s1_, "COMMIT");
    EXPECT_EQ(V(1), 110);
  }
}

// Schedule 3 — a phantom (excludes it: T1 counted no row with k = 7 and
// inserts one; a concurrent insert of k = 7 must not make both commit as if
// each had seen the other's absence).
//   T1: BEGIN; SELECT count(*) WHERE k = 7  (→ 0)
//   T2 (autocommit, younger): INSERT (100, 7)
//   T1: INSERT (101, 7); COMMIT
//   occ:            T2 commits first; T1's COMMIT fails (its scan gained a row)
//   2pl (NO_WAIT):  T2's insert meets T1's range lock: refused, retried, fails (40001)
//   2pl-wait-die:   T2 is younger: dies each retry, fails (40001); T1 commits
//   2pl-wound-wait: T2 waits for T1's range lock; T1 commits; T2 then inserts
TEST_P(ScheduleTest, ScanThenConcurrentInsertIntoTheRange) {
  QueryResult r;
  Ok(s1_, "BEGIN");
  ASSERT_TRUE(RunSql(s1_, "SELECT count(*) FROM items WHERE k = 7", &r).ok());
  EXPECT_EQ(r.rows[0][0].int_value(), 0);
  auto count = [&] {
    auto s = db_->CreateSession();
    QueryResult c;
    EXPECT_TRUE(RunSql(s, "SELECT count(*) FROM items WHERE k = 7", &c).ok());
    return c.rows.empty() ? -1 : c.rows[0][0].int_value();
  };
  if (cc() == "occ") {
    Ok(s2_, "INSERT INTO items VALUES (100, 7)");
    Ok(s1_, "INSERT INTO items VALUES (101, 7)");
    Conflict(s1_, "COMMIT");
    EXPECT_EQ(count(), 1);
  } else if (cc() == "2pl" || cc() == "2pl-wait-die") {
    Conflict(s2_, "INSERT INTO items VALUES (100, 7)");
    Ok(s1_, "INSERT INTO items VALUES (101, 7)");
    Ok(s1_, "COMMIT");
    EXPECT_EQ(count(), 1);
  } else {
    auto insert = RunBlocked(s2_, "INSERT INTO items VALUES (100, 7)");
    Ok(s1_, "INSERT INTO items VALUES (101, 7)");
    Ok(s1_, "COMMIT");
    Status st = insert.get();
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(count(), 2);  // T1 then T2: T2 saw nothing, it did not look
  }
}

// Schedule 4 — an uncommitted insert (excludes the dirty read and the
// duplicate key: T2 must not see T1's row before T1 commits, and a second
// insert of the same key must not succeed).
//   T1: BEGIN; INSERT (5, 7)       T2: SELECT k = 7 → nothing (any CC that does
//   not wait) ; T1: COMMIT ; T2: INSERT (5, 8) → 23505
TEST_P(ScheduleTest, UncommittedInsertIsInvisibleAndItsKeyIsTaken) {
  QueryResult r;
  Ok(s1_, "BEGIN");
  Ok(s1_, "INSERT INTO items VALUES (5, 7)");
  if (cc() == "occ") {
    ASSERT_TRUE(RunSql(s2_, "SELECT count(*) FROM items WHERE id = 5", &r).ok());
    EXPECT_EQ(r.rows[0][0].int_value(), 0);
    // A concurrent insert of the same key is a conflict while T1 is open.
    Conflict(s2_, "INSERT INTO items VALUES (5, 8)");
  } else if (cc() == "2pl" || cc() == "2pl-wait-die") {
    // Reading the pending row needs T1's lock: refused (NO_WAIT), or the
    // younger reader dies (WAIT_DIE).
    Conflict(s2_, "SELECT count(*) FROM items WHERE id = 5");
  } else {
    auto read = RunBlocked(s2_, "SELECT count(*) FROM items WHERE id = 5");
    Ok(s1_, "COMMIT");
    Status st = read.get();
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  if (s1_->state() != TransactionState::kIdle) Ok(s1_, "COMMIT");
  Status st = RunSql(s2_, "INSERT INTO items VALUES (5, 8)");
  EXPECT_TRUE(st.Is(sqlstate::kUniqueViolation)) << st.ToString();
  ASSERT_TRUE(RunSql(s2_, "SELECT k FROM items WHERE id = 5", &r).ok());
  EXPECT_EQ(r.rows[0][0].int_value(), 7);
}

// Schedule 5 — a key deleted and inserted again in one transaction
// (excludes reading as absent a key that a committed row holds: until T1
// commits, everybody else must still find the old row).
//   T1: BEGIN; DELETE x1; INSERT x1 = 99      T2 (autocommit): SELECT x1
//   occ:            T2 reads the committed 10
//   2pl (NO_WAIT):  T2 meets T1's lock: refused, retried, fails (40001)
//   2pl-wait-die:   T2 is younger: dies each retry, fails (40001)
//   2pl-wound-wait: T2 waits; T1 commits; T2 reads 99
TEST_P(ScheduleTest, KeyDeletedAndInsertedAgainStaysVisibleToOthers) {
  QueryResult r;
  Ok(s1_, "BEGIN");
  Ok(s1_, "DELETE FROM x WHERE id = 1");
  Ok(s1_, "INSERT INTO x VALUES (1, 99)");
  if (cc() == "occ") {
    ASSERT_TRUE(RunSql(s2_, "SELECT v FROM x WHERE id = 1", &r).ok());
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_EQ(r.rows[0][0].int_value(), 10);
    ASSERT_TRUE(RunSql(s2_, "SELECT count(*) FROM x WHERE id BETWEEN 0 AND 5", &r).ok());
    EXPECT_EQ(r.rows[0][0].int_value(), 2);
  } else if (cc() == "2pl" || cc() == "2pl-wait-die") {
    Conflict(s2_, "SELECT v FROM x WHERE id = 1");
  } else {
    auto read = RunBlocked(s2_, "SELECT v FROM x WHERE id = 1");
    Ok(s1_, "COMMIT");
    Status st = read.get();
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  if (s1_->state() != TransactionState::kIdle) Ok(s1_, "COMMIT");
  EXPECT_EQ(V(1), 99);
}

std::string CcName(const ::testing::TestParamInfo<const char*>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryCc, ScheduleTest, ::testing::Values("occ", "2pl", "2pl-wait-die", "2pl-wound-wait"),
                         CcName);

}  // namespace
}  // namespace paceline::engine
