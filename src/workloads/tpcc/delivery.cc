// Delivery: the procedure body and its inputs.
#include "workloads/tpcc/delivery.h"

#include <string>

#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

enum Statement : size_t {
  kOldestNewOrder,
  kDeleteNewOrder,
  kOrderCustomer,
  kSetCarrier,
  kStampLines,
  kSumLines,
  kCreditCustomer,
};

Status Body(engine::ProcedureContext& ctx, const std::vector<Value>& args) {
  const Value& w = args[0];
  const Value& carrier = args[1];
  QueryResult r;
  for (int d_id = 1; d_id <= kDistrictsPerWarehouse; ++d_id) {
    const Value d = Int(d_id);
    PL_RETURN_IF_ERROR(ctx.Execute(kOldestNewOrder, {w, d}, &r));
    if (r.rows.empty()) continue;  // nothing to deliver in this district
    const Value o_id = r.rows[0][0];
    auto order = [&] {
      return "order " + o_id.ToString() + " of district " + d.ToString() + " of warehouse " + w.ToString();
    };
    PL_RETURN_IF_ERROR(ctx.Execute(kDeleteNewOrder, {w, d, o_id}, &r));
    if (r.rows_affected != 1) return Status(sqlstate::kInternalError, "TPC-C: new_order row of " + order() + " vanished");
    PL_RETURN_IF_ERROR(ctx.Execute(kOrderCustomer, {w, d, o_id}, &r));
    PL_RETURN_IF_ERROR(ExpectRow(r, order));
    const Value c = r.rows[0][0];
    PL_RETURN_IF_ERROR(ctx.Execute(kSetCarrier, {w, d, o_id, carrier}, &r));
    PL_RETURN_IF_ERROR(ctx.Execute(kStampLines, {w, d, o_id}, &r));
    PL_RETURN_IF_ERROR(ctx.Execute(kSumLines, {w, d, o_id}, &r));
    PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "the lines of " + order(); }));
    const Value total = r.rows[0][0].is_null() ? Cents(0) : r.rows[0][0];
    PL_RETURN_IF_ERROR(ctx.Execute(kCreditCustomer, {w, d, c, total}, &r));
  }
  return Status::OK();
}

// Each district of the warehouse; the orders and customers are read inside.
void Predict(const std::vector<Value>& args, engine::StatementPredictions& out) {
  if (args.size() < 2) return;
  const Value& w = args[0];
  const Value& carrier = args[1];
  const Value unknown = Computed();
  for (int d_id = 1; d_id <= kDistrictsPerWarehouse; ++d_id) {
    const Value d = Int(d_id);
    out.Add(kOldestNewOrder, {w, d});
    out.Add(kDeleteNewOrder, {w, d, unknown});
    out.Add(kOrderCustomer, {w, d, unknown});
    out.Add(kSetCarrier, {w, d, unknown, carrier});
    out.Add(kStampLines, {w, d, unknown});
    out.Add(kSumLines, {w, d, unknown});
    out.Add(kCreditCustomer, {w, d, unknown, unknown});
  }
}

}  // namespace

engine::Procedure DeliveryProcedure() {
  engine::Procedure p;
  p.name = kDeliveryProcedure;
  p.statements = {
      "SELECT no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 ORDER BY no_o_id LIMIT 1",
      "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3",
      "SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3",
      "UPDATE orders SET o_carrier_id = $4 WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3",
      "UPDATE order_line SET ol_delivery_d = now() WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
      "SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
      "UPDATE customer SET c_balance = c_balance + $4, c_delivery_cnt = c_delivery_cnt + 1 "
      "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
  };
  p.body = Body;
  p.predict = Predict;
  return p;
}

void DrawDeliveryArgs(Random& rng, int w_id, std::vector<Value>* args) {
  args->clear();
  args->push_back(Int(w_id));
  args->push_back(Int(TpccRandom::Uniform(rng, 1, 10)));
}

}  // namespace paceline::workloads::tpcc
