// Reference slots (fixed at prepare) and FootprintBuilder (keys and texts from
// slots and parameters): operators and mirrored sides, casts, constants and
// parameters, NULL and missing values, SET lists, VALUES rows, INSERT ..
// SELECT, DELETE, joins and what yields nothing, single vs all, literal vs
// canonical, distinct keys, the partition value, value types that must hash
// alike, keys that must differ, the "keys" sources (index-prefix equalities,
// inserted primary keys) and occurrence counts.
#include "engine/footprint_builder.h"

#include <gtest/gtest.h>

#include "common/array_value.h"

#include <utility>

#include "engine/database.h"

namespace paceline::engine {
namespace {

using scheduler::Footprint;
using scheduler::FootprintSpec;
using scheduler::ReferenceForm;
using scheduler::ReferenceGranularity;
using Names = std::vector<std::string>;

constexpr ReferenceForm kLiteral = ReferenceForm::kLiteral;
constexpr ReferenceForm kCanonical = ReferenceForm::kCanonical;
constexpr ReferenceGranularity kSingle = ReferenceGranularity::kSingle;
constexpr ReferenceGranularity kAll = ReferenceGranularity::kAll;

FootprintSpec Spec(ReferenceForm form, ReferenceGranularity granularity, std::string partition = "") {
  FootprintSpec spec;
  spec.references = true;
  spec.form = form;
  spec.granularity = granularity;
  spec.partition_domain = std::move(partition);
  return spec;
}

// The paper authors' extraction: key equalities only.
FootprintSpec KeysSpec(ReferenceForm form, ReferenceGranularity granularity) {
  FootprintSpec spec = Spec(form, granularity);
  spec.sources = scheduler::ReferenceSources::kKeys;
  return spec;
}

Value I(int64_t v) { return Value::Int32(static_cast<int32_t>(v)); }
Value T(std::string s) { return Value::Text(std::move(s)); }

class FootprintBuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const Options options;  // named: GCC 12 -O3 misreads a temporary's strings
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    session_ = db_->CreateSession();
    Run("CREATE DOMAIN item_no AS INT");
    Run("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10))");
    Run("CREATE TABLE item (i_id item_no PRIMARY KEY, i_name TEXT)");
    Run("CREATE TABLE stock (s_i_id INT REFERENCES item, s_w_id INT REFERENCES warehouse, s_quantity SMALLINT, "
        "s_code CHAR(4), s_big BIGINT, s_price NUMERIC(6,2), s_data TEXT, s_since TIMESTAMP, s_ok BOOLEAN, "
        "PRIMARY KEY (s_w_id, s_i_id))");
    Run("CREATE TABLE order_line (ol_w_id INT REFERENCES warehouse, ol_o_id INT, ol_number INT, ol_i_id INT, "
        "ol_quantity INT, FOREIGN KEY (ol_w_id, ol_i_id) REFERENCES stock (s_w_id, s_i_id))");
  }

  void Run(const std::string& sql) {
    QueryResult r;
    Status s = session_->Execute(sql, &r);
    ASSERT_TRUE(s.ok()) << sql << ": " << s.ToString();
  }

  std::shared_ptr<sql::PreparedStatement> Prepare(const std::string& sql, const std::vector<Type>& declared = {}) {
    std::shared_ptr<sql::PreparedStatement> p;
    Status s = sql::PreparedStatement::Prepare(sql, db_->catalog(), declared, &p);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
    return p;
  }

  // The footprint (and Names) of statements run in order with their params.
  Footprint Build(const FootprintSpec& spec, const std::vector<std::pair<std::string, std::vector<Value>>>& statements,
                  Names* names = nullptr) {
    FootprintBuilder builder(spec, names != nullptr);
    for (const auto& [sql, params] : statements) {
      auto p = Prepare(sql);
      if (p) builder.Add(*p, params);
    }
    Footprint f = builder.Finish();
    if (names != nullptr) {
      *names = builder.Names();
      EXPECT_EQ(names->size(), f.references.size());
    }
    return f;
  }

