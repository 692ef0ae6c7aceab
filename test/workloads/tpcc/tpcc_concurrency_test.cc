// TPC-C under concurrency, for every concurrency control and every baseline
// scheduler by name: clients submit the standard mix on a tiny database (2
// warehouses, 4 workers, so transactions collide on warehouse, district,
// stock and new_order rows), then the consistency conditions and the
// money/order ledgers must hold.
//
// Interleavings exercised, and the anomaly each check excludes:
//   Payment ∥ Payment on one warehouse: both read W_YTD, both write it →
//     lost update; excluded by  Σ W_YTD − initial = Σ committed amounts and
//     condition 1.
//   NewOrder ∥ NewOrder on one district: both read D_NEXT_O_ID → two orders
//     with one id, or an id skipped; excluded by conditions 2 and 3 and
//     count(orders) − initial = committed NewOrders.
//   Delivery ∥ Delivery on one warehouse: both take the same oldest
//     new_order → an order delivered twice; excluded by
//     Σ C_DELIVERY_CNT = orders given a carrier since loading, and
//     count(new_order) = initial + NewOrders − deliveries.
//   NewOrder ∥ Delivery on one district: the scan for the oldest new order
//     meets a concurrent insert (a phantom) → condition 3.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "tpcc_test_database.h"
#include "workloads/tpcc/tpcc_consistency.h"
#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {
namespace {

struct Param {
  std::string cc;
  std::string scheduler;
};

class TpccConcurrencyTest : public ::testing::TestWithParam<Param> {};

TEST_P(TpccConcurrencyTest, LedgersAndConsistencyConditionsHoldAfterAConcurrentRun) {
  TpccOptions options = TinyTpccOptions();
  ASSERT_TRUE(TpccMix::Parse("standard", &options.mix).ok());
  std::unique_ptr<TpccWorkload> workload;
  auto db = OpenTpcc(options, 4, &workload, GetParam().cc, GetParam().scheduler);
  const int initial_orders = 2 * kDistrictsPerWarehouse * options.customers_per_district;
  const int initial_delivered = 2 * kDistrictsPerWarehouse * (options.FirstUndeliveredOrder() - 1);
  const int initial_new_orders = initial_orders - initial_delivered;

  constexpr int kClients = 4;
  constexpr int kPerClient = 250;
  struct Ledger {
    int64_t paid_cents = 0;
    int new_orders = 0, user_aborts = 0, commits = 0;
    std::vector<std::string> failures;
  };
  std::vector<Ledger> ledgers(kClients);
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      Random rng(100 + c);
      Ledger& ledger = ledgers[c];
      GeneratedTransaction t;
      for (int i = 0; i < kPerClient; ++i) {
        workload->Next(rng, &t);
        engine::TransactionResult r = db->Submit(t.request).get();
        if (r.user_abort) {
          ++ledger.user_aborts;
          continue;
        }
        if (!r.committed()) {
          ledger.failures.push_back(r.status.ToString());
          continue;
        }
        ++ledger.commits;
        if (t.type == static_cast<size_t>(TpccTransaction::kNewOrder)) ++ledger.new_orders;
        if (t.type == static_cast<size_t>(TpccTransaction::kPayment)) ledger.paid_cents += CentsOf(t.request.args[6]);
      }
    });
  }
  for (std::thread& t : clients) t.join();

  Ledger total;
  for (const Ledger& l : ledgers) {
    total.paid_cents += l.paid_cents;
    total.new_orders += l.new_orders;
    total.user_aborts += l.user_aborts;
    total.commits += l.commits;
    for (const std::string& f : l.failures) ADD_FAILURE() << f;
  }
  EXPECT_EQ(total.commits + total.user_aborts, kClients * kPerClient);

  Status s = CheckTpccConsistency(db.get(), nullptr);
  EXPECT_TRUE(s.ok()) << s.ToString();
  Value ytd;
  ASSERT_TRUE(CastValue(Query(db.get(), "SELECT sum(w_ytd) FROM warehouse").rows[0][0], Type(TypeId::kNumeric), false,
                        &ytd)
                  .ok());
  EXPECT_EQ(CentsOf(ytd) - 2 * 30000000, total.paid_cents);
  EXPECT_EQ(std::stoi(Scalar(db.get(), "SELECT count(*) FROM orders")) - initial_orders, total.new_orders);
  const int deliveries = std::stoi(Scalar(db.get(), "SELECT sum(c_delivery_cnt) FROM customer"));
  EXPECT_EQ(std::stoi(Scalar(db.get(), "SELECT count(*) FROM orders WHERE o_carrier_id IS NOT NULL")) -
                initial_delivered,
            deliveries);
  EXPECT_EQ(std::stoi(Scalar(db.get(), "SELECT count(*) FROM new_order")),
            initial_new_orders + total.new_orders - deliveries);
  // The engine counted the same outcomes.
  engine::ExecutionStats stats = db->Stats();
  EXPECT_EQ(stats.commits, static_cast<uint64_t>(total.commits));
  EXPECT_EQ(stats.user_aborts, static_cast<uint64_t>(total.user_aborts));
}

std::vector<Param> EveryCcAndScheduler() {
  std::vector<Param> params;
  for (const std::string& cc : engine::Database::ConcurrencyControlNames()) {
    for (const std::string& scheduler : engine::Database::SchedulerNames()) {
      if (!scheduler.ends_with("-single")) params.push_back({cc, scheduler});  // aliases of the short names
    }
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, TpccConcurrencyTest, ::testing::ValuesIn(EveryCcAndScheduler()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           std::string name = info.param.cc + "_" + info.param.scheduler;
                           for (char& ch : name) {
                             if (ch == '-') ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace paceline::workloads::tpcc
