// TpccWorkload: setup, the mix, and the checks.
#include "workloads/tpcc/tpcc_workload.h"

#include <algorithm>

#include "workloads/statement_latency.h"
#include "workloads/tpcc/delivery.h"
#include "workloads/tpcc/new_order.h"
#include "workloads/tpcc/order_status.h"
#include "workloads/tpcc/payment.h"
#include "workloads/tpcc/stock_level.h"
#include "workloads/tpcc/tpcc_consistency.h"
#include "workloads/tpcc/tpcc_schema.h"

namespace paceline::workloads::tpcc {

TpccWorkload::TpccWorkload(const TpccOptions& options)
    : options_(options), random_(options.seed), clock_(options.hot_shift) {
  if (options_.hot_warehouses > 0) {
    hot_.emplace(static_cast<uint64_t>(options_.warehouses), static_cast<uint64_t>(options_.hot_warehouses),
                 options_.hot_fraction, options_.seed);
  }
  double sum = 0;
  for (double w : options_.mix.weights) sum += w;
  double running = 0;
  for (size_t t = 0; t < kTpccTransactionCount; ++t) {
    types_.emplace_back(TpccTransactionName(static_cast<TpccTransaction>(t)));
    running += options_.mix.weights[t];
    cumulative_.push_back(running / sum);
  }
}

Status TpccWorkload::Setup(engine::Database* db) {
  PL_RETURN_IF_ERROR(options_.Validate());
  PL_RETURN_IF_ERROR(CreateTpccSchema(db));
  PL_RETURN_IF_ERROR(TpccLoader(options_, random_).Load(db, &load_stats_));
  return Attach(db);
}

Status TpccWorkload::Attach(engine::Database* db) {
  PL_RETURN_IF_ERROR(options_.Validate());
  for (engine::Procedure p : {NewOrderProcedure(), PaymentProcedure(), OrderStatusProcedure(), DeliveryProcedure(),
                              StockLevelProcedure()}) {
    PL_RETURN_IF_ERROR(db->RegisterProcedure(WithStatementLatency(std::move(p), options_.statement_latency)));
  }
  return Status::OK();
}

void TpccWorkload::Next(Random& rng, GeneratedTransaction* out) const {
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  // The first type whose cumulative weight exceeds u (zero-weight types
  // never are the first).
  const size_t type = std::min<size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin(),
                                       cumulative_.size() - 1);
  out->type = type;
  const int w_id = hot_ ? static_cast<int>(hot_->Draw(rng, clock_.Epoch())) + 1
                        : static_cast<int>(TpccRandom::Uniform(rng, 1, options_.warehouses));
  Draw(static_cast<TpccTransaction>(type), rng, w_id, &out->request);
}

void TpccWorkload::Draw(TpccTransaction type, Random& rng, int w_id, engine::TransactionRequest* request) const {
  request->statements.clear();
  std::vector<Value>& args = request->args;
  switch (type) {
    case TpccTransaction::kNewOrder:
      request->procedure = kNewOrderProcedure;
      DrawNewOrderArgs(options_, random_, rng, w_id, &args);
      break;
    case TpccTransaction::kPayment:
      request->procedure = kPaymentProcedure;
      DrawPaymentArgs(options_, random_, rng, w_id, &args);
      break;
    case TpccTransaction::kOrderStatus:
      request->procedure = kOrderStatusProcedure;
      DrawOrderStatusArgs(options_, random_, rng, w_id, &args);
      break;
    case TpccTransaction::kDelivery:
      request->procedure = kDeliveryProcedure;
      DrawDeliveryArgs(rng, w_id, &args);
      break;
    case TpccTransaction::kStockLevel:
      request->procedure = kStockLevelProcedure;
      DrawStockLevelArgs(rng, w_id, &args);
      break;
  }
}

Status TpccWorkload::Check(engine::Database* db, std::string* report) const {
  return CheckTpccConsistency(db, report);
}

std::vector<std::pair<std::string, std::string>> TpccWorkload::Describe() const {
  return {{"warehouses", std::to_string(options_.warehouses)},
          {"items", std::to_string(options_.items)},
          {"tpcc_customers", std::to_string(options_.customers_per_district)},
          {"mix", options_.mix.ToString()},
          {"stmt_latency_us", std::to_string(options_.statement_latency.count())},
          {"load_seed", std::to_string(options_.seed)},
          {"tpcc_hot_warehouses", std::to_string(options_.hot_warehouses)},
          {"hot_fraction", hot_ ? ShortNumber(options_.hot_fraction) : "-"},
          {"hot_shift_s", ShortNumber(static_cast<double>(options_.hot_shift.count()) / 1e9)}};
}

}  // namespace paceline::workloads::tpcc