  Names NamesOf(const FootprintSpec& spec, const std::string& sql, const std::vector<Value>& params) {
    Names names;
    Build(spec, {{sql, params}}, &names);
    return names;
  }
  Names Literal(const std::string& sql, const std::vector<Value>& params) {
    return NamesOf(Spec(kLiteral, kSingle), sql, params);
  }
  Names LiteralAll(const std::string& sql, const std::vector<Value>& params) {
    return NamesOf(Spec(kLiteral, kAll), sql, params);
  }
  uint64_t Key(const FootprintSpec& spec, const std::string& sql, const std::vector<Value>& params) {
    Footprint f = Build(spec, {{sql, params}});
    EXPECT_EQ(f.references.size(), 1u) << sql;
    return f.references.empty() ? 0 : f.references[0];
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

TEST_F(FootprintBuilderTest, ColumnNamesSharedByTablesAreShownQualified) {
  // pgbench's tables all have `bid`: without foreign keys, the branches'
  // and the history's bid are distinct references and must not look alike.
  Run("CREATE TABLE branches (bid INT PRIMARY KEY, bbalance INT)");
  Run("CREATE TABLE history (bid INT, delta INT)");
  const std::string update = "UPDATE branches SET bbalance = bbalance + $1 WHERE bid = $2";
  const std::string insert = "INSERT INTO history (bid, delta) VALUES ($1, $2)";
  EXPECT_EQ(Literal(update, {I(5), I(1)}), (Names{"branches.bid=1"}));
  EXPECT_EQ(Literal(insert, {I(1), I(5)}), (Names{"history.bid=1", "delta=5"}));
  EXPECT_EQ(NamesOf(Spec(kCanonical, kSingle), insert, {I(1), I(5)}), (Names{"history.bid=1", "delta=5"}));
  EXPECT_NE(Key(Spec(kCanonical, kSingle), update, {I(5), I(1)}),
            Key(Spec(kCanonical, kSingle), "SELECT 1 FROM history WHERE bid = $1", {I(1)}));
  // A name of one table only stays bare.
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = $1", {I(3)}), (Names{"s_w_id=3"}));
}

TEST_F(FootprintBuilderTest, EveryComparisonOperator) {
  EXPECT_EQ(Literal("SELECT 1 FROM order_line WHERE ol_w_id = $1 AND ol_o_id <> $2 AND ol_number < $3 "
                    "AND ol_i_id <= $4 AND ol_quantity > $5 AND ol_o_id >= $6",
                    {I(1), I(2), I(3), I(4), I(5), I(6)}),
            (Names{"ol_w_id=1", "ol_o_id<>2", "ol_number<3", "ol_i_id<=4", "ol_quantity>5", "ol_o_id>=6"}));
  EXPECT_EQ(Literal("SELECT 1 FROM order_line WHERE ol_o_id != $1", {I(7)}), (Names{"ol_o_id<>7"}));
}

TEST_F(FootprintBuilderTest, ValueOnTheLeftIsMirrored) {
  EXPECT_EQ(Literal("SELECT 1 FROM order_line WHERE $1 = ol_w_id AND 5 < ol_o_id AND $2 >= ol_number "
                    "AND 3 <> ol_i_id AND $3 <= ol_quantity",
                    {I(1), I(9), I(4)}),
            (Names{"ol_w_id=1", "ol_o_id>5", "ol_number<=9", "ol_i_id<>3", "ol_quantity>=4"}));
  // Mirrored and written-as-is give the same key.
  EXPECT_EQ(Key(Spec(kLiteral, kSingle), "SELECT 1 FROM order_line WHERE 5 < ol_o_id", {}),
            Key(Spec(kLiteral, kSingle), "SELECT 1 FROM order_line WHERE ol_o_id > 5", {}));
}

TEST_F(FootprintBuilderTest, CastsOnEitherSideAreLookedThrough) {
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = $1::bigint AND CAST(s_i_id AS BIGINT) = $2 "
                    "AND s_quantity::int = 3 AND s_big = '12'",
                    {Value::Int64(1), Value::Int64(2)}),
            (Names{"s_w_id=1", "s_i_id=2", "s_quantity=3", "s_big=12"}));
  // A text parameter compared with a column cast to text converts to the column's type.
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id::text = $1", {T("7")}), (Names{"s_w_id=7"}));
  EXPECT_EQ(Key(Spec(kLiteral, kSingle), "SELECT 1 FROM stock WHERE s_w_id::text = $1", {T("7")}),
            Key(Spec(kLiteral, kSingle), "SELECT 1 FROM stock WHERE s_w_id = $1", {I(7)}));
}

TEST_F(FootprintBuilderTest, ConstantsAndParametersAlike) {
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = 5 AND s_data = 'it''s' AND s_code = $1 AND s_price = 1.50 "
                    "AND s_since = '2024-01-02 03:04:05' AND s_ok = true",
                    {T("ab")}),
            (Names{"s_w_id=5", "s_data='it''s'", "s_code='ab'", "s_price=1.50", "s_since='2024-01-02 03:04:05'",
                   "s_ok=true"}));
  EXPECT_EQ(Key(Spec(kLiteral, kSingle), "SELECT 1 FROM stock WHERE s_w_id = 5", {}),
            Key(Spec(kLiteral, kSingle), "SELECT 1 FROM stock WHERE s_w_id = $1", {I(5)}));
  EXPECT_EQ(Key(Spec(kLiteral, kSingle), "SELECT 1 FROM stock WHERE s_data = 'x'", {}),
            Key(Spec(kLiteral, kSingle), "SELECT 1 FROM stock WHERE s_data = $1", {T("x")}));
  // A NULL constant is no reference (nothing equals NULL).
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = NULL AND s_i_id = 2", {}), (Names{"s_i_id=2"}));
}

TEST_F(FootprintBuilderTest, NullOrMissingParametersYieldNothing) {
  const std::string sql = "SELECT 1 FROM stock WHERE s_w_id = $1 AND s_i_id = $2 AND s_quantity < $3";
  EXPECT_EQ(Literal(sql, {Value::Null(TypeId::kInt32), I(2), I(3)}), (Names{"s_i_id=2", "s_quantity<3"}));
  EXPECT_EQ(Literal(sql, {Value(), I(2)}), (Names{"s_i_id=2"}));
  EXPECT_EQ(Literal(sql, {}), Names{});
  EXPECT_EQ(LiteralAll(sql, {Value(), I(2)}), (Names{"s_i_id=2"})) << "left out of the whole condition";
  EXPECT_EQ(LiteralAll(sql, {}), Names{}) << "a clause with no part is no reference";
  // A value that does not convert to the column's type: no reference either.
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = $1 AND s_i_id = $2", {T("x"), I(2)}), (Names{"s_i_id=2"}));
}

