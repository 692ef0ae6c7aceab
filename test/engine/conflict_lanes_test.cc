// Conflict lanes through real sessions (Session + LaneTable + the adaptive
// scheduler's evidence), for every CC and scheduler by name. Evidence is
// made the way a workload makes it: four sessions run blocks on a row
// until the scheduler lists the row's reference with blamed aborts (bounded
// wait on that condition). The schedules then run on explicit
// interleavings; a step expected to block runs on a helper thread and the
// test waits until SHOW paceline.lanes lists it as waiting, never on a
// sleep. Under "random" (no evidence) no block ever takes a lane. Lane
// waits keep the CC's deadlock rule when the waiting block holds a row lock
// or a lane (LaneWaiterOlder / LaneWaiterYounger); a block that holds
// neither waits in arrival order under every CC (nothing can wait for it):
// in the other schedules the waiting block begins second, younger than the
// holder, and under wait-die it would die without that exemption.
//
// | schedule                        | interleaving (row 1 hot)                              | anomaly / failure excluded          |
// |---------------------------------|-------------------------------------------------------|-------------------------------------|
// | SecondBlockWaitsThenBothCommit  | A: BEGIN; SELECT v id=1 (→ lane)  B: BEGIN; SELECT v   | lost update (both read v, both      |
// |                                 | id=1 (waits)  A: UPDATE v+1; COMMIT  B: reads A's v,   | write v+1), and the 40001 the CC    |
// |                                 | UPDATE v+1; COMMIT → v0+2                              | would return without lanes          |
// | ColdRowsRunFree                 | A: BEGIN; UPDATE id=3 (no evidence): no lane; B:       | a lane for a row without evidence   |
// |                                 | BEGIN; UPDATE id=4; both commit                        |                                     |
// | HolderDisconnectReleases        | A holds the lane; B waits; A's session is destroyed    | a lane kept by a gone client        |
// |                                 | → B proceeds, commits; A's write rolled back          |                                     |
// | HolderCanceledReleases          | A holds the lane, runs a long join; B waits; cancel A  | a canceled block keeping its lane   |
// |                                 | → 57014, block failed, lane free → B commits          |                                     |
// | WaiterCanceled                  | A holds the lane; B waits; cancel B → 57014 at once;   | a lane wait deaf to cancel          |
// |                                 | A commits                                              |                                     |
// | LaneCycleFailsWithDeadlock      | rows 1 and 2 hot (two lanes); A: row 1, B: row 2;      | two blocks waiting for each other   |
// |                                 | A: row 2 (waits); B: row 1 → 40P01 at once; A commits | until lock_timeout                  |
// | OneLanePerBlockLeaves...        | max_lanes_per_block 1, rows 1 and 2 hot: A: UPDATE     | a second lane taken past the limit  |
// |                                 | id=1 (lane), UPDATE id=2 (no lane); only id=1 listed   |                                     |
// | LaneAndLockWait, older waiter   | row 1 hot, row 2 cold. A (older): BEGIN; UPDATE id=2   | a lane wait and a row-lock wait     |
// |  (LaneWaiterOlder)              | (row lock under 2PL). B: BEGIN; UPDATE id=1 (lane).    | waiting for each other until        |
// |                                 | A: UPDATE id=1 (waits in the lane; wound-wait: wounds  | lock_timeout (55P03): one block     |
// |                                 | B). B: UPDATE id=2 (A's row lock) → 40001 under 2PL    | commits, the other gets 40001 at    |
// |                                 | (dies / wounded / NO_WAIT); A commits. OCC: B commits, | once, both rows +1 exactly once     |
// |                                 | A fails validation                                     |                                     |
// | LaneAndLockWait, younger waiter | the same with B older: A (younger, holding id=2's row  | the same; wound-wait: B wounds A    |
// |  (LaneWaiterYounger)            | lock) waits in B's lane (wait-die: dies at once);      | while A sleeps in the lane, which   |
// |                                 | B: UPDATE id=2 → wound-wait wounds A (A wakes, 40001), | must wake it                        |
// |                                 | NO_WAIT fails B; the other commits                     |                                     |
#include <gtest/gtest.h>

