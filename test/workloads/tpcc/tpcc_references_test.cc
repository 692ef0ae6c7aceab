// The references of every statement of the five TPC-C procedures, in the four
// forms (literal/canonical × single/all), against texts written by hand from
// the SQL and the schema's foreign keys:
//   s_w_id, d_w_id, c_w_id, o_w_id, no_w_id, ol_w_id, ol_supply_w_id,
//   h_c_w_id, h_w_id → warehouse.w_id ("w_id"); c_d_id, o_d_id, no_d_id,
//   ol_d_id, h_c_d_id, h_d_id → district.d_id ("d_id"); o_c_id, h_c_id →
//   customer.c_id ("c_id"); no_o_id, ol_o_id → orders.o_id ("o_id"); s_i_id,
//   ol_i_id → item.i_id ("i_id"); every other column is its own domain.
// NULL parameters (what a procedure's prediction passes for values computed
// inside the transaction) are left out.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/footprint_builder.h"
#include "workloads/tpcc/delivery.h"
#include "workloads/tpcc/new_order.h"
#include "workloads/tpcc/order_status.h"
#include "workloads/tpcc/payment.h"
#include "workloads/tpcc/stock_level.h"
#include "workloads/tpcc/tpcc_schema.h"

namespace paceline::workloads::tpcc {
namespace {

using Names = std::vector<std::string>;
using scheduler::ReferenceForm;
using scheduler::ReferenceGranularity;

Value I(int64_t v) { return Value::Int32(static_cast<int32_t>(v)); }
Value Money(int64_t cents) { return Value::Numeric(Decimal(cents, 2)); }
const char kDistInfo[] = "dist-info-of-line-three!";  // 24 characters, as CHAR(24)
Value T(std::string s) { return Value::Text(std::move(s)); }
Value Null() { return Value(); }

// One execution of declared statement `statement` and its references.
struct Case {
  size_t statement;
  std::string sql_contains;  // a piece of the statement's SQL (keeps the index honest)
  std::vector<Value> params;
  Names literal_single;
  Names canonical_single;
  Names literal_all;
  Names canonical_all;
};

class TpccReferencesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const engine::Options options;  // named: GCC 12 -O3 misreads a temporary's strings
    ASSERT_TRUE(engine::Database::Open(options, &db_).ok());
    Status s = CreateTpccSchema(db_.get());
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  Names NamesOf(const sql::PreparedStatement& p, const std::vector<Value>& params, ReferenceForm form,
                ReferenceGranularity granularity) {
    scheduler::FootprintSpec spec;
    spec.references = true;
    spec.form = form;
    spec.granularity = granularity;
    engine::FootprintBuilder builder(spec, /*with_names=*/true);
    builder.Add(p, params);
    scheduler::Footprint f = builder.Finish();
    EXPECT_EQ(f.references.size(), builder.Names().size());
    return builder.Names();
  }

  // Checks every case, and that the cases cover every declared statement.
  void Check(const engine::Procedure& procedure, const std::vector<Case>& cases) {
    std::set<size_t> covered;
    for (const Case& c : cases) {
      ASSERT_LT(c.statement, procedure.statements.size());
      const std::string& sql = procedure.statements[c.statement];
      SCOPED_TRACE(procedure.name + " statement " + std::to_string(c.statement) + ": " + sql);
      EXPECT_NE(sql.find(c.sql_contains), std::string::npos) << c.sql_contains;
      std::shared_ptr<sql::PreparedStatement> p;
      Status s = sql::PreparedStatement::Prepare(sql, db_->catalog(), {}, &p);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(NamesOf(*p, c.params, ReferenceForm::kLiteral, ReferenceGranularity::kSingle), c.literal_single)
          << "literal single";
      EXPECT_EQ(NamesOf(*p, c.params, ReferenceForm::kCanonical, ReferenceGranularity::kSingle), c.canonical_single)
          << "canonical single";
      EXPECT_EQ(NamesOf(*p, c.params, ReferenceForm::kLiteral, ReferenceGranularity::kAll), c.literal_all)
          << "literal all";
      EXPECT_EQ(NamesOf(*p, c.params, ReferenceForm::kCanonical, ReferenceGranularity::kAll), c.canonical_all)
          << "canonical all";
      covered.insert(c.statement);
    }
    for (size_t i = 0; i < procedure.statements.size(); ++i) {
      EXPECT_TRUE(covered.count(i)) << procedure.name << " statement " << i << " has no case: "
                                    << procedure.statements[i];
    }
  }

