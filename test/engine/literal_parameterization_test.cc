// Options::parameterize_literals end to end: texts differing only in
// literals share one cached statement, and every statement gives exactly
// what it gives with the option off — rows, columns, command tags, errors
// with their SQLSTATE, message and position — through Session::Execute,
// Session::ExecuteScript and statement-list requests; footprints keep their
// references.
#include <gtest/gtest.h>

#include "engine/database.h"
#include "engine/footprint_builder.h"
#include "sql/literal_parameterizer.h"
#include "sql/prepared_statement.h"

namespace paceline::engine {
namespace {

constexpr const char* kSchema[] = {
    "CREATE TABLE t (k INT PRIMARY KEY, s SMALLINT, b BIGINT, n NUMERIC(12,2), f DOUBLE PRECISION, c CHAR(5), "
    "v VARCHAR(5), x TEXT, d DATE, ts TIMESTAMP, ok BOOLEAN)",
    "INSERT INTO t VALUES (1, 10, 100, 1.50, 0.5, 'ab', 'abc', 'it''s', '2020-01-01', '2020-01-01 10:00', true)",
    "INSERT INTO t VALUES (2, -20, 5000000000, -2.25, 1e3, 'xyz', 'v', 'x', '2021-06-30', '2021-06-30 00:00', false)",
    "INSERT INTO t VALUES (3, 30, -1, 0, -1.5, NULL, NULL, NULL, NULL, NULL, NULL)",
};

// Statements run in order against both databases (option on, option off);
// each must give the same outcome. Failing ones must fail identically.
constexpr const char* kStatements[] = {
    "SELECT k, s, b FROM t WHERE k = 1",
    "SELECT k FROM t WHERE k = 2",
    "SELECT k FROM t WHERE b = 5000000000",
    "SELECT k FROM t WHERE b = 5000000000.0",
    "SELECT k FROM t WHERE k = 1.5",
    "SELECT k FROM t WHERE k = 2.0",
    "SELECT k FROM t WHERE n = 1.5",
    "SELECT k FROM t WHERE n = '1.50'",
    "SELECT k FROM t WHERE n > -3 AND n < 1",
    "SELECT k FROM t WHERE f = 1000",
    "SELECT k FROM t WHERE f = '1e3'",
    "SELECT k FROM t WHERE s = 100000",
    "SELECT k FROM t WHERE s = -20",
    "SELECT k FROM t WHERE c = 'ab'",
    "SELECT k FROM t WHERE c = 'ab   '",
    "SELECT k FROM t WHERE v = 'abc'",
    "SELECT k FROM t WHERE x = 'it''s'",
    "SELECT k FROM t WHERE x = E'it\\'s'",
    "SELECT k FROM t WHERE x = $$it's$$",
    "SELECT k FROM t WHERE d = '2020-01-01'",
    "SELECT k FROM t WHERE d > '2020-06-01'",
    "SELECT k FROM t WHERE d = 'not a date'",
    "SELECT k FROM t WHERE ts = '2020-01-01 10:00:00'",
    "SELECT k FROM t WHERE k = '2'",
    "SELECT k FROM t WHERE k = 'two'",
    "SELECT k FROM t WHERE k = 5000000000",
    "SELECT k FROM t WHERE ok = 'true'",
    "SELECT k FROM t WHERE ok = 1",
    "SELECT k FROM t WHERE x = 5",
    "SELECT k + 1, k = 1, 'lit' FROM t WHERE k = 1",
    "SELECT k, s * 2 AS twice FROM t WHERE s + 1 > 5 ORDER BY 1",
    "SELECT k FROM t WHERE k = 1 + 1",
    "SELECT k FROM t WHERE k = 2147483647 + 1",
    "SELECT k FROM t WHERE k = 1 / 0",
    "SELECT k FROM t WHERE d = d + 1",
    "SELECT k FROM t WHERE d - 1 < '2021-01-01'",
    "SELECT k FROM t WHERE x || 'z' = 'xz'",
    "SELECT k FROM t WHERE k = -2147483648",
    "SELECT k FROM t WHERE nosuch = 1",
    "SELECT k FROM t WHERE k = 1 AND",
    "SELECT k FROM nosuch WHERE k = 1",
    "SELECT count(*) FROM t WHERE k >= 1 GROUP BY s > 0",
    "SELECT k FROM t WHERE CASE WHEN k = 1 THEN 'a' ELSE 'b' END = 'a'",
    "SELECT k FROM t WHERE x LIKE 'i%' AND k = 1 OR k = '2'",
    "SELECT k FROM t WHERE f = 0.5 OR f > 999.9",
    "SELECT k FROM t WHERE ts > '2020-06-01' AND d = '2020-01-01'::date + 0",
    "SELECT k FROM t WHERE x = 'é' OR x = 'x' -- comment = 1",
    "SELECT k FROM t WHERE k = 1 UNION SELECT 2",
    "SELECT k FROM t WHERE k = 1 LIMIT 1",
    "UPDATE t SET x = 'a' || 'b', n = -0.005 WHERE k = 3 RETURNING x, n",
    "UPDATE t SET x = NULL, f = 2 WHERE k = 3",
    "INSERT INTO t (k, c) VALUES (30, 'abcdefg')",
    "INSERT INTO t (k, c, f, ts) VALUES (31, 'ab', 1.5, '2020-01-01')",
    "UPDATE t SET s = s + 1, b = 7, n = 2.345, v = 'new' WHERE k = 1",
    "SELECT k, s, b, n, v FROM t WHERE k = 1",
    "UPDATE t SET s = 100000 WHERE k = 1",
    "UPDATE t SET s = 100000 WHERE k = 99",
    "UPDATE t SET v = 'toolong' WHERE k = 99",
    "UPDATE t SET v = 'long    ' WHERE k = 1",
    "UPDATE t SET d = 5 WHERE k = 1",
    "UPDATE t SET ok = 1 WHERE k = 1",
    "UPDATE t SET x = 5 WHERE k = 1",
    "UPDATE t SET n = 12345678901 WHERE k = 1",
    "UPDATE t SET b = 1.5 WHERE k = 2",
    "SELECT k, s, b, n, v, d, x FROM t ORDER BY k",
    "INSERT INTO t (k, s, b, n, v, d, x) VALUES (10, 1, 2, 3.456, 'v', '2022-02-02', 7)",
    "INSERT INTO t (k, s) VALUES (11, 100000)",
    "INSERT INTO t (k, v) VALUES (12, 'toolong')",
    "INSERT INTO t (k, d) VALUES (13, 5)",
    "INSERT INTO t (k, ok) VALUES (14, 1)",
    "INSERT INTO t (k, b) VALUES (15, 1.5), (16, -2.5)",
    "INSERT INTO t (k, s) VALUES (17, 1, 2)",
    "INSERT INTO t (k) VALUES (10)",
    "INSERT INTO t (k, n) VALUES (18, 1 + 0.005) RETURNING k, n",
    "SELECT k, s, b, n, v, d, x, ok FROM t ORDER BY k",
    "DELETE FROM t WHERE k = 17 - 1",
    "DELETE FROM t WHERE k = 10 RETURNING k",
    "SELECT k FROM t ORDER BY k",
};

std::string Describe(const Status& s, const QueryResult& r) {
  std::string out = std::string(s.sqlstate()) + "|" + s.message() + "|" + std::to_string(s.position()) + "|" +
                    r.command_tag + "|" + std::to_string(r.rows_affected) + "|";
  for (const auto& c : r.columns) out += c.name + ":" + c.type.ToString() + ",";
  out += "|";
  for (const auto& row : r.rows) {
    for (const auto& v : row) out += v.ToString() + ",";
    out += ";";
  }
  return out;
}

class LiteralParameterizationTest : public ::testing::Test {
 protected:
  void Open(bool on, std::unique_ptr<Database>* db) {
    Options options;
    options.workers = 1;
    options.parameterize_literals = on;
    ASSERT_TRUE(Database::Open(options, db).ok());
    auto session = (*db)->CreateSession();
    for (const char* sql : kSchema) {
      QueryResult r;
      ASSERT_TRUE(session->Execute(sql, &r).ok()) << sql;
    }
  }
};

// Four rounds: a text is prepared by its normalized form the first time,
// remembered as it is the second, run from there the third; the schema
// changes before the fourth, which must bind it again.
TEST_F(LiteralParameterizationTest, ExecuteGivesWhatTheLiteralsGive) {
  std::unique_ptr<Database> on, off;
  Open(true, &on);
  Open(false, &off);
  auto a = on->CreateSession();
  auto b = off->CreateSession();
  for (int round = 1; round <= 4; ++round) {
    if (round == 4) {
      QueryResult r;
      ASSERT_TRUE(a->Execute("CREATE INDEX t_b ON t (b)", &r).ok());
      ASSERT_TRUE(b->Execute("CREATE INDEX t_b ON t (b)", &r).ok());
    }
    for (const char* sql : kStatements) {
      QueryResult ra, rb;
      Status sa = a->Execute(sql, &ra);
      Status sb = b->Execute(sql, &rb);
      EXPECT_EQ(Describe(sa, ra), Describe(sb, rb)) << "round " << round << ": " << sql;
    }
  }
}

TEST_F(LiteralParameterizationTest, ExecuteScriptGivesWhatTheLiteralsGive) {
  std::unique_ptr<Database> on, off;
  Open(true, &on);
  Open(false, &off);
  auto a = on->CreateSession();
  auto b = off->CreateSession();
  for (bool block : {false, true, true}) {  // the second block runs texts seen before
    if (block) {
      std::vector<QueryResult> ignored;
      ASSERT_TRUE(a->ExecuteScript("BEGIN", &ignored).ok());
      ASSERT_TRUE(b->ExecuteScript("BEGIN", &ignored).ok());
    }
    for (const char* sql : kStatements) {
      std::vector<QueryResult> ra, rb;
      Status sa = a->ExecuteScript(sql, &ra);
      Status sb = b->ExecuteScript(sql, &rb);
      ASSERT_EQ(ra.size(), rb.size()) << sql;
      EXPECT_EQ(Describe(sa, ra.empty() ? QueryResult{} : ra[0]), Describe(sb, rb.empty() ? QueryResult{} : rb[0]))
          << sql;
      EXPECT_EQ(a->state(), b->state()) << sql;
      if (block && a->state() == TransactionState::kFailed) {  // start a new block after a failure
        std::vector<QueryResult> ignored;
        ASSERT_TRUE(a->ExecuteScript("ROLLBACK; BEGIN", &ignored).ok());
        ASSERT_TRUE(b->ExecuteScript("ROLLBACK; BEGIN", &ignored).ok());
      }
    }
  }
}

TEST_F(LiteralParameterizationTest, TextsDifferingInLiteralsShareOneStatement) {
  std::unique_ptr<Database> db;
  Open(true, &db);
  auto session = db->CreateSession();
  const uint64_t misses = db->statement_cache().misses();
  for (int k = 1; k <= 3; ++k) {
    QueryResult r;
    ASSERT_TRUE(session->Execute("SELECT s FROM t WHERE k = " + std::to_string(k), &r).ok());
    ASSERT_EQ(r.rows.size(), 1u);
  }
  EXPECT_EQ(db->statement_cache().misses(), misses + 1);
  // Another session finds it in the shared cache.
  auto other = db->CreateSession();
  QueryResult r;
  const uint64_t hits = db->statement_cache().hits();
  ASSERT_TRUE(other->Execute("SELECT s FROM t WHERE k = 42", &r).ok());
  EXPECT_EQ(db->statement_cache().hits(), hits + 1);
  EXPECT_EQ(db->statement_cache().misses(), misses + 1);
  // A literal of another type is another plan: int8, numeric, a string.
  ASSERT_TRUE(session->Execute("SELECT s FROM t WHERE k = 5000000000", &r).ok());
  ASSERT_TRUE(session->Execute("SELECT s FROM t WHERE k = 1.0", &r).ok());
  EXPECT_EQ(r.rows.size(), 1u);
  ASSERT_TRUE(session->Execute("SELECT s FROM t WHERE k = '1'", &r).ok());
  EXPECT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(db->statement_cache().misses(), misses + 4);
  // Scripts and statement lists share it too.
  std::vector<QueryResult> results;
  ASSERT_TRUE(session->ExecuteScript("SELECT s FROM t WHERE k = 3", &results).ok());
  TransactionResult tr;
  db->Execute(TransactionRequest::Statements({{"SELECT s FROM t WHERE k = 2", {}},
                                              {"UPDATE t SET s = s + 1 WHERE k = $1", {Value::Int32(2)}},
                                              {"UPDATE t SET s = s + 1 WHERE k = 2", {}}}),
              &tr);
  ASSERT_TRUE(tr.status.ok()) << tr.status.message();
  ASSERT_EQ(tr.results.size(), 3u);
  EXPECT_EQ(tr.results[0].rows.size(), 1u);
  EXPECT_EQ(tr.results[2].rows_affected, 1u);
  ASSERT_TRUE(session->Execute("SELECT s FROM t WHERE k = 2", &r).ok());
  EXPECT_EQ(r.rows[0][0], Value::Int16(-18));
  // The SELECT hit; each UPDATE is a new normalized text (`s + $2 ... k =
  // $1` after the caller's $1, and `s + $1 ... k = $2`).
  EXPECT_EQ(db->statement_cache().misses(), misses + 6);
}

TEST_F(LiteralParameterizationTest, FootprintsKeepTheirReferences) {
  std::unique_ptr<Database> db;
  Open(true, &db);
  scheduler::FootprintSpec spec;
  spec.references = true;
  for (const char* sql : {"UPDATE t SET s = s + -3, v = 'q' WHERE k = 2", "SELECT k FROM t WHERE k = 1 AND d = '2020-01-01'",
                          "INSERT INTO t (k, s, v) VALUES (20, 5, 'w')", "DELETE FROM t WHERE b = 5000000000"}) {
    std::shared_ptr<sql::PreparedStatement> literal, normalized;
    ASSERT_TRUE(sql::PreparedStatement::Prepare(sql, db->catalog(), {}, &literal).ok()) << sql;
    sql::ParameterizedStatement p;
    ASSERT_TRUE(sql::LiteralParameterizer::Parameterize(sql, 0, &p)) << sql;
    ASSERT_TRUE(sql::PreparedStatement::Prepare(p.text, db->catalog(), p.declared, &normalized).ok()) << p.text;
    std::vector<Value> params;
    ASSERT_TRUE(sql::LiteralParameterizer::BindLiterals(p, *normalized, &params)) << sql;
    FootprintBuilder a(spec, /*with_names=*/true), b(spec, /*with_names=*/true);
    a.Add(*literal, {});
    b.Add(*normalized, params);
    scheduler::Footprint fa = a.Finish(), fb = b.Finish();
    EXPECT_EQ(fa.references, fb.references) << sql;
    EXPECT_EQ(a.Names(), b.Names()) << sql;
    EXPECT_FALSE(fa.references.empty()) << sql;
    EXPECT_EQ(literal->columns.size(), normalized->columns.size());
  }
}

}  // namespace
}  // namespace paceline::engine