#include <atomic>
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

struct Param {
  const char* cc;
  const char* scheduler;
};

std::string Name(const ::testing::TestParamInfo<Param>& info) {
  std::string name = std::string(info.param.cc) + "_" + info.param.scheduler;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

class ConflictLanesTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { Open(/*max_lanes_per_block=*/0); }

  // A new database (rows 1-4 of x at 0) and sessions a_, b_.
  void Open(size_t max_lanes_per_block) {
    b_.reset();
    a_.reset();
    db_.reset();
    Options options;
    options.max_lanes_per_block = max_lanes_per_block;
    options.cc = GetParam().cc;
    options.scheduler = GetParam().scheduler;
    options.workers = 2;
    options.lock_timeout = std::chrono::milliseconds(60000);
    options.scheduling.history_half_life = std::chrono::milliseconds(600000);  // evidence stays for the test
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
    Ok(a_, "CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)");
    Ok(a_, "INSERT INTO x VALUES (1, 0), (2, 0), (3, 0), (4, 0)");
  }

  // Lanes run where the scheduler learns.
  bool laned() const { return std::string(GetParam().scheduler) == "adaptive"; }

  int64_t V(int id) { return test_sql::ValueOfX(db_.get(), id); }

  // Blamed aborts the scheduler lists for `reference` (SHOW
  // paceline.hot_references; conflict evidence from 1).
  int64_t AbortsOf(const std::string& reference) {
    auto s = db_->CreateSession();
    QueryResult r;
    if (!RunSql(s, "SHOW paceline.hot_references", &r).ok()) return 0;
    for (const auto& row : r.rows) {
      if (row[0].string_value() == reference) return row[1].int_value();
    }
    return 0;
  }
  bool Hot(int row) { return AbortsOf("id=" + std::to_string(row)) >= 2; }

  // Four sessions run `BEGIN; UPDATE row; COMMIT` until the scheduler
  // blames `id=<row>` for two aborts (adaptive), or 400 blocks each (a
  // scheduler that does not learn).
  void MakeHot(int row) {
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        auto s = db_->CreateSession();
        for (int i = 0; !stop.load() && (laned() || i < 400); ++i) {
          QueryResult r;
          (void)s->Execute("BEGIN", &r);
          Status st = s->Execute("UPDATE x SET v = v + 1 WHERE id = " + std::to_string(row), &r);
          (void)s->Execute(st.ok() ? "COMMIT" : "ROLLBACK", &r);
        }
      });
    }
    const auto deadline = steady_clock::now() + std::chrono::seconds(60);
    while (laned() && !Hot(row) && steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    stop = true;
    for (auto& t : threads) t.join();
    if (laned()) {
      ASSERT_TRUE(Hot(row)) << "no evidence for id=" << row;
    }
  }

  struct LaneRow {
    std::string reference;
    int64_t holder = 0;
    std::string waiting;
  };
  std::vector<LaneRow> Lanes() {
    auto s = db_->CreateSession();
    QueryResult r;
    std::vector<LaneRow> out;
    if (!RunSql(s, "SHOW paceline.lanes", &r).ok()) return out;
    for (const auto& row : r.rows) {
      out.push_back({row[0].string_value(), row[1].is_null() ? 0 : row[1].int_value(), row[2].string_value()});
    }
    return out;
  }
  // The reference whose lane `session` holds ("": none).
  std::string LaneHeldBy(const Session& session) {
    for (const auto& l : Lanes()) {
      if (l.holder == static_cast<int64_t>(session.id())) return l.reference;
    }
    return "";
  }
  // Waits (bounded) until `session` is listed waiting for a lane.
  bool WaitsForLane(const Session& session) {
    const std::string id = std::to_string(session.id());
    const auto deadline = steady_clock::now() + std::chrono::seconds(30);
    while (steady_clock::now() < deadline) {
      for (const auto& l : Lanes()) {
        if (l.waiting == "{" + id + "}" || l.waiting.find(id) != std::string::npos) return true;
      }
      std::this_thread::yield();
    }
    return false;
  }

  // `s` runs `sql` on another thread.
  static std::future<Status> RunOnAnotherThread(Session* s, std::string sql) {
    return std::async(std::launch::async, [s, sql] {
      QueryResult r;
      return s->Execute(sql, &r);
    });
  }

  // A: BEGIN; UPDATE row 1 by `a_delta`, taking row 1's lane; B (younger):
  // BEGIN; UPDATE row 1 (+1) on another thread, left waiting for that lane.
  void AHoldsTheLaneAndBWaits(int a_delta, std::future<Status>* b_update) {
    Ok(a_, "BEGIN");
    Ok(a_, "UPDATE x SET v = v + " + std::to_string(a_delta) + " WHERE id = 1");
    ASSERT_EQ(LaneHeldBy(*a_), "id=1");
    Ok(b_, "BEGIN");
    *b_update = RunOnAnotherThread(b_.get(), "UPDATE x SET v = v + 1 WHERE id = 1");
    ASSERT_TRUE(WaitsForLane(*b_));
  }

  // The lane-and-lock schedules (table above): `waiter` holds row 2's row
  // lock and waits in row 1's lane, which `holder` holds; then `holder`
  // updates row 2. `waiter_older`: the waiter began first.
  void LaneAndLockWait(bool waiter_older) {
    MakeHot(1);
    if (!laned()) GTEST_SKIP() << "no lanes here (SecondBlockWaitsThenBothCommit checks it)";
    const int64_t v1 = V(1), v2 = V(2);
    Session* waiter = a_.get();
    Session* holder = b_.get();
    if (!waiter_older) Ok(b_, "BEGIN");
    Ok(a_, "BEGIN");
    Ok(a_, "UPDATE x SET v = v + 1 WHERE id = 2");
    if (waiter_older) Ok(b_, "BEGIN");
    Ok(b_, "UPDATE x SET v = v + 1 WHERE id = 1");
    ASSERT_EQ(LaneHeldBy(*holder), "id=1");
    std::future<Status> waited = RunOnAnotherThread(waiter, "UPDATE x SET v = v + 1 WHERE id = 1");
    const bool dies_at_the_lane = !waiter_older && std::string(GetParam().cc) == "2pl-wait-die";
    Status holder_status;
    if (!dies_at_the_lane) {
      ASSERT_TRUE(WaitsForLane(*waiter));
      holder_status = RunSql(b_, "UPDATE x SET v = v + 1 WHERE id = 2");
      if (holder_status.ok()) holder_status = RunSql(b_, "COMMIT");  // OCC: before the waiter's
      else Ok(b_, "ROLLBACK");
    }
    Status waiter_status = waited.get();
    if (waiter_status.ok()) waiter_status = RunSql(a_, "COMMIT");
    else Ok(a_, "ROLLBACK");
    if (dies_at_the_lane) {  // the holder goes on alone
      holder_status = RunSql(b_, "UPDATE x SET v = v + 1 WHERE id = 2");
      if (holder_status.ok()) holder_status = RunSql(b_, "COMMIT");
    }
    // One commits; the other fails at once with 40001, never 55P03.
    EXPECT_NE(waiter_status.ok(), holder_status.ok()) << waiter_status.ToString() << " / " << holder_status.ToString();
    const Status& failed = waiter_status.ok() ? holder_status : waiter_status;
    EXPECT_TRUE(failed.Is(sqlstate::kSerializationFailure)) << failed.ToString();
    EXPECT_EQ(V(1), v1 + 1);
    EXPECT_EQ(V(2), v2 + 1);
    EXPECT_TRUE(Lanes().empty());
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_P(ConflictLanesTest, SecondBlockWaitsThenBothCommit) {
  MakeHot(1);
  const int64_t v0 = V(1);
  Ok(a_, "BEGIN");
  QueryResult ra;
  ASSERT_TRUE(RunSql(a_, "SELECT v FROM x WHERE id = 1", &ra).ok());
  if (!laned()) {
    EXPECT_TRUE(Lanes().empty()) << "a lane without evidence, or under a waiting 2PL";
    Ok(a_, "COMMIT");
    return;
  }
  ASSERT_EQ(LaneHeldBy(*a_), "id=1") << "A took no lane for a hot row";
  Ok(b_, "BEGIN");  // younger than A: it holds nothing, so it waits even under wait-die
  Session* b = b_.get();
  auto b_read = std::async(std::launch::async, [b] {
    QueryResult r;
    Status st = b->Execute("SELECT v FROM x WHERE id = 1", &r);
    return std::make_pair(st, st.ok() && !r.rows.empty() ? r.rows[0][0].int_value() : int64_t{-1});
  });
  ASSERT_TRUE(WaitsForLane(*b_));
  Ok(a_, "UPDATE x SET v = " + std::to_string(ra.rows[0][0].int_value() + 1) + " WHERE id = 1");
  Ok(a_, "COMMIT");
  auto [st, seen] = b_read.get();
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen, v0 + 1);  // A's committed write: B ran after A
  Ok(b_, "UPDATE x SET v = " + std::to_string(seen + 1) + " WHERE id = 1");
  Ok(b_, "COMMIT");
  EXPECT_EQ(V(1), v0 + 2);
  EXPECT_TRUE(Lanes().empty());
}