TEST_F(FootprintBuilderTest, UpdateSetListAndWhere) {
  const std::string sql =
      "UPDATE stock SET s_quantity = $3, s_big = s_big + 1, s_data = 'new', s_price = DEFAULT "
      "WHERE s_w_id = $1 AND s_i_id = $2";
  EXPECT_EQ(Literal(sql, {I(5), I(2), I(6)}), (Names{"s_quantity=6", "s_data='new'", "s_w_id=5", "s_i_id=2"}))
      << "SET x = x + 1 and a NULL default yield nothing";
  EXPECT_EQ(LiteralAll(sql, {I(5), I(2), I(6)}), (Names{"s_quantity=6 AND s_data='new'", "s_w_id=5 AND s_i_id=2"}));
  // The paper's Figure 1.
  EXPECT_EQ(Literal("UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3", {I(6), I(2), I(5)}),
            (Names{"s_quantity=6", "s_i_id=2", "s_w_id=5"}));
  EXPECT_EQ(NamesOf(Spec(kCanonical, kSingle), "UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3",
                    {I(6), I(2), I(5)}),
            (Names{"s_quantity=6", "item_no=2", "w_id=5"}));
  EXPECT_EQ(LiteralAll("UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3", {I(6), I(2), I(5)}),
            (Names{"s_quantity=6", "s_i_id=2 AND s_w_id=5"}));
  EXPECT_EQ(NamesOf(Spec(kCanonical, kAll), "UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3",
                    {I(6), I(2), I(5)}),
            (Names{"s_quantity=6", "item_no=2 AND w_id=5"}));
}

TEST_F(FootprintBuilderTest, InsertValuesEveryRowIsAClause) {
  const std::string sql =
      "INSERT INTO order_line (ol_w_id, ol_o_id, ol_number, ol_i_id, ol_quantity) "
      "VALUES ($1, $2, 1, $3, NULL), ($1, $2, 2, $4, 5), (DEFAULT, $2 + 1, 3, $3, $5)";
  EXPECT_EQ(Literal(sql, {I(1), I(3001), I(10), I(11), I(4)}),
            (Names{"ol_w_id=1", "ol_o_id=3001", "ol_number=1", "ol_i_id=10", "ol_number=2", "ol_i_id=11",
                   "ol_quantity=5", "ol_number=3", "ol_quantity=4"}));
  EXPECT_EQ(LiteralAll(sql, {I(1), I(3001), I(10), I(11), I(4)}),
            (Names{"ol_w_id=1 AND ol_o_id=3001 AND ol_number=1 AND ol_i_id=10",
                   "ol_w_id=1 AND ol_o_id=3001 AND ol_number=2 AND ol_i_id=11 AND ol_quantity=5",
                   "ol_number=3 AND ol_i_id=10 AND ol_quantity=4"}));
  EXPECT_EQ(NamesOf(Spec(kCanonical, kSingle), sql, {I(1), I(3001), I(10), I(11), I(4)}),
            (Names{"w_id=1", "ol_o_id=3001", "ol_number=1", "item_no=10", "ol_number=2", "item_no=11",
                   "ol_quantity=5", "ol_number=3", "ol_quantity=4"}));
  // Without a column list, the table's columns in order.
  EXPECT_EQ(Literal("INSERT INTO warehouse VALUES ($1, 'north')", {I(3)}), (Names{"w_id=3", "w_name='north'"}));
}

TEST_F(FootprintBuilderTest, InsertSelectValuesAndWhere) {
  const std::string sql =
      "INSERT INTO order_line (ol_w_id, ol_o_id, ol_number, ol_i_id) "
      "SELECT $1, 7, s_quantity, s_i_id FROM stock WHERE s_w_id = $1 AND s_quantity < $2";
  EXPECT_EQ(Literal(sql, {I(1), I(10)}), (Names{"ol_w_id=1", "ol_o_id=7", "s_w_id=1", "s_quantity<10"}));
  EXPECT_EQ(LiteralAll(sql, {I(1), I(10)}), (Names{"ol_w_id=1 AND ol_o_id=7", "s_w_id=1 AND s_quantity<10"}));
  EXPECT_EQ(NamesOf(Spec(kCanonical, kSingle), sql, {I(1), I(10)}), (Names{"w_id=1", "ol_o_id=7", "s_quantity<10"}))
      << "ol_w_id=1 and s_w_id=1 are one canonical reference";
}

TEST_F(FootprintBuilderTest, DeleteWhere) {
  EXPECT_EQ(Literal("DELETE FROM stock WHERE s_w_id = $1 AND s_i_id >= $2 AND s_data LIKE 'x%'", {I(2), I(40)}),
            (Names{"s_w_id=2", "s_i_id>=40"}));
  EXPECT_EQ(LiteralAll("DELETE FROM stock WHERE s_w_id = $1 AND s_i_id >= $2", {I(2), I(40)}),
            (Names{"s_w_id=2 AND s_i_id>=40"}));
}

