// Each TPC-C transaction's effects on a tiny database, run one at a time on
// the calling thread (Database::Execute) with hand-picked inputs.
#include <gtest/gtest.h>

#include "tpcc_test_database.h"
#include "workloads/tpcc/delivery.h"
#include "workloads/tpcc/new_order.h"
#include "workloads/tpcc/order_status.h"
#include "workloads/tpcc/payment.h"
#include "workloads/tpcc/stock_level.h"
#include "workloads/tpcc/tpcc_consistency.h"
#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {
namespace {

using engine::TransactionRequest;
using engine::TransactionResult;

class TpccTransactionsTest : public ::testing::Test {
 protected:
  void SetUp() override { db_ = OpenTpcc(TinyTpccOptions(), 0, &workload_); }

  TransactionResult Run(const char* procedure, std::vector<Value> args) {
    TransactionResult result;
    db_->Execute(TransactionRequest::Call(procedure, std::move(args)), &result);
    return result;
  }
  std::string Get(const std::string& sql) { return Scalar(db_.get(), sql); }
  void ExpectConsistent() {
    Status s = CheckTpccConsistency(db_.get(), nullptr);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }

  std::unique_ptr<TpccWorkload> workload_;
  std::unique_ptr<engine::Database> db_;
};

TEST_F(TpccTransactionsTest, NewOrderEntersTheOrderAndTakesStock) {
  const std::string q7 = Get("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 7");
  const std::string q8 = Get("SELECT s_quantity FROM stock WHERE s_w_id = 2 AND s_i_id = 8");
  const std::string p7 = Get("SELECT i_price FROM item WHERE i_id = 7");
  // Warehouse 1, district 3, customer 5: item 7 ×4 from warehouse 1, item 8
  // ×10 from warehouse 2 (a remote line).
  TransactionResult r = Run(kNewOrderProcedure, {Int(1), Int(3), Int(5), Int(2), Int(7), Int(1), Int(4), Int(8),
                                                 Int(2), Int(10)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();

  EXPECT_EQ(Get("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3"), "32");
  EXPECT_EQ(Get("SELECT o_c_id || ' ' || o_ol_cnt || ' ' || o_all_local || ' ' || (o_carrier_id IS NULL) "
                "FROM orders WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = 31"),
            "5 2 0 true");
  EXPECT_EQ(Get("SELECT count(*) FROM new_order WHERE no_w_id = 1 AND no_d_id = 3 AND no_o_id = 31"), "1");
  EXPECT_EQ(Get("SELECT ol_i_id || ' ' || ol_supply_w_id || ' ' || ol_quantity || ' ' || (ol_delivery_d IS NULL) "
                "FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 31 AND ol_number = 2"),
            "8 2 10 true");
  Value price;
  ASSERT_TRUE(CastValue(Value::Text(p7), Type(TypeId::kNumeric), false, &price).ok());
  EXPECT_EQ(Get("SELECT ol_amount FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 31 AND ol_number = 1"),
            Cents(4 * CentsOf(price)).ToString());
  // The dist info is the ordering district's column of the stock row.
  EXPECT_EQ(Get("SELECT count(*) FROM order_line, stock WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 31 "
                "AND s_w_id = ol_supply_w_id AND s_i_id = ol_i_id AND ol_dist_info = s_dist_03"),
            "2");

  // Stock: minus the quantity, plus 91 when fewer than 10 would be left.
  auto expected = [](const std::string& before, int ordered) {
    int left = std::stoi(before) - ordered;
    return std::to_string(left < 10 ? left + 91 : left);
  };
  EXPECT_EQ(Get("SELECT s_quantity || ' ' || s_ytd || ' ' || s_order_cnt || ' ' || s_remote_cnt FROM stock "
                "WHERE s_w_id = 1 AND s_i_id = 7"),
            expected(q7, 4) + " 4 1 0");
  EXPECT_EQ(Get("SELECT s_quantity || ' ' || s_ytd || ' ' || s_order_cnt || ' ' || s_remote_cnt FROM stock "
                "WHERE s_w_id = 2 AND s_i_id = 8"),
            expected(q8, 10) + " 10 1 1");
  ExpectConsistent();
}

TEST_F(TpccTransactionsTest, NewOrderWithAnUnusedItemRollsBackAsABusinessRule) {
  const std::string stock_before = Get("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 7");
  TransactionResult r = Run(kNewOrderProcedure, {Int(1), Int(3), Int(5), Int(2), Int(7), Int(1), Int(4),
                                                 Int(101), Int(1), Int(1)});  // item 101 does not exist
  EXPECT_FALSE(r.committed());
  EXPECT_TRUE(r.user_abort);
  EXPECT_NE(r.status.message().find("Item number is not valid"), std::string::npos) << r.status.ToString();
  EXPECT_EQ(r.conflicts, 0u);
  // Nothing of it remains.
  EXPECT_EQ(Get("SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 3"), "31");
  EXPECT_EQ(Get("SELECT count(*) FROM orders WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = 31"), "0");
  EXPECT_EQ(Get("SELECT count(*) FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 31"), "0");
  EXPECT_EQ(Get("SELECT s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = 7"), stock_before);
  ExpectConsistent();
}

TEST_F(TpccTransactionsTest, PaymentByIdMovesTheMoney) {
  Query(db_.get(), "UPDATE customer SET c_credit = 'GC' WHERE c_w_id = 2 AND c_d_id = 6 AND c_id = 9");
  const std::string data = Get("SELECT c_data FROM customer WHERE c_w_id = 2 AND c_d_id = 6 AND c_id = 9");
  // Home warehouse 1 district 4; the customer is remote (warehouse 2).
  TransactionResult r = Run(kPaymentProcedure, {Int(1), Int(4), Int(2), Int(6), Int(9), Value::Null(TypeId::kText),
                                                Cents(123456)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT w_ytd FROM warehouse WHERE w_id = 1"), "301234.56");
  EXPECT_EQ(Get("SELECT d_ytd FROM district WHERE d_w_id = 1 AND d_id = 4"), "31234.56");
  EXPECT_EQ(Get("SELECT c_balance || ' ' || c_ytd_payment || ' ' || c_payment_cnt FROM customer "
                "WHERE c_w_id = 2 AND c_d_id = 6 AND c_id = 9"),
            "-1244.56 1244.56 2");
  EXPECT_EQ(Get("SELECT c_data FROM customer WHERE c_w_id = 2 AND c_d_id = 6 AND c_id = 9"), data);  // good credit
  EXPECT_EQ(Get("SELECT h_amount || ' ' || h_c_w_id || ' ' || h_c_d_id || ' ' || h_w_id || ' ' || h_d_id || ' ' || "
                "(h_data = w_name || '    ' || d_name) FROM history, warehouse, district WHERE h_c_id = 9 "
                "AND h_amount = 1234.56 AND w_id = h_w_id AND d_w_id = h_w_id AND d_id = h_d_id"),
            "1234.56 2 6 1 4 true");
  ExpectConsistent();
}

TEST_F(TpccTransactionsTest, PaymentByLastNameTakesTheMiddleCustomerByFirstName) {
  // Four customers of district (1, 2) share a last name: the spec takes the
  // one at position ceil(4/2) = 2 by first name.
  Query(db_.get(), "UPDATE customer SET c_last = 'OUGHTOUGHTOUGHT', c_first = 'Dora' WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 3");
  Query(db_.get(), "UPDATE customer SET c_last = 'OUGHTOUGHTOUGHT', c_first = 'Anna' WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 4");
  Query(db_.get(), "UPDATE customer SET c_last = 'OUGHTOUGHTOUGHT', c_first = 'Carl' WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 5");
  Query(db_.get(), "UPDATE customer SET c_last = 'OUGHTOUGHTOUGHT', c_first = 'Bert' WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 6");
  TransactionResult r = Run(kPaymentProcedure, {Int(1), Int(2), Int(1), Int(2), Int(0), Str("OUGHTOUGHTOUGHT"),
                                                Cents(500)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  // Anna, Bert, Carl, Dora: Bert (c_id 6) paid.
  EXPECT_EQ(Get("SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_payment_cnt = 2"), "6");
}

TEST_F(TpccTransactionsTest, PaymentOfABadCreditCustomerPrependsToItsData) {
  Query(db_.get(), "UPDATE customer SET c_credit = 'BC', c_data = 'old data' WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 2");
  TransactionResult r =
      Run(kPaymentProcedure, {Int(1), Int(1), Int(1), Int(1), Int(2), Value::Null(TypeId::kText), Cents(1000)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 2"),
            "2 1 1 1 1 10.00 | old data");
}

TEST_F(TpccTransactionsTest, OrderStatusReadsWithoutChangingAnything) {
  const std::string before = Get("SELECT sum(c_balance) FROM customer");
  EXPECT_TRUE(Run(kOrderStatusProcedure, {Int(1), Int(1), Int(7), Value::Null(TypeId::kText)}).committed());
  EXPECT_TRUE(Run(kOrderStatusProcedure, {Int(2), Int(5), Int(0), Str(TpccRandom::LastName(3))}).committed());
  EXPECT_EQ(Get("SELECT sum(c_balance) FROM customer"), before);
  // A customer that does not exist is an error naming it, not a silent success.
  TransactionResult r = Run(kOrderStatusProcedure, {Int(1), Int(1), Int(31), Value::Null(TypeId::kText)});
  EXPECT_TRUE(r.status.Is(sqlstate::kInternalError)) << r.status.ToString();
  EXPECT_NE(r.status.message().find("customer 31"), std::string::npos);
}

TEST_F(TpccTransactionsTest, DeliveryDeliversTheOldestOrderOfEachDistrict) {
  // District 10 of warehouse 2 has nothing left to deliver: it is skipped.
  Query(db_.get(), "DELETE FROM new_order WHERE no_w_id = 2 AND no_d_id = 10");
  const std::string customer = Get("SELECT o_c_id FROM orders WHERE o_w_id = 2 AND o_d_id = 1 AND o_id = 22");
  const std::string total = Get("SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = 2 AND ol_d_id = 1 AND ol_o_id = 22");
  const std::string balance = Get("SELECT c_balance FROM customer WHERE c_w_id = 2 AND c_d_id = 1 AND c_id = " + customer);

  TransactionResult r = Run(kDeliveryProcedure, {Int(2), Int(7)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT count(*) FROM new_order WHERE no_w_id = 2"), "72");  // 9 × 9 − 9
  EXPECT_EQ(Get("SELECT min(no_o_id) FROM new_order WHERE no_w_id = 2"), "23");
  EXPECT_EQ(Get("SELECT count(*) FROM new_order WHERE no_w_id = 1"), "90");  // the other warehouse untouched
  EXPECT_EQ(Get("SELECT count(*) FROM orders WHERE o_w_id = 2 AND o_id = 22 AND o_carrier_id = 7"), "9");
  EXPECT_EQ(Get("SELECT count(*) FROM orders WHERE o_w_id = 2 AND o_d_id = 10 AND o_id = 22 AND o_carrier_id IS NULL"),
            "1");
  EXPECT_EQ(Get("SELECT count(*) FROM order_line WHERE ol_w_id = 2 AND ol_d_id = 1 AND ol_o_id = 22 "
                "AND ol_delivery_d IS NULL"),
            "0");
  Value b, t;
  ASSERT_TRUE(CastValue(Value::Text(balance), Type(TypeId::kNumeric), false, &b).ok());
  ASSERT_TRUE(CastValue(Value::Text(total), Type(TypeId::kNumeric), false, &t).ok());
  EXPECT_EQ(Get("SELECT c_balance || ' ' || c_delivery_cnt FROM customer WHERE c_w_id = 2 AND c_d_id = 1 AND c_id = " +
                customer),
            Cents(CentsOf(b) + CentsOf(t)).ToString() + " 1");
}

TEST_F(TpccTransactionsTest, StockLevelReadsWithoutChangingAnything) {
  const std::string before = Get("SELECT sum(s_quantity) FROM stock");
  TransactionResult r = Run(kStockLevelProcedure, {Int(1), Int(4), Int(15)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT sum(s_quantity) FROM stock"), before);
  r = Run(kStockLevelProcedure, {Int(3), Int(4), Int(15)});  // no warehouse 3
  EXPECT_TRUE(r.status.Is(sqlstate::kInternalError)) << r.status.ToString();
}

TEST_F(TpccTransactionsTest, GeneratedInputsFollowTheSpecsProportions) {
  // 20,000 draws of each generator: the spec's percentages within a few
  // standard deviations.
  const TpccOptions options = TinyTpccOptions();
  TpccRandom random(1);
  Random rng(11);
  std::vector<Value> args;
  int rollbacks = 0, remote_lines = 0, lines = 0, remote_payments = 0, by_name = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    DrawNewOrderArgs(options, random, rng, 1, &args);
    const int64_t count = IntOf(args[3]);
    ASSERT_EQ(args.size(), 4u + 3 * static_cast<size_t>(count));
    ASSERT_GE(count, 5);
    ASSERT_LE(count, 15);
    for (int64_t l = 0; l < count; ++l) {
      ++lines;
      if (IntOf(args[5 + 3 * l]) != 1) ++remote_lines;
    }
    if (IntOf(args[4 + 3 * (count - 1)]) == options.items + 1) ++rollbacks;
    DrawPaymentArgs(options, random, rng, 2, &args);
    if (IntOf(args[2]) != 2) ++remote_payments;
    if (!args[5].is_null()) ++by_name;
  }
  EXPECT_NEAR(rollbacks / double(n), 0.01, 0.004);
  EXPECT_NEAR(remote_lines / double(lines), 0.01, 0.002);
  EXPECT_NEAR(remote_payments / double(n), 0.15, 0.015);
  EXPECT_NEAR(by_name / double(n), 0.60, 0.02);
}

TEST(TpccWorkloadTest, MixesDrawTheirTransactions) {
  TpccOptions options = TinyTpccOptions();
  ASSERT_TRUE(TpccMix::Parse("paper", &options.mix).ok());
  TpccWorkload paper(options);
  Random rng(5);
  std::array<int, 5> counts{};
  GeneratedTransaction t;
  for (int i = 0; i < 10000; ++i) {
    paper.Next(rng, &t);
    ++counts[t.type];
    ASSERT_EQ(t.request.procedure, t.type == 0 ? kNewOrderProcedure : kPaymentProcedure);
  }
  EXPECT_EQ(counts[2] + counts[3] + counts[4], 0);
  EXPECT_NEAR(counts[0] / 10000.0, 0.5, 0.03);

  ASSERT_TRUE(TpccMix::Parse("standard", &options.mix).ok());
  TpccWorkload standard(options);
  counts = {};
  for (int i = 0; i < 20000; ++i) {
    standard.Next(rng, &t);
    ++counts[t.type];
  }
  const std::array<double, 5> expected = {0.45, 0.43, 0.04, 0.04, 0.04};
  for (size_t i = 0; i < 5; ++i) EXPECT_NEAR(counts[i] / 20000.0, expected[i], 0.015) << standard.TransactionTypes()[i];
}

}  // namespace
}  // namespace paceline::workloads::tpcc
