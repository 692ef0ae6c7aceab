// StockLevel (TPC-C §2.8): how many of the items sold in a district's last
// 20 orders are low in stock (read-only).
//
// The stored procedure "stock_level" reads the district's next order id and
// counts the distinct items of the order lines of orders [next − 20, next)
// whose stock in the warehouse is below the threshold (a join of order_line
// and stock).
//
// Arguments: w_id, d_id, threshold (INT).
//
// Thread-safety: the procedure and the argument generator are stateless.
#pragma once

#include <vector>

#include "engine/procedure.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"

namespace paceline::workloads::tpcc {

inline constexpr char kStockLevelProcedure[] = "stock_level";

engine::Procedure StockLevelProcedure();

// §2.8.1: d_id uniform (the spec fixes it per terminal; there are no
// terminals here), threshold uniform in 10–20.
void DrawStockLevelArgs(Random& rng, int w_id, std::vector<Value>* args);

}  // namespace paceline::workloads::tpcc
