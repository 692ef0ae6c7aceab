// NewOrder (TPC-C §2.4): enter an order of 5–15 lines for a customer.
//
// The stored procedure "new_order" reads the warehouse tax, takes the
// district's next order id (FOR UPDATE) and increments it, reads the
// customer, inserts the order and its new_order row, then for each line reads
// the item (a missing item — the 1% of orders given an unused item number as
// their last line — is a business rollback: `Item number is not valid`),
// reads the stock row FOR UPDATE, updates its quantity (minus the quantity
// ordered, plus 91 when that would leave fewer than 10), year-to-date,
// order and remote counts, and inserts the order line.
//
// Arguments: w_id, d_id, c_id, ol_cnt, then per line i_id, supply_w_id,
// quantity (all INT).
//
// Thread-safety: the procedure and the argument generator are stateless.
#pragma once

#include <vector>

#include "engine/procedure.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"

namespace paceline::workloads::tpcc {

inline constexpr char kNewOrderProcedure[] = "new_order";

engine::Procedure NewOrderProcedure();

// The spec's inputs (§2.4.1) for home warehouse `w_id`: d_id uniform, c_id
// NURand(1023), ol_cnt 5–15, items NURand(8191) (the last one unused in 1% of
// orders), each line's supplier remote in 1% of lines (when there is another
// warehouse), quantities 1–10.
void DrawNewOrderArgs(const TpccOptions& options, const TpccRandom& random, Random& rng, int w_id,
                      std::vector<Value>* args);

}  // namespace paceline::workloads::tpcc
