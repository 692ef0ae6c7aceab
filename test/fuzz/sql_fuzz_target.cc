// Fuzz target: the SQL front end end to end — parse, bind, plan, execute —
// through the embedded API (engine::Database in memory, one Session).
//
// Each input is SQL text (cut at kMaxInputBytes) run with
// Session::ExecuteScript inside a transaction block that is rolled back
// afterwards, over a small schema created once per database:
//
//   warehouse (w_id PK, w_name, w_tax NUMERIC)          4 rows
//   customer  (c_w_id → warehouse, c_id, PK (c_w_id, c_id), c_last, c_balance,
//              c_since TIMESTAMP, c_data BYTEA), index on c_last
//                                                        12 rows
//   item      (i_id PK, i_name UNIQUE, i_price, i_flag BOOLEAN) 6 rows
//
// Determinism: an input may still change what later inputs see (COMMIT or
// END inside its text, then DDL or DML): the database is recreated when
// an input changed its SchemaFingerprint (tables, columns, indexes) or left
// more than kMaxRows rows, and every kInputsPerDatabase inputs anyway
// (FuzzDatabase).
// Work per input is bounded: a Watchdog cancels the session (57014, as a
// client's CancelRequest) after kStatementBudget.
//
// Any Status error is a fine outcome; a crash, a sanitizer report, a hang
// or a failed assertion is a finding.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/database.h"
#include "engine/session.h"
#include "test/fuzz/fuzz_database.h"
#include "test/fuzz/watchdog.h"

namespace {

using paceline::engine::Database;
using paceline::engine::Options;
using paceline::QueryResult;
using paceline::engine::Session;
using paceline::engine::TransactionState;
using paceline::fuzz::FuzzDatabase;

constexpr size_t kMaxInputBytes = 4096;
constexpr size_t kMaxRows = 10000;
constexpr int kInputsPerDatabase = 500;
constexpr std::chrono::milliseconds kStatementBudget{250};

const std::vector<std::string> kSchema = {
    "CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10) NOT NULL, w_tax NUMERIC(4,4))",
    "CREATE TABLE customer (c_w_id INT REFERENCES warehouse (w_id), c_id INT, c_last VARCHAR(16), "
    "c_balance NUMERIC(12,2) DEFAULT 0, c_since TIMESTAMP, c_data BYTEA, PRIMARY KEY (c_w_id, c_id))",
    "CREATE INDEX customer_last ON customer (c_last)",
    "CREATE TABLE item (i_id BIGINT PRIMARY KEY, i_name TEXT UNIQUE, i_price DOUBLE PRECISION, i_flag BOOLEAN)",
    "INSERT INTO warehouse VALUES (1, 'north', 0.0625), (2, 'south', 0.1), (3, 'east', NULL), (4, '', 0)",
    "INSERT INTO customer VALUES (1, 1, 'ABLE', 10.5, '2024-01-02 03:04:05', '\\x00ff'), "
    "(1, 2, 'BAR', -3, NULL, NULL), (1, 3, 'ABLE', 0, '2023-12-31', 'abc'), (2, 1, 'OUGHT', 1e3, NULL, ''), "
    "(2, 2, NULL, NULL, '1999-01-01 00:00:00', '\\x'), (2, 3, 'PRES', 99.99, NULL, 'x'), "
    "(3, 1, 'ESE', 7, NULL, NULL), (3, 2, 'ANTI', 7, NULL, NULL), (3, 3, 'CALLY', 7, NULL, NULL), "
    "(4, 1, 'ATION', 0.01, NULL, NULL), (4, 2, 'EING', -0.01, NULL, NULL), (4, 3, 'BAR', 5, NULL, NULL)",
    "INSERT INTO item VALUES (1, 'apple', 1.25, true), (2, 'banana', 0.5, false), (3, 'cherry', NULL, NULL), "
    "(4, 'date', 'NaN', true), (5, NULL, -0.0, false), (6, 'fig', 1e30, true)",
};

Options DatabaseOptions() {
  Options options;
  options.workers = 0;  // sessions run on the calling thread
  options.lock_timeout = std::chrono::milliseconds(100);
  return options;
}

class Harness {
 public:
  void Run(std::string_view sql) {
    Database* db = fuzz_db_.Get();
    if (session_ == nullptr) session_ = db->CreateSession();
    QueryResult result;
    FuzzDatabase::Check(session_->Execute("BEGIN", &result), "BEGIN");
    std::vector<QueryResult> results;
    watchdog_.Arm([session = session_.get()] { session->Cancel(); }, kStatementBudget);
    (void)session_->ExecuteScript(sql, &results);  // any error is a fine outcome
    watchdog_.Disarm();
    if (session_->state() != TransactionState::kIdle) {
      FuzzDatabase::Check(session_->Execute("ROLLBACK", &result), "ROLLBACK");
    }
    if (fuzz_db_.Stale()) {
      session_.reset();
      fuzz_db_.Close();
    }
  }

 private:
  paceline::fuzz::Watchdog watchdog_;
  FuzzDatabase fuzz_db_{DatabaseOptions(), kSchema, kInputsPerDatabase, kMaxRows};
  std::unique_ptr<Session> session_;  // on fuzz_db_'s database
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness* harness = new Harness();  // never destroyed: libFuzzer exits without unwinding
  const size_t n = size < kMaxInputBytes ? size : kMaxInputBytes;
  harness->Run(std::string_view(reinterpret_cast<const char*>(data), n));
  return 0;
}