TEST_F(FootprintBuilderTest, JoinsAndOtherConjunctsYieldNothing) {
  // The binder spreads these conjuncts over the two sources: written order is restored.
  EXPECT_EQ(Literal("SELECT 1 FROM order_line, stock WHERE s_w_id = $1 AND s_i_id = ol_i_id AND ol_w_id = $2 "
                    "AND s_quantity < $3",
                    {I(1), I(2), I(15)}),
            (Names{"s_w_id=1", "ol_w_id=2", "s_quantity<15"}));
  EXPECT_EQ(LiteralAll("SELECT 1 FROM order_line, stock WHERE s_w_id = $1 AND s_i_id = ol_i_id AND ol_w_id = $2 "
                       "AND s_quantity < $3",
                       {I(1), I(2), I(15)}),
            (Names{"s_w_id=1 AND ol_w_id=2 AND s_quantity<15"}));
  // Inner-join ON conjuncts are part of the condition.
  EXPECT_EQ(Literal("SELECT 1 FROM order_line JOIN stock ON s_i_id = ol_i_id AND s_w_id = 3 WHERE ol_o_id = $1",
                    {I(9)}),
            (Names{"s_w_id=3", "ol_o_id=9"}));
  // A LEFT JOIN's ON condition is a clause of its own; WHERE conjuncts on it are post filters.
  EXPECT_EQ(LiteralAll("SELECT 1 FROM order_line LEFT JOIN stock ON s_i_id = ol_i_id AND s_w_id = 3 "
                       "WHERE ol_o_id = $1 AND s_quantity > 4",
                       {I(9)}),
            (Names{"s_w_id=3", "ol_o_id=9 AND s_quantity>4"}));
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE (s_w_id = 1 OR s_w_id = 2) AND s_i_id IN (1, 2) "
                    "AND s_data LIKE 'a%' AND s_quantity + 1 = 3 AND NOT (s_big = 4) AND s_code IS NULL "
                    "AND s_quantity IS NOT DISTINCT FROM 5 AND s_w_id = s_i_id AND 1 = 1 AND $1 = 2",
                    {I(2)}),
            Names{});
  EXPECT_EQ(Literal("SELECT count(*) FROM stock GROUP BY s_w_id HAVING s_w_id = 1", {}), Names{})
      << "HAVING is no WHERE";
}

TEST_F(FootprintBuilderTest, OuterJoinGroupsAndFullJoinsKeepTheirOnConditionsApart) {
  // A LEFT JOIN of a nested join: the group's conditions (its inner join's
  // and the outer ON) are one clause; WHERE conjuncts on it run last.
  EXPECT_EQ(LiteralAll("SELECT 1 FROM order_line LEFT JOIN (stock JOIN item ON i_id = s_i_id AND i_id = 5) "
                       "ON s_i_id = ol_i_id AND s_w_id = 3 WHERE ol_o_id = $1 AND s_quantity > 4",
                       {I(9)}),
            (Names{"i_id=5 AND s_w_id=3", "ol_o_id=9 AND s_quantity>4"}));
  // FULL JOIN: the right side's ON condition is a clause of its own.
  EXPECT_EQ(LiteralAll("SELECT 1 FROM order_line FULL JOIN stock ON s_i_id = ol_i_id AND s_w_id = 3 "
                       "WHERE ol_o_id = $1",
                       {I(9)}),
            (Names{"s_w_id=3", "ol_o_id=9"}));
}

TEST_F(FootprintBuilderTest, DataModifyingWithQueriesComeFirst) {
  // Written first, their references come first; the statement's follow.
  EXPECT_EQ(Literal("WITH d AS (DELETE FROM stock WHERE s_w_id = $1 RETURNING s_i_id) "
                    "UPDATE item SET i_name = 'x' FROM d WHERE i_id = d.s_i_id AND i_id = $2",
                    {I(4), I(7)}),
            (Names{"s_w_id=4", "i_name='x'", "i_id=7"}));
  // Run even when not read.
  EXPECT_EQ(Literal("WITH u AS (UPDATE stock SET s_quantity = 1 WHERE s_w_id = 2) SELECT 1", {}),
            (Names{"s_quantity=1", "s_w_id=2"}));
}

TEST_F(FootprintBuilderTest, ArrayComparisonsYieldNoReference) {
  // x = ANY(array): the rows it reads are known only when it runs, so it
  // yields no reference; the statement's other equalities still do.
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = ANY($1) AND s_i_id = $2",
                    {MakeArray(TypeId::kInt32, {I(1), I(2)}), I(7)}),
            (Names{"s_i_id=7"}));
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = ANY('{1,2}') AND s_i_id <> ALL(ARRAY[$1::int])", {I(3)}), Names{});
  EXPECT_EQ(Literal("DELETE FROM stock WHERE s_w_id = ANY($1)", {MakeArray(TypeId::kInt32, {})}), Names{});
  EXPECT_EQ(Literal("SELECT 1 FROM stock WHERE s_w_id = ANY($1)", {Value::Null(TypeId::kArray)}), Names{});
}

// A sequence is never a reference: nextval's calls cost no conflict, so a
// value drawn from one says nothing about which rows a transaction touches.
// An INSERT keyed by nextval contributes its other values only.
TEST_F(FootprintBuilderTest, SequenceCallsYieldNoReference) {
  Run("CREATE SEQUENCE ids");
  EXPECT_EQ(Literal("SELECT nextval('ids')", {}), Names{});
  EXPECT_EQ(Literal("SELECT w_name FROM warehouse WHERE w_id = nextval('ids')", {}), Names{});
  EXPECT_EQ(Literal("INSERT INTO warehouse (w_id, w_name) VALUES (nextval('ids'), $1)", {T("x")}),
            (Names{"w_name='x'"}));
  EXPECT_EQ(Literal("UPDATE warehouse SET w_name = 'n' || nextval('ids') WHERE w_id = $1", {I(5)}),
            (Names{"w_id=5"}));
  EXPECT_EQ(NamesOf(KeysSpec(kLiteral, kSingle), "INSERT INTO warehouse (w_id, w_name) VALUES (nextval('ids'), $1)",
                    {T("x")}),
            Names{});
}

