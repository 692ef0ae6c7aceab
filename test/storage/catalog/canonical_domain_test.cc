// CanonicalDomain: foreign-key chains to their root (single, chained,
// composite column by column, the first of several), CREATE DOMAIN, both
// (the foreign key's root wins, then its domain), neither, cycles,
// self-references, and foreign keys whose target is gone.
#include "storage/catalog/canonical_domain.h"

#include <gtest/gtest.h>

#include "engine/database.h"

namespace paceline::catalog {
namespace {

class CanonicalDomainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const engine::Options options;  // named: GCC 12 -O3 misreads a temporary's strings
    ASSERT_TRUE(engine::Database::Open(options, &db_).ok());
    session_ = db_->CreateSession();
  }
  void Run(const std::string& sql) {
    QueryResult r;
    Status s = session_->Execute(sql, &r);
    ASSERT_TRUE(s.ok()) << sql << ": " << s.ToString();
  }
  // "table.column" of the root, or "domain:<name>".
  std::string Of(std::string_view table, std::string_view column) {
    CanonicalDomain d = CanonicalDomain::Resolve(db_->catalog(), table, column);
    return d.is_domain() ? "domain:" + d.domain : d.QualifiedName();
  }

  std::unique_ptr<engine::Database> db_;
  std::unique_ptr<engine::Session> session_;
};

TEST_F(CanonicalDomainTest, ForeignKeyLeadsToTheReferencedColumn) {
  Run("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name TEXT)");
  Run("CREATE TABLE stock (s_w_id INT REFERENCES warehouse (w_id), s_i_id INT, s_quantity INT)");
  EXPECT_EQ(Of("stock", "s_w_id"), "warehouse.w_id");
  EXPECT_EQ(Of("warehouse", "w_id"), "warehouse.w_id") << "a root is its own domain";
  EXPECT_EQ(Of("stock", "s_quantity"), "stock.s_quantity") << "neither FK nor domain: the column itself";
  CanonicalDomain d = CanonicalDomain::Resolve(db_->catalog(), "stock", "s_w_id");
  EXPECT_EQ(d.Name(), "w_id");
  EXPECT_EQ(d.QualifiedName(), "warehouse.w_id");
  EXPECT_FALSE(d.is_domain());
}

TEST_F(CanonicalDomainTest, ForeignKeyWithoutColumnsUsesThePrimaryKey) {
  Run("CREATE TABLE warehouse (w_id INT PRIMARY KEY)");
  Run("CREATE TABLE district (d_w_id INT REFERENCES warehouse, d_id INT)");
  EXPECT_EQ(Of("district", "d_w_id"), "warehouse.w_id");
}

TEST_F(CanonicalDomainTest, ChainsAreFollowedToTheRoot) {
  Run("CREATE TABLE c (z INT PRIMARY KEY)");
  Run("CREATE TABLE b (y INT PRIMARY KEY REFERENCES c (z))");
  Run("CREATE TABLE a (x INT REFERENCES b (y))");
  EXPECT_EQ(Of("a", "x"), "c.z");
  EXPECT_EQ(Of("b", "y"), "c.z");
  EXPECT_EQ(Of("c", "z"), "c.z");
}

TEST_F(CanonicalDomainTest, CompositeForeignKeysMapColumnByColumn) {
  Run("CREATE TABLE warehouse (w_id INT PRIMARY KEY)");
  Run("CREATE TABLE district (d_w_id INT REFERENCES warehouse, d_id INT, PRIMARY KEY (d_w_id, d_id))");
  // Written in the other order than the key: the k-th column → the k-th.
  Run("CREATE TABLE customer (c_id INT, c_d_id INT, c_w_id INT, PRIMARY KEY (c_w_id, c_d_id, c_id), "
      "FOREIGN KEY (c_d_id, c_w_id) REFERENCES district (d_id, d_w_id))");
  Run("CREATE TABLE history (h_c_id INT, h_c_d_id INT, h_c_w_id INT, "
      "FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id) REFERENCES customer (c_w_id, c_d_id, c_id))");
  EXPECT_EQ(Of("customer", "c_w_id"), "warehouse.w_id");
  EXPECT_EQ(Of("customer", "c_d_id"), "district.d_id");
  EXPECT_EQ(Of("customer", "c_id"), "customer.c_id");
  EXPECT_EQ(Of("history", "h_c_w_id"), "warehouse.w_id");
  EXPECT_EQ(Of("history", "h_c_d_id"), "district.d_id");
  EXPECT_EQ(Of("history", "h_c_id"), "customer.c_id");
}

