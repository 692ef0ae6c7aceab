// Payment: the procedure body and its inputs.
#include "workloads/tpcc/payment.h"

#include <algorithm>
#include <string>

#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {

enum Statement : size_t {
  kWarehouseYtd,
  kWarehouse,
  kDistrictYtd,
  kDistrict,
  kCustomersByName,
  kCustomerForUpdate,
  kCustomerPay,
  kCustomerData,
  kCustomerSetData,
  kInsertHistory,
};

std::vector<std::string> Statements() {
  return {
      "UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1",
      "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = $1",
      "UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2",
      "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = $1 AND d_id = $2",
      kCustomersByLastNameSql,
      "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, "
      "c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 "
      "FOR UPDATE",
      "UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4, "
      "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      "SELECT c_data FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      "UPDATE customer SET c_data = $4 WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
      "VALUES ($1, $2, $3, $4, $5, now(), $6, $7)",
  };
}

Status Body(engine::ProcedureContext& ctx, const std::vector<Value>& args) {
  const Value& w = args[0];
  const Value& d = args[1];
  const Value& c_w = args[2];
  const Value& c_d = args[3];
  const Value& amount = args[6];
  QueryResult r;

  PL_RETURN_IF_ERROR(ctx.Execute(kWarehouseYtd, {w, amount}, &r));
  PL_RETURN_IF_ERROR(ctx.Execute(kWarehouse, {w}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "warehouse " + w.ToString(); }));
  const std::string w_name = r.rows[0][0].ToString();
  PL_RETURN_IF_ERROR(ctx.Execute(kDistrictYtd, {w, d, amount}, &r));
  PL_RETURN_IF_ERROR(ctx.Execute(kDistrict, {w, d}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "district " + d.ToString() + " of warehouse " + w.ToString(); }));
  const std::string d_name = r.rows[0][0].ToString();

  Value c;
  PL_RETURN_IF_ERROR(ResolveCustomer(ctx, kCustomersByName, c_w, c_d, args[4], args[5], &c));
  PL_RETURN_IF_ERROR(ctx.Execute(kCustomerForUpdate, {c_w, c_d, c}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "customer " + c.ToString(); }));
  const bool bad_credit = r.rows[0][10].string_value() == "BC";
  PL_RETURN_IF_ERROR(ctx.Execute(kCustomerPay, {c_w, c_d, c, amount}, &r));
  if (bad_credit) {
    PL_RETURN_IF_ERROR(ctx.Execute(kCustomerData, {c_w, c_d, c}, &r));
    PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "customer " + c.ToString(); }));
    std::string data = c.ToString() + " " + c_d.ToString() + " " + c_w.ToString() + " " + d.ToString() + " " +
                       w.ToString() + " " + amount.ToString() + " | " + r.rows[0][0].ToString();
    data.resize(std::min<size_t>(data.size(), 500));
    PL_RETURN_IF_ERROR(ctx.Execute(kCustomerSetData, {c_w, c_d, c, Str(std::move(data))}, &r));
  }
  return ctx.Execute(kInsertHistory, {c, c_d, c_w, d, w, amount, Str(w_name + "    " + d_name)}, &r);
}

// Everything but the customer id when it is looked up by last name, the
// customer's new c_data (bad credit) and the history text.
void Predict(const std::vector<Value>& args, engine::StatementPredictions& out) {
  if (args.size() < 7) return;
  const Value& w = args[0];
  const Value& d = args[1];
  const Value& c_w = args[2];
  const Value& c_d = args[3];
  const Value& c_last = args[5];
  const Value& amount = args[6];
  const Value c = c_last.is_null() ? args[4] : Computed();
  out.Add(kWarehouseYtd, {w, amount});
  out.Add(kWarehouse, {w});
  out.Add(kDistrictYtd, {w, d, amount});
  out.Add(kDistrict, {w, d});
  if (!c_last.is_null()) out.Add(kCustomersByName, {c_w, c_d, c_last});
  out.Add(kCustomerForUpdate, {c_w, c_d, c});
  out.Add(kCustomerPay, {c_w, c_d, c, amount});
  out.Add(kInsertHistory, {c, c_d, c_w, d, w, amount, Computed()});
}

}  // namespace

Status ResolveCustomer(engine::ProcedureContext& ctx, size_t by_name, const Value& w, const Value& d,
                       const Value& c_id, const Value& c_last, Value* out) {
  if (c_last.is_null()) {
    *out = c_id;
    return Status::OK();
  }
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(by_name, {w, d, c_last}, &r));
  PL_RETURN_IF_ERROR(ExpectRow(r, [&] { return "a customer named " + c_last.ToString(); }));
  *out = r.rows[(r.rows.size() - 1) / 2][0];  // ⌈n/2⌉, 1-based
  return Status::OK();
}

engine::Procedure PaymentProcedure() {
  engine::Procedure p;
  p.name = kPaymentProcedure;
  p.statements = Statements();
  p.body = Body;
  p.predict = Predict;
  return p;
}

Value DrawCustomerLastName(const TpccOptions& options, const TpccRandom& random, Random& rng) {
  const int64_t names = std::min(1000, options.customers_per_district);
  return Str(TpccRandom::LastName(static_cast<int>(random.NURand(rng, 255, 0, names - 1))));
}

void DrawPaymentArgs(const TpccOptions& options, const TpccRandom& random, Random& rng, int w_id,
                     std::vector<Value>* args) {
  const int64_t d_id = TpccRandom::Uniform(rng, 1, kDistrictsPerWarehouse);
  int64_t c_w_id = w_id;
  int64_t c_d_id = d_id;
  if (options.warehouses > 1 && TpccRandom::Uniform(rng, 1, 100) > 85) {
    c_w_id = TpccRandom::Uniform(rng, 1, options.warehouses - 1);
    if (c_w_id >= w_id) ++c_w_id;
    c_d_id = TpccRandom::Uniform(rng, 1, kDistrictsPerWarehouse);
  }
  const bool by_name = TpccRandom::Uniform(rng, 1, 100) <= 60;
  args->clear();
  args->push_back(Int(w_id));
  args->push_back(Int(d_id));
  args->push_back(Int(c_w_id));
  args->push_back(Int(c_d_id));
  args->push_back(by_name ? Int(0) : Int(random.NURand(rng, 1023, 1, options.customers_per_district)));
  args->push_back(by_name ? DrawCustomerLastName(options, random, rng) : Value::Null(TypeId::kText));
  args->push_back(Cents(TpccRandom::Uniform(rng, 100, 500000)));
}

}  // namespace paceline::workloads::tpcc