TEST_F(FootprintBuilderTest, NonDmlStatementsHaveNoSlots) {
  EXPECT_TRUE(Prepare("BEGIN")->reference_slots.empty());
  EXPECT_TRUE(Prepare("CREATE TABLE t (a INT)")->reference_slots.empty());
  EXPECT_TRUE(Prepare("SHOW transaction_isolation")->reference_slots.empty());
  EXPECT_TRUE(Prepare("SELECT 1 WHERE 1 = 1")->reference_slots.empty());
}

TEST_F(FootprintBuilderTest, SlotsRecordSubjectsOperatorValueAndClause) {
  auto p = Prepare("UPDATE stock SET s_quantity = 4 WHERE $2 > s_i_id AND s_w_id = $1");
  ASSERT_EQ(p->reference_slots.size(), 3u);
  const sql::ReferenceSlot& set = p->reference_slots[0];
  EXPECT_EQ(set.literal_name, "s_quantity");
  EXPECT_EQ(set.canonical_name, "s_quantity");
  EXPECT_EQ(set.literal_id, set.canonical_id) << "neither FK nor domain: canonical is literal";
  EXPECT_EQ(set.parameter, -1);
  EXPECT_EQ(set.constant, Value::Int16(4));
  EXPECT_EQ(set.constant_hash, Value::Int64(4).Hash());
  EXPECT_EQ(set.clause, 0u);
  const sql::ReferenceSlot& item = p->reference_slots[1];
  EXPECT_EQ(item.literal_name, "s_i_id");
  EXPECT_EQ(item.canonical_name, "item_no");
  EXPECT_EQ(item.canonical_id, sql::ReferenceDomainHash("item_no"));
  EXPECT_EQ(item.op, sql::ReferenceOp::kLt);
  EXPECT_EQ(item.parameter, 1);
  EXPECT_EQ(item.clause, 1u);
  const sql::ReferenceSlot& wh = p->reference_slots[2];
  EXPECT_EQ(wh.literal_id, sql::ReferenceNameHash("stock.s_w_id"));
  EXPECT_EQ(wh.canonical_id, sql::ReferenceNameHash("warehouse.w_id"));
  EXPECT_EQ(wh.canonical_name_hash, sql::ReferenceNameHash("w_id"));
  EXPECT_EQ(wh.canonical_qualified_hash, sql::ReferenceNameHash("warehouse.w_id"));
  EXPECT_EQ(wh.column_type.id, TypeId::kInt32);
  EXPECT_EQ(wh.parameter, 0);
  EXPECT_EQ(wh.clause, 1u);
}

TEST_F(FootprintBuilderTest, AllKeyIsOneWholeConditionIndependentOfOrder) {
  const FootprintSpec all = Spec(kLiteral, kAll);
  const FootprintSpec single = Spec(kLiteral, kSingle);
  const uint64_t ab = Key(all, "SELECT 1 FROM stock WHERE s_i_id = $1 AND s_w_id = $2", {I(2), I(5)});
  EXPECT_EQ(ab, Key(all, "SELECT 1 FROM stock WHERE s_w_id = $2 AND s_i_id = $1", {I(2), I(5)}));
  EXPECT_EQ(ab, Key(all, "DELETE FROM stock WHERE s_w_id = 5 AND s_i_id = 2", {}));
  EXPECT_NE(ab, Key(all, "SELECT 1 FROM stock WHERE s_i_id = $1 AND s_w_id = $2", {I(2), I(6)}));
  EXPECT_NE(ab, Key(all, "SELECT 1 FROM stock WHERE s_i_id = $1 AND s_w_id < $2", {I(2), I(5)}));
  EXPECT_NE(ab, Key(single, "SELECT 1 FROM stock WHERE s_i_id = 2", {}));
  EXPECT_NE(ab, Key(single, "SELECT 1 FROM stock WHERE s_w_id = 5", {}));
  // A one-part clause is its part; a part said twice counts once.
  EXPECT_EQ(Key(all, "SELECT 1 FROM stock WHERE s_w_id = 5", {}), Key(single, "SELECT 1 FROM stock WHERE s_w_id = 5", {}));
  EXPECT_EQ(Key(all, "SELECT 1 FROM stock WHERE s_w_id = 5 AND s_i_id = 2 AND s_w_id = $1", {I(5)}), ab);
  EXPECT_EQ(LiteralAll("SELECT 1 FROM stock WHERE s_w_id = 5 AND s_i_id = 2 AND s_w_id = $1", {I(5)}),
            (Names{"s_w_id=5 AND s_i_id=2"}));
  // Single: one key per conjunct.
  Footprint f = Build(single, {{"SELECT 1 FROM stock WHERE s_i_id = $1 AND s_w_id = $2", {I(2), I(5)}}});
  EXPECT_EQ(f.references.size(), 2u);
}

