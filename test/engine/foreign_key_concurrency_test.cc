// Foreign keys while transactions run, for every concurrency control ×
// every scheduler: client threads add rows that reference parents (an
// autocommit INSERT, a submitted statement list through the run queues, an
// interactive block whose foreign key is DEFERRABLE INITIALLY DEFERRED and
// so checked at COMMIT) while a remover deletes the parents one by one (a
// block that deletes a parent's NO ACTION and deferred referencing rows,
// then the parent, whose ON DELETE CASCADE rows go with it).
//
// The interleaving: an adder's check reads parent p (or, deferred, reads it
// at COMMIT) while the remover's block deletes p after finding no row that
// references it; neither sees the other's uncommitted row. Adders go on
// until after the last delete, so both outcomes (added, refused) happen. The anomaly
// excluded: an orphan, a committed row whose parent is gone (the write skew
// of the check's read and the delete's scan; the CC must abort one of the
// two, or order them). Also: every insert that succeeded is either still
// there or was deleted by the remover (none lost, none twice), and no
// CASCADE row outlives its parent. The remover waits for a number of adds
// before each delete (a condition, never a sleep), so deletes land while
// adders run.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "engine/execution/retry_pause.h"
#include "test/cc/every_cc_and_scheduler.h"
#include "test/engine/client_progress.h"
#include "test/engine/session_sql.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;
using test_clients::Retried;

class ForeignKeyConcurrencyTest : public test_clients::ClientsTest {};

