// The TPC-C consistency conditions 1–4 (specification §3.3.2.1–3.3.2.4),
// checked with SQL on a quiescent database:
//   1. W_YTD = Σ D_YTD of the warehouse's districts;
//   2. D_NEXT_O_ID − 1 = max(O_ID) = max(NO_O_ID) for each district (the
//      new_order part when the district has undelivered orders);
//   3. max(NO_O_ID) − min(NO_O_ID) + 1 = the number of new_order rows of each
//      district that has any;
//   4. Σ O_OL_CNT = the number of order_line rows of each district.
//
// Thread-safety: call with no transaction running (the queries are not one
// snapshot otherwise).
#pragma once

#include <string>

#include "common/status.h"
#include "engine/database.h"

namespace paceline::workloads::tpcc {

// OK when all four hold; otherwise XX000 naming the condition, the
// warehouse/district and the numbers that disagree. `report` (optional) gets
// one line per condition: "consistency 1 (W_YTD = sum(D_YTD)): 4 warehouses ok".
Status CheckTpccConsistency(engine::Database* db, std::string* report);

}  // namespace paceline::workloads::tpcc
