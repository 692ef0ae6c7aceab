// TpccOptions: the scale and the transaction mix of a TPC-C run.
//
// The scale follows the TPC-C specification (rev. 5.11) §1.2 and §4.3: per
// warehouse 10 districts, 3,000 customers per district, as many initial
// orders, the last 900 of them undelivered, and 100,000 items (stock rows per
// warehouse). `items` and `customers_per_district` scale a database down for
// quick tests; the spec's proportions (30% of initial orders undelivered, the
// 1,000 syllable-named customers first) are kept.
//
// Thread-safety: plain value types.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline::workloads::tpcc {

inline constexpr int kDistrictsPerWarehouse = 10;

// The five transactions, in the order of TpccMix::weights and of
// Workload::TransactionTypes().
enum class TpccTransaction { kNewOrder = 0, kPayment, kOrderStatus, kDelivery, kStockLevel };
inline constexpr size_t kTpccTransactionCount = 5;
// "NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel".
std::string_view TpccTransactionName(TpccTransaction t);

// Relative weights of the five transactions (any non-negative numbers with a
// positive sum).
struct TpccMix {
  std::array<double, kTpccTransactionCount> weights{45, 43, 4, 4, 4};

  // "paper": NewOrder 50 / Payment 50 (the reference paper's Table II);
  // "standard": 45/43/4/4/4 (TPC-C §5.2.3's minimum percentages, NewOrder
  // taking the rest); or five comma-separated weights in the order NewOrder,
  // Payment, OrderStatus, Delivery, StockLevel ("10,10,0,0,80"). 22023 with
  // the valid forms otherwise.
  static Status Parse(std::string_view text, TpccMix* out);
  // "paper", "standard", or the five weights.
  std::string ToString() const;
};

struct TpccOptions {
  int warehouses = 4;
  int items = 100000;                   // --items; stock rows per warehouse too
  int customers_per_district = 3000;    // also the initial orders per district
  TpccMix mix;
  // Waited after each statement, transaction open (statement_latency.h).
  std::chrono::microseconds statement_latency{0};
  uint64_t seed = 1;  // the loader's data, the NURand constants and the hot warehouses
  // Skewed home warehouses (0: uniform, the default): hot_fraction of the
  // transactions go to hot_warehouses hot warehouses, which move every
  // hot_shift (0: never). --tpcc-hot-warehouses, --hot-fraction, --hot-shift-s.
  int hot_warehouses = 0;
  double hot_fraction = 0.9;
  std::chrono::nanoseconds hot_shift{0};

  // 22023 naming the flag (--warehouses, --items, --tpcc-customers,
  // --tpcc-hot-warehouses, --hot-fraction, --hot-shift-s) and its valid range.
  Status Validate() const;
  // The first initial order of each district that is still undelivered (in
  // new_order, without carrier): the last 30%, o_id 2101..3000 at full scale.
  int FirstUndeliveredOrder() const { return customers_per_district - customers_per_district * 3 / 10 + 1; }
};

}  // namespace paceline::workloads::tpcc
