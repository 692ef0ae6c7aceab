// The block rules a protocol layer borrows from Session (session.h):
// implicit blocks (BeginImplicitBlock / EndImplicitBlock, an explicit BEGIN
// or COMMIT inside one), failed blocks (FailOpenBlock for errors outside the
// session, EnterFailedBlock for a BEGIN ... that ran elsewhere), the
// PostgreSQL warnings for transaction control out of place, and that a
// failed block lets go of its locks at once. The one-session tests run
// under every CC; the two-session ones (the table below) under every CC ×
// every scheduler. (Under 2PL another session cannot read what an open
// block wrote, so each test reads rows only once no block holds them.)
//
// | test                                | interleaving                                  | excluded                    |
// |-------------------------------------|-----------------------------------------------|-----------------------------|
// | FailedTextReleasesTheBlocksLocks    | A: BEGIN; UPDATE x1; A: a text that does not  | a failed block that keeps   |
// |                                     | parse; B: UPDATE x1 (autocommit)              | its row locks until the     |
// |                                     |                                               | client's ROLLBACK (B waits  |
// |                                     |                                               | or dies under 2PL)          |
// | FailOpenBlockReleasesTheBlocksLocks | A: BEGIN; UPDATE x1; A fails outside the      | the same, for an error the  |
// |                                     | session (FailOpenBlock); B: UPDATE x1         | protocol layer found        |
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/database.h"
#include "session_sql.h"
#include "test/cc/every_cc_and_scheduler.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;
using test_sql::ValueOfX;

class SessionBlockTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override {
    Options options;
    options.cc = std::get<0>(GetParam());
    options.scheduler = std::get<1>(GetParam());
    options.lock_timeout = std::chrono::milliseconds(2000);
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
    Ok(a_, "CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)");
    Ok(a_, "INSERT INTO x VALUES (1, 10), (2, 20)");
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_P(SessionBlockTest, ImplicitBlockCommitsAtItsEnd) {
  ASSERT_TRUE(a_->BeginImplicitBlock().ok());
  EXPECT_TRUE(a_->in_implicit_block());
  EXPECT_EQ(a_->state(), TransactionState::kInBlock);
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  Ok(a_, "UPDATE x SET v = 21 WHERE id = 2");
  ASSERT_TRUE(a_->EndImplicitBlock(false).ok());
  EXPECT_FALSE(a_->in_implicit_block());
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 11);
  EXPECT_EQ(ValueOfX(db_.get(), 2), 21);
}

TEST_P(SessionBlockTest, ImplicitBlockWithAFailedStatementRollsBackWhole) {
  ASSERT_TRUE(a_->BeginImplicitBlock().ok());
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  EXPECT_EQ(RunSql(a_, "SELECT 1/0").sqlstate(), "22012");
  EXPECT_EQ(a_->state(), TransactionState::kFailed);
  ASSERT_TRUE(a_->EndImplicitBlock(false).ok());
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);
}

TEST_P(SessionBlockTest, ImplicitBlockEndedAsFailedRollsBack) {
  ASSERT_TRUE(a_->BeginImplicitBlock().ok());
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  ASSERT_TRUE(a_->EndImplicitBlock(/*failed=*/true).ok());
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);
}

TEST_P(SessionBlockTest, ExplicitBeginTakesTheImplicitBlockOver) {
  ASSERT_TRUE(a_->BeginImplicitBlock().ok());
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  QueryResult r;
  ASSERT_TRUE(a_->Execute("BEGIN", &r).ok());
  EXPECT_EQ(r.command_tag, "BEGIN");
  EXPECT_TRUE(r.warnings.empty());  // no "already a transaction in progress"
  EXPECT_FALSE(a_->in_implicit_block());
  ASSERT_TRUE(a_->EndImplicitBlock(false).ok());  // nothing to end: the block is the client's now
  EXPECT_EQ(a_->state(), TransactionState::kInBlock);
  Ok(a_, "COMMIT");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 11);
}

TEST_P(SessionBlockTest, ExplicitCommitEndsTheImplicitBlock) {
  ASSERT_TRUE(a_->BeginImplicitBlock().ok());
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  QueryResult r;
  ASSERT_TRUE(a_->Execute("COMMIT", &r).ok());
  EXPECT_EQ(r.command_tag, "COMMIT");
  ASSERT_EQ(r.warnings.size(), 1u);  // as PostgreSQL: no BEGIN opened this block
  EXPECT_EQ(r.warnings[0].sqlstate(), "25P01");
  EXPECT_FALSE(a_->in_implicit_block());
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  ASSERT_TRUE(a_->EndImplicitBlock(false).ok());
  EXPECT_EQ(ValueOfX(db_.get(), 1), 11);
}

