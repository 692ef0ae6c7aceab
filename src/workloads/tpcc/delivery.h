// Delivery (TPC-C §2.7): deliver the oldest undelivered order of each of a
// warehouse's 10 districts, as one transaction.
//
// The stored procedure "delivery", for each district: takes the smallest
// o_id in new_order (a district with none is skipped, as the spec allows),
// deletes that new_order row, reads the order's customer, sets the order's
// carrier, stamps its lines' delivery date, sums their amounts and adds the
// sum to the customer's balance, counting the delivery. (The spec's deferred
// execution — queueing the request and replying at once — is not modelled:
// the transaction runs like the others.)
//
// Arguments: w_id, o_carrier_id (INT).
//
// Thread-safety: the procedure and the argument generator are stateless.
#pragma once

#include <vector>

#include "engine/procedure.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"

namespace paceline::workloads::tpcc {

inline constexpr char kDeliveryProcedure[] = "delivery";

engine::Procedure DeliveryProcedure();

// §2.7.1: o_carrier_id uniform in 1–10.
void DrawDeliveryArgs(Random& rng, int w_id, std::vector<Value>* args);

}  // namespace paceline::workloads::tpcc