TEST_P(ForeignKeyConcurrencyTest, NoOrphanWhileParentsGo) {
  constexpr int kParents = 24, kAdders = 3, kAddsEach = 120;
  Ok(session_, "CREATE TABLE parent (id INT PRIMARY KEY)");
  Ok(session_, "CREATE TABLE plain (id SERIAL PRIMARY KEY, pid INT REFERENCES parent)");
  Ok(session_, "CREATE INDEX ON plain (pid)");
  Ok(session_, "CREATE TABLE cascaded (id SERIAL PRIMARY KEY, pid INT REFERENCES parent ON DELETE CASCADE)");
  Ok(session_, "CREATE INDEX ON cascaded (pid)");
  Ok(session_,
     "CREATE TABLE deferred (id SERIAL PRIMARY KEY, pid INT REFERENCES parent DEFERRABLE INITIALLY DEFERRED)");
  Ok(session_, "CREATE INDEX ON deferred (pid)");
  Ok(session_, "INSERT INTO parent SELECT g FROM generate_series(1, " + std::to_string(kParents) + ") g");

  // Per table: inserts that succeeded.
  std::atomic<int64_t> added_plain{0}, added_cascaded{0}, added_deferred{0};
  std::atomic<int64_t> refused{0};  // 23503: the parent was gone
  std::atomic<int> failures{0};
  std::atomic<bool> removals_done{false};
  test_clients::ClientProgress progress(kAdders);
  auto adder = [&](int a) {
    auto s = db_->CreateSession();
    std::mt19937 rng(a + 1);
    // At least kAddsEach adds, and on until a few after the last removal
    // (so that some meet a parent already gone).
    int after = 0;
    for (int i = 0; (i < kAddsEach || after < 6) && failures.load() == 0; ++i) {
      if (removals_done.load()) ++after;
      const std::string pid = std::to_string(std::uniform_int_distribution<int>(1, kParents)(rng));
      Status st;
      std::atomic<int64_t>* counter = nullptr;
      switch (i % 3) {
        case 0:  // autocommit (retried by the session on a conflict)
          st = RunSql(s, "INSERT INTO plain (pid) VALUES (" + pid + ")");
          counter = &added_plain;
          break;
        case 1: {  // a statement list through the run queues
          StatementCall call;
          call.sql = "INSERT INTO cascaded (pid) VALUES ($1)";
          call.params = {Value::Int32(std::stoi(pid))};
          st = db_->Submit(TransactionRequest::Statements({call})).get().status;
          counter = &added_cascaded;
          break;
        }
        default:  // a block, its deferred key checked at COMMIT
          for (int attempt = 0;; ++attempt) {
            st = RunSql(s, "BEGIN");
            if (st.ok()) st = RunSql(s, "INSERT INTO deferred (pid) VALUES (" + pid + ")");
            if (st.ok()) st = RunSql(s, "COMMIT");
            if (st.ok() || !Retried(st) || attempt > 10000) break;
            if (s->state() != TransactionState::kIdle) (void)RunSql(s, "ROLLBACK");
            PauseBeforeRetry(attempt + 1, std::chrono::milliseconds(1));
          }
          if (s->state() != TransactionState::kIdle) (void)RunSql(s, "ROLLBACK");
          counter = &added_deferred;
          break;
      }
      if (st.ok()) {
        counter->fetch_add(1);
      } else if (st.Is(sqlstate::kForeignKeyViolation)) {  // the parent was gone: refused, as it must be
        refused.fetch_add(1);
      } else {
        ADD_FAILURE() << "adder " << a << " add " << i << ": " << st.ToString();
        failures.fetch_add(1);
      }
      progress.Step();
    }
    progress.ClientDone();
  };
  std::vector<std::thread> threads;
  for (int a = 0; a < kAdders; ++a) threads.emplace_back(adder, a);

  // The remover: parents go one by one, odd ones first, so that adders
  // keep meeting both present and deleted parents.
  int64_t removed_plain = 0, removed_deferred = 0;
  for (int k = 0; k < kParents / 2 && failures.load() == 0; ++k) {
    progress.WaitFor(kAdders * kAddsEach / kParents);
    const std::string id = std::to_string(2 * k + 1);
    for (int attempt = 0;; ++attempt) {
      QueryResult plain, deferred;
      Status st = RunSql(session_, "BEGIN");
      if (st.ok()) st = RunSql(session_, "DELETE FROM plain WHERE pid = " + id, &plain);
      if (st.ok()) st = RunSql(session_, "DELETE FROM deferred WHERE pid = " + id, &deferred);
      if (st.ok()) st = RunSql(session_, "DELETE FROM parent WHERE id = " + id);
      if (st.ok()) st = RunSql(session_, "COMMIT");
      if (st.ok()) {
        removed_plain += static_cast<int64_t>(plain.rows_affected);
        removed_deferred += static_cast<int64_t>(deferred.rows_affected);
        break;
      }
      if (session_->state() != TransactionState::kIdle) (void)RunSql(session_, "ROLLBACK");
      // A child added between the block's DELETE and its parent's delete
      // makes that 23503: the block runs again and deletes it too.
      if (!(Retried(st) || st.Is(sqlstate::kForeignKeyViolation)) || attempt > 10000) {
        ADD_FAILURE() << "removing parent " << id << ": " << st.ToString();
        failures.fetch_add(1);
        break;
      }
      PauseBeforeRetry(attempt + 1, std::chrono::milliseconds(1));
    }
  }
  removals_done.store(true);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM parent"), kParents - kParents / 2);
  for (const char* table : {"plain", "cascaded", "deferred"}) {
    EXPECT_EQ(QueryInt(std::string("SELECT count(*) FROM ") + table + " WHERE pid NOT IN (SELECT id FROM parent)"), 0)
        << "orphans in " << table;
  }
  EXPECT_EQ(QueryInt("SELECT count(*) FROM plain"), added_plain.load() - removed_plain);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM deferred"), added_deferred.load() - removed_deferred);
  // Every cascaded row that survived belongs to a parent still there.
  EXPECT_LE(QueryInt("SELECT count(*) FROM cascaded"), added_cascaded.load());
  // Both outcomes happened: the deletes landed while adders ran.
  EXPECT_GT(added_plain.load() + added_cascaded.load() + added_deferred.load(), 0);
  EXPECT_GT(refused.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, ForeignKeyConcurrencyTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
