// A tiny TPC-C database for tests: 2 warehouses, 100 items, 30 customers
// per district (the spec's proportions, scaled down), and query helpers.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/database.h"
#include "workloads/tpcc/tpcc_workload.h"

namespace paceline::workloads::tpcc {

inline TpccOptions TinyTpccOptions() {
  TpccOptions options;
  options.warehouses = 2;
  options.items = 100;
  options.customers_per_district = 30;
  return options;
}

// An open database with `workers` workers and `options` loaded.
inline std::unique_ptr<engine::Database> OpenTpcc(const TpccOptions& options, size_t workers,
                                                  std::unique_ptr<TpccWorkload>* workload,
                                                  const std::string& cc = "occ",
                                                  const std::string& scheduler = "random") {
  engine::Options db_options;
  db_options.workers = workers;
  db_options.cc = cc;
  db_options.scheduler = scheduler;
  db_options.max_retries = 1000;
  std::unique_ptr<engine::Database> db;
  Status s = engine::Database::Open(db_options, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  *workload = std::make_unique<TpccWorkload>(options);
  s = (*workload)->Setup(db.get());
  EXPECT_TRUE(s.ok()) << s.ToString();
  return db;
}

inline QueryResult Query(engine::Database* db, const std::string& sql) {
  auto session = db->CreateSession();
  QueryResult r;
  Status s = session->Execute(sql, &r);
  EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
  return r;
}

// The single value `sql` returns, in PostgreSQL's text form ("" for NULL).
inline std::string Scalar(engine::Database* db, const std::string& sql) {
  QueryResult r = Query(db, sql);
  if (r.rows.size() != 1 || r.rows[0].size() != 1) {
    ADD_FAILURE() << sql << " returned " << r.rows.size() << " rows";
    return "";
  }
  return r.rows[0][0].is_null() ? "NULL" : r.rows[0][0].ToString();
}

}  // namespace paceline::workloads::tpcc
