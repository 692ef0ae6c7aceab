// Microbenchmarks of the engine's statement path (Google Benchmark):
//   - a point SELECT by primary key through the statement cache,
//   - a point UPDATE by primary key through the statement cache,
//   - the parse of one statement (libpg_query + AST translation), uncached,
//   - a full prepare (parse + bind + plan), uncached,
//   - the scheduler footprint of a NewOrder transaction (its predict
//     function feeding a FootprintBuilder),
//   - the same point SELECT and UPDATE with their values inlined as
//     literals (as pgbench's simple protocol sends them, every text new),
//     with Options::parameterize_literals on (1) and off (0), and the
//     LiteralParameterizer alone,
// all single-threaded, on a TPC-C-like stock table (100,000 rows).
//
//   build/bench/engine_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <random>

#include "engine/database.h"
#include "engine/footprint_builder.h"
#include "sql/literal_parameterizer.h"
#include "sql/parser.h"
#include "sql/prepared_statement.h"
#include "workloads/tpcc/new_order.h"
#include "workloads/tpcc/tpcc_schema.h"

namespace {

using paceline::QueryResult;
using paceline::Status;
using paceline::Value;
using namespace paceline::engine;

constexpr int kItems = 100000;
constexpr const char* kSelect =
    "SELECT s_quantity, s_data, s_dist_01 FROM stock WHERE s_w_id = $1 AND s_i_id = $2";
constexpr const char* kUpdate =
    "UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1 "
    "WHERE s_i_id = $3 AND s_w_id = $4";

Database* OpenStockDatabase(bool parameterize_literals) {
  std::unique_ptr<Database> d;
  Options options;
  options.parameterize_literals = parameterize_literals;
  Status s = Database::Open(options, &d);
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
}

Database* SharedDatabase(bool parameterize_literals = true) {
  static Database* on = OpenStockDatabase(true);
  static Database* off = OpenStockDatabase(false);
  return parameterize_literals ? on : off;
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

// Texts with literals, pgbench-style: every text is new (100,000 items, a
// random delta). Arg: Options::parameterize_literals (1 on, 0 off).
std::string LiteralSelect(int item) {
  return "SELECT s_quantity, s_data, s_dist_01 FROM stock WHERE s_w_id = 1 AND s_i_id = " + std::to_string(item);
}

std::string LiteralUpdate(int item, int delta) {
  return "UPDATE stock SET s_quantity = 42, s_ytd = s_ytd + " + std::to_string(delta) +
         ", s_order_cnt = s_order_cnt + 1 WHERE s_i_id = " + std::to_string(item) + " AND s_w_id = 1";
}

void BM_LiteralPointSelect(benchmark::State& state) {
  auto session = SharedDatabase(state.range(0) != 0)->CreateSession();
  static std::mt19937 rng(3);  // not restarted per repetition: every text stays new
  std::uniform_int_distribution<int> item(1, kItems);
  QueryResult r;
  for (auto _ : state) {
    Status s = session->Execute(LiteralSelect(item(rng)), &r);
    if (!s.ok() || r.rows.size() != 1) state.SkipWithError("select failed");
  }
}
BENCHMARK(BM_LiteralPointSelect)->ArgName("parameterize")->Arg(0)->Arg(1);

void BM_LiteralPointUpdate(benchmark::State& state) {
  auto session = SharedDatabase(state.range(0) != 0)->CreateSession();
  static std::mt19937 rng(4);  // not restarted per repetition: every text stays new
  std::uniform_int_distribution<int> item(1, kItems);
  std::uniform_int_distribution<int> delta(-5000, 5000);
  QueryResult r;
  for (auto _ : state) {
    Status s = session->Execute(LiteralUpdate(item(rng), delta(rng)), &r);
    if (!s.ok() || r.rows_affected != 1) state.SkipWithError("update failed");
  }
}
BENCHMARK(BM_LiteralPointUpdate)->ArgName("parameterize")->Arg(0)->Arg(1);

// The simple-query path (Session::ExecuteScript), one statement per message.
void BM_LiteralPointSelectScript(benchmark::State& state) {
  auto session = SharedDatabase(state.range(0) != 0)->CreateSession();
  static std::mt19937 rng(5);  // not restarted per repetition: every text stays new
  std::uniform_int_distribution<int> item(1, kItems);
  std::vector<QueryResult> r;
  for (auto _ : state) {
    Status s = session->ExecuteScript(LiteralSelect(item(rng)), &r);
    if (!s.ok() || r.size() != 1 || r[0].rows.size() != 1) state.SkipWithError("select failed");
  }
}
BENCHMARK(BM_LiteralPointSelectScript)->ArgName("parameterize")->Arg(0)->Arg(1);

// The lexer and the choice alone, on the UPDATE above (~150 characters).
void BM_ParameterizeOnly(benchmark::State& state) {
  const std::string text = LiteralUpdate(12345, -678);
  paceline::sql::ParameterizedStatement out;
  for (auto _ : state) {
    bool applied = paceline::sql::LiteralParameterizer::Parameterize(text, 0, &out);
    if (!applied) state.SkipWithError("not applied");
    benchmark::DoNotOptimize(out.text.data());
  }
  state.counters["chars"] = static_cast<double>(text.size());
}
BENCHMARK(BM_ParameterizeOnly);

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

// The footprint of a 10-line NewOrder as Database::Submit computes it before
// queueing the transaction: the procedure's predict function (46 statements,
// values computed inside as NULL) feeding a fresh FootprintBuilder through
// the prepared statements' reference slots, on the TPC-C schema. Args: form
// (0 literal, 1 canonical), granularity (0 single, 1 all).
void BM_FootprintNewOrder(benchmark::State& state) {
  static Database* db = [] {
    std::unique_ptr<Database> d;
    if (!Database::Open(Options{}, &d).ok() || !paceline::workloads::tpcc::CreateTpccSchema(d.get()).ok()) {
      std::abort();
    }
    return d.release();
  }();
  const Procedure procedure = paceline::workloads::tpcc::NewOrderProcedure();
  std::vector<std::shared_ptr<paceline::sql::PreparedStatement>> prepared(procedure.statements.size());
  for (size_t i = 0; i < prepared.size(); ++i) {
    if (!paceline::sql::PreparedStatement::Prepare(procedure.statements[i], db->catalog(), {}, &prepared[i]).ok()) {
      std::abort();
    }
  }
  // Warehouse 1, district 3, customer 42, 10 local lines of quantity 5.
  const int64_t lines = 10;
  std::vector<Value> args = {Value::Int32(1), Value::Int32(3), Value::Int32(42), Value::Int32(lines)};
  for (int64_t l = 0; l < lines; ++l) {
    for (int32_t v : {static_cast<int32_t>(1000 + 37 * l), 1, 5}) args.push_back(Value::Int32(v));
  }
  struct ToBuilder : StatementPredictions {
    const std::vector<std::shared_ptr<paceline::sql::PreparedStatement>>* prepared;
    FootprintBuilder* builder;
    size_t statements = 0;
    size_t slots = 0;
    void Add(size_t statement, std::span<const Value> params) override {
      builder->Add(*(*prepared)[statement], params);
      ++statements;
      slots += (*prepared)[statement]->reference_slots.size();
    }
  };
  paceline::scheduler::FootprintSpec spec;
  spec.references = true;
  spec.form = state.range(0) ? paceline::scheduler::ReferenceForm::kCanonical : paceline::scheduler::ReferenceForm::kLiteral;
  spec.granularity =
      state.range(1) ? paceline::scheduler::ReferenceGranularity::kAll : paceline::scheduler::ReferenceGranularity::kSingle;
  spec.partition_domain = "w_id";
  size_t keys = 0;
  ToBuilder out;
  out.prepared = &prepared;
  for (auto _ : state) {
    FootprintBuilder builder(spec);
    out.builder = &builder;
    out.statements = out.slots = 0;
    procedure.predict(args, out);
    paceline::scheduler::Footprint f = builder.Finish();
    keys = f.references.size();
    benchmark::DoNotOptimize(f.references.data());
  }
  state.counters["statements"] = static_cast<double>(out.statements);
  state.counters["slots"] = static_cast<double>(out.slots);
  state.counters["keys"] = static_cast<double>(keys);
}
BENCHMARK(BM_FootprintNewOrder)->ArgNames({"canonical", "all"})->Args({0, 0})->Args({1, 0})->Args({0, 1})->Args({1, 1});

}  // namespace

BENCHMARK_MAIN();
