// EXPLAIN through a Session: the plan in PostgreSQL's node vocabulary, the
// scheduler's view of the statement's references, EXPLAIN ANALYZE's counts
// and its effects, JSON, parameters, and the option errors.
//
// The evidence test makes one conflict the scheduler learns from, as the
// conflict attribution test does:
//   interleaving (table a, k = 1)                           CC    blamed
//   A: BEGIN; SELECT a k=1; UPDATE b k=1 | B: UPDATE a k=1   occ   a.k=1
//      | A: COMMIT → 40001
//   A: BEGIN; UPDATE a k=1 | B: BEGIN; UPDATE b k=1;        2pl   a.k=1
//      UPDATE a k=1 → 40001
// and EXPLAIN of a statement reading a's row k = 1 must then show that
// reference with its blamed abort (excluded: EXPLAIN showing references
// without the policy's evidence, or evidence for one it never blamed).
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {
namespace {

class ExplainTest : public ::testing::TestWithParam<std::string> {
 protected:
  void Open(const std::string& scheduler) {
    a_.reset();
    b_.reset();
    db_.reset();
    Options options;
    options.cc = GetParam();
    options.scheduler = scheduler;
    options.workers = 1;
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
    Ok(a_.get(), "CREATE TABLE a (k INT PRIMARY KEY, v INT)");
    Ok(a_.get(), "CREATE TABLE b (k INT PRIMARY KEY, v INT, name TEXT)");
    Ok(a_.get(), "INSERT INTO a VALUES (1, 0), (2, 0), (3, 0)");
    Ok(a_.get(), "INSERT INTO b VALUES (1, 0, 'x'), (2, 5, 'y')");
  }
  static Status Run(Session* s, const std::string& sql, QueryResult* r = nullptr,
                    const std::vector<Value>& params = {}) {
    QueryResult local;
    return s->Execute(sql, params, r ? r : &local);
  }
  static void Ok(Session* s, const std::string& sql) {
    Status st = Run(s, sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
  }
  // EXPLAIN's lines (one column of text).
  static std::vector<std::string> Lines(Session* s, const std::string& sql, const std::vector<Value>& params = {}) {
    QueryResult r;
    Status st = Run(s, sql, &r, params);
    EXPECT_TRUE(st.ok()) << sql << ": " << st.ToString();
    std::vector<std::string> lines;
    for (const auto& row : r.rows) lines.push_back(row[0].ToString());
    EXPECT_EQ(r.command_tag, "EXPLAIN");
    return lines;
  }
  static bool Has(const std::vector<std::string>& lines, const std::string& line) {
    for (const auto& l : lines) {
      if (l == line) return true;
    }
    return false;
  }
  static std::string Joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  }
  int64_t ValueOfA(int k) {
    QueryResult r;
    Status st = Run(a_.get(), "SELECT v FROM a WHERE k = " + std::to_string(k), &r);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return r.rows.empty() ? -1 : r.rows[0][0].int_value();
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_P(ExplainTest, ShowsThePlanInPostgresNodeVocabulary) {
  Open("adaptive");
  auto lines = Lines(a_.get(), "EXPLAIN SELECT v FROM a WHERE k = 2");
  ASSERT_GE(lines.size(), 2u) << Joined(lines);
  EXPECT_EQ(lines[0], "Index Scan using a_pkey on a");
  EXPECT_EQ(lines[1], "  Index Cond: (k = 2)");

  lines = Lines(a_.get(), "EXPLAIN SELECT * FROM a JOIN b ON b.name = 'x' AND a.v = b.v ORDER BY a.k DESC LIMIT 1");
  EXPECT_EQ(lines[0], "Limit") << Joined(lines);
  EXPECT_EQ(lines[1], "  ->  Sort") << Joined(lines);
  EXPECT_EQ(lines[2], "        Sort Key: a.k DESC") << Joined(lines);
  EXPECT_TRUE(Has(lines, "              Hash Cond: (a.v = b.v)") || Has(lines, "        ->  Nested Loop"))
      << Joined(lines);

  lines = Lines(a_.get(), "EXPLAIN SELECT k FROM a WHERE v > (SELECT min(v) FROM b)");
  EXPECT_EQ(lines[0], "Seq Scan on a") << Joined(lines);
  EXPECT_EQ(lines[1], "  Filter: (v > (InitPlan 1))") << Joined(lines);
  EXPECT_EQ(lines[2], "  InitPlan 1") << Joined(lines);
  EXPECT_EQ(lines[3], "    ->  Aggregate") << Joined(lines);
}

TEST_P(ExplainTest, ShowsTheSchedulersReferencesInBothForms) {
  Open("adaptive");
  auto lines = Lines(a_.get(), "EXPLAIN UPDATE a SET v = v + 1 WHERE k = $1", {Value::Int32(3)});
  EXPECT_TRUE(Has(lines, "Scheduler: adaptive (canonical references)")) << Joined(lines);
  EXPECT_TRUE(Has(lines, "Reference: a.k=3 (no evidence)")) << Joined(lines);
  EXPECT_TRUE(Has(lines, "Literal References: a.k=3")) << Joined(lines);
  EXPECT_EQ(ValueOfA(3), 0);  // without ANALYZE nothing runs

  Open("random");
  lines = Lines(a_.get(), "EXPLAIN SELECT v FROM a WHERE k = 1");
  EXPECT_TRUE(Has(lines, "Scheduler: random (places without references)")) << Joined(lines);
  EXPECT_TRUE(Has(lines, "Reference: a.k=1 (no evidence)")) << Joined(lines);
}

TEST_P(ExplainTest, ShowsTheEvidenceOfAReferenceBlamedForAnAbort) {
  Open("adaptive");
  if (GetParam() == "occ") {
    Ok(a_.get(), "BEGIN");
    Ok(a_.get(), "SELECT v FROM a WHERE k = 1");
    Ok(a_.get(), "UPDATE b SET v = v + 1 WHERE k = 1");
    Ok(b_.get(), "UPDATE a SET v = v + 1 WHERE k = 1");
    ASSERT_EQ(Run(a_.get(), "COMMIT").sqlstate(), sqlstate::kSerializationFailure);
  } else {
    Ok(a_.get(), "BEGIN");
    Ok(a_.get(), "UPDATE a SET v = v + 1 WHERE k = 1");
    Ok(b_.get(), "BEGIN");
    Ok(b_.get(), "UPDATE b SET v = v + 1 WHERE k = 1");
    ASSERT_EQ(Run(b_.get(), "UPDATE a SET v = v + 1 WHERE k = 1").sqlstate(), sqlstate::kSerializationFailure);
    Run(b_.get(), "ROLLBACK");
    Ok(a_.get(), "COMMIT");
  }
  auto lines = Lines(a_.get(), "EXPLAIN SELECT v FROM a WHERE k = 1");
  std::string reference;
  for (const auto& l : lines) {
    if (l.rfind("Reference: a.k=1 (", 0) == 0) reference = l;
  }
  EXPECT_NE(reference.find("blamed aborts 1.0"), std::string::npos) << Joined(lines);
  // Another key of the same column was never blamed.
  lines = Lines(a_.get(), "EXPLAIN SELECT v FROM a WHERE k = 2");
  EXPECT_TRUE(Has(lines, "Reference: a.k=2 (no evidence)")) << Joined(lines);
}

TEST_P(ExplainTest, AnalyzeCountsRowsAndRunsTheStatement) {
  Open("adaptive");
  auto lines = Lines(a_.get(), "EXPLAIN (ANALYZE, TIMING off) SELECT a.k FROM a JOIN b ON b.k = a.k WHERE a.v = 0");
  EXPECT_EQ(lines[0], "Nested Loop  (actual rows=2 loops=1)") << Joined(lines);
  EXPECT_EQ(lines[1], "  ->  Seq Scan on a  (actual rows=3 loops=1)") << Joined(lines);
  EXPECT_EQ(lines[3], "  ->  Index Scan using b_pkey on b  (actual rows=1 loops=3)") << Joined(lines);
  EXPECT_EQ(lines.back().rfind("Execution Time: ", 0), 0u) << Joined(lines);

  lines = Lines(a_.get(), "EXPLAIN ANALYZE SELECT k FROM a WHERE v = 1");
  EXPECT_TRUE(Has(lines, "  Rows Removed by Filter: 3")) << Joined(lines);

  // Its writes happen (as in PostgreSQL), and a block's ROLLBACK undoes them.
  Lines(a_.get(), "EXPLAIN ANALYZE UPDATE a SET v = v + 10 WHERE k = 2");
  EXPECT_EQ(ValueOfA(2), 10);
  Ok(a_.get(), "BEGIN");
  Lines(a_.get(), "EXPLAIN (ANALYZE, SUMMARY off) DELETE FROM a WHERE k = 3");
  Ok(a_.get(), "ROLLBACK");
  EXPECT_EQ(ValueOfA(3), 0);

  // A failing statement fails the EXPLAIN.
  QueryResult r;
  EXPECT_EQ(Run(a_.get(), "EXPLAIN ANALYZE SELECT 1 / (v - v) FROM a", &r).sqlstate(), "22012");
}

// A hash join as PostgreSQL counts it: the Hash is built once from the
// inner source's rows that pass its own filter (b.name <> 'z': both of
// b's rows), and the condition checked per joined pair is the join's
// (b.k + 0 >= a.k rejects a.k = 2 and 3, which match b.k = 1 on v).
TEST_P(ExplainTest, AnalyzeCountsAHashJoinsBuildOnce) {
  Open("adaptive");
  auto lines = Lines(a_.get(), "EXPLAIN (ANALYZE, TIMING off) SELECT a.k FROM a JOIN b ON b.v = a.v AND b.k + 0 >= a.k "
                               "WHERE b.name <> 'z'");
  const std::vector<std::string> expected = {
      "Hash Join  (actual rows=1 loops=1)",
      "  Hash Cond: (a.v = b.v)",
      "  Join Filter: ((b.k + 0) >= a.k)",
      "  Rows Removed by Join Filter: 2",
      "  ->  Seq Scan on a  (actual rows=3 loops=1)",
      "  ->  Hash  (actual rows=2 loops=1)",
      "        ->  Seq Scan on b  (actual rows=2 loops=1)",
      "              Filter: (b.name <> 'z'::text)",
  };
  ASSERT_GE(lines.size(), expected.size()) << Joined(lines);
  EXPECT_EQ(std::vector<std::string>(lines.begin(), lines.begin() + expected.size()), expected) << Joined(lines);
  // A filter that removed nothing is not shown (text format), as PostgreSQL.
  lines = Lines(a_.get(), "EXPLAIN (ANALYZE, TIMING off) SELECT k FROM a WHERE v = 0");
  EXPECT_FALSE(Has(lines, "  Rows Removed by Filter: 0")) << Joined(lines);

  // A LEFT join counts the rows it returns, NULL-extended ones included
  // (a.k = 2 and 3 match nothing that passes the join filter); a row with a
  // NULL key is read but not put in the hash table.
  Ok(a_.get(), "INSERT INTO b VALUES (3, NULL, 'z')");
  lines = Lines(a_.get(), "EXPLAIN (ANALYZE, TIMING off) SELECT a.k FROM a LEFT JOIN b ON b.v = a.v AND b.k + 0 >= a.k");
  ASSERT_GE(lines.size(), 7u) << Joined(lines);
  EXPECT_EQ(lines[0], "Hash Left Join  (actual rows=3 loops=1)") << Joined(lines);
  EXPECT_EQ(lines[3], "  Rows Removed by Join Filter: 2") << Joined(lines);
  EXPECT_EQ(lines[5], "  ->  Hash  (actual rows=2 loops=1)") << Joined(lines);
  EXPECT_EQ(lines[6], "        ->  Seq Scan on b  (actual rows=3 loops=1)") << Joined(lines);
}

// The time of each node, as PostgreSQL shows it: "actual time=startup..total"
// in milliseconds per loop. A scan whose filter sleeps 20 ms for each of
// a's three rows takes at least 60 ms; the join above it at least as long;
// the index scan's rows are found by its 3 loops.
TEST_P(ExplainTest, AnalyzeTimesEachNode) {
  Open("adaptive");
  auto lines = Lines(a_.get(),
                     "EXPLAIN ANALYZE SELECT a.k FROM a JOIN b ON b.k = a.k WHERE pg_sleep(0.02)::text = ''");
  auto time_of = [&](size_t line, double* startup, double* total) {
    const std::string& l = lines.at(line);
    const size_t at = l.find("(actual time=");
    if (at == std::string::npos) return false;
    return std::sscanf(l.c_str() + at, "(actual time=%lf..%lf", startup, total) == 2;
  };
  double join_startup = 0, join_total = 0, scan_startup = 0, scan_total = 0, index_startup = 0, index_total = 0;
  ASSERT_TRUE(time_of(0, &join_startup, &join_total)) << Joined(lines);
  ASSERT_TRUE(time_of(1, &scan_startup, &scan_total)) << Joined(lines);
  ASSERT_NE(lines[1].find("Seq Scan on a"), std::string::npos) << Joined(lines);
  ASSERT_NE(lines[3].find("Index Scan using b_pkey on b"), std::string::npos) << Joined(lines);
  ASSERT_TRUE(time_of(3, &index_startup, &index_total)) << Joined(lines);
  EXPECT_NE(lines[3].find("rows=1 loops=3"), std::string::npos) << Joined(lines);
  EXPECT_GE(scan_total, 60.0) << Joined(lines);
  EXPECT_GE(scan_startup, 20.0) << Joined(lines);  // its first row passed after one sleep
  EXPECT_LE(scan_startup, scan_total) << Joined(lines);
  EXPECT_LE(index_startup, index_total) << Joined(lines);
  EXPECT_GE(join_total, scan_total) << Joined(lines);

  // JSON names them as PostgreSQL does; TIMING off leaves them out.
  QueryResult r;
  ASSERT_TRUE(Run(a_.get(), "EXPLAIN (FORMAT JSON, ANALYZE) SELECT v FROM a WHERE k = 1", &r).ok());
  const std::string json = r.rows.at(0).at(0).ToString();
  EXPECT_NE(json.find("\"Actual Startup Time\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"Actual Total Time\": "), std::string::npos) << json;
  lines = Lines(a_.get(), "EXPLAIN (ANALYZE, TIMING off) SELECT v FROM a WHERE k = 1");
  EXPECT_EQ(lines[0].find("time="), std::string::npos) << Joined(lines);
}

TEST_P(ExplainTest, JsonFormatIsOneRowOfJson) {
  Open("adaptive");
  QueryResult r;
  ASSERT_TRUE(Run(a_.get(), "EXPLAIN (FORMAT JSON, ANALYZE) SELECT v FROM a WHERE k = 1", &r).ok());
  ASSERT_EQ(r.rows.size(), 1u);
  ASSERT_EQ(r.columns.size(), 1u);
  EXPECT_EQ(r.columns[0].type.id, TypeId::kJson);
  const std::string json = r.rows[0][0].ToString();
  EXPECT_NE(json.find("\"Node Type\": \"Index Scan\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"Index Name\": \"a_pkey\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"Actual Rows\": 1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"Reference\": \"a.k=1\""), std::string::npos) << json;
  EXPECT_EQ(json.front(), '[');
}

TEST_P(ExplainTest, BadOptionsAreErrorsNamingThem) {
  Open("adaptive");
  Status st = Run(a_.get(), "EXPLAIN (foo) SELECT 1");
  EXPECT_EQ(st.sqlstate(), sqlstate::kSyntaxError);
  EXPECT_NE(st.message().find("unrecognized EXPLAIN option \"foo\""), std::string::npos) << st.ToString();
  EXPECT_EQ(Run(a_.get(), "EXPLAIN (TIMING) SELECT 1").sqlstate(), sqlstate::kInvalidParameterValue);
  EXPECT_EQ(Run(a_.get(), "EXPLAIN (FORMAT pdf) SELECT 1").sqlstate(), sqlstate::kInvalidParameterValue);
  EXPECT_EQ(Run(a_.get(), "EXPLAIN (ANALYZE maybe) SELECT 1").sqlstate(), sqlstate::kSyntaxError);
  EXPECT_EQ(Run(a_.get(), "EXPLAIN EXECUTE p").sqlstate(), sqlstate::kFeatureNotSupported);
  EXPECT_EQ(Run(a_.get(), "EXPLAIN SELECT * FROM missing").sqlstate(), sqlstate::kUndefinedTable);
  // VERBOSE lists the outputs; ANALYZE and VERBOSE words in either order.
  auto lines = Lines(a_.get(), "EXPLAIN ANALYZE VERBOSE SELECT v + 1 FROM a WHERE k = 1");
  EXPECT_TRUE(Has(lines, "  Output: (v + 1)")) << Joined(lines);
}

INSTANTIATE_TEST_SUITE_P(Cc, ExplainTest, ::testing::Values("occ", "2pl"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace paceline::engine