TEST_P(ConflictLanesTest, ColdRowsRunFree) {
  MakeHot(1);
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = v + 1 WHERE id = 3");
  EXPECT_EQ(LaneHeldBy(*a_), "");
  Ok(b_, "BEGIN");
  Ok(b_, "UPDATE x SET v = v + 1 WHERE id = 4");
  EXPECT_TRUE(Lanes().empty());
  Ok(a_, "COMMIT");
  Ok(b_, "COMMIT");
  EXPECT_EQ(V(3), 1);
  EXPECT_EQ(V(4), 1);
}

TEST_P(ConflictLanesTest, HolderDisconnectReleases) {
  MakeHot(1);
  if (!laned()) GTEST_SKIP() << "no lanes here (SecondBlockWaitsThenBothCommit checks it)";
  const int64_t v0 = V(1);
  std::future<Status> b_update;
  AHoldsTheLaneAndBWaits(100, &b_update);
  if (HasFatalFailure()) return;
  a_.reset();  // the client is gone: its block rolls back, its lane goes
  Status st = b_update.get();
  ASSERT_TRUE(st.ok()) << st.ToString();
  Ok(b_, "COMMIT");
  EXPECT_EQ(V(1), v0 + 1);
}

TEST_P(ConflictLanesTest, HolderCanceledReleases) {
  MakeHot(1);
  if (!laned()) GTEST_SKIP() << "no lanes here (SecondBlockWaitsThenBothCommit checks it)";
  Ok(a_, "CREATE TABLE l (lid INT PRIMARY KEY, k INT NOT NULL)");  // not "id": x.id stays "id=1"
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < 2000; ++i) rows.push_back({Value::Int32(i), Value::Int32(i % 97)});
  ASSERT_TRUE(db_->BulkLoad("l", rows).ok());
  const int64_t v0 = V(1);
  std::future<Status> b_update;
  AHoldsTheLaneAndBWaits(100, &b_update);
  if (HasFatalFailure()) return;
  Session* a = a_.get();
  const uint64_t checks = a->cancel_token()->checks();
  // A long statement: no equality to hash on, so a nested loop of 4,000,000 row visits.
  auto a_join = std::async(std::launch::async, [a] {
    QueryResult r;
    return a->Execute("SELECT count(*) FROM l l1, l l2 WHERE l1.k + l2.k = 1000", &r);
  });
  const auto deadline = steady_clock::now() + std::chrono::seconds(30);
  while (a->cancel_token()->checks() == checks && steady_clock::now() < deadline) std::this_thread::yield();
  a->Cancel();
  Status sa = a_join.get();
  EXPECT_TRUE(sa.Is(sqlstate::kQueryCanceled)) << sa.ToString();
  Status st = b_update.get();
  ASSERT_TRUE(st.ok()) << st.ToString();
  Ok(b_, "COMMIT");
  Ok(a_, "ROLLBACK");
  EXPECT_EQ(V(1), v0 + 1);
}

