// The TPC-C schema (specification §1.3) as SQL: nine tables with the spec's
// primary keys, the foreign keys of §1.3's diagram (district → warehouse,
// customer → district, history → customer and district, orders → customer,
// new_order → orders, order_line → orders and stock, stock → warehouse and
// item), and the two secondary indexes the transactions need (customers by
// last name, orders by customer).
//
// The foreign keys are what make canonical domains follow from the schema
// alone: s_w_id, d_w_id, c_w_id, ol_supply_w_id, no_w_id, h_c_w_id ... all
// lead back to warehouse.w_id. They are enforced as any foreign key (the
// loader's BulkLoad does not check them: it loads consistent data).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "engine/database.h"

namespace paceline::workloads::tpcc {

// The CREATE TABLE / CREATE INDEX statements, parents first.
const std::vector<std::string>& TpccSchemaStatements();

// Runs them in a session of `db`.
Status CreateTpccSchema(engine::Database* db);

}  // namespace paceline::workloads::tpcc
