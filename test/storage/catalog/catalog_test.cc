// Catalog through DDL: foreign keys (column, table, composite, self, chains)
// and domains are recorded as the scheduler will need them; names, versions,
// DROP rules.
#include "storage/catalog/catalog.h"

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
    QueryResult r;
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

// A table `name` (id INT).
TableSchema OneIntColumn(const std::string& name) {
  TableSchema table;
  table.name = name;
  ColumnSchema id;
  id.name = "id";
  id.type = Type(TypeId::kInt32);
  table.columns.push_back(id);
  return table;
}

TEST(CatalogSequenceTest, SequencesShareTheRelationNamespace) {
  // A sequence's name is taken for tables, indexes and views, and theirs
  // for it (42P07 both ways); a derived index name steps around it.
  Catalog catalog;
  std::shared_ptr<Sequence> s;
  ASSERT_TRUE(catalog.CreateSequence(SequenceSchema::Defaults("t_id_seq", TypeId::kInt64), &s).ok());
  EXPECT_EQ(catalog.FindSequence("t_id_seq"), s);
  const uint64_t version = catalog.version();
  TableSchema table = OneIntColumn("t_id_seq");
  EXPECT_TRUE(catalog.CreateTable(table, {}, nullptr).Is(sqlstate::kDuplicateTable));
  ViewSchema view;
  view.name = "t_id_seq";
  EXPECT_TRUE(catalog.CreateView(view, /*replace=*/true).Is(sqlstate::kDuplicateTable));
  table.name = "t";
  IndexSchema index;
  index.name = "t_id_seq";
  index.columns = {0};
  EXPECT_TRUE(catalog.CreateTable(table, {index}, nullptr).Is(sqlstate::kDuplicateTable));
  ASSERT_TRUE(catalog.CreateTable(table, {}, nullptr).ok());
  EXPECT_EQ(catalog.MakeIndexName("t", {"id"}, "seq"), "t_id_seq1");
  EXPECT_TRUE(catalog.CreateSequence(SequenceSchema::Defaults("t", TypeId::kInt64), nullptr).Is(sqlstate::kDuplicateTable));
  EXPECT_GT(catalog.version(), version);  // the CREATE TABLE

  // Drop: 42P01 when absent; a plan's reference keeps the object alive.
  const uint64_t before_drop = catalog.version();
  ASSERT_TRUE(catalog.DropSequence("t_id_seq").ok());
  EXPECT_GT(catalog.version(), before_drop);
  EXPECT_EQ(catalog.FindSequence("t_id_seq"), nullptr);
  EXPECT_EQ(catalog.SequenceNames(), std::vector<std::string>{});
  Status st = catalog.DropSequence("t_id_seq");
  EXPECT_TRUE(st.Is(sqlstate::kUndefinedTable));
  EXPECT_EQ(st.message(), "sequence \"t_id_seq\" does not exist");
  int64_t v = 0;
  Lsn lsn;
  EXPECT_TRUE(s->Next({}, &v, &lsn).ok());
  EXPECT_EQ(v, 1);
  // nextval never bumps the version: plans stay valid.
  const uint64_t after = catalog.version();
  ASSERT_TRUE(catalog.CreateSequence(SequenceSchema::Defaults("s", TypeId::kInt64), &s).ok());
  EXPECT_TRUE(s->Next({}, &v, &lsn).ok());
  EXPECT_EQ(catalog.version(), after + 1);
}

TEST(CatalogSequenceTest, AlterBumpsTheVersionAndATableTakesItsOwnedSequences) {
  Catalog catalog;
  TableSchema table = OneIntColumn("t");
  ASSERT_TRUE(catalog.CreateTable(table, {}, nullptr).ok());
  SequenceSchema owned = SequenceSchema::Defaults("t_id_seq", TypeId::kInt32);
  owned.owned_by_table = "t";
  owned.owned_by_column = "id";
  ASSERT_TRUE(catalog.CreateSequence(owned, nullptr).ok());
  ASSERT_TRUE(catalog.CreateSequence(SequenceSchema::Defaults("free", TypeId::kInt64), nullptr).ok());

  // ALTER: a new description and, with restart, a new state; a new version.
  const uint64_t before = catalog.version();
  SequenceSchema changed = catalog.FindSequence("free")->schema();
  changed.increment = 7;
  ASSERT_TRUE(catalog.AlterSequence("free", changed, /*restart=*/true, 100).ok());
  EXPECT_GT(catalog.version(), before);
  EXPECT_EQ(catalog.FindSequence("free")->schema().increment, 7);
  EXPECT_EQ(catalog.FindSequence("free")->State(), (std::pair<int64_t, bool>{100, false}));
  EXPECT_TRUE(catalog.AlterSequence("nosuch", changed, false, 0).Is(sqlstate::kUndefinedTable));

  // DROP TABLE drops t_id_seq (owned by t.id) and keeps the free one.
  ASSERT_TRUE(catalog.DropTable("t", /*cascade=*/false).ok());
  EXPECT_EQ(catalog.SequenceNames(), std::vector<std::string>{"free"});
}

}  // namespace
}  // namespace paceline::catalog