TEST_F(FootprintBuilderTest, LiteralAndCanonicalForms) {
  const std::vector<std::pair<std::string, std::vector<Value>>> txn = {
      {"SELECT w_name FROM warehouse WHERE w_id = $1", {I(5)}},
      {"SELECT s_quantity FROM stock WHERE s_w_id = $1 AND s_i_id = $2", {I(5), I(2)}},
      {"SELECT 1 FROM order_line WHERE ol_w_id = $1 AND ol_i_id = $2", {I(5), I(2)}},
  };
  Names names;
  Footprint literal = Build(Spec(kLiteral, kSingle), txn, &names);
  EXPECT_EQ(names, (Names{"w_id=5", "s_w_id=5", "s_i_id=2", "ol_w_id=5", "ol_i_id=2"}));
  Footprint canonical = Build(Spec(kCanonical, kSingle), txn, &names);
  EXPECT_EQ(names, (Names{"w_id=5", "item_no=2"})) << "ol_i_id → stock.s_i_id → item.i_id of domain item_no";
  EXPECT_EQ(canonical.references[0], literal.references[0]) << "warehouse.w_id is its own root";
  Build(Spec(kLiteral, kAll), txn, &names);
  EXPECT_EQ(names, (Names{"w_id=5", "s_w_id=5 AND s_i_id=2", "ol_w_id=5 AND ol_i_id=2"}));
  Build(Spec(kCanonical, kAll), txn, &names);
  EXPECT_EQ(names, (Names{"w_id=5", "w_id=5 AND item_no=2"}));
}

TEST_F(FootprintBuilderTest, KeysAreDistinctInFirstSeenOrder) {
  Names names;
  Footprint f = Build(Spec(kLiteral, kSingle),
                      {{"SELECT 1 FROM stock WHERE s_w_id = $1 AND s_i_id = $2", {I(1), I(2)}},
                       {"SELECT 1 FROM stock WHERE s_i_id = $1 AND s_quantity > 3", {I(2)}},
                       {"SELECT 1 FROM stock WHERE s_w_id = $1 AND s_i_id = $2", {I(1), I(3)}}},
                      &names);
  EXPECT_EQ(names, (Names{"s_w_id=1", "s_i_id=2", "s_quantity>3", "s_i_id=3"}));
  ASSERT_EQ(f.references.size(), 4u);
  // Many keys (past the first table growth) stay distinct and ordered.
  auto p = Prepare("SELECT 1 FROM stock WHERE s_i_id = $1");
  FootprintBuilder builder(Spec(kLiteral, kSingle), true);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 1000; ++i) {
      std::vector<Value> params{I(i)};
      builder.Add(*p, params);
    }
  }
  Footprint many = builder.Finish();
  ASSERT_EQ(many.references.size(), 1000u);
  EXPECT_EQ(builder.Names()[0], "s_i_id=0");
  EXPECT_EQ(builder.Names()[999], "s_i_id=999");
  // Finish leaves the builder empty; Names() last until the next Add.
  EXPECT_TRUE(builder.Finish().references.empty());
  EXPECT_EQ(builder.Names().size(), 1000u);
  std::vector<Value> params{I(1)};
  builder.Add(*p, params);
  EXPECT_EQ(builder.Finish().references.size(), 1u);
  EXPECT_EQ(builder.Names(), (Names{"s_i_id=1"}));
}

TEST_F(FootprintBuilderTest, IntegerFiveHashesAlikeWhateverItsType) {
  const FootprintSpec spec = Spec(kLiteral, kSingle);
  const std::string sql = "SELECT 1 FROM stock WHERE s_w_id = $1";
  const uint64_t k = Key(spec, sql, {Value::Int32(5)});
  EXPECT_EQ(k, Key(spec, sql, {Value::Int16(5)}));
  EXPECT_EQ(k, Key(spec, sql, {Value::Int64(5)}));
  EXPECT_EQ(k, Key(spec, sql, {T("5")}));
  EXPECT_EQ(k, Key(spec, sql, {Value::String(TypeId::kUnknown, " 5 ")}));
  EXPECT_EQ(k, Key(spec, sql, {Value::Numeric(Decimal(500, 2))}));
  EXPECT_EQ(k, Key(spec, "SELECT 1 FROM stock WHERE s_w_id = 5", {}));
  EXPECT_EQ(k, Key(spec, "SELECT 1 FROM stock WHERE s_w_id = 5::smallint", {}));
  EXPECT_EQ(NamesOf(spec, sql, {T("5")}), (Names{"s_w_id=5"}));
  // Declared parameter types change nothing.
  for (TypeId t : {TypeId::kInt16, TypeId::kInt64, TypeId::kNumeric}) {
    FootprintBuilder b(spec);
    std::vector<Value> params{Value::Int64(5)};
    b.Add(*Prepare(sql, {Type(t)}), params);
    Footprint f = b.Finish();
    ASSERT_EQ(f.references.size(), 1u);
    EXPECT_EQ(f.references[0], k) << TypeIdName(t);
  }
  // A SMALLINT and a BIGINT column compare their values alike too.
  EXPECT_EQ(Key(spec, "SELECT 1 FROM stock WHERE s_quantity = $1", {T("5")}),
            Key(spec, "SELECT 1 FROM stock WHERE s_quantity = $1", {Value::Int64(5)}));
  // CHAR ignores trailing blanks, as its comparisons do.
  EXPECT_EQ(Key(spec, "SELECT 1 FROM stock WHERE s_code = $1", {T("ab")}),
            Key(spec, "SELECT 1 FROM stock WHERE s_code = $1", {T("ab  ")}));
  EXPECT_EQ(Key(spec, "SELECT 1 FROM stock WHERE s_code = $1", {T("ab")}),
            Key(spec, "SELECT 1 FROM stock WHERE s_code = 'ab'", {}));
}

