// Catalog through DDL: foreign keys (column, table, composite, self, chains)
// and domains are recorded as the scheduler will need them; names, versions,
// DROP rules.
#include "engine/catalog/catalog.h"

#include <gtest/gtest.h>

#include "engine/database.h"

namespace paceline::catalog {
namespace {

class CatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const engine::Options options;  // named: GCC 12 -O3 misreads a temporary's strings
    ASSERT_TRUE(engine::Database::Open(options, &db_).ok());
    session_ = db_->CreateSession();
  }
  Status Run(const std::string& sql) {
    engine::QueryResult r;
    return session_->Execute(sql, &r);
  }
  const TableSchema& Schema(const std::string& name) { return db_->catalog().FindTable(name)->schema(); }

  std::unique_ptr<engine::Database> db_;
  std::unique_ptr<engine::Session> session_;
};

TEST_F(CatalogTest, ForeignKeysAreRecordedWithResolvedColumns) {
  ASSERT_TRUE(Run("CREATE TABLE warehouse (w_id INT PRIMARY KEY)").ok());
  ASSERT_TRUE(Run("CREATE TABLE district (d_w_id INT REFERENCES warehouse, d_id INT, PRIMARY KEY (d_w_id, d_id))").ok());
  ASSERT_TRUE(Run("CREATE TABLE customer (c_w_id INT, c_d_id INT, c_id INT, PRIMARY KEY (c_w_id, c_d_id, c_id), "
                  "FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id))").ok());
  const auto& district = Schema("district");
  ASSERT_EQ(district.foreign_keys.size(), 1u);
  EXPECT_EQ(district.foreign_keys[0].columns, std::vector<int>{0});
  EXPECT_EQ(district.foreign_keys[0].ref_table, "warehouse");
  EXPECT_EQ(district.foreign_keys[0].ref_columns, std::vector<std::string>{"w_id"}) << "defaults to the primary key";
  const auto& customer = Schema("customer");
  ASSERT_EQ(customer.foreign_keys.size(), 1u);
  EXPECT_EQ(customer.foreign_keys[0].columns, (std::vector<int>{0, 1}));
  EXPECT_EQ(customer.foreign_keys[0].ref_columns, (std::vector<std::string>{"d_w_id", "d_id"}));
  // A chain: customer.c_w_id → district.d_w_id → warehouse.w_id.
}

TEST_F(CatalogTest, ForeignKeyShapeIsChecked) {
  ASSERT_TRUE(Run("CREATE TABLE p (a INT PRIMARY KEY, b INT)").ok());
  EXPECT_TRUE(Run("CREATE TABLE c1 (x INT REFERENCES missing)").Is(sqlstate::kUndefinedTable));
  EXPECT_TRUE(Run("CREATE TABLE c2 (x INT REFERENCES p (nope))").Is(sqlstate::kUndefinedColumn));
  EXPECT_EQ(Run("CREATE TABLE c3 (x INT, y INT, FOREIGN KEY (x, y) REFERENCES p (a))").sqlstate(), "42830");
  EXPECT_TRUE(Run("CREATE TABLE self (id INT PRIMARY KEY, parent INT REFERENCES self (id))").ok());
  EXPECT_TRUE(Run("ALTER TABLE p ADD FOREIGN KEY (b) REFERENCES self (id)").ok());
  EXPECT_EQ(Schema("p").foreign_keys.size(), 1u);
}

TEST_F(CatalogTest, DomainsGiveTypeNotNullAndName) {
  ASSERT_TRUE(Run("CREATE DOMAIN warehouse_id AS SMALLINT NOT NULL").ok());
  ASSERT_TRUE(Run("CREATE TABLE stock (s_w_id warehouse_id, s_i_id INT)").ok());
  const ColumnSchema& c = Schema("stock").columns[0];
  EXPECT_EQ(c.domain, "warehouse_id");
  EXPECT_EQ(c.type.id, TypeId::kInt16);
  EXPECT_TRUE(c.not_null);
  EXPECT_TRUE(Run("DROP DOMAIN warehouse_id").Is(sqlstate::kDependentObjectsStillExist));
  EXPECT_TRUE(Run("CREATE DOMAIN warehouse_id AS INT").Is(sqlstate::kDuplicateObject));
}

TEST_F(CatalogTest, EveryDdlBumpsTheVersion) {
  uint64_t v = db_->catalog().version();
  ASSERT_TRUE(Run("CREATE TABLE t (a INT, b INT)").ok());
  EXPECT_GT(db_->catalog().version(), v);
  v = db_->catalog().version();
  ASSERT_TRUE(Run("CREATE UNIQUE INDEX t_a ON t (a)").ok());
  EXPECT_GT(db_->catalog().version(), v);
  v = db_->catalog().version();
  ASSERT_TRUE(Run("DROP INDEX t_a").ok());
  EXPECT_GT(db_->catalog().version(), v);
}

TEST_F(CatalogTest, IndexNamesFollowPostgresAndCollideAcrossRelations) {
  ASSERT_TRUE(Run("CREATE TABLE t (a INT PRIMARY KEY, b INT UNIQUE, c INT)").ok());
  ASSERT_TRUE(Run("CREATE INDEX ON t (c)").ok());
  auto table = db_->catalog().FindTable("t");
  EXPECT_NE(table->FindIndex("t_pkey"), nullptr);
  EXPECT_NE(table->FindIndex("t_b_key"), nullptr);
  EXPECT_NE(table->FindIndex("t_c_idx"), nullptr);
  EXPECT_TRUE(Run("CREATE TABLE t_pkey (x INT)").Is(sqlstate::kDuplicateTable));
  EXPECT_TRUE(Run("DROP INDEX t_pkey").Is(sqlstate::kDependentObjectsStillExist));
}

TEST_F(CatalogTest, DropTableReferencedByForeignKeyNeedsCascade) {
  ASSERT_TRUE(Run("CREATE TABLE p (a INT PRIMARY KEY)").ok());
  ASSERT_TRUE(Run("CREATE TABLE c (x INT REFERENCES p)").ok());
  EXPECT_TRUE(Run("DROP TABLE p").Is(sqlstate::kDependentObjectsStillExist));
  EXPECT_TRUE(Run("DROP TABLE p CASCADE").ok());
  EXPECT_TRUE(Schema("c").foreign_keys.empty());
}

}  // namespace
}  // namespace paceline::catalog