TEST_P(SessionBlockTest, StatementsAfterAnExplicitCommitFormANewImplicitBlock) {
  // As PostgreSQL (../shared/pgwire/README.md): "INSERT 10; COMMIT; INSERT
  // 11; SELECT 1/0" keeps 10 (with 25P01) and rolls back 11.
  std::vector<QueryResult> results;
  Status s = a_->ExecuteScript(
      "UPDATE x SET v = 11 WHERE id = 1; COMMIT; UPDATE x SET v = 21 WHERE id = 2; SELECT 1/0", &results);
  EXPECT_EQ(s.sqlstate(), "22012");
  ASSERT_GE(results.size(), 2u);
  ASSERT_EQ(results[1].warnings.size(), 1u);
  EXPECT_EQ(results[1].warnings[0].sqlstate(), "25P01");
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 11);
  EXPECT_EQ(ValueOfX(db_.get(), 2), 20);
  // The same after an explicit block's COMMIT, and after a ROLLBACK.
  results.clear();
  s = a_->ExecuteScript("BEGIN; UPDATE x SET v = 12 WHERE id = 1; COMMIT; UPDATE x SET v = 22 WHERE id = 2; SELECT 1/0",
                        &results);
  EXPECT_EQ(s.sqlstate(), "22012");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 12);
  EXPECT_EQ(ValueOfX(db_.get(), 2), 20);
  results.clear();
  ASSERT_TRUE(a_->ExecuteScript("UPDATE x SET v = 13 WHERE id = 1; ROLLBACK; UPDATE x SET v = 23 WHERE id = 2",
                                &results).ok());
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 12);
  EXPECT_EQ(ValueOfX(db_.get(), 2), 23);
}

TEST_P(SessionBlockTest, ScriptWithItsOwnBeginLeavesTheBlockOpen) {
  std::vector<QueryResult> results;
  ASSERT_TRUE(a_->ExecuteScript("UPDATE x SET v = 11 WHERE id = 1; BEGIN; UPDATE x SET v = 21 WHERE id = 2",
                                &results).ok());
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[1].command_tag, "BEGIN");
  EXPECT_EQ(a_->state(), TransactionState::kInBlock);
  Ok(a_, "COMMIT");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 11);
  EXPECT_EQ(ValueOfX(db_.get(), 2), 21);
}

TEST_P(SessionBlockTest, TransactionControlOutOfPlaceWarnsAsPostgresDoes) {
  QueryResult r;
  ASSERT_TRUE(a_->Execute("COMMIT", &r).ok());
  EXPECT_EQ(r.command_tag, "COMMIT");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].sqlstate(), "25P01");
  EXPECT_EQ(r.warnings[0].message(), "there is no transaction in progress");
  ASSERT_TRUE(a_->Execute("ROLLBACK", &r).ok());
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].sqlstate(), "25P01");
  Ok(a_, "BEGIN");
  ASSERT_TRUE(a_->Execute("BEGIN", &r).ok());
  EXPECT_EQ(r.command_tag, "BEGIN");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].sqlstate(), "25001");
  EXPECT_EQ(r.warnings[0].message(), "there is already a transaction in progress");
  ASSERT_TRUE(a_->Execute("COMMIT", &r).ok());
  EXPECT_TRUE(r.warnings.empty());
}

TEST_P(SessionBlockTest, FailedBlockRefusesAllButItsEnd) {
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  EXPECT_EQ(RunSql(a_, "SELECT 1/0").sqlstate(), "22012");
  EXPECT_EQ(RunSql(a_, "SELECT 1").sqlstate(), "25P02");
  EXPECT_EQ(RunSql(a_, "BEGIN").sqlstate(), "25P02");  // as PostgreSQL: only COMMIT/ROLLBACK end it
  EXPECT_EQ(a_->CheckNotInFailedBlock().sqlstate(), "25P02");
  QueryResult r;
  ASSERT_TRUE(a_->Execute("COMMIT", &r).ok());
  EXPECT_EQ(r.command_tag, "ROLLBACK");
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_TRUE(a_->CheckNotInFailedBlock().ok());
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);
}