TEST_F(FootprintBuilderTest, KeysDifferAcrossColumnsOperatorsValuesAndForms) {
  const FootprintSpec spec = Spec(kLiteral, kSingle);
  const uint64_t k = Key(spec, "SELECT 1 FROM stock WHERE s_w_id = 5", {});
  EXPECT_NE(k, Key(spec, "SELECT 1 FROM stock WHERE s_i_id = 5", {}));
  EXPECT_NE(k, Key(spec, "SELECT 1 FROM order_line WHERE ol_w_id = 5", {}));
  EXPECT_NE(k, Key(spec, "SELECT 1 FROM warehouse WHERE w_id = 5", {}));
  for (const char* op : {"<>", "<", "<=", ">", ">="}) {
    EXPECT_NE(k, Key(spec, std::string("SELECT 1 FROM stock WHERE s_w_id ") + op + " 5", {})) << op;
  }
  EXPECT_NE(k, Key(spec, "SELECT 1 FROM stock WHERE s_w_id = 6", {}));
  EXPECT_NE(k, Key(spec, "SELECT 1 FROM stock WHERE s_w_id = -5", {}));
  EXPECT_NE(Key(spec, "SELECT 1 FROM stock WHERE s_data = '5'", {}),
            Key(spec, "SELECT 1 FROM stock WHERE s_data = '6'", {}));
  // Canonically s_w_id=5 is w_id=5: the warehouse's own key.
  const FootprintSpec canonical = Spec(kCanonical, kSingle);
  EXPECT_NE(k, Key(canonical, "SELECT 1 FROM stock WHERE s_w_id = 5", {}));
  EXPECT_EQ(Key(canonical, "SELECT 1 FROM stock WHERE s_w_id = 5", {}),
            Key(canonical, "SELECT 1 FROM warehouse WHERE w_id = 5", {}));
  EXPECT_EQ(Key(canonical, "SELECT 1 FROM stock WHERE s_w_id = 5", {}),
            Key(spec, "SELECT 1 FROM warehouse WHERE w_id = 5", {}));
  EXPECT_NE(Key(canonical, "SELECT 1 FROM stock WHERE s_w_id = 5", {}),
            Key(canonical, "SELECT 1 FROM stock WHERE s_i_id = 5", {}));
}

TEST_F(FootprintBuilderTest, PartitionValueIsTheFirstEqualityOnTheDomain) {
  const std::vector<std::pair<std::string, std::vector<Value>>> txn = {
      {"SELECT 1 FROM stock WHERE s_w_id < $1 AND s_i_id = $2", {I(9), I(2)}},
      {"SELECT 1 FROM stock WHERE s_w_id = $1", {Value()}},
      {"SELECT 1 FROM order_line WHERE ol_o_id = 4 AND ol_w_id = $1", {I(7)}},
      {"SELECT 1 FROM warehouse WHERE w_id = 8", {}},
  };
  for (const char* domain : {"w_id", "warehouse.w_id"}) {
    Footprint f = Build(Spec(kLiteral, kSingle, domain), txn);
    EXPECT_TRUE(f.has_partition_value) << domain;
    EXPECT_EQ(f.partition_value, 7u) << domain;
  }
  FootprintSpec only_partition;
  only_partition.partition_domain = "w_id";
  Footprint f = Build(only_partition, txn);
  EXPECT_TRUE(f.references.empty()) << "references not asked for";
  EXPECT_EQ(f.partition_value, 7u);
  // A domain: by its name. Negative integers as two's complement; a string as its hash.
  f = Build(Spec(kLiteral, kSingle, "item_no"), {{"SELECT 1 FROM stock WHERE s_i_id = $1", {I(-3)}}});
  EXPECT_TRUE(f.has_partition_value);
  EXPECT_EQ(f.partition_value, static_cast<uint64_t>(int64_t{-3}));
  f = Build(Spec(kLiteral, kSingle, "w_name"), {{"SELECT 1 FROM warehouse WHERE w_name = $1", {T("north")}}});
  EXPECT_EQ(f.partition_value, Value::Text("north").Hash());
  // An integral numeric or text value partitions as the integer.
  f = Build(Spec(kLiteral, kSingle, "w_id"), {{"SELECT 1 FROM stock WHERE s_w_id = $1", {Value::Numeric(Decimal(500, 2))}}});
  EXPECT_EQ(f.partition_value, 5u);
  f = Build(Spec(kLiteral, kSingle, "w_id"), {{"SELECT 1 FROM stock WHERE s_w_id = $1", {T("6")}}});
  EXPECT_EQ(f.partition_value, 6u);
  // None: no such domain, the literal name of a non-root column, no equality.
  EXPECT_FALSE(Build(Spec(kLiteral, kSingle, "nope"), txn).has_partition_value);
  EXPECT_FALSE(Build(Spec(kLiteral, kSingle, "s_w_id"), txn).has_partition_value);
  EXPECT_FALSE(Build(Spec(kLiteral, kSingle, "w_id"), {txn[0], txn[1]}).has_partition_value);
}


