// ALTER TABLE while transactions run, for every concurrency control × every
// scheduler: interactive transfer blocks, autocommit transfers and stored
// procedures on `account` (the table altered) and counters on `other` run
// from client threads while the main thread adds, retypes, renames and
// drops columns of `account` and adds and drops a CHECK on it.
//
// The interleaving: each ALTER waits (table gates) for the blocks that use
// `account` and holds new ones back until it is done; statements bound
// before it are bound again after it (their plans name column positions
// that moved). The anomalies excluded: a transfer lost or applied twice
// across a rewrite (the sum of balances changes), a row written in the old
// layout after the new one took over (a value read back wrong), a column
// added with a DEFAULT that some row lacks, and an increment on `other`
// lost while `account` changes. The main thread waits for a number of
// commits before each ALTER (a condition, never a sleep), so every ALTER
// lands while transfers run.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "engine/execution/retry_pause.h"
#include "test/cc/every_cc_and_scheduler.h"
#include "test/engine/client_progress.h"
#include "test/engine/session_sql.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;

class AlterTableConcurrencyTest : public test_clients::ClientsTest {};

TEST_P(AlterTableConcurrencyTest, TransfersKeepTheSumWhileColumnsChange) {
  constexpr int kAccounts = 8, kClients = 3, kBlocksEach = 150;
  constexpr int64_t kInitial = 1000;
  Ok(session_, "CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)");
  Ok(session_, "CREATE TABLE other (id INT PRIMARY KEY, n INT NOT NULL)");
  Ok(session_, "INSERT INTO other VALUES (1, 0)");
  for (int i = 1; i <= kAccounts; ++i) {
    Ok(session_, "INSERT INTO account VALUES (" + std::to_string(i) + ", " + std::to_string(kInitial) + ")");
  }
  Procedure move;
  move.name = "move";
  move.statements = {"UPDATE account SET balance = balance - 1 WHERE id = $1",
                     "UPDATE account SET balance = balance + 1 WHERE id = $1"};
  move.body = [](ProcedureContext& ctx, const std::vector<Value>& args) {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    return ctx.Execute(1, {args[1]}, &r);
  };
  ASSERT_TRUE(db_->RegisterProcedure(std::move(move)).ok());

  std::atomic<int> failures{0};
  std::atomic<int64_t> other_increments{0};
  std::atomic<bool> alters_done{false};
  test_clients::ClientProgress progress(kClients);
  auto client = [&](int c) {
    auto s = db_->CreateSession();
    // At least kBlocksEach blocks, and on until the last ALTER is done.
    for (int b = 0; (b < kBlocksEach || !alters_done.load()) && failures.load() == 0; ++b) {
      const int n = c * kBlocksEach + b;
      const std::string from = std::to_string(n % kAccounts + 1), to = std::to_string((n + 1 + c) % kAccounts + 1);
      Status st;
      switch (n % 3) {
        case 0: {  // an interactive block, retried on a conflict
          for (int attempt = 0;; ++attempt) {
            st = RunSql(s, "BEGIN");
            if (st.ok()) st = RunSql(s, "UPDATE account SET balance = balance - 2 WHERE id = " + from);
            if (st.ok()) st = RunSql(s, "UPDATE account SET balance = balance + 2 WHERE id = " + to);
            if (st.ok()) st = RunSql(s, "COMMIT");
            if (st.ok()) break;
            if (s->state() != TransactionState::kIdle) (void)RunSql(s, "ROLLBACK");
            if (!(st.Is(sqlstate::kSerializationFailure) || st.Is(sqlstate::kDeadlockDetected)) || attempt > 10000) {
              break;
            }
            PauseBeforeRetry(attempt + 1, std::chrono::milliseconds(1));
          }
          break;
        }
        case 1: {  // a stored procedure through the run queues
          TransactionResult r =
              db_->Submit(TransactionRequest::Call("move", {Value::Int32(std::stoi(from)), Value::Int32(std::stoi(to))}))
                  .get();
          st = r.status;
          break;
        }
        default:  // autocommit statements on the other table
          st = RunSql(s, "UPDATE other SET n = n + 1 WHERE id = 1");
          if (st.ok()) other_increments.fetch_add(1);
          break;
      }
      if (!st.ok()) {
        ADD_FAILURE() << "client " << c << " block " << b << ": " << st.ToString();
        failures.fetch_add(1);
      }
      progress.Step();
    }
    progress.ClientDone();
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) threads.emplace_back(client, c);
  const std::vector<std::string> alters = {
      "ALTER TABLE account ADD COLUMN note INT NOT NULL DEFAULT 7",
      "ALTER TABLE account ALTER COLUMN balance TYPE BIGINT",
      "ALTER TABLE account ADD COLUMN seq SERIAL, ADD COLUMN at TIMESTAMPTZ DEFAULT now()",
      "ALTER TABLE account ADD CONSTRAINT not_too_low CHECK (balance > -1000000)",
      "ALTER TABLE account RENAME COLUMN note TO remark",
      "ALTER TABLE account DROP COLUMN at",
      "ALTER TABLE account DROP CONSTRAINT not_too_low",
  };
  for (const std::string& alter : alters) {
    progress.WaitFor(20);
    Ok(session_, alter);
    EXPECT_EQ(QueryInt("SELECT sum(balance) FROM account"), kAccounts * kInitial) << "after " << alter;
  }
  alters_done.store(true);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(QueryInt("SELECT sum(balance) FROM account"), kAccounts * kInitial);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM account WHERE remark = 7"), kAccounts);
  EXPECT_EQ(QueryInt("SELECT count(DISTINCT seq) FROM account"), kAccounts);
  EXPECT_EQ(QueryInt("SELECT n FROM other"), other_increments.load());
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, AlterTableConcurrencyTest,
                         ::testing::Combine(::testing::ValuesIn(test_params::kCcNames),
                                            ::testing::ValuesIn(test_params::DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
