// TpccLoader: fills an empty TPC-C schema with the initial population of the
// specification (§4.3.3.1): items; per warehouse its stock, 10 districts,
// their customers (the first 1,000 named by syllables of their number, the
// rest by NURand(255, 0, 999)), one history row per customer, as many orders
// as customers (customer ids a random permutation), 5–15 lines per order,
// and the last 30% of orders undelivered (in new_order, without carrier).
//
// Rows go through Database::BulkLoad (no SQL per row), in chunks, so memory
// stays bounded; rows are generated on several threads (one warehouse each),
// loading is serial (bulk loads hold the engine's gate exclusively).
//
// Thread-safety: one Load at a time on a database; nothing else runs while it
// does (bulk loads wait for running transactions).
#pragma once

#include "common/status.h"
#include "engine/database.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"

namespace paceline::workloads::tpcc {

struct TpccLoadStats {
  uint64_t rows = 0;   // over all tables
  double seconds = 0;  // wall time of Load
};

class TpccLoader {
 public:
  // `random` supplies the loader's NURand constant for last names.
  TpccLoader(const TpccOptions& options, const TpccRandom& random) : options_(options), random_(random) {}

  // Loads every table (the schema must exist and be empty).
  Status Load(engine::Database* db, TpccLoadStats* stats = nullptr) const;

 private:
  const TpccOptions options_;
  const TpccRandom& random_;
};

}  // namespace paceline::workloads::tpcc
