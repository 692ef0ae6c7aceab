// NewOrder: the procedure body and its inputs.
#include "workloads/tpcc/new_order.h"

#include <string>

#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

enum Statement : size_t {
  kWarehouseTax,
  kDistrictForUpdate,
  kDistrictNextOrder,
  kCustomer,
  kInsertOrder,
  kInsertNewOrder,
  kItem,
  kStock,  // + (d_id - 1): the s_dist_xx column of the district
  kUpdateStock = kStock + kDistrictsPerWarehouse,
  kInsertOrderLine,
};

std::vector<std::string> Statements() {
  std::vector<std::string> s = {
      "SELECT w_tax FROM warehouse WHERE w_id = $1",
      "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE",
      "UPDATE district SET d_next_o_id = $3 WHERE d_w_id = $1 AND d_id = $2",
      "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) "
      "VALUES ($1, $2, $3, $4, now(), NULL, $5, $6)",
      "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)",
      "SELECT i_price, i_name, i_data FROM item WHERE i_id = $1",
  };
  for (int d = 1; d <= kDistrictsPerWarehouse; ++d) {
    std::string dist = (d < 10 ? "s_dist_0" : "s_dist_") + std::to_string(d);
    s.push_back("SELECT s_quantity, s_data, " + dist + " FROM stock WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE");
  }
  s.push_back(
      "UPDATE stock SET s_quantity = $3, s_ytd = s_ytd + $4, s_order_cnt = s_order_cnt + 1, "
      "s_remote_cnt = s_remote_cnt + $5 WHERE s_w_id = $1 AND s_i_id = $2");
  s.push_back(
      "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, "
      "ol_quantity, ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9)");
  return s;
}

Status Body(engine::ProcedureContext& ctx, const std::vector<Value>& args) {
  const Value& w = args[0];
  const Value& d = args[1];
  const Value& c = args[2];
  const int64_t lines = IntOf(args[3]);
  auto district = [&] { return "district " + d.ToString() + " of warehouse " + w.ToString(); };
  QueryResult r;

  PL_RETURN_IF_ERROR(ctx.Execute(kWarehouseTax, {w}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "warehouse " + w.ToString(); }));
  PL_RETURN_IF_ERROR(ctx.Execute(kDistrictForUpdate, {w, d}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, district));
  const int64_t o_id = IntOf(r.rows[0][1]);
  PL_RETURN_IF_ERROR(ctx.Execute(kDistrictNextOrder, {w, d, Int(o_id + 1)}, &r));
  PL_RETURN_IF_ERROR(ctx.Execute(kCustomer, {w, d, c}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "customer " + c.ToString() + " of " + district(); }));

  bool all_local = true;
  for (int64_t l = 0; l < lines; ++l) all_local = all_local && IntOf(args[5 + 3 * l]) == IntOf(w);
  PL_RETURN_IF_ERROR(ctx.Execute(kInsertOrder, {Int(o_id), d, w, c, Int(lines), Int(all_local ? 1 : 0)}, &r));
  PL_RETURN_IF_ERROR(ctx.Execute(kInsertNewOrder, {Int(o_id), d, w}, &r));

  const size_t stock_statement = kStock + static_cast<size_t>(IntOf(d) - 1);
  for (int64_t l = 0; l < lines; ++l) {
    const Value& item = args[4 + 3 * l];
    const Value& supply_w = args[5 + 3 * l];
    const int64_t quantity = IntOf(args[6 + 3 * l]);
    PL_RETURN_IF_ERROR(ctx.Execute(kItem, {item}, &r));
    if (r.rows.empty()) return ctx.Rollback("Item number is not valid");
    const int64_t price_cents = CentsOf(r.rows[0][0]);

    PL_RETURN_IF_ERROR(ctx.Execute(stock_statement, {supply_w, item}, &r));
    PL_RETURN_IF_ERROR(ExpectRow(r, [&] {
      return "stock of item " + item.ToString() + " in warehouse " + supply_w.ToString();
    }));
    int64_t s_quantity = IntOf(r.rows[0][0]) - quantity;
    if (s_quantity < 10) s_quantity += 91;
    Value dist_info = r.rows[0][2];
    const bool remote = IntOf(supply_w) != IntOf(w);
    PL_RETURN_IF_ERROR(ctx.Execute(kUpdateStock, {supply_w, item, Int(s_quantity), Int(quantity), Int(remote)}, &r));
    PL_RETURN_IF_ERROR(ctx.Execute(kInsertOrderLine,
                                   {Int(o_id), d, w, Int(l + 1), item, supply_w, Int(quantity),
                                    Cents(quantity * price_cents), std::move(dist_info)},
                                   &r));
  }
  return Status::OK();
}