TEST_F(CanonicalDomainTest, AColumnInSeveralForeignKeysFollowsTheFirstDeclared) {
  Run("CREATE TABLE p1 (a INT PRIMARY KEY)");
  Run("CREATE TABLE p2 (b INT PRIMARY KEY)");
  Run("CREATE TABLE c (x INT, FOREIGN KEY (x) REFERENCES p2 (b), FOREIGN KEY (x) REFERENCES p1 (a))");
  EXPECT_EQ(Of("c", "x"), "p2.b");
  Run("ALTER TABLE p1 ADD FOREIGN KEY (a) REFERENCES p2 (b)");  // later FKs do not change the order
  EXPECT_EQ(Of("c", "x"), "p2.b");
}

TEST_F(CanonicalDomainTest, ADomainNamesTheColumn) {
  Run("CREATE DOMAIN w_id AS INT");
  Run("CREATE TABLE stock (s_w_id w_id, s_i_id INT)");
  Run("CREATE TABLE district (d_w_id w_id, d_id INT)");
  EXPECT_EQ(Of("stock", "s_w_id"), "domain:w_id");
  EXPECT_EQ(Of("district", "d_w_id"), "domain:w_id");
  EXPECT_EQ(Of("stock", "s_i_id"), "stock.s_i_id");
  CanonicalDomain d = CanonicalDomain::Resolve(db_->catalog(), "stock", "s_w_id");
  EXPECT_EQ(d.Name(), "w_id");
  EXPECT_EQ(d.QualifiedName(), "w_id");
}

TEST_F(CanonicalDomainTest, WithBothTheForeignKeyRootWinsThenItsDomain) {
  Run("CREATE DOMAIN warehouse_id AS INT");
  Run("CREATE DOMAIN stock_wh AS INT");
  Run("CREATE TABLE warehouse (w_id warehouse_id PRIMARY KEY)");
  Run("CREATE TABLE item (i_id INT PRIMARY KEY)");
  // The root has a domain: every column of the chain takes it.
  Run("CREATE TABLE stock (s_w_id stock_wh REFERENCES warehouse (w_id), s_i_id INT REFERENCES item)");
  EXPECT_EQ(Of("stock", "s_w_id"), "domain:warehouse_id");
  EXPECT_EQ(Of("warehouse", "w_id"), "domain:warehouse_id");
  // The root has none: the root column, whatever the referencing column's domain.
  Run("CREATE DOMAIN item_ref AS INT");
  Run("CREATE TABLE order_line (ol_i_id item_ref REFERENCES item (i_id))");
  EXPECT_EQ(Of("order_line", "ol_i_id"), "item.i_id");
}

TEST_F(CanonicalDomainTest, CyclesEndAtTheirSmallestMember) {
  Run("CREATE TABLE a (x INT PRIMARY KEY)");
  Run("CREATE TABLE b (y INT PRIMARY KEY REFERENCES a (x))");
  Run("ALTER TABLE a ADD FOREIGN KEY (x) REFERENCES b (y)");
  EXPECT_EQ(Of("a", "x"), "a.x");
  EXPECT_EQ(Of("b", "y"), "a.x") << "every member of the cycle gets the same root";
  Run("CREATE TABLE c (z INT REFERENCES b (y))");
  EXPECT_EQ(Of("c", "z"), "a.x") << "and so does a column leading into it";
  // A longer cycle entered in the middle.
  Run("CREATE TABLE r3 (k INT PRIMARY KEY)");
  Run("CREATE TABLE r1 (k INT PRIMARY KEY REFERENCES r3 (k))");
  Run("CREATE TABLE r2 (k INT PRIMARY KEY REFERENCES r1 (k))");
  Run("ALTER TABLE r3 ADD FOREIGN KEY (k) REFERENCES r2 (k)");
  EXPECT_EQ(Of("r1", "k"), "r1.k");
  EXPECT_EQ(Of("r2", "k"), "r1.k");
  EXPECT_EQ(Of("r3", "k"), "r1.k");
}