  // A two-line NewOrder (the second line supplied by warehouse 2) as the
  // procedure runs it, through `builder`.
  scheduler::Footprint TwoLineNewOrder(engine::FootprintBuilder* builder) {
    const engine::Procedure procedure = NewOrderProcedure();
    std::vector<std::shared_ptr<sql::PreparedStatement>> prepared(procedure.statements.size());
    for (size_t i = 0; i < prepared.size(); ++i) {
      Status s = sql::PreparedStatement::Prepare(procedure.statements[i], db_->catalog(), {}, &prepared[i]);
      EXPECT_TRUE(s.ok()) << s.ToString();
      if (!s.ok()) return {};
    }
    const std::vector<std::pair<size_t, std::vector<Value>>> run = {
        {0, {I(1)}},
        {1, {I(1), I(2)}},
        {2, {I(1), I(2), I(3002)}},
        {3, {I(1), I(2), I(7)}},
        {4, {I(3001), I(2), I(1), I(7), I(2), I(0)}},
        {5, {I(3001), I(2), I(1)}},
        {6, {I(42)}},
        {8, {I(1), I(42)}},
        {17, {I(1), I(42), I(55), I(5), I(0)}},
        {18, {I(3001), I(2), I(1), I(1), I(42), I(1), I(5), Money(1234), T(kDistInfo)}},
        {6, {I(43)}},
        {8, {I(2), I(43)}},
        {17, {I(2), I(43), I(91), I(1), I(1)}},
        {18, {I(3001), I(2), I(1), I(2), I(43), I(2), I(1), Money(250), T(kDistInfo)}},
    };
    for (const auto& [statement, params] : run) builder->Add(*prepared[statement], params);
    return builder->Finish();
  }

