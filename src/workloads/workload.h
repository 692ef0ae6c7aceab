// Workload: a benchmark the driver (driver/bench_driver.h) runs against a
// Database — its schema and initial data, the stored procedures its
// transactions call, a generator of transaction requests in a mix, and the
// consistency checks to run afterwards.
//
//   std::unique_ptr<Workload> w;
//   CreateWorkload(options, &w);          // workload_factory.h
//   w->Setup(db);                         // DDL, bulk load, procedures
//   GeneratedTransaction t;
//   w->Next(rng, &t);                     // t.request → db->Submit(...)
//   w->OnFinished(t, result);             // what the checks need to know
//   w->Check(db, &report);                // after the run, workers idle
//
// Thread-safety: Setup and Check are called once, with no transaction
// running; Next and OnFinished may be called from many threads at once (each
// caller passes its own Random). Ownership: the Database is borrowed; the
// workload keeps nothing of it after Setup returns, so one workload may be set
// up on one database only.
#pragma once

#include <cstdint>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/database.h"
#include "engine/transaction_request.h"

namespace paceline::workloads {
class HotSetClock;
}

namespace paceline::workloads {

// A per-caller random number generator (workloads draw all inputs from it).
using Random = std::mt19937_64;

// A number as Describe() shows it: the shortest form ("0.5", "0.99", "5").
inline std::string ShortNumber(double v) {
  std::ostringstream out;
  out << std::setprecision(15) << v;
  return out.str();
}

struct GeneratedTransaction {
  size_t type = 0;  // index into Workload::TransactionTypes()
  engine::TransactionRequest request;
};

class Workload {
 public:
  virtual ~Workload() = default;

  // "tpcc", "ycsb": the --workload flag value.
  virtual std::string_view Name() const = 0;
  // The names of its transaction types ("NewOrder", "Payment", ...), in the
  // order GeneratedTransaction::type indexes them.
  virtual const std::vector<std::string>& TransactionTypes() const = 0;
  // Creates the schema, loads the initial data through the bulk-load path
  // and registers the procedures. Run once on an empty database.
  virtual Status Setup(engine::Database* db) = 0;
  // For a database that already holds this workload's tables (recovered
  // from a data directory): registers the procedures, loads nothing.
  virtual Status Attach(engine::Database* db) = 0;
  // Rows Setup loaded, over all tables.
  virtual uint64_t loaded_rows() const = 0;
  // Draws the next transaction of the mix, with its inputs.
  virtual void Next(Random& rng, GeneratedTransaction* out) const = 0;
  // Reports the outcome of a generated transaction (the default ignores it).
  virtual void OnFinished(const GeneratedTransaction& /*txn*/, const engine::TransactionResult& /*result*/) {}
  // Checks the workload's consistency conditions on the database as it is
  // now (call it when no transaction runs). OK when every condition holds;
  // otherwise an error (XX000) naming the first violated condition.
  // `report` receives one line per condition checked.
  virtual Status Check(engine::Database* db, std::string* report) const = 0;
  // Its options as (flag, value) pairs, for result tables and JSON.
  virtual std::vector<std::pair<std::string, std::string>> Describe() const = 0;
  // The clock of its moving hot sets (hot_set.h; --hot-shift-s), which the
  // driver starts at the start of the measured window; nullptr when its hot
  // set never moves.
  virtual HotSetClock* hot_set_clock() { return nullptr; }
};

}  // namespace paceline::workloads
