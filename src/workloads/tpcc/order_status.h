// OrderStatus (TPC-C §2.6): the status of a customer's last order
// (read-only).
//
// The stored procedure "order_status" finds the customer by id or by last
// name (as Payment does), reads its balance and name, its most recent order
// (the largest o_id), and that order's lines.
//
// Arguments: w_id, d_id (INT), c_id (INT; 0 when selected by name), c_last
// (TEXT; NULL when selected by id).
//
// Thread-safety: the procedure and the argument generator are stateless.
#pragma once

#include <vector>

#include "engine/procedure.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"

namespace paceline::workloads::tpcc {

inline constexpr char kOrderStatusProcedure[] = "order_status";

engine::Procedure OrderStatusProcedure();

// §2.6.1: d_id uniform; by last name in 60% of cases, else by id.
void DrawOrderStatusArgs(const TpccOptions& options, const TpccRandom& random, Random& rng, int w_id,
                         std::vector<Value>* args);

}  // namespace paceline::workloads::tpcc
