// AccessPathPlanner through the binder: for each predicate shape, the access
// path (point lookup, prefix/range scan, IN-list probes, full scan) and the
// index chosen — the planner must use an index whenever a predicate allows.
#include "sql/access_path_planner.h"

#include <gtest/gtest.h>

#include "engine/database.h"
#include "sql/prepared_statement.h"

namespace paceline::sql {
namespace {

class AccessPathPlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const engine::Options options;  // named: GCC 12 -O3 misreads a temporary's strings
    ASSERT_TRUE(engine::Database::Open(options, &db_).ok());
    auto s = db_->CreateSession();
    QueryResult r;
    for (const char* ddl : {
             "CREATE TABLE order_line (ol_w_id INT, ol_d_id INT, ol_o_id INT, ol_number INT, ol_i_id INT, "
             "ol_amount NUMERIC(6,2), PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))",
             "CREATE INDEX ol_item ON order_line (ol_i_id)",
             "CREATE TABLE stock (s_w_id INT, s_i_id INT, s_quantity INT, PRIMARY KEY (s_w_id, s_i_id))",
             "CREATE TABLE customer (c_w_id INT, c_id INT, c_last VARCHAR(16), PRIMARY KEY (c_w_id, c_id))",
             "CREATE INDEX customer_last ON customer (c_w_id, c_last)",
             "CREATE TABLE notes (n_w_id INT, n_big BIGINT, n_text TEXT, n_real FLOAT8)",
             "CREATE TABLE jobs (id INT PRIMARY KEY, owner INT, done BOOL, prio INT, state TEXT)",
             "CREATE UNIQUE INDEX jobs_open ON jobs (owner) WHERE NOT done",
             "CREATE INDEX jobs_urgent ON jobs (prio) WHERE prio > 5 AND state IS NOT NULL",
             "CREATE INDEX jobs_queue ON jobs (id) WHERE state = 'queued'",
         }) {
      ASSERT_TRUE(s->Execute(ddl, &r).ok()) << ddl;
    }
  }

  // The access path of FROM source `source` of a SELECT, or of an UPDATE/DELETE target.
  const AccessPath& Path(const std::string& sql, size_t source = 0) {
    Status s = PreparedStatement::Prepare(sql, db_->catalog(), {}, &prepared_);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
    if (prepared_->select) return prepared_->select->sources.at(source).access;
    if (prepared_->update) return prepared_->update->target.access;
    return prepared_->del->target.access;
  }
  static std::string IndexName(const AccessPath& p) { return p.index ? p.index->schema().name : "(none)"; }

  // FROM source `source` of a SELECT.
  const SourcePlan& Source(const std::string& sql, size_t source) {
    Status s = PreparedStatement::Prepare(sql, db_->catalog(), {}, &prepared_);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
    return prepared_->select->sources.at(source);
  }

  std::unique_ptr<engine::Database> db_;
  std::shared_ptr<PreparedStatement> prepared_;
};

TEST_F(AccessPathPlannerTest, FullKeyEqualityIsAPointLookup) {
  const AccessPath& p = Path("SELECT s_quantity FROM stock WHERE s_i_id = $1 AND s_w_id = $2");
  EXPECT_EQ(p.kind, AccessKind::kIndexPoint);
  EXPECT_EQ(IndexName(p), "stock_pkey");
  EXPECT_EQ(p.equal.size(), 2u);
  EXPECT_EQ(Path("UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3").kind, AccessKind::kIndexPoint);
  EXPECT_EQ(Path("DELETE FROM stock WHERE s_w_id = 1 AND s_i_id = 2").kind, AccessKind::kIndexPoint);
}

TEST_F(AccessPathPlannerTest, KeyPrefixIsARangeScan) {
  const AccessPath& p = Path("SELECT ol_i_id FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3");
  EXPECT_EQ(p.kind, AccessKind::kIndexRange);
  EXPECT_EQ(IndexName(p), "order_line_pkey");
  EXPECT_EQ(p.equal.size(), 3u);
}

TEST_F(AccessPathPlannerTest, PrefixPlusBoundsOnNextColumn) {
  // TPC-C StockLevel's order_line range: o_id in [next - 20, next).
  const AccessPath& p = Path(
      "SELECT ol_i_id FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id < $3 AND ol_o_id >= $4");
  EXPECT_EQ(p.kind, AccessKind::kIndexRange);
  EXPECT_EQ(p.equal.size(), 2u);
  ASSERT_TRUE(p.lower && p.upper);
  EXPECT_TRUE(p.lower_inclusive);
  EXPECT_FALSE(p.upper_inclusive);
  const AccessPath& between = Path("SELECT 1 FROM order_line WHERE ol_w_id = 1 AND ol_d_id BETWEEN 2 AND 5");
  EXPECT_EQ(between.kind, AccessKind::kIndexRange);
  EXPECT_TRUE(between.lower && between.upper && between.lower_inclusive && between.upper_inclusive);
}

