// OrderStatus: the procedure body and its inputs.
#include "workloads/tpcc/order_status.h"

#include <string>

#include "workloads/tpcc/payment.h"
#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

enum Statement : size_t { kCustomersByName, kCustomer, kLastOrder, kOrderLines };

Status Body(engine::ProcedureContext& ctx, const std::vector<Value>& args) {
  const Value& w = args[0];
  const Value& d = args[1];
  QueryResult r;
  Value c;
  PL_RETURN_IF_ERROR(ResolveCustomer(ctx, kCustomersByName, w, d, args[2], args[3], &c));
  PL_RETURN_IF_ERROR(ctx.Execute(kCustomer, {w, d, c}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "customer " + c.ToString(); }));
  PL_RETURN_IF_ERROR(ctx.Execute(kLastOrder, {w, d, c}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "an order of customer " + c.ToString(); }));
  Value o_id = r.rows[0][0];
  return ctx.Execute(kOrderLines, {w, d, o_id}, &r);
}

// The customer (unless looked up by name) and its district; the order id is
// read inside.
void Predict(const std::vector<Value>& args, engine::StatementPredictions& out) {
  if (args.size() < 4) return;
  const Value& w = args[0];
  const Value& d = args[1];
  const Value& c_last = args[3];
  const Value c = c_last.is_null() ? args[2] : Computed();
  if (!c_last.is_null()) out.Add(kCustomersByName, {w, d, c_last});
  out.Add(kCustomer, {w, d, c});
  out.Add(kLastOrder, {w, d, c});
  out.Add(kOrderLines, {w, d, Computed()});
}

}  // namespace

engine::Procedure OrderStatusProcedure() {
  engine::Procedure p;
  p.name = kOrderStatusProcedure;
  p.statements = {
      kCustomersByLastNameSql,
      "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      "SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 "
      "ORDER BY o_id DESC LIMIT 1",
      "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line "
      "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
  };
  p.body = Body;
  p.predict = Predict;
  return p;
}

void DrawOrderStatusArgs(const TpccOptions& options, const TpccRandom& random, Random& rng, int w_id,
                         std::vector<Value>* args) {
  const bool by_name = TpccRandom::Uniform(rng, 1, 100) <= 60;
  args->clear();
  args->push_back(Int(w_id));
  args->push_back(Int(TpccRandom::Uniform(rng, 1, kDistrictsPerWarehouse)));
  args->push_back(by_name ? Int(0) : Int(random.NURand(rng, 1023, 1, options.customers_per_district)));
  args->push_back(by_name ? DrawCustomerLastName(options, random, rng) : Value::Null(TypeId::kText));
}

}  // namespace paceline::workloads::tpcc
