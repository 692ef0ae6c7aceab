// A statement's memory is bounded (Options::statement_memory_bytes): one
// that would hold more fails with 54000 program_limit_exceeded instead of
// growing the process (found probing what one statement can allocate: a
// cross join of two series in a derived table materialized 30 million
// rows, 6.6 GB), rolls back, and the session and its memory are fine
// afterwards; a statement under the limit and a limit of 0 (none) run as
// before.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/database.h"
#include "test/engine/process_memory.h"

namespace paceline::engine {
namespace {

using test_memory::RssKb;

std::unique_ptr<Database> Open(size_t limit) {
  Options options;
  options.workers = 0;
  options.statement_memory_bytes = limit;
  std::unique_ptr<Database> db;
  EXPECT_TRUE(Database::Open(options, &db).ok());
  return db;
}

// 30 million rows materialized by the derived table unless bounded.
constexpr char kCrossJoin[] =
    "SELECT count(*) FROM (SELECT * FROM generate_series(1, 1000000) a, generate_series(1, 30) b) s";

TEST(StatementMemoryTest, AStatementPastTheLimitFailsWith54000AndTheSessionGoesOn) {
  std::unique_ptr<Database> db = Open(size_t{64} << 20);
  auto s = db->CreateSession();
  QueryResult r;
  ASSERT_TRUE(s->Execute("CREATE TABLE t (k INT PRIMARY KEY)", &r).ok());
  const size_t before_kb = RssKb();
  Status st = s->Execute(kCrossJoin, &r);
  EXPECT_TRUE(st.Is(sqlstate::kProgramLimitExceeded)) << st.ToString();
  EXPECT_NE(st.message().find("statement_memory_bytes"), std::string::npos) << st.message();
  // An unbounded result is bounded the same way.
  st = s->Execute("SELECT a, b FROM generate_series(1, 1000000) a, generate_series(1, 30) b", &r);
  EXPECT_TRUE(st.Is(sqlstate::kProgramLimitExceeded)) << st.ToString();
  EXPECT_TRUE(r.rows.empty());
  // Inside a block: the statement fails, the block is failed (25P02) until
  // ROLLBACK, the row written before it is gone.
  ASSERT_TRUE(s->Execute("BEGIN", &r).ok());
  ASSERT_TRUE(s->Execute("INSERT INTO t VALUES (1)", &r).ok());
  st = s->Execute(kCrossJoin, &r);
  EXPECT_TRUE(st.Is(sqlstate::kProgramLimitExceeded)) << st.ToString();
  EXPECT_FALSE(s->Execute("SELECT 1", &r).ok());
  ASSERT_TRUE(s->Execute("ROLLBACK", &r).ok());
  ASSERT_TRUE(s->Execute("SELECT count(*) FROM t", &r).ok());
  EXPECT_EQ(r.rows.at(0).at(0).int_value(), 0);
  // Under the limit: runs.
  ASSERT_TRUE(s->Execute("SELECT count(*) FROM (SELECT * FROM generate_series(1, 10000) a, generate_series(1, 3) b) s",
                         &r).ok());
  EXPECT_EQ(r.rows.at(0).at(0).int_value(), 30000);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the process's memory is the sanitizer's here";
#endif
  const size_t after_kb = RssKb();
  EXPECT_LT(after_kb, before_kb + (size_t{256} << 10)) << "the failed statements left " << after_kb - before_kb
                                                        << " KB resident";
}

TEST(StatementMemoryTest, ZeroMeansNoLimit) {
  std::unique_ptr<Database> db = Open(0);
  auto s = db->CreateSession();
  QueryResult r;
  ASSERT_TRUE(s->Execute("SELECT count(*) FROM (SELECT * FROM generate_series(1, 100000) a, generate_series(1, 3) b) s",
                         &r).ok());
  EXPECT_EQ(r.rows.at(0).at(0).int_value(), 300000);
}

}  // namespace
}  // namespace paceline::engine