  std::unique_ptr<engine::Database> db_;
};

TEST_F(TpccReferencesTest, NewOrder) {
  std::vector<Case> cases = {
      {0, "FROM warehouse WHERE w_id = $1", {I(1)},
       {"w_id=1"}, {"w_id=1"}, {"w_id=1"}, {"w_id=1"}},
      {1, "FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE", {I(1), I(2)},
       {"d_w_id=1", "d_id=2"}, {"w_id=1", "d_id=2"}, {"d_w_id=1 AND d_id=2"}, {"w_id=1 AND d_id=2"}},
      {2, "UPDATE district SET d_next_o_id = $3", {I(1), I(2), I(3002)},
       {"d_next_o_id=3002", "d_w_id=1", "d_id=2"},
       {"d_next_o_id=3002", "w_id=1", "d_id=2"},
       {"d_next_o_id=3002", "d_w_id=1 AND d_id=2"},
       {"d_next_o_id=3002", "w_id=1 AND d_id=2"}},
      // As predicted: the next order id is read inside the transaction.
      {2, "UPDATE district SET d_next_o_id = $3", {I(1), I(2), Null()},
       {"d_w_id=1", "d_id=2"}, {"w_id=1", "d_id=2"}, {"d_w_id=1 AND d_id=2"}, {"w_id=1 AND d_id=2"}},
      {3, "FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", {I(1), I(2), I(7)},
       {"c_w_id=1", "c_d_id=2", "c_id=7"},
       {"w_id=1", "d_id=2", "c_id=7"},
       {"c_w_id=1 AND c_d_id=2 AND c_id=7"},
       {"w_id=1 AND d_id=2 AND c_id=7"}},
      {4, "INSERT INTO orders", {I(3001), I(2), I(1), I(7), I(10), I(1)},
       {"o_id=3001", "o_d_id=2", "o_w_id=1", "o_c_id=7", "o_ol_cnt=10", "o_all_local=1"},
       {"o_id=3001", "d_id=2", "w_id=1", "c_id=7", "o_ol_cnt=10", "o_all_local=1"},
       {"o_id=3001 AND o_d_id=2 AND o_w_id=1 AND o_c_id=7 AND o_ol_cnt=10 AND o_all_local=1"},
       {"o_id=3001 AND d_id=2 AND w_id=1 AND c_id=7 AND o_ol_cnt=10 AND o_all_local=1"}},
      {4, "INSERT INTO orders", {Null(), I(2), I(1), I(7), I(10), I(1)},
       {"o_d_id=2", "o_w_id=1", "o_c_id=7", "o_ol_cnt=10", "o_all_local=1"},
       {"d_id=2", "w_id=1", "c_id=7", "o_ol_cnt=10", "o_all_local=1"},
       {"o_d_id=2 AND o_w_id=1 AND o_c_id=7 AND o_ol_cnt=10 AND o_all_local=1"},
       {"d_id=2 AND w_id=1 AND c_id=7 AND o_ol_cnt=10 AND o_all_local=1"}},
      {5, "INSERT INTO new_order", {I(3001), I(2), I(1)},
       {"no_o_id=3001", "no_d_id=2", "no_w_id=1"},
       {"o_id=3001", "d_id=2", "w_id=1"},
       {"no_o_id=3001 AND no_d_id=2 AND no_w_id=1"},
       {"o_id=3001 AND d_id=2 AND w_id=1"}},
      {6, "FROM item WHERE i_id = $1", {I(42)},
       {"i_id=42"}, {"i_id=42"}, {"i_id=42"}, {"i_id=42"}},
      {17, "UPDATE stock SET s_quantity = $3", {I(1), I(42), I(55), I(5), I(0)},
       {"s_quantity=55", "s_w_id=1", "s_i_id=42"},
       {"s_quantity=55", "w_id=1", "i_id=42"},
       {"s_quantity=55", "s_w_id=1 AND s_i_id=42"},
       {"s_quantity=55", "w_id=1 AND i_id=42"}},
      {17, "UPDATE stock SET s_quantity = $3", {I(1), I(42), Null(), I(5), I(0)},
       {"s_w_id=1", "s_i_id=42"}, {"w_id=1", "i_id=42"}, {"s_w_id=1 AND s_i_id=42"}, {"w_id=1 AND i_id=42"}},
      {18, "INSERT INTO order_line",
       {I(3001), I(2), I(1), I(3), I(42), I(2), I(5), Money(1234), T(kDistInfo)},
       {"ol_o_id=3001", "ol_d_id=2", "ol_w_id=1", "ol_number=3", "ol_i_id=42", "ol_supply_w_id=2", "ol_quantity=5",
        "ol_amount=12.34", "ol_dist_info='dist-info-of-line-three!'"},
       // ol_d_id=2 is d_id=2 and ol_supply_w_id=2 is w_id=2: two subjects.
       {"o_id=3001", "d_id=2", "w_id=1", "ol_number=3", "i_id=42", "w_id=2", "ol_quantity=5", "ol_amount=12.34",
        "ol_dist_info='dist-info-of-line-three!'"},
       {"ol_o_id=3001 AND ol_d_id=2 AND ol_w_id=1 AND ol_number=3 AND ol_i_id=42 AND ol_supply_w_id=2 AND "
        "ol_quantity=5 AND ol_amount=12.34 AND ol_dist_info='dist-info-of-line-three!'"},
       {"o_id=3001 AND d_id=2 AND w_id=1 AND ol_number=3 AND i_id=42 AND w_id=2 AND ol_quantity=5 AND "
        "ol_amount=12.34 AND ol_dist_info='dist-info-of-line-three!'"}},
      // As predicted: order id, amount and dist info unknown; a home supplier.
      {18, "INSERT INTO order_line", {Null(), I(2), I(1), I(3), I(42), I(1), I(5), Null(), Null()},
       {"ol_d_id=2", "ol_w_id=1", "ol_number=3", "ol_i_id=42", "ol_supply_w_id=1", "ol_quantity=5"},
       {"d_id=2", "w_id=1", "ol_number=3", "i_id=42", "ol_quantity=5"},
       {"ol_d_id=2 AND ol_w_id=1 AND ol_number=3 AND ol_i_id=42 AND ol_supply_w_id=1 AND ol_quantity=5"},
       {"d_id=2 AND w_id=1 AND ol_number=3 AND i_id=42 AND ol_quantity=5"}},
  };
  // The stock read, one statement per district (its s_dist_xx column).
  for (size_t d = 1; d <= 10; ++d) {
    cases.push_back({6 + d, "FROM stock WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE", {I(1), I(42)},
                     {"s_w_id=1", "s_i_id=42"}, {"w_id=1", "i_id=42"}, {"s_w_id=1 AND s_i_id=42"},
                     {"w_id=1 AND i_id=42"}});
  }
  Check(NewOrderProcedure(), cases);
}

TEST_F(TpccReferencesTest, Payment) {
  const Names customer_ls = {"c_w_id=1", "c_d_id=2", "c_id=7"};
  const Names customer_cs = {"w_id=1", "d_id=2", "c_id=7"};
  const Names customer_la = {"c_w_id=1 AND c_d_id=2 AND c_id=7"};
  const Names customer_ca = {"w_id=1 AND d_id=2 AND c_id=7"};
  std::vector<Case> cases = {
      {0, "UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1", {I(1), Money(1234)},
       {"w_id=1"}, {"w_id=1"}, {"w_id=1"}, {"w_id=1"}},
      {1, "FROM warehouse WHERE w_id = $1", {I(1)},
       {"w_id=1"}, {"w_id=1"}, {"w_id=1"}, {"w_id=1"}},
      {2, "UPDATE district SET d_ytd = d_ytd + $3", {I(1), I(2), Money(1234)},
       {"d_w_id=1", "d_id=2"}, {"w_id=1", "d_id=2"}, {"d_w_id=1 AND d_id=2"}, {"w_id=1 AND d_id=2"}},
      {3, "FROM district WHERE d_w_id = $1 AND d_id = $2", {I(1), I(2)},
       {"d_w_id=1", "d_id=2"}, {"w_id=1", "d_id=2"}, {"d_w_id=1 AND d_id=2"}, {"w_id=1 AND d_id=2"}},
      {4, "c_last = $3 ORDER BY c_first", {I(1), I(2), T("BARBARBAR")},
       {"c_w_id=1", "c_d_id=2", "c_last='BARBARBAR'"},
       {"w_id=1", "d_id=2", "c_last='BARBARBAR'"},
       {"c_w_id=1 AND c_d_id=2 AND c_last='BARBARBAR'"},
       {"w_id=1 AND d_id=2 AND c_last='BARBARBAR'"}},
      // By id: the name is NULL, the by-name statement is not run; had it
      // been, only the district would be a reference.
      {4, "c_last = $3 ORDER BY c_first", {I(1), I(2), Null()},
       {"c_w_id=1", "c_d_id=2"}, {"w_id=1", "d_id=2"}, {"c_w_id=1 AND c_d_id=2"}, {"w_id=1 AND d_id=2"}},
      {5, "c_balance FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 FOR UPDATE", {I(1), I(2), I(7)},
       customer_ls, customer_cs, customer_la, customer_ca},
      {6, "UPDATE customer SET c_balance = c_balance - $4", {I(1), I(2), I(7), Money(1234)},
       customer_ls, customer_cs, customer_la, customer_ca},
      {7, "SELECT c_data FROM customer", {I(1), I(2), I(7)},
       customer_ls, customer_cs, customer_la, customer_ca},
      {8, "UPDATE customer SET c_data = $4", {I(1), I(2), I(7), T("new data")},
       {"c_data='new data'", "c_w_id=1", "c_d_id=2", "c_id=7"},
       {"c_data='new data'", "w_id=1", "d_id=2", "c_id=7"},
       {"c_data='new data'", "c_w_id=1 AND c_d_id=2 AND c_id=7"},
       {"c_data='new data'", "w_id=1 AND d_id=2 AND c_id=7"}},
      // A remote customer (warehouse 2, district 3) paying at warehouse 1, district 2.
      {9, "INSERT INTO history", {I(7), I(3), I(2), I(2), I(1), Money(1234), T("WH-1    DI-2")},
       {"h_c_id=7", "h_c_d_id=3", "h_c_w_id=2", "h_d_id=2", "h_w_id=1", "h_amount=12.34", "h_data='WH-1    DI-2'"},
       {"c_id=7", "d_id=3", "w_id=2", "d_id=2", "w_id=1", "h_amount=12.34", "h_data='WH-1    DI-2'"},
       {"h_c_id=7 AND h_c_d_id=3 AND h_c_w_id=2 AND h_d_id=2 AND h_w_id=1 AND h_amount=12.34 AND "
        "h_data='WH-1    DI-2'"},
       {"c_id=7 AND d_id=3 AND w_id=2 AND d_id=2 AND w_id=1 AND h_amount=12.34 AND h_data='WH-1    DI-2'"}},
      // A home customer: canonically the district and warehouse are said twice.
      {9, "INSERT INTO history", {I(7), I(2), I(1), I(2), I(1), Money(500), T("x")},
       {"h_c_id=7", "h_c_d_id=2", "h_c_w_id=1", "h_d_id=2", "h_w_id=1", "h_amount=5.00", "h_data='x'"},
       {"c_id=7", "d_id=2", "w_id=1", "h_amount=5.00", "h_data='x'"},
       {"h_c_id=7 AND h_c_d_id=2 AND h_c_w_id=1 AND h_d_id=2 AND h_w_id=1 AND h_amount=5.00 AND h_data='x'"},
       {"c_id=7 AND d_id=2 AND w_id=1 AND h_amount=5.00 AND h_data='x'"}},
  };
  Check(PaymentProcedure(), cases);
}

TEST_F(TpccReferencesTest, OrderStatus) {
  std::vector<Case> cases = {
      {0, "c_last = $3 ORDER BY c_first", {I(1), I(2), T("OUGHTPRIPRES")},
       {"c_w_id=1", "c_d_id=2", "c_last='OUGHTPRIPRES'"},
       {"w_id=1", "d_id=2", "c_last='OUGHTPRIPRES'"},
       {"c_w_id=1 AND c_d_id=2 AND c_last='OUGHTPRIPRES'"},
       {"w_id=1 AND d_id=2 AND c_last='OUGHTPRIPRES'"}},
      {1, "SELECT c_balance, c_first, c_middle, c_last FROM customer", {I(1), I(2), I(7)},
       {"c_w_id=1", "c_d_id=2", "c_id=7"},
       {"w_id=1", "d_id=2", "c_id=7"},
       {"c_w_id=1 AND c_d_id=2 AND c_id=7"},
       {"w_id=1 AND d_id=2 AND c_id=7"}},
      {2, "FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT 1",
       {I(1), I(2), I(7)},
       {"o_w_id=1", "o_d_id=2", "o_c_id=7"},
       {"w_id=1", "d_id=2", "c_id=7"},
       {"o_w_id=1 AND o_d_id=2 AND o_c_id=7"},
       {"w_id=1 AND d_id=2 AND c_id=7"}},
      {3, "FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3", {I(1), I(2), I(3001)},
       {"ol_w_id=1", "ol_d_id=2", "ol_o_id=3001"},
       {"w_id=1", "d_id=2", "o_id=3001"},
       {"ol_w_id=1 AND ol_d_id=2 AND ol_o_id=3001"},
       {"w_id=1 AND d_id=2 AND o_id=3001"}},
  };
  Check(OrderStatusProcedure(), cases);
}

TEST_F(TpccReferencesTest, Delivery) {
  std::vector<Case> cases = {
      {0, "SELECT no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 ORDER BY no_o_id LIMIT 1",
       {I(1), I(2)},
       {"no_w_id=1", "no_d_id=2"}, {"w_id=1", "d_id=2"}, {"no_w_id=1 AND no_d_id=2"}, {"w_id=1 AND d_id=2"}},
      {1, "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3", {I(1), I(2), I(2101)},
       {"no_w_id=1", "no_d_id=2", "no_o_id=2101"},
       {"w_id=1", "d_id=2", "o_id=2101"},
       {"no_w_id=1 AND no_d_id=2 AND no_o_id=2101"},
       {"w_id=1 AND d_id=2 AND o_id=2101"}},
      // As predicted: the order id is read inside.
      {1, "DELETE FROM new_order", {I(1), I(2), Null()},
       {"no_w_id=1", "no_d_id=2"}, {"w_id=1", "d_id=2"}, {"no_w_id=1 AND no_d_id=2"}, {"w_id=1 AND d_id=2"}},
      {2, "SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3", {I(1), I(2), I(2101)},
       {"o_w_id=1", "o_d_id=2", "o_id=2101"},
       {"w_id=1", "d_id=2", "o_id=2101"},
       {"o_w_id=1 AND o_d_id=2 AND o_id=2101"},
       {"w_id=1 AND d_id=2 AND o_id=2101"}},
      {3, "UPDATE orders SET o_carrier_id = $4", {I(1), I(2), I(2101), I(6)},
       {"o_carrier_id=6", "o_w_id=1", "o_d_id=2", "o_id=2101"},
       {"o_carrier_id=6", "w_id=1", "d_id=2", "o_id=2101"},
       {"o_carrier_id=6", "o_w_id=1 AND o_d_id=2 AND o_id=2101"},
       {"o_carrier_id=6", "w_id=1 AND d_id=2 AND o_id=2101"}},
      {4, "UPDATE order_line SET ol_delivery_d = now()", {I(1), I(2), I(2101)},
       {"ol_w_id=1", "ol_d_id=2", "ol_o_id=2101"},
       {"w_id=1", "d_id=2", "o_id=2101"},
       {"ol_w_id=1 AND ol_d_id=2 AND ol_o_id=2101"},
       {"w_id=1 AND d_id=2 AND o_id=2101"}},
      {5, "SELECT sum(ol_amount) FROM order_line", {I(1), I(2), I(2101)},
       {"ol_w_id=1", "ol_d_id=2", "ol_o_id=2101"},
       {"w_id=1", "d_id=2", "o_id=2101"},
       {"ol_w_id=1 AND ol_d_id=2 AND ol_o_id=2101"},
       {"w_id=1 AND d_id=2 AND o_id=2101"}},
      {6, "UPDATE customer SET c_balance = c_balance + $4", {I(1), I(2), I(7), Money(5678)},
       {"c_w_id=1", "c_d_id=2", "c_id=7"},
       {"w_id=1", "d_id=2", "c_id=7"},
       {"c_w_id=1 AND c_d_id=2 AND c_id=7"},
       {"w_id=1 AND d_id=2 AND c_id=7"}},
  };
  Check(DeliveryProcedure(), cases);
}

TEST_F(TpccReferencesTest, StockLevel) {
  std::vector<Case> cases = {
      {0, "SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2", {I(1), I(2)},
       {"d_w_id=1", "d_id=2"}, {"w_id=1", "d_id=2"}, {"d_w_id=1 AND d_id=2"}, {"w_id=1 AND d_id=2"}},
      // The join s_i_id = ol_i_id is no reference; s_w_id=1 is canonically w_id=1 again.
      {1, "s_i_id = ol_i_id AND s_quantity < $6", {I(1), I(2), I(3001), I(2981), I(1), I(15)},
       {"ol_w_id=1", "ol_d_id=2", "ol_o_id<3001", "ol_o_id>=2981", "s_w_id=1", "s_quantity<15"},
       {"w_id=1", "d_id=2", "o_id<3001", "o_id>=2981", "s_quantity<15"},
       {"ol_w_id=1 AND ol_d_id=2 AND ol_o_id<3001 AND ol_o_id>=2981 AND s_w_id=1 AND s_quantity<15"},
       {"w_id=1 AND d_id=2 AND o_id<3001 AND o_id>=2981 AND s_quantity<15"}},
      // As predicted: the order range is read inside.
      {1, "s_i_id = ol_i_id AND s_quantity < $6", {I(1), I(2), Null(), Null(), I(1), I(15)},
       {"ol_w_id=1", "ol_d_id=2", "s_w_id=1", "s_quantity<15"},
       {"w_id=1", "d_id=2", "s_quantity<15"},
       {"ol_w_id=1 AND ol_d_id=2 AND s_w_id=1 AND s_quantity<15"},
       {"w_id=1 AND d_id=2 AND s_quantity<15"}},
  };
  Check(StockLevelProcedure(), cases);
}

// A whole NewOrder of two lines (one from a remote warehouse) as the
// procedure runs it: references are distinct across statements, in the order
// first met.
TEST_F(TpccReferencesTest, NewOrderTransactionCanonicalSingle) {
  scheduler::FootprintSpec spec;
  spec.references = true;
  spec.form = ReferenceForm::kCanonical;
  spec.partition_domain = "w_id";
  engine::FootprintBuilder builder(spec, /*with_names=*/true);
  scheduler::Footprint f = TwoLineNewOrder(&builder);
  EXPECT_EQ(builder.Names(),
            (Names{"w_id=1", "d_id=2", "d_next_o_id=3002", "c_id=7", "o_id=3001", "o_ol_cnt=2", "o_all_local=0",
                   "i_id=42", "s_quantity=55", "ol_number=1", "ol_quantity=5", "ol_amount=12.34",
                   "ol_dist_info='dist-info-of-line-three!'", "i_id=43", "w_id=2", "s_quantity=91", "ol_number=2",
                   "ol_quantity=1", "ol_amount=2.50"}));
  EXPECT_EQ(f.references.size(), builder.Names().size());
  EXPECT_TRUE(f.has_partition_value);
  EXPECT_EQ(f.partition_value, 1u) << "the home warehouse: the first w_id equality";
}

// The same NewOrder as the paper's authors referenced it (key equalities of
// WHERE clauses; no SET values, no inserted values: an INSERT's composite
// primary key is no reference under -single), each reference counted once
// per statement that makes it: the home warehouse's w_id is credited by
// every statement that locates a row of it.
TEST_F(TpccReferencesTest, NewOrderTransactionAsThePapersAuthorsReferencedIt) {
  scheduler::FootprintSpec spec;
  spec.references = true;
  spec.form = ReferenceForm::kCanonical;
  spec.sources = scheduler::ReferenceSources::kKeys;
  spec.multiplicity = scheduler::ReferenceMultiplicity::kOccurrence;
  engine::FootprintBuilder builder(spec, /*with_names=*/true);
  scheduler::Footprint f = TwoLineNewOrder(&builder);
  EXPECT_EQ(builder.Names(), (Names{"w_id=1", "d_id=2", "c_id=7", "i_id=42", "i_id=43", "w_id=2"}));
  // w_id=1: warehouse, district read and update, customer, the first
  // line's stock read and update.
  EXPECT_EQ(f.reference_occurrences, (std::vector<uint32_t>{6, 3, 1, 3, 3, 2}));
}

}  // namespace
}  // namespace paceline::workloads::tpcc