TEST_F(AccessPathPlannerTest, SecondaryIndexWhenItsPrefixIsBound) {
  const AccessPath& p = Path("SELECT c_id FROM customer WHERE c_w_id = $1 AND c_last = $2 ORDER BY c_id");
  EXPECT_EQ(p.kind, AccessKind::kIndexRange);
  EXPECT_EQ(IndexName(p), "customer_last");
  EXPECT_EQ(p.equal.size(), 2u);
  EXPECT_EQ(IndexName(Path("SELECT 1 FROM order_line WHERE ol_i_id = 7")), "ol_item");
}

TEST_F(AccessPathPlannerTest, InListProbesTheIndex) {
  const AccessPath& p = Path("SELECT 1 FROM stock WHERE s_w_id = 1 AND s_i_id IN (1, 2, 3)");
  EXPECT_EQ(p.kind, AccessKind::kIndexPoint);
  EXPECT_EQ(p.equal.size(), 1u);
  EXPECT_EQ(p.in_list.size(), 3u);
  const AccessPath& q = Path("SELECT 1 FROM order_line WHERE ol_i_id IN ($1, $2)");
  EXPECT_EQ(q.kind, AccessKind::kIndexRange);
  EXPECT_EQ(q.in_list.size(), 2u);
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_i_id NOT IN (1, 2)").kind, AccessKind::kFullScan);
}

TEST_F(AccessPathPlannerTest, JoinProbesInnerTableWithOuterColumns) {
  // TPC-C StockLevel: order_line range, then stock by (w, i) from the outer row.
  const char* sql =
      "SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = $1 AND ol_d_id = $2 "
      "AND ol_o_id < $3 AND ol_o_id >= $4 AND s_w_id = $1 AND s_i_id = ol_i_id AND s_quantity < $5";
  EXPECT_EQ(Path(sql, 0).kind, AccessKind::kIndexRange);
  const AccessPath& inner = Path(sql, 1);
  EXPECT_EQ(inner.kind, AccessKind::kIndexPoint);
  EXPECT_EQ(IndexName(inner), "stock_pkey");
}

TEST_F(AccessPathPlannerTest, OrderByFollowingTheIndexNeedsNoSort) {
  auto ordered = [&](const std::string& sql) {
    Path(sql);
    return prepared_->select->ordered_by_index;
  };
  // TPC-C Delivery: the oldest new order of a district is the first entry.
  EXPECT_TRUE(ordered("SELECT ol_o_id FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 ORDER BY ol_o_id LIMIT 1"));
  EXPECT_TRUE(ordered("SELECT 1 FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 ORDER BY ol_d_id, ol_o_id, ol_number"));
  EXPECT_TRUE(ordered("SELECT c_id FROM customer WHERE c_w_id = 1 AND c_last = 'x' ORDER BY c_w_id"));
  EXPECT_TRUE(ordered("SELECT 1 FROM stock WHERE s_w_id = 1 AND s_i_id = 2 ORDER BY s_quantity")) << "one row at most";
  EXPECT_FALSE(ordered("SELECT 1 FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 ORDER BY ol_o_id DESC"));
  EXPECT_FALSE(ordered("SELECT 1 FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 ORDER BY ol_number"));
  EXPECT_FALSE(ordered("SELECT 1 FROM order_line WHERE ol_w_id = 1 ORDER BY ol_o_id")) << "ol_d_id comes first";
  EXPECT_FALSE(ordered("SELECT 1 FROM order_line WHERE ol_i_id IN (1, 2) ORDER BY ol_i_id")) << "IN probes";
  // No condition on a key: the whole index in order beats a sort (a queue's
  // `ORDER BY id LIMIT 1` reads one entry), when the sort keys lead it.
  EXPECT_TRUE(ordered("SELECT 1 FROM stock WHERE s_quantity < 5 ORDER BY s_w_id, s_i_id"));
  EXPECT_EQ(Path("SELECT 1 FROM stock ORDER BY s_w_id LIMIT 1").kind, AccessKind::kIndexRange);
  EXPECT_EQ(Path("SELECT 1 FROM stock ORDER BY s_w_id LIMIT 1").lower, nullptr);
  EXPECT_FALSE(ordered("SELECT 1 FROM stock WHERE s_quantity < 5 ORDER BY s_i_id")) << "not the leading column";
  EXPECT_EQ(Path("SELECT 1 FROM stock ORDER BY s_i_id").kind, AccessKind::kFullScan);
  EXPECT_FALSE(ordered("SELECT 1 FROM stock ORDER BY s_w_id DESC"));
  EXPECT_EQ(Path("SELECT 1 FROM stock ORDER BY s_w_id DESC").kind, AccessKind::kFullScan);
  EXPECT_FALSE(ordered("SELECT DISTINCT ol_o_id FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 ORDER BY ol_o_id"));
}

