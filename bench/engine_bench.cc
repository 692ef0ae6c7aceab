// Microbenchmarks of the engine's statement path (Google Benchmark):
//   - a point SELECT by primary key through the statement cache,
//   - a point UPDATE by primary key through the statement cache,
//   - the parse of one statement (libpg_query + AST translation), uncached,
//   - a full prepare (parse + bind + plan), uncached,
//   - the scheduler footprint of a NewOrder transaction (FootprintBuilder),
// all single-threaded, on a TPC-C-like stock table (100,000 rows).
//
//   build/bench/engine_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <random>

#include "engine/database.h"
#include "engine/footprint_builder.h"
#include "engine/sql/parser.h"
#include "engine/sql/prepared_statement.h"

namespace {

using paceline::Status;
using paceline::Value;
using namespace paceline::engine;

constexpr int kItems = 100000;
constexpr const char* kSelect =
    "SELECT s_quantity, s_data, s_dist_01 FROM stock WHERE s_w_id = $1 AND s_i_id = $2";
constexpr const char* kUpdate =
    "UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1 "
    "WHERE s_i_id = $3 AND s_w_id = $4";

Database* SharedDatabase() {
  static Database* db = [] {
    std::unique_ptr<Database> d;
    Status s = Database::Open(Options{}, &d);
    auto session = d->CreateSession();
    QueryResult r;
    s = session->Execute(
        "CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity SMALLINT, "
        "s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_ytd NUMERIC(8,0), s_order_cnt SMALLINT, "
        "s_remote_cnt SMALLINT, s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id))",
        &r);
    std::vector<std::vector<Value>> rows;
    for (int i = 1; i <= kItems; ++i) {
      rows.push_back({Value::Int32(i), Value::Int32(1), Value::Int16(50), Value::String(paceline::TypeId::kChar, std::string(24, 'a')),
                      Value::String(paceline::TypeId::kChar, std::string(24, 'b')), Value::Numeric(paceline::Decimal(0, 0)),
                      Value::Int16(0), Value::Int16(0), Value::Text("original stock data for item")});
    }
    s = d->BulkLoad("stock", rows);
    if (!s.ok()) std::abort();
    return d.release();
  }();
  return db;
}

// Arg: how many distinct rows are touched (1,000: cache-resident, the CPU
// cost of the path; 100,000: every lookup misses the caches).
void BM_PointSelect(benchmark::State& state) {
  auto session = SharedDatabase()->CreateSession();
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> item(1, static_cast<int>(state.range(0)));
  QueryResult r;
  std::vector<Value> params{Value::Int32(1), Value::Int32(1)};
  for (auto _ : state) {
    params[1] = Value::Int32(item(rng));
    Status s = session->Execute(kSelect, params, &r);
    if (!s.ok() || r.rows.size() != 1) state.SkipWithError("select failed");
  }
}
BENCHMARK(BM_PointSelect)->Arg(1000)->Arg(kItems);

void BM_PointUpdate(benchmark::State& state) {
  auto session = SharedDatabase()->CreateSession();
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> item(1, static_cast<int>(state.range(0)));
  QueryResult r;
  std::vector<Value> params{Value::Int32(42), Value::Int32(5), Value::Int32(1), Value::Int32(1)};
  for (auto _ : state) {
    params[2] = Value::Int32(item(rng));
    Status s = session->Execute(kUpdate, params, &r);
    if (!s.ok() || r.rows_affected != 1) state.SkipWithError("update failed");
  }
}
BENCHMARK(BM_PointUpdate)->Arg(1000)->Arg(kItems);

void BM_ParseOnly(benchmark::State& state) {
  std::vector<std::unique_ptr<paceline::sql::Statement>> out;
  for (auto _ : state) {
    out.clear();
    Status s = paceline::sql::Parse(kUpdate, &out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_ParseOnly);

void BM_PrepareUncached(benchmark::State& state) {
  Database* db = SharedDatabase();
  std::shared_ptr<paceline::sql::PreparedStatement> p;
  for (auto _ : state) {
    Status s = paceline::sql::PreparedStatement::Prepare(kUpdate, db->catalog(), {}, &p);
    benchmark::DoNotOptimize(p.get());
  }
}
BENCHMARK(BM_PrepareUncached);

// The footprint of a 10-line NewOrder (46 statements, 168 reference slots, all
// values known) from its prepared statements, as the scheduler needs it
// before queueing the transaction: a fresh builder per transaction, as the
// Database makes one. Args: form (0 literal, 1 canonical), granularity (0
// single, 1 all).
void BM_FootprintNewOrder(benchmark::State& state) {
  static Database* db = [] {
    std::unique_ptr<Database> d;
    Status s = Database::Open(Options{}, &d);
    auto session = d->CreateSession();
    QueryResult r;
    for (const char* sql : {
             "CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_tax NUMERIC(4,4))",
             "CREATE TABLE district (d_w_id INT REFERENCES warehouse, d_id INT, d_tax NUMERIC(4,4), "
             "d_next_o_id INT, PRIMARY KEY (d_w_id, d_id))",
             "CREATE TABLE customer (c_w_id INT, c_d_id INT, c_id INT, c_discount NUMERIC(4,4), c_last VARCHAR(16), "
             "c_credit CHAR(2), PRIMARY KEY (c_w_id, c_d_id, c_id), "
             "FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id))",
             "CREATE TABLE orders (o_id INT, o_d_id INT, o_w_id INT, o_c_id INT, o_entry_d TIMESTAMP, "
             "o_carrier_id INT, o_ol_cnt INT, o_all_local INT, PRIMARY KEY (o_w_id, o_d_id, o_id), "
             "FOREIGN KEY (o_w_id, o_d_id, o_c_id) REFERENCES customer (c_w_id, c_d_id, c_id))",
             "CREATE TABLE new_order (no_o_id INT, no_d_id INT, no_w_id INT, PRIMARY KEY (no_w_id, no_d_id, no_o_id), "
             "FOREIGN KEY (no_w_id, no_d_id, no_o_id) REFERENCES orders (o_w_id, o_d_id, o_id))",
             "CREATE TABLE item (i_id INT PRIMARY KEY, i_price NUMERIC(5,2), i_name VARCHAR(24), i_data VARCHAR(50))",
             "CREATE TABLE stock (s_i_id INT REFERENCES item, s_w_id INT REFERENCES warehouse, s_quantity INT, "
             "s_dist_01 CHAR(24), s_ytd NUMERIC(8,0), s_order_cnt INT, s_remote_cnt INT, s_data VARCHAR(50), "
             "PRIMARY KEY (s_w_id, s_i_id))",
             "CREATE TABLE order_line (ol_o_id INT, ol_d_id INT, ol_w_id INT, ol_number INT, ol_i_id INT, "
             "ol_supply_w_id INT, ol_delivery_d TIMESTAMP, ol_quantity INT, ol_amount NUMERIC(6,2), "
             "ol_dist_info CHAR(24), PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number), "
             "FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) REFERENCES orders (o_w_id, o_d_id, o_id), "
             "FOREIGN KEY (ol_supply_w_id, ol_i_id) REFERENCES stock (s_w_id, s_i_id))",
         }) {
      s = session->Execute(sql, &r);
      if (!s.ok()) std::abort();
    }
    return d.release();
  }();
  const std::vector<const char*> texts = {
      "SELECT w_tax FROM warehouse WHERE w_id = $1",
      "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE",
      "UPDATE district SET d_next_o_id = $3 WHERE d_w_id = $1 AND d_id = $2",
      "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) "
      "VALUES ($1, $2, $3, $4, now(), NULL, $5, $6)",
      "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)",
      "SELECT i_price, i_name, i_data FROM item WHERE i_id = $1",
      "SELECT s_quantity, s_data, s_dist_01 FROM stock WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE",
      "UPDATE stock SET s_quantity = $3, s_ytd = s_ytd + $4, s_order_cnt = s_order_cnt + 1, "
      "s_remote_cnt = s_remote_cnt + $5 WHERE s_w_id = $1 AND s_i_id = $2",
      "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, "
      "ol_quantity, ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9)",
  };
  std::vector<std::shared_ptr<paceline::sql::PreparedStatement>> prepared(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    if (!paceline::sql::PreparedStatement::Prepare(texts[i], db->catalog(), {}, &prepared[i]).ok()) std::abort();
  }
  auto i32 = [](int64_t v) { return Value::Int32(static_cast<int32_t>(v)); };
  const int64_t w = 1, d = 3, c = 42, o = 3001, lines = 10;
  std::vector<std::pair<size_t, std::vector<Value>>> run = {
      {0, {i32(w)}},
      {1, {i32(w), i32(d)}},
      {2, {i32(w), i32(d), i32(o + 1)}},
      {3, {i32(w), i32(d), i32(c)}},
      {4, {i32(o), i32(d), i32(w), i32(c), i32(lines), i32(1)}},
      {5, {i32(o), i32(d), i32(w)}},
  };
  for (int64_t l = 0; l < lines; ++l) {
    const int64_t item = 1000 + 37 * l;
    run.push_back({6, {i32(item)}});
    run.push_back({7, {i32(w), i32(item)}});
    run.push_back({8, {i32(w), i32(item), i32(50 - l), i32(5), i32(0)}});
    run.push_back({9, {i32(o), i32(d), i32(w), i32(l + 1), i32(item), i32(w), i32(5),
                       Value::Numeric(paceline::Decimal(1234 + l, 2)),
                       Value::String(paceline::TypeId::kChar, std::string(24, 'd'))}});
  }
  paceline::scheduler::FootprintSpec spec;
  spec.references = true;
  spec.form = state.range(0) ? paceline::scheduler::ReferenceForm::kCanonical : paceline::scheduler::ReferenceForm::kLiteral;
  spec.granularity =
      state.range(1) ? paceline::scheduler::ReferenceGranularity::kAll : paceline::scheduler::ReferenceGranularity::kSingle;
  spec.partition_domain = "w_id";
  size_t slots = 0;
  for (const auto& [statement, params] : run) slots += prepared[statement]->reference_slots.size();
  size_t keys = 0;
  for (auto _ : state) {
    FootprintBuilder builder(spec);
    for (const auto& [statement, params] : run) builder.Add(*prepared[statement], params);
    paceline::scheduler::Footprint f = builder.Finish();
    keys = f.references.size();
    benchmark::DoNotOptimize(f.references.data());
  }
  state.counters["statements"] = static_cast<double>(run.size());
  state.counters["slots"] = static_cast<double>(slots);
  state.counters["keys"] = static_cast<double>(keys);
}
BENCHMARK(BM_FootprintNewOrder)->ArgNames({"canonical", "all"})->Args({0, 0})->Args({1, 0})->Args({0, 1})->Args({1, 1});

}  // namespace

BENCHMARK_MAIN();
