// AccessPathPlanner through the binder: for each predicate shape, the access
// path (point lookup, prefix/range scan, IN-list probes, full scan) and the
// index chosen — the planner must use an index whenever a predicate allows.
#include "engine/sql/access_path_planner.h"

#include <gtest/gtest.h>

#include "engine/database.h"
#include "engine/sql/prepared_statement.h"

namespace paceline::sql {
namespace {

class AccessPathPlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const engine::Options options;  // named: GCC 12 -O3 misreads a temporary's strings
    ASSERT_TRUE(engine::Database::Open(options, &db_).ok());
    auto s = db_->CreateSession();
    engine::QueryResult r;
    for (const char* ddl : {
             "CREATE TABLE order_line (ol_w_id INT, ol_d_id INT, ol_o_id INT, ol_number INT, ol_i_id INT, "
             "ol_amount NUMERIC(6,2), PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))",
             "CREATE INDEX ol_item ON order_line (ol_i_id)",
             "CREATE TABLE stock (s_w_id INT, s_i_id INT, s_quantity INT, PRIMARY KEY (s_w_id, s_i_id))",
             "CREATE TABLE customer (c_w_id INT, c_id INT, c_last VARCHAR(16), PRIMARY KEY (c_w_id, c_id))",
             "CREATE INDEX customer_last ON customer (c_w_id, c_last)",
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
  EXPECT_FALSE(ordered("SELECT 1 FROM stock WHERE s_quantity < 5 ORDER BY s_w_id")) << "full scan";
  EXPECT_FALSE(ordered("SELECT DISTINCT ol_o_id FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 ORDER BY ol_o_id"));
}

TEST_F(AccessPathPlannerTest, NoUsablePredicateMeansFullScan) {
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_quantity < 10").kind, AccessKind::kFullScan);
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_i_id = 5").kind, AccessKind::kFullScan) << "not a key prefix";
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_w_id = 1 OR s_i_id = 2").kind, AccessKind::kFullScan);
  // A numeric literal with more scale than an integer key column cannot probe it exactly.
  EXPECT_EQ(Path("SELECT 1 FROM stock WHERE s_w_id = 1.5").kind, AccessKind::kFullScan);
}

}  // namespace
}  // namespace paceline::sql
