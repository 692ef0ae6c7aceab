// A tiny TATP database for tests and query helpers.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/database.h"
#include "workloads/tatp/tatp_workload.h"

namespace paceline::workloads::tatp {

inline TatpOptions TinyTatpOptions(uint64_t subscribers = 10) {
  TatpOptions options;
  options.subscribers = subscribers;
  options.hot_records = 2;
  return options;
}

// An open database with `workers` workers and `options` loaded into it.
inline std::unique_ptr<engine::Database> OpenTatp(const TatpOptions& options, size_t workers,
                                                  std::unique_ptr<TatpWorkload>* workload,
                                                  const std::string& cc = "occ",
                                                  const std::string& scheduler = "random") {
  engine::Options db_options;
  db_options.workers = workers;
  db_options.cc = cc;
  db_options.scheduler = scheduler;
  db_options.scheduling.partition_domain = "s_id";
  db_options.max_retries = 1000;
  std::unique_ptr<engine::Database> db;
  Status s = engine::Database::Open(db_options, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return nullptr;
  *workload = std::make_unique<TatpWorkload>(options);
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

// The single value `sql` returns, in PostgreSQL's text form ("NULL" for NULL).
inline std::string Scalar(engine::Database* db, const std::string& sql) {
  QueryResult r = Query(db, sql);
  if (r.rows.size() != 1 || r.rows[0].size() != 1) {
    ADD_FAILURE() << sql << " returned " << r.rows.size() << " rows";
    return "";
  }
  return r.rows[0][0].is_null() ? "NULL" : r.rows[0][0].ToString();
}

inline int64_t Count(engine::Database* db, const std::string& sql) { return std::stoll(Scalar(db, sql)); }

}  // namespace paceline::workloads::tatp