TEST_F(AccessPathPlannerTest, NoUsablePredicateMeansFullScan) {
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_quantity < 10").kind, AccessKind::kFullScan);
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_i_id = 5").kind, AccessKind::kFullScan) << "not a key prefix";
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_w_id = 1 OR s_i_id = 2").kind, AccessKind::kFullScan);
  // A numeric literal with more scale than an integer key column cannot probe it exactly.
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_w_id = 1.5").kind, AccessKind::kFullScan);
}

// A source no index serves, joined by an equality with an earlier source:
// a hash join on that equality; its filters that read no earlier source
// select the rows that go into the hash table.
TEST_F(AccessPathPlannerTest, EqualityWithoutIndexIsAHashJoin) {
  const SourcePlan& n =
      Source("SELECT 1 FROM stock s JOIN notes n ON n.n_w_id = s.s_w_id AND n.n_text = 'x' WHERE s.s_w_id = 1", 1);
  EXPECT_EQ(n.access.kind, AccessKind::kFullScan);
  ASSERT_EQ(n.hash_build.size(), 1u);
  EXPECT_EQ(n.hash_build[0]->source, 1);
  EXPECT_EQ(n.hash_probe[0]->source, 0);
  EXPECT_EQ(n.local_filters.size(), 1u) << "n_text = 'x' reads n alone";
  // Two keys, either side of `=`; integers of different widths hash alike.
  EXPECT_EQ(Source("SELECT 1 FROM stock s, notes n WHERE s.s_i_id = n.n_big AND n.n_w_id = s.s_w_id", 1)
                .hash_build.size(), 2u);
  // Over a derived source too.
  EXPECT_EQ(Source("SELECT 1 FROM stock s JOIN (SELECT n_w_id FROM notes) d ON d.n_w_id = s.s_w_id", 1)
                .hash_build.size(), 1u);
}

// A correlated subquery's `inner = outer` equality on a source no index
// serves: a hash semi-join, its table built once for every outer row.
TEST_F(AccessPathPlannerTest, CorrelatedEqualityWithoutIndexIsAHashSemiJoin) {
  Source("SELECT 1 FROM stock s WHERE EXISTS (SELECT 1 FROM notes n WHERE n.n_w_id = s.s_w_id AND n.n_text = 'x' "
         "AND n.n_big > s.s_i_id)", 0);
  const BoundExpr& exists = *prepared_->select->sources[0].filters.at(0);
  ASSERT_EQ(exists.kind, BoundKind::kSubquery);
  const SourcePlan& n = exists.subquery->plan->sources.at(0);
  ASSERT_EQ(n.hash_build.size(), 1u);
  EXPECT_EQ(n.hash_probe[0]->kind, BoundKind::kOuterColumn);
  EXPECT_EQ(n.local_filters.size(), 1u) << "n_text = 'x'; n_big > s.s_i_id reads the outer row";
  // The top query's first source has nothing to be probed with.
  EXPECT_TRUE(prepared_->select->sources[0].hash_build.empty());
}

TEST_F(AccessPathPlannerTest, NoHashJoinWhereAnIndexServesOrNoKeyFits) {
  const SourcePlan& s = Source("SELECT 1 FROM notes n JOIN stock s ON s.s_w_id = n.n_w_id AND s.s_i_id = n.n_w_id", 1);
  EXPECT_EQ(s.access.kind, AccessKind::kIndexPoint) << "index nested loop";
  EXPECT_TRUE(s.hash_build.empty());
  EXPECT_TRUE(Source("SELECT 1 FROM notes a JOIN notes b ON a.n_real = b.n_real", 1).hash_build.empty())
      << "floats: -0 equals 0 but need not hash alike";
  EXPECT_TRUE(Source("SELECT 1 FROM stock s JOIN notes n ON n.n_w_id < s.s_w_id", 1).hash_build.empty());
  EXPECT_TRUE(Source("SELECT 1 FROM stock s, notes n WHERE n.n_w_id = 5", 1).hash_build.empty()) << "no join key";
  EXPECT_TRUE(Source("SELECT 1 FROM stock s JOIN notes n ON n.n_w_id + s.s_w_id = 3", 1).hash_build.empty());
  EXPECT_TRUE(Source("SELECT 1 FROM notes n, stock s WHERE n.n_w_id = s.s_quantity", 0).hash_build.empty())
      << "the first source";
  EXPECT_TRUE(Source("SELECT 1 FROM stock s, LATERAL (SELECT n_w_id FROM notes WHERE n_big = s.s_i_id) d "
                     "WHERE d.n_w_id = s.s_w_id", 1).hash_build.empty())
      << "a correlated source is computed per row";
}

