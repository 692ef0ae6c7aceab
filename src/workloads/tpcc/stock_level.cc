// StockLevel: the procedure body and its inputs.
#include "workloads/tpcc/stock_level.h"

#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

enum Statement : size_t { kNextOrder, kLowStock };

Status Body(engine::ProcedureContext& ctx, const std::vector<Value>& args) {
  const Value& w = args[0];
  const Value& d = args[1];
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(kNextOrder, {w, d}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "district " + d.ToString() + " of warehouse " + w.ToString(); }));
  const int64_t next = IntOf(r.rows[0][0]);
  return ctx.Execute(kLowStock, {w, d, Int(next), Int(next - 20), w, args[2]}, &r);
}

// The district; the order range is read inside.
void Predict(const std::vector<Value>& args, engine::StatementPredictions& out) {
  if (args.size() < 3) return;
  const Value& w = args[0];
  const Value& d = args[1];
  out.Add(kNextOrder, {w, d});
  out.Add(kLowStock, {w, d, Computed(), Computed(), w, args[2]});
}

}  // namespace

engine::Procedure StockLevelProcedure() {
  engine::Procedure p;
  p.name = kStockLevelProcedure;
  p.statements = {
      "SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2",
      "SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = $1 AND ol_d_id = $2 "
      "AND ol_o_id < $3 AND ol_o_id >= $4 AND s_w_id = $5 AND s_i_id = ol_i_id AND s_quantity < $6",
  };
  p.body = Body;
  p.predict = Predict;
  return p;
}

void DrawStockLevelArgs(Random& rng, int w_id, std::vector<Value>* args) {
  args->clear();
  args->push_back(Int(w_id));
  args->push_back(Int(TpccRandom::Uniform(rng, 1, kDistrictsPerWarehouse)));
  args->push_back(Int(TpccRandom::Uniform(rng, 10, 20)));
}

}  // namespace paceline::workloads::tpcc