TEST_P(ConflictLanesTest, WaiterCanceled) {
  MakeHot(1);
  if (!laned()) GTEST_SKIP() << "no lanes here (SecondBlockWaitsThenBothCommit checks it)";
  const int64_t v0 = V(1);
  std::future<Status> b_update;
  AHoldsTheLaneAndBWaits(1, &b_update);
  if (HasFatalFailure()) return;
  b_->Cancel();
  Status st = b_update.get();
  EXPECT_TRUE(st.Is(sqlstate::kQueryCanceled)) << st.ToString();
  EXPECT_EQ(b_->state(), TransactionState::kFailed);
  Ok(b_, "ROLLBACK");
  Ok(a_, "COMMIT");
  EXPECT_EQ(V(1), v0 + 1);
}

TEST_P(ConflictLanesTest, LaneCycleFailsWithDeadlock) {
  MakeHot(1);
  MakeHot(2);
  if (!laned()) GTEST_SKIP() << "no lanes here (SecondBlockWaitsThenBothCommit checks it)";
  const int64_t v1 = V(1), v2 = V(2);
  Ok(a_, "BEGIN");
  Ok(b_, "BEGIN");
  Ok(a_, "UPDATE x SET v = v + 1 WHERE id = 1");
  Ok(b_, "UPDATE x SET v = v + 1 WHERE id = 2");
  ASSERT_EQ(LaneHeldBy(*a_), "id=1");
  ASSERT_EQ(LaneHeldBy(*b_), "id=2");
  Session* a = a_.get();
  auto a_update = std::async(std::launch::async, [a] {
    QueryResult r;
    return a->Execute("UPDATE x SET v = v + 1 WHERE id = 2", &r);
  });
  ASSERT_TRUE(WaitsForLane(*a_));
  const auto before = steady_clock::now();
  QueryResult r;
  Status st = b_->Execute("UPDATE x SET v = v + 1 WHERE id = 1", &r);
  EXPECT_TRUE(st.Is(sqlstate::kDeadlockDetected)) << st.ToString();
  EXPECT_LT(steady_clock::now() - before, std::chrono::seconds(30));  // at once, not at lock_timeout
  Ok(b_, "ROLLBACK");
  Status sa = a_update.get();
  ASSERT_TRUE(sa.ok()) << sa.ToString();
  Ok(a_, "COMMIT");
  EXPECT_EQ(V(1), v1 + 1);
  EXPECT_EQ(V(2), v2 + 1);
}