TEST_F(FootprintBuilderTest, KeysSourcesKeepEqualitiesOnAnIndexPrefix) {
  Run("CREATE INDEX order_line_by_order ON order_line (ol_w_id, ol_o_id)");
  const FootprintSpec keys = KeysSpec(kLiteral, kSingle);
  // stock's primary key is (s_w_id, s_i_id): both equalities form it; a
  // range and a non-key column are no key.
  EXPECT_EQ(NamesOf(keys, "SELECT 1 FROM stock WHERE s_i_id = $1 AND s_quantity < $2 AND s_w_id = $3 AND s_data = $4",
                    {I(42), I(10), I(1), T("x")}),
            (Names{"s_i_id=42", "s_w_id=1"}));
  // A prefix of the key locates rows; a later column alone does not.
  EXPECT_EQ(NamesOf(keys, "SELECT 1 FROM stock WHERE s_w_id = $1", {I(1)}), (Names{"s_w_id=1"}));
  EXPECT_EQ(NamesOf(keys, "SELECT 1 FROM stock WHERE s_i_id = $1", {I(42)}), Names{});
  EXPECT_EQ(NamesOf(keys, "SELECT 1 FROM stock WHERE s_w_id > $1 AND s_i_id = $2", {I(1), I(42)}), Names{});
  // A secondary index counts as well.
  EXPECT_EQ(NamesOf(keys, "SELECT 1 FROM order_line WHERE ol_number = 3 AND ol_o_id = $1 AND ol_w_id = $2",
                    {I(5), I(1)}),
            (Names{"ol_o_id=5", "ol_w_id=1"}));
  EXPECT_EQ(NamesOf(keys, "SELECT 1 FROM order_line WHERE ol_o_id = $1", {I(5)}), Names{});
  // UPDATE and DELETE: the WHERE only, never the SET list.
  EXPECT_EQ(NamesOf(keys, "UPDATE stock SET s_quantity = $1 WHERE s_w_id = $2 AND s_i_id = $3", {I(9), I(1), I(42)}),
            (Names{"s_w_id=1", "s_i_id=42"}));
  EXPECT_EQ(NamesOf(keys, "DELETE FROM warehouse WHERE w_id = $1 AND w_name = $2", {I(3), T("x")}),
            (Names{"w_id=3"}));
  // Under "all" the key equalities of a condition are one reference.
  EXPECT_EQ(NamesOf(KeysSpec(kLiteral, kAll), "SELECT 1 FROM stock WHERE s_i_id = $1 AND s_data = $2 AND s_w_id = $3",
                    {I(42), T("x"), I(1)}),
            (Names{"s_i_id=42 AND s_w_id=1"}));
}

TEST_F(FootprintBuilderTest, KeysSourcesTakeAnInsertsPrimaryKeyOnly) {
  const FootprintSpec keys = KeysSpec(kLiteral, kSingle);
  // A one-column key names the row.
  EXPECT_EQ(NamesOf(keys, "INSERT INTO warehouse VALUES ($1, $2)", {I(5), T("north")}), (Names{"w_id=5"}));
  // A part of a composite key names nothing by itself: only the whole key,
  // under "all".
  const std::string stock = "INSERT INTO stock (s_i_id, s_w_id, s_quantity) VALUES ($1, $2, $3)";
  EXPECT_EQ(NamesOf(keys, stock, {I(42), I(1), I(9)}), Names{});
  EXPECT_EQ(NamesOf(KeysSpec(kLiteral, kAll), stock, {I(42), I(1), I(9)}), (Names{"s_i_id=42 AND s_w_id=1"}));
  // No primary key: nothing.
  EXPECT_EQ(NamesOf(keys, "INSERT INTO order_line VALUES (1, 2, 3, 4, 5)", {}), Names{});
}

TEST_F(FootprintBuilderTest, OccurrencesCountTheStatementsThatMadeAReference) {
  FootprintSpec spec = KeysSpec(kCanonical, kSingle);
  spec.multiplicity = scheduler::ReferenceMultiplicity::kOccurrence;
  Names names;
  const Footprint f = Build(spec,
                            {{"SELECT 1 FROM warehouse WHERE w_id = $1", {I(1)}},
                             {"SELECT 1 FROM stock WHERE s_w_id = $1 AND s_i_id = $2", {I(1), I(42)}},
                             {"SELECT 1 FROM stock WHERE s_w_id = $1 AND s_i_id = $2", {I(1), I(43)}},
                             // Twice in one statement: once.
                             {"SELECT 1 FROM stock, warehouse WHERE s_w_id = $1 AND s_i_id = $2 AND w_id = $1",
                              {I(1), I(42)}}},
                            &names);
  EXPECT_EQ(names, (Names{"w_id=1", "item_no=42", "item_no=43"}));  // s_i_id → item.i_id, of domain item_no
  EXPECT_EQ(f.reference_occurrences, (std::vector<uint32_t>{4, 2, 1}));
  EXPECT_EQ(f.OccurrencesOf(0), 4u);
  // Per transaction: not computed, each counts once.
  const Footprint once = Build(KeysSpec(kCanonical, kSingle), {{"SELECT 1 FROM warehouse WHERE w_id = $1", {I(1)}},
                                                               {"SELECT 1 FROM warehouse WHERE w_id = $1", {I(1)}}});
  EXPECT_TRUE(once.reference_occurrences.empty());
  EXPECT_EQ(once.OccurrencesOf(0), 1u);
}

}  // namespace
}  // namespace paceline::engine
