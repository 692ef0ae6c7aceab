// bank_transfer: a short tour of Paceline's embedded API.
//
// It opens an in-memory database, creates a schema with SQL, bulk-loads
// accounts, registers a stored procedure that moves money between two
// accounts (rolling back as a business rule when funds are short), submits
// it from several client threads at once to the database's worker threads
// (each transaction queued on the run queue the scheduler picks, conflicts
// retried by the worker), and checks that no money was created or lost.
// `script/demo` runs it; ctest runs it small.
//
//   bank_transfer [--accounts=N] [--clients=N] [--transfers=N] [--workers=N] [--cc=NAME]
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"

using paceline::QueryResult;
using paceline::Status;
using paceline::Value;
using namespace paceline::engine;

namespace {

int Flag(int argc, char** argv, const char* name, int fallback) {
  std::string prefix = std::string("--") + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return std::atoi(argv[i] + prefix.size());
  }
  return fallback;
}

std::string StringFlag(int argc, char** argv, const char* name, const char* fallback) {
  std::string prefix = std::string("--") + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return argv[i] + prefix.size();
  }
  return fallback;
}

void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int accounts = Flag(argc, argv, "accounts", 1000);
  const int clients = Flag(argc, argv, "clients", 4);
  const int transfers = Flag(argc, argv, "transfers", 20000);  // per client

  // 1. Open a database (its concurrency control and worker threads are
  //    options) and create the schema with SQL.
  Options options;
  options.cc = StringFlag(argc, argv, "cc", "occ");
  options.workers = static_cast<size_t>(Flag(argc, argv, "workers", 4));
  std::unique_ptr<Database> db;
  Check(Database::Open(options, &db), "open");
  auto session = db->CreateSession();
  QueryResult result;
  Check(session->Execute("CREATE TABLE account (id INT PRIMARY KEY, owner TEXT NOT NULL, "
                         "balance NUMERIC(12,2) NOT NULL)", &result), "create table");

  // 2. Bulk-load the accounts (no SQL per row): 100.00 each.
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < accounts; ++i) {
    rows.push_back({Value::Int32(i), Value::Text("owner " + std::to_string(i)),
                    Value::Numeric(paceline::Decimal(10000, 2))});
  }
  Check(db->BulkLoad("account", rows), "bulk load");

  // 3. A stored procedure: its SQL is declared up front (prepared once) and
  //    run by index with parameters.
  Procedure transfer;
  transfer.name = "transfer";
  transfer.statements = {
      "SELECT balance FROM account WHERE id = $1 FOR UPDATE",
      "UPDATE account SET balance = balance - $2 WHERE id = $1",
      "UPDATE account SET balance = balance + $2 WHERE id = $1",
  };
  transfer.body = [](ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    if (r.rows.empty()) return ctx.Rollback("no such account");
    const Value& amount = args[2];
    if (paceline::Value::Compare(r.rows[0][0], amount) < 0) return ctx.Rollback("insufficient funds");
    PL_RETURN_IF_ERROR(ctx.Execute(1, {args[0], amount}, &r));
    return ctx.Execute(2, {args[1], amount}, &r);
  };
  Check(db->RegisterProcedure(std::move(transfer)), "register procedure");

  // 4. Clients submit whole transactions concurrently; each waits for its
  //    result (a closed loop).
  std::atomic<long> committed{0}, refused{0};
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937 rng(c);
      std::uniform_int_distribution<int> account(0, accounts - 1), cents(1, 5000);
      for (int i = 0; i < transfers; ++i) {
        TransactionResult r =
            db->Submit(TransactionRequest::Call("transfer", {Value::Int32(account(rng)), Value::Int32(account(rng)),
                                                             Value::Numeric(paceline::Decimal(cents(rng), 2))}))
                .get();
        if (r.committed()) ++committed;
        else if (r.user_abort) ++refused;
        else Check(r.status, "transfer");
      }
    });
  }
  for (auto& t : threads) t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // 5. Money is conserved: the total is exactly what was loaded.
  Check(session->Execute("SELECT sum(balance), min(balance), count(*) FROM account", &result), "total");
  std::string total = result.rows[0][0].ToString();
  std::string expected = std::to_string(accounts * 100) + ".00";
  ExecutionStats stats = db->Stats();
  std::printf("cc=%s workers=%zu accounts=%d clients=%d transfers=%ld committed=%ld refused(insufficient funds)=%ld\n",
              std::string(db->cc_name()).c_str(), db->workers(), accounts, clients, committed.load() + refused.load(),
              committed.load(), refused.load());
  std::printf("throughput=%.0f txn/s  abort rate=%.3f  p50 latency=%.0f us  total balance=%s (expected %s)  "
              "minimum balance=%s\n",
              (committed + refused) / seconds, stats.abort_rate(), stats.latency.Percentile(50) / 1000.0, total.c_str(),
              expected.c_str(), result.rows[0][1].ToString().c_str());
  if (total != expected || Value::Compare(result.rows[0][1], Value::Int32(0)) < 0) {
    std::fprintf(stderr, "INVARIANT VIOLATED\n");
    return 1;
  }
  return 0;
}