// What the arguments tell of the statements Body runs: everything but the
// order id, the stock quantity and the line amounts (read or computed inside).
void Predict(const std::vector<Value>& args, engine::StatementPredictions& out) {
  if (args.size() < 4 || !IsInt(args[0]) || !IsInt(args[1]) || !IsInt(args[3])) return;
  const Value& w = args[0];
  const Value& d = args[1];
  const Value& c = args[2];
  const int64_t lines = IntOf(args[3]);
  const int64_t d_id = IntOf(d);
  if (lines < 0 || args.size() < 4 + 3 * static_cast<size_t>(lines) || d_id < 1 || d_id > kDistrictsPerWarehouse) {
    return;
  }
  bool all_local = true;
  for (int64_t l = 0; l < lines; ++l) {
    if (!IsInt(args[5 + 3 * l])) return;
    all_local = all_local && IntOf(args[5 + 3 * l]) == IntOf(w);
  }
  const Value o_id = Computed();
  out.Add(kWarehouseTax, {w});
  out.Add(kDistrictForUpdate, {w, d});
  out.Add(kDistrictNextOrder, {w, d, Computed()});
  out.Add(kCustomer, {w, d, c});
  out.Add(kInsertOrder, {o_id, d, w, c, Int(lines), Int(all_local ? 1 : 0)});
  out.Add(kInsertNewOrder, {o_id, d, w});
  const size_t stock_statement = kStock + static_cast<size_t>(d_id - 1);
  for (int64_t l = 0; l < lines; ++l) {
    const Value& item = args[4 + 3 * l];
    const Value& supply_w = args[5 + 3 * l];
    const Value& quantity = args[6 + 3 * l];
    const bool remote = IntOf(supply_w) != IntOf(w);
    out.Add(kItem, {item});
    out.Add(stock_statement, {supply_w, item});
    out.Add(kUpdateStock, {supply_w, item, Computed(), quantity, Int(remote)});
    out.Add(kInsertOrderLine, {o_id, d, w, Int(l + 1), item, supply_w, quantity, Computed(), Computed()});
  }
}

}  // namespace

engine::Procedure NewOrderProcedure() {
  engine::Procedure p;
  p.name = kNewOrderProcedure;
  p.statements = Statements();
  p.body = Body;
  p.predict = Predict;
  return p;
}

void DrawNewOrderArgs(const TpccOptions& options, const TpccRandom& random, Random& rng, int w_id,
                      std::vector<Value>* args) {
  const int64_t lines = TpccRandom::Uniform(rng, 5, 15);
  const bool rollback = TpccRandom::Uniform(rng, 1, 100) == 1;
  args->clear();
  args->reserve(4 + 3 * static_cast<size_t>(lines));
  args->push_back(Int(w_id));
  args->push_back(Int(TpccRandom::Uniform(rng, 1, kDistrictsPerWarehouse)));
  args->push_back(Int(random.NURand(rng, 1023, 1, options.customers_per_district)));
  args->push_back(Int(lines));
  for (int64_t l = 0; l < lines; ++l) {
    int64_t item = random.NURand(rng, 8191, 1, options.items);
    if (rollback && l == lines - 1) item = options.items + 1;  // unused: the business rollback
    int64_t supply = w_id;
    if (options.warehouses > 1 && TpccRandom::Uniform(rng, 1, 100) == 1) {
      supply = TpccRandom::Uniform(rng, 1, options.warehouses - 1);
      if (supply >= w_id) ++supply;  // any other warehouse, uniformly
    }
    args->push_back(Int(item));
    args->push_back(Int(supply));
    args->push_back(Int(TpccRandom::Uniform(rng, 1, 10)));
  }
}

}  // namespace paceline::workloads::tpcc