// A partial index serves a query only when the query's conditions prove
// the index's condition (else it would miss rows the query wants); then it
// wins over a whole-table scan, even with no bound on its key.
TEST_F(AccessPathPlannerTest, PartialIndexOnlyWhereTheQueryProvesItsCondition) {
  for (const char* sql : {"SELECT id FROM jobs WHERE owner = $1 AND NOT done",
                          "SELECT id FROM jobs WHERE NOT done AND owner = 3",
                          "SELECT id FROM jobs WHERE owner = 3 AND done = false",
                          "UPDATE jobs SET prio = 1 WHERE owner = $1 AND NOT done"}) {
    const AccessPath& p = Path(sql);
    EXPECT_EQ(p.kind, AccessKind::kIndexPoint) << sql;
    EXPECT_EQ(IndexName(p), "jobs_open") << sql;
  }
  for (const char* sql : {"SELECT id FROM jobs WHERE owner = 3", "SELECT id FROM jobs WHERE owner = 3 AND done",
                          "SELECT id FROM jobs WHERE owner = 3 OR NOT done",
                          "SELECT id FROM jobs WHERE owner = 3 AND NOT (done AND prio > 1)"}) {
    EXPECT_NE(IndexName(Path(sql)), "jobs_open") << sql;
  }
  // Ranges: a narrower range proves a wider one; both parts of an AND.
  EXPECT_EQ(IndexName(Path("SELECT id FROM jobs WHERE prio > 7 AND state = 'x'")), "jobs_urgent");
  EXPECT_EQ(IndexName(Path("SELECT id FROM jobs WHERE prio >= 6 AND state IS NOT NULL")), "jobs_urgent");
  EXPECT_EQ(IndexName(Path("SELECT id FROM jobs WHERE prio = 9 AND state > 'a'")), "jobs_urgent");
  EXPECT_EQ(IndexName(Path("SELECT id FROM jobs WHERE prio > 5 AND state = 'x'")), "jobs_urgent");
  for (const char* sql : {"SELECT id FROM jobs WHERE prio > 4 AND state = 'x'",
                          "SELECT id FROM jobs WHERE prio >= 5 AND state = 'x'", "SELECT id FROM jobs WHERE prio > 7",
                          "SELECT id FROM jobs WHERE prio > $1 AND state = 'x'"}) {
    EXPECT_EQ(Path(sql).kind, AccessKind::kFullScan) << sql;
  }
  // No bound on the key: the whole partial index instead of the table (a
  // queue's `WHERE state = 'queued' ORDER BY id LIMIT 1`).
  const AccessPath& queue = Path("SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1");
  EXPECT_EQ(queue.kind, AccessKind::kIndexRange);
  EXPECT_EQ(IndexName(queue), "jobs_queue");
  EXPECT_EQ(IndexName(Path("SELECT id FROM jobs WHERE state = 'done' ORDER BY id LIMIT 1")), "jobs_pkey");
  // A join: the proof reads the conditions on the source itself.
  EXPECT_EQ(IndexName(Path("SELECT j.id FROM notes n, jobs j WHERE j.owner = n.n_w_id AND NOT j.done", 1)),
            "jobs_open");
  EXPECT_EQ(Path("SELECT j.id FROM notes n, jobs j WHERE j.owner = n.n_w_id", 1).kind, AccessKind::kFullScan);
  // A later source with no key bound is read once into a hash join, not
  // scanned whole through the partial index for every row before it.
  const SourcePlan& joined = Source("SELECT j.id FROM notes n, jobs j WHERE j.prio = n.n_w_id AND j.state = 'queued'", 1);
  EXPECT_EQ(joined.access.kind, AccessKind::kFullScan);
  EXPECT_FALSE(joined.hash_build.empty());
}

}  // namespace
}  // namespace paceline::sql
