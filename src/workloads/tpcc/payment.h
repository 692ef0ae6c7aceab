// Payment (TPC-C §2.5): a customer pays an amount to a district of a
// warehouse.
//
// The stored procedure "payment" adds the amount to the warehouse's and the
// district's year-to-date totals, reads their names and addresses, finds the
// customer — by id, or by last name (all customers of that name in the
// district ordered by first name, the one at position ⌈n/2⌉) — reads it FOR
// UPDATE, subtracts the amount from its balance and counts the payment; for
// a bad-credit customer ("BC") it also prepends the payment to c_data (cut
// to 500 characters); finally it inserts a history row.
//
// Arguments: w_id, d_id, c_w_id, c_d_id (INT), c_id (INT; 0 when selected by
// name), c_last (TEXT; NULL when selected by id), h_amount (NUMERIC).
//
// Thread-safety: the procedure and the argument generator are stateless.
#pragma once

#include <vector>

#include "engine/procedure.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"

namespace paceline::workloads::tpcc {

inline constexpr char kPaymentProcedure[] = "payment";

engine::Procedure PaymentProcedure();

// The spec's inputs (§2.5.1): d_id uniform; the customer's warehouse and
// district the home ones in 85% of cases, else a uniform other warehouse
// (when there is one) and district; by last name (NURand(255)) in 60% of
// cases, else by id (NURand(1023)); amount 1.00–5,000.00.
void DrawPaymentArgs(const TpccOptions& options, const TpccRandom& random, Random& rng, int w_id,
                     std::vector<Value>* args);

// Customer selection by last name, shared with OrderStatus (§2.5.2.2,
// §2.6.2.2): the customers of a district with that last name, by first name.
inline constexpr char kCustomersByLastNameSql[] =
    "SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first";

// The customer a transaction names: `c_id`, or, when `c_last` is not NULL,
// the one at position ⌈n/2⌉ of the n customers that declared statement
// `by_name` (kCustomersByLastNameSql) returns for (w, d, c_last). XX000 when
// there is none.
Status ResolveCustomer(engine::ProcedureContext& ctx, size_t by_name, const Value& w, const Value& d,
                       const Value& c_id, const Value& c_last, Value* out);

// The last name for a customer selected by name: NURand(255, 0, 999), kept
// within the names a scaled-down database has (the first
// customers_per_district syllable names when fewer than 1,000).
Value DrawCustomerLastName(const TpccOptions& options, const TpccRandom& random, Random& rng);

}  // namespace paceline::workloads::tpcc