TEST_P(ConflictLanesTest, OneLanePerBlockLeavesLaterReferencesToTheCc) {
  Open(/*max_lanes_per_block=*/1);
  MakeHot(1);
  MakeHot(2);
  if (!laned()) GTEST_SKIP() << "no lanes here (SecondBlockWaitsThenBothCommit checks it)";
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = v + 1 WHERE id = 1");
  Ok(a_, "UPDATE x SET v = v + 1 WHERE id = 2");
  const auto lanes = Lanes();
  ASSERT_EQ(lanes.size(), 1u);
  EXPECT_EQ(lanes[0].reference, "id=1");
  EXPECT_EQ(lanes[0].holder, static_cast<int64_t>(a_->id()));
  Ok(a_, "COMMIT");
  EXPECT_TRUE(Lanes().empty());
}

TEST_P(ConflictLanesTest, LaneWaiterOlder) { LaneAndLockWait(/*waiter_older=*/true); }

TEST_P(ConflictLanesTest, LaneWaiterYounger) { LaneAndLockWait(/*waiter_older=*/false); }

INSTANTIATE_TEST_SUITE_P(AllConcurrencyControls, ConflictLanesTest,
                         ::testing::Values(Param{"occ", "adaptive"}, Param{"2pl", "adaptive"},
                                           Param{"2pl-wait-die", "adaptive"}, Param{"2pl-wound-wait", "adaptive"},
                                           Param{"occ", "random"}, Param{"2pl", "random"},
                                           Param{"2pl-wait-die", "random"}, Param{"2pl-wound-wait", "random"}),
                         Name);

}  // namespace
}  // namespace paceline::engine