TEST_F(CanonicalDomainTest, SelfReferences) {
  // A tree: parent → id, a root that references nothing.
  Run("CREATE TABLE node (id INT PRIMARY KEY, parent INT REFERENCES node (id))");
  EXPECT_EQ(Of("node", "parent"), "node.id");
  EXPECT_EQ(Of("node", "id"), "node.id");
  // A column that references itself.
  Run("CREATE TABLE loop (a INT PRIMARY KEY)");
  Run("ALTER TABLE loop ADD FOREIGN KEY (a) REFERENCES loop (a)");
  EXPECT_EQ(Of("loop", "a"), "loop.a");
  // Composite self-reference crossing columns: (a, b) → (b, a) is a 2-cycle.
  Run("CREATE TABLE swap (a INT, b INT, PRIMARY KEY (a, b))");
  Run("ALTER TABLE swap ADD FOREIGN KEY (a, b) REFERENCES swap (b, a)");
  EXPECT_EQ(Of("swap", "a"), "swap.a");
  EXPECT_EQ(Of("swap", "b"), "swap.a");
}

TEST_F(CanonicalDomainTest, ForeignKeyToADroppedTableEndsTheChain) {
  Run("CREATE TABLE root (r INT PRIMARY KEY)");
  Run("CREATE TABLE mid (m INT PRIMARY KEY REFERENCES root (r))");
  Run("CREATE TABLE leaf (l INT REFERENCES mid (m))");
  EXPECT_EQ(Of("leaf", "l"), "root.r");
  Run("DROP TABLE root CASCADE");
  EXPECT_EQ(Of("leaf", "l"), "mid.m");
  EXPECT_EQ(Of("mid", "m"), "mid.m");
}

TEST(CanonicalDomainCatalogTest, ForeignKeysNamingMissingTablesOrColumnsStopSafely) {
  // Built on the catalog directly: DDL would refuse these foreign keys.
  auto column = [](std::string name) {
    ColumnSchema c;
    c.name = std::move(name);
    c.type = Type(TypeId::kInt32);
    return c;
  };
  Catalog catalog;
  TableSchema parent;
  parent.name = "parent";
  parent.columns.push_back(column("id"));
  ASSERT_TRUE(catalog.CreateTable(parent, {}, nullptr).ok());
  TableSchema child;
  child.name = "child";
  child.columns.push_back(column("a"));
  child.columns.push_back(column("b"));
  child.columns.push_back(column("c"));
  auto fk = [](std::string name, int column, std::string table, std::vector<std::string> ref_columns) {
    ForeignKey key;
    key.name = std::move(name);
    key.columns = {column};
    key.ref_table = std::move(table);
    key.ref_columns = std::move(ref_columns);
    return key;
  };
  child.foreign_keys.push_back(fk("fk_a", 0, "nowhere", {"id"}));
  child.foreign_keys.push_back(fk("fk_b", 1, "parent", {"nope"}));
  child.foreign_keys.push_back(fk("fk_c", 2, "parent", {}));  // malformed: no referenced column
  ASSERT_TRUE(catalog.CreateTable(child, {}, nullptr).ok());
  auto of = [&](std::string_view t, std::string_view c) {
    return CanonicalDomain::Resolve(catalog, t, c).QualifiedName();
  };
  EXPECT_EQ(of("child", "a"), "child.a");
  EXPECT_EQ(of("child", "b"), "child.b");
  EXPECT_EQ(of("child", "c"), "child.c");
  EXPECT_EQ(of("nowhere", "x"), "nowhere.x") << "an unknown column resolves to itself";
  EXPECT_EQ(of("child", "zz"), "child.zz");
}

}  // namespace
}  // namespace paceline::catalog
