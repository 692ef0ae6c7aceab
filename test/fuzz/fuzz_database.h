// FuzzDatabase: the in-memory database a fuzz target runs its inputs on,
// created with a fixed schema and recreated often enough that no input
// changes what later inputs see for long.
//
//   FuzzDatabase fuzz_db(options, kSchema, /*inputs_per_database=*/500, /*max_rows=*/10000);
//   engine::Database* db = fuzz_db.Get();   // opens and loads it when needed
//   ... run the input ...
//   if (fuzz_db.Stale()) fuzz_db.Close();   // after closing sessions on it
//
// Stale() is true when the input left a different schema — the tables with
// their columns (name, type), indexes and foreign keys differ from what the
// schema statements made: DDL that an input committed (COMMIT or END inside
// its text, a Query outside a block); DDL rolled back with the input's
// block does not count (the catalog's version() moves either way, so it
// cannot tell) — when the tables hold more than max_rows rows, or when the
// database has served inputs_per_database inputs (which bounds the rest:
// committed UPDATEs, domains). A schema statement that fails aborts the
// process with its error (the target itself is broken).
//
// Thread-safety: one thread; call Stale only while nothing runs on the
// database.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "engine/database.h"

namespace paceline::fuzz {

class FuzzDatabase {
 public:
  FuzzDatabase(engine::Options options, std::vector<std::string> schema, int inputs_per_database, size_t max_rows)
      : options_(std::move(options)),
        schema_(std::move(schema)),
        inputs_per_database_(inputs_per_database),
        max_rows_(max_rows) {}

  engine::Database* Get() {
    if (db_ == nullptr) Open();
    ++inputs_;
    return db_.get();
  }
  bool Stale() const {
    return db_ != nullptr && (inputs_ >= inputs_per_database_ || Fingerprint() != fingerprint_ || Rows() > max_rows_);
  }
  void Close() { db_.reset(); }

  // Aborts with `what` and the error unless `s` is OK.
  static void Check(const Status& s, std::string_view what) {
    if (s.ok()) return;
    std::fprintf(stderr, "fuzz target: %.*s failed: %s\n", static_cast<int>(what.size()), what.data(),
                 s.ToString().c_str());
    std::abort();
  }

 private:
  void Open() {
    Check(engine::Database::Open(options_, &db_), "Database::Open");
    auto session = db_->CreateSession();
    QueryResult result;
    for (const std::string& statement : schema_) Check(session->Execute(statement, &result), statement);
    fingerprint_ = Fingerprint();
    inputs_ = 0;
  }
  std::string Fingerprint() const {
    std::string out;
    for (const std::string& name : db_->catalog().TableNames()) {
      const auto table = db_->catalog().FindTable(name);
      if (table == nullptr) continue;
      out += name + '(';
      for (const auto& column : table->schema().columns) {
        out += column.name + ' ' + std::to_string(static_cast<int>(column.type.id)) + ',';
      }
      out += ") indexes " + std::to_string(table->indexes().size()) + " fks " +
             std::to_string(table->schema().foreign_keys.size()) + ';';
    }
    return out;
  }
  size_t Rows() const {
    size_t rows = 0;
    for (const std::string& name : db_->catalog().TableNames()) {
      if (const auto table = db_->catalog().FindTable(name)) rows += table->LiveRowCount();
    }
    return rows;
  }

  const engine::Options options_;
  const std::vector<std::string> schema_;
  const int inputs_per_database_;
  const size_t max_rows_;
  std::unique_ptr<engine::Database> db_;
  std::string fingerprint_;  // of the database as Open made it
  int inputs_ = 0;
};

}  // namespace paceline::fuzz