TEST_P(SessionBlockTest, TextThatDoesNotParseFailsTheBlock) {
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  EXPECT_EQ(RunSql(a_, "SELEC 1").sqlstate(), "42601");
  EXPECT_EQ(a_->state(), TransactionState::kFailed);
  Ok(a_, "ROLLBACK");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);
}

TEST_P(SessionBlockTest, ScriptThatDoesNotParseFailsTheBlock) {
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  std::vector<QueryResult> results;
  EXPECT_EQ(a_->ExecuteScript("SELECT 1; SELEC 2", &results).sqlstate(), "42601");
  EXPECT_TRUE(results.empty());  // the whole text is parsed before anything runs
  EXPECT_EQ(a_->state(), TransactionState::kFailed);
  Ok(a_, "ROLLBACK");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);
}

TEST_P(SessionBlockTest, RunStatementsNamesTheStatementThatFailedAndRollsTheMessageBack) {
  QueryResult r;
  size_t failed = 99;
  Status s = a_->RunStatements(
      3,
      [&](size_t i) { return a_->Execute(i == 1 ? "SELECT 1/0" : "UPDATE x SET v = v + 1 WHERE id = 1", &r); },
      &failed);
  EXPECT_EQ(s.sqlstate(), "22012");
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);  // statement 0 ran in the implicit block, rolled back with it
}

TEST_P(SessionBlockTest, RunStatementsStopsAtACancelBetweenStatements) {
  QueryResult r;
  size_t failed = 99;
  int ran = 0;
  Status s = a_->RunStatements(
      2,
      [&](size_t) {
        ++ran;
        Status st = a_->Execute("UPDATE x SET v = v + 1 WHERE id = 1", &r);
        a_->Cancel();  // arrives after the first statement finished
        return st;
      },
      &failed);
  EXPECT_EQ(s.sqlstate(), "57014");
  EXPECT_EQ(failed, 2u);  // the loop's own error, not a statement's
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  EXPECT_EQ(ValueOfX(db_.get(), 1), 10);
}

TEST_P(SessionBlockTest, EnteredFailedBlockEndsWithRollback) {
  // A BEGIN ... the server submitted whole failed; the client's COMMIT is to come.
  a_->EnterFailedBlock();
  EXPECT_EQ(a_->state(), TransactionState::kFailed);
  EXPECT_EQ(RunSql(a_, "SELECT v FROM x WHERE id = 1").sqlstate(), "25P02");
  QueryResult r;
  ASSERT_TRUE(a_->Execute("COMMIT", &r).ok());
  EXPECT_EQ(r.command_tag, "ROLLBACK");
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(a_->state(), TransactionState::kIdle);
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");  // the session works on
  EXPECT_EQ(ValueOfX(db_.get(), 1), 11);
  Ok(a_, "BEGIN");
  a_->EnterFailedBlock();  // only when idle
  EXPECT_EQ(a_->state(), TransactionState::kInBlock);
  Ok(a_, "ROLLBACK");
}

// Two sessions: every CC × every scheduler.
class FailedBlockLocksTest : public SessionBlockTest {};

// B's autocommit UPDATE of row 1 must not meet A's lock: A's block failed,
// so its transaction is gone. Under 2PL, B would otherwise wait until
// lock_timeout (55P03) or die (wait-die) or fail at once (NO_WAIT).
TEST_P(FailedBlockLocksTest, FailedTextReleasesTheBlocksLocks) {
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  EXPECT_FALSE(RunSql(a_, "UPDATE x SET v = WHERE id = 1").ok());
  Ok(b_, "UPDATE x SET v = 12 WHERE id = 1");
  Ok(a_, "ROLLBACK");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 12);
}

TEST_P(FailedBlockLocksTest, FailOpenBlockReleasesTheBlocksLocks) {
  Ok(a_, "BEGIN");
  Ok(a_, "UPDATE x SET v = 11 WHERE id = 1");
  a_->FailOpenBlock();
  EXPECT_EQ(a_->state(), TransactionState::kFailed);
  Ok(b_, "UPDATE x SET v = 12 WHERE id = 1");
  QueryResult r;
  ASSERT_TRUE(a_->Execute("COMMIT", &r).ok());
  EXPECT_EQ(r.command_tag, "ROLLBACK");
  EXPECT_EQ(ValueOfX(db_.get(), 1), 12);
}

INSTANTIATE_TEST_SUITE_P(EveryCc, SessionBlockTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames), ::testing::Values("random")),
                         test_params::CcSchedulerName);
INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, FailedBlockLocksTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
