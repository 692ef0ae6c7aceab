// The embedded API: sessions and transaction blocks, one-shot transaction
// requests, stored procedures (commit, error, business-rule abort), bulk load
// atomicity, the statement cache, and serial execution across sessions.
#include "engine/database.h"
#include "sql/prepared_statement.h"

#include <gtest/gtest.h>

#include <thread>

namespace paceline::engine {
namespace {

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.lock_timeout = std::chrono::milliseconds(200);
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    session_ = db_->CreateSession();
    Exec("CREATE TABLE account (id INT PRIMARY KEY, balance NUMERIC(10,2) NOT NULL)");
    Exec("INSERT INTO account VALUES (1, 100.00), (2, 50.00)");
  }

  QueryResult Exec(const std::string& sql, std::vector<Value> params = {}, Session* s = nullptr) {
    QueryResult r;
    Status st = (s ? s : session_.get())->Execute(sql, params, &r);
    EXPECT_TRUE(st.ok()) << sql << ": " << st.ToString();
    return r;
  }

  std::string Balance(int id) {
    QueryResult r = Exec("SELECT balance FROM account WHERE id = $1", {Value::Int32(id)});
    return r.rows.empty() ? "none" : r.rows[0][0].ToString();
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

TEST_F(DatabaseTest, ResultCarriesColumnsTypesRowsAndTag) {
  QueryResult r = Exec("SELECT id, balance FROM account ORDER BY id");
  ASSERT_EQ(r.columns.size(), 2u);
  EXPECT_EQ(r.columns[0].name, "id");
  EXPECT_EQ(r.columns[0].type.id, TypeId::kInt32);
  EXPECT_EQ(r.columns[1].type.ToString(), "numeric(10,2)");
  EXPECT_EQ(r.command_tag, "SELECT 2");
  EXPECT_EQ(r.rows[1][1].ToString(), "50.00");
  EXPECT_EQ(Exec("UPDATE account SET balance = balance + 1").command_tag, "UPDATE 2");
}

TEST_F(DatabaseTest, RollbackUndoesEveryStatementOfTheBlock) {
  Exec("BEGIN");
  Exec("UPDATE account SET balance = 0 WHERE id = 1");
  Exec("INSERT INTO account VALUES (3, 1)");
  Exec("DELETE FROM account WHERE id = 2");
  EXPECT_EQ(Balance(1), "0.00");  // the block sees its own writes
  Exec("ROLLBACK");
  EXPECT_EQ(Balance(1), "100.00");
  EXPECT_EQ(Balance(2), "50.00");
  EXPECT_EQ(Balance(3), "none");
}

TEST_F(DatabaseTest, ErrorInBlockFailsItUntilRollbackAndCommitRollsBack) {
  Exec("BEGIN");
  Exec("UPDATE account SET balance = 1 WHERE id = 1");
  QueryResult r;
  EXPECT_TRUE(session_->Execute("INSERT INTO account VALUES (1, 0)", &r).Is(sqlstate::kUniqueViolation));
  EXPECT_EQ(session_->state(), TransactionState::kFailed);
  EXPECT_TRUE(session_->Execute("SELECT 1", &r).Is(sqlstate::kInFailedSqlTransaction));
  ASSERT_TRUE(session_->Execute("COMMIT", &r).ok());
  EXPECT_EQ(r.command_tag, "ROLLBACK");
  EXPECT_EQ(Balance(1), "100.00");
}

TEST_F(DatabaseTest, FailedStatementLeavesNoPartialEffect) {
  QueryResult r;
  // The third row collides: none of the three may stay.
  EXPECT_FALSE(session_->Execute("INSERT INTO account VALUES (10, 1), (11, 1), (1, 1)", &r).ok());
  EXPECT_EQ(Exec("SELECT count(*) FROM account").rows[0][0].ToString(), "2");
  // An UPDATE that fails on the second row leaves the first unchanged too.
  EXPECT_TRUE(session_->Execute("UPDATE account SET balance = balance * 10000000 WHERE id > 0", &r)
                  .Is(sqlstate::kNumericValueOutOfRange));
  EXPECT_EQ(Balance(1), "100.00");
  EXPECT_EQ(Balance(2), "50.00");
}

TEST_F(DatabaseTest, ScriptRunsAsOneImplicitTransaction) {
  std::vector<QueryResult> results;
  Status s = session_->ExecuteScript("UPDATE account SET balance = 0 WHERE id = 1; SELECT 1/0", &results);
  EXPECT_TRUE(s.Is(sqlstate::kDivisionByZero));
  EXPECT_EQ(Balance(1), "100.00") << "the implicit transaction must roll back as a whole";
  ASSERT_TRUE(session_->ExecuteScript("UPDATE account SET balance = 0 WHERE id = 1; SELECT 1", &results).ok());
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].command_tag, "UPDATE 1");
  EXPECT_EQ(Balance(1), "0.00");
}

TEST_F(DatabaseTest, StatementRequestCommitsAllOrNothing) {
  TransactionResult result;
  db_->Execute(TransactionRequest::Statements({
                   {"UPDATE account SET balance = balance - $1 WHERE id = $2", {Value::Int32(10), Value::Int32(1)}},
                   {"UPDATE account SET balance = balance + $1 WHERE id = $2", {Value::Int32(10), Value::Int32(2)}},
                   {"SELECT sum(balance) FROM account", {}},
               }),
               &result);
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  ASSERT_EQ(result.results.size(), 3u);
  EXPECT_EQ(result.results[2].rows[0][0].ToString(), "150.00");
  db_->Execute(TransactionRequest::Statements({
                   {"UPDATE account SET balance = 0 WHERE id = $1", {Value::Int32(1)}},
                   {"INSERT INTO account VALUES ($1, 0)", {Value::Int32(2)}},  // duplicate
               }),
               &result);
  EXPECT_TRUE(result.status.Is(sqlstate::kUniqueViolation));
  EXPECT_FALSE(result.user_abort);
  EXPECT_EQ(Balance(1), "90.00");
}

TEST_F(DatabaseTest, ProcedureCommitsOrRollsBackAsBusinessAbort) {
  Procedure withdraw;
  withdraw.name = "withdraw";
  withdraw.statements = {"UPDATE account SET balance = balance - $2 WHERE id = $1 RETURNING balance"};
  withdraw.body = [](ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0], args[1]}, &r));
    if (r.rows.empty()) return ctx.Rollback("no such account");
    if (r.rows[0][0].numeric_value().IsNegative()) return ctx.Rollback("insufficient funds");
    return Status::OK();
  };
  ASSERT_TRUE(db_->RegisterProcedure(withdraw).ok());
  EXPECT_TRUE(db_->RegisterProcedure(withdraw).Is(sqlstate::kDuplicateObject));

  TransactionResult r;
  db_->Execute(TransactionRequest::Call("withdraw", {Value::Int32(2), Value::Int32(30)}), &r);
  EXPECT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Balance(2), "20.00");
  db_->Execute(TransactionRequest::Call("withdraw", {Value::Int32(2), Value::Int32(30)}), &r);
  EXPECT_FALSE(r.committed());
  EXPECT_TRUE(r.user_abort);
  EXPECT_EQ(r.status.message(), "insufficient funds");
  EXPECT_EQ(Balance(2), "20.00") << "a business abort rolls back the update it made";
  db_->Execute(TransactionRequest::Call("nope", {}), &r);
  EXPECT_TRUE(r.status.Is(sqlstate::kUndefinedFunction));
}

// A procedure's returned result reaches the caller, on commit and on a
// business abort alike (the last attempt's: a retried one starts afresh).
TEST_F(DatabaseTest, ProcedureReturnsItsResultToTheCaller) {
  Procedure debit;
  debit.name = "debit";
  debit.statements = {"UPDATE account SET balance = balance - $2 WHERE id = $1 RETURNING balance"};
  debit.body = [](ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0], args[1]}, &r));
    ctx.Return(r);
    if (r.rows.empty()) return ctx.Rollback("no such account");
    return Status::OK();
  };
  ASSERT_TRUE(db_->RegisterProcedure(debit).ok());
  TransactionResult r;
  db_->Execute(TransactionRequest::Call("debit", {Value::Int32(2), Value::Int32(5)}), &r);
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  ASSERT_EQ(r.results.size(), 1u);
  ASSERT_EQ(r.results[0].rows.size(), 1u);
  EXPECT_EQ(r.results[0].rows[0][0].ToString(), "45.00");
  db_->Execute(TransactionRequest::Call("debit", {Value::Int32(99), Value::Int32(5)}), &r);
  EXPECT_TRUE(r.user_abort);
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_TRUE(r.results[0].rows.empty());
}

TEST_F(DatabaseTest, ProcedureStatementsSurviveDdl) {
  Procedure count;
  count.name = "count";
  count.statements = {"SELECT count(*) FROM account"};
  count.body = [](ProcedureContext& ctx, const std::vector<Value>&) {
    QueryResult r;
    return ctx.Execute(0, {}, &r);
  };
  ASSERT_TRUE(db_->RegisterProcedure(count).ok());
  Exec("CREATE INDEX account_balance ON account (balance)");  // bumps the catalog version
  TransactionResult r;
  db_->Execute(TransactionRequest::Call("count", {}), &r);
  EXPECT_TRUE(r.committed()) << r.status.ToString();
}

TEST_F(DatabaseTest, BulkLoadIsAtomicAndChecksConstraints) {
  std::vector<std::vector<Value>> rows = {{Value::Int32(10), Value::Text("1.5")}, {Value::Int32(11), Value::Int32(2)}};
  ASSERT_TRUE(db_->BulkLoad("account", rows).ok());
  EXPECT_EQ(Balance(10), "1.50");
  EXPECT_EQ(Balance(11), "2.00");
  std::vector<std::vector<Value>> bad = {{Value::Int32(20), Value::Int32(1)}, {Value::Int32(1), Value::Int32(1)}};
  EXPECT_TRUE(db_->BulkLoad("account", bad).Is(sqlstate::kUniqueViolation));
  EXPECT_EQ(Balance(20), "none") << "the row before the duplicate must not stay";
  std::vector<std::vector<Value>> null_balance = {{Value::Int32(30), Value::Null()}};
  EXPECT_TRUE(db_->BulkLoad("account", null_balance).Is(sqlstate::kNotNullViolation));
  EXPECT_TRUE(db_->BulkLoad("missing", rows).Is(sqlstate::kUndefinedTable));
}

TEST_F(DatabaseTest, StatementCacheParsesEachTextOnce) {
  uint64_t misses = db_->statement_cache().misses();
  for (int i = 0; i < 10; ++i) Exec("SELECT balance FROM account WHERE id = $1", {Value::Int32(1)});
  auto other = db_->CreateSession();
  for (int i = 0; i < 10; ++i) Exec("SELECT balance FROM account WHERE id = $1", {Value::Int32(2)}, other.get());
  EXPECT_EQ(db_->statement_cache().misses(), misses + 1) << "one parse for 20 executions by two sessions";
  // DDL invalidates: the same text is bound again against the new schema.
  Exec("DROP TABLE account");
  Exec("CREATE TABLE account (id INT PRIMARY KEY, owner TEXT, balance INT)");
  Exec("INSERT INTO account VALUES (1, 'ann', 7)");
  EXPECT_EQ(Balance(1), "7");
}

// A request's statements are prepared once, when the scheduler reads its
// footprint (the default scheduler places by references), and its attempt
// runs those plans: one statement cache lookup per statement, not two.
// After DDL the plans are bound again when they run.
TEST_F(DatabaseTest, AStatementRequestIsPreparedOnceForItsFootprintAndItsRun) {
  auto request = [] {
    return TransactionRequest::Statements({
        {"UPDATE account SET balance = balance + $1 WHERE id = $2", {Value::Int32(1), Value::Int32(1)}},
        {"SELECT balance FROM account WHERE id = $1", {Value::Int32(1)}},
    });
  };
  const sql::StatementCache& cache = db_->statement_cache();
  auto lookups = [&] { return cache.hits() + cache.misses(); };
  ASSERT_TRUE(db_->Submit(request()).get().committed());  // the texts are cached from here on
  const uint64_t before = lookups();
  TransactionResult result = db_->Submit(request()).get();
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(lookups(), before + 2) << "each statement looked up once";
  EXPECT_EQ(result.results[1].rows[0][0].ToString(), "102.00");
  Exec("CREATE INDEX account_balance ON account (balance)");
  result = db_->Submit(request()).get();
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(result.results[1].rows[0][0].ToString(), "103.00");
}

// A call that carries its statement as the caller prepared it (a server's
// Parse) is run from that plan, for its footprint and its attempt alike:
// no statement cache lookup, no lexing; also when an abort's references
// are named. Once DDL has changed the catalog, the engine prepares the
// plan's own text again, with its parameter types (which the call's
// parameters have).
TEST_F(DatabaseTest, ACallPreparedByItsCallerIsNotPreparedAgain) {
  std::shared_ptr<const sql::PreparedStatement> prepared;
  ASSERT_TRUE(session_->Prepare("SELECT balance FROM account WHERE id = $1", {}, &prepared).ok());
  auto request = [&] {
    // The text differs from the plan only to show which one ran.
    return TransactionRequest::Statements({{"SELECT balance + 1 FROM account WHERE id = $1", {Value::Int32(1)},
                                            prepared}});
  };
  const sql::StatementCache& cache = db_->statement_cache();
  auto lookups = [&] { return cache.hits() + cache.misses(); };
  const uint64_t before = lookups();
  TransactionResult result = db_->Run(request());
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(result.results[0].rows[0][0].ToString(), "100.00") << "the caller's plan ran";
  result = db_->Submit(request()).get();
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(result.results[0].rows[0][0].ToString(), "100.00");
  EXPECT_EQ(lookups(), before) << "nothing was prepared from the text";
  Exec("CREATE INDEX account_balance ON account (balance)");
  const uint64_t after_ddl = lookups();
  result = db_->Run(request());
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(result.results[0].rows[0][0].ToString(), "100.00") << "stale plan: its own text prepared again";
  EXPECT_EQ(lookups(), after_ddl + 1);
}

TEST_F(DatabaseTest, UnderOccTheFirstCommitterWinsAndTheOtherGets40001) {
  // Interleaving (default cc = occ):
  //   A: BEGIN; UPDATE id=1       B: UPDATE id=1 (autocommit, commits)
  //   A: COMMIT → 40001, A's write is gone.
  // Excludes the lost update: both writes were based on the same version.
  auto b = db_->CreateSession();
  Exec("BEGIN");
  Exec("UPDATE account SET balance = 0 WHERE id = 1");
  QueryResult r;
  ASSERT_TRUE(b->Execute("UPDATE account SET balance = 1 WHERE id = 1", &r).ok());
  Status s = session_->Execute("COMMIT", &r);
  EXPECT_TRUE(s.Is(sqlstate::kSerializationFailure)) << s.ToString();
  EXPECT_EQ(session_->state(), TransactionState::kIdle);
  EXPECT_EQ(Balance(1), "1.00");
}

TEST_F(DatabaseTest, UnderOccAStatementAfterAQuietStretchStillSeesACommitSinceItsReads) {
  // Interleaving (default cc = occ), the statement checks of a block:
  //   A: BEGIN; SELECT id=1; SELECT id=2      (nothing committed between:
  //                                            the check may skip its pass)
  //   B: INSERT INTO other (commits; A read nothing of it)
  //   A: SELECT id=2                          (a pass: still current)
  //   B: UPDATE id=1 (commits)
  //   A: SELECT id=2 → 40001                  (its read of id=1 is stale)
  // Excludes a statement result that contradicts an earlier read because
  // the check trusted a quiet stretch that a commit had ended.
  auto b = db_->CreateSession();
  Exec("CREATE TABLE other (id INT PRIMARY KEY)");
  Exec("BEGIN");
  EXPECT_EQ(Balance(1), "100.00");
  EXPECT_EQ(Balance(2), "50.00");
  Exec("INSERT INTO other VALUES (1)", {}, b.get());
  EXPECT_EQ(Balance(2), "50.00");
  Exec("UPDATE account SET balance = 1 WHERE id = 1", {}, b.get());
  QueryResult r;
  Status s = session_->Execute("SELECT balance FROM account WHERE id = 2", &r);
  EXPECT_TRUE(s.Is(sqlstate::kSerializationFailure)) << s.ToString();
  EXPECT_TRUE(r.rows.empty());
  Exec("ROLLBACK");
  EXPECT_EQ(Balance(1), "1.00");
}

TEST_F(DatabaseTest, UnderOccARowMovedToOneKeyByTwoBlocksKeepsItsEntryWhateverTheOtherDoes) {
  // Interleavings (default cc = occ; writes buffered, index entries added
  // at the statement), both orders of the end:
  //   A: BEGIN; UPDATE u SET k = 5 WHERE id = 1   (adds the entry 5 → row 1)
  //   B: BEGIN; UPDATE u SET k = 5 WHERE id = 1   (finds that entry on its row)
  //   (1) A: ROLLBACK (takes its entry back); B: COMMIT
  //   (2) B: COMMIT; A: ROLLBACK
  // Excludes a committed row its unique key no longer finds, and a second
  // row let in with that key.
  Exec("CREATE TABLE u (id INT PRIMARY KEY, k INT UNIQUE)");
  for (bool rollback_first : {true, false}) {
    SCOPED_TRACE(rollback_first ? "A rolls back, then B commits" : "B commits, then A rolls back");
    Exec("DELETE FROM u");
    Exec("INSERT INTO u VALUES (1, 1)");
    auto b = db_->CreateSession();
    Exec("BEGIN");
    Exec("UPDATE u SET k = 5 WHERE id = 1");
    Exec("BEGIN", {}, b.get());
    Exec("UPDATE u SET k = 5 WHERE id = 1", {}, b.get());
    if (rollback_first) Exec("ROLLBACK");
    Exec("COMMIT", {}, b.get());
    if (!rollback_first) Exec("ROLLBACK");
    EXPECT_EQ(Exec("SELECT id FROM u WHERE k = 5").rows.size(), 1u) << "the committed row is found by its key";
    QueryResult r;
    Status s = session_->Execute("INSERT INTO u VALUES (2, 5)", &r);
    EXPECT_TRUE(s.Is(sqlstate::kUniqueViolation)) << s.ToString();
  }
}

TEST_F(DatabaseTest, UnderOccALateRollbackLeavesTheEntryALaterWriterOfTheRowAddedAgain) {
  // Interleaving (default cc = occ), for a unique index and a non-unique
  // one:
  //   A: BEGIN; UPDATE t SET k = 5 WHERE id = 1   (adds the entry 5 → row 1)
  //   B: UPDATE t SET k = 5 WHERE id = 1           (commits on A's entry)
  //   C: UPDATE t SET k = 6 WHERE id = 1           (commits; 5 → row 1 goes)
  //   D: BEGIN; UPDATE t SET k = 5 WHERE id = 1   (adds 5 → row 1 again)
  //   A: ROLLBACK                                  (takes back "its" entry)
  //   D: COMMIT
  // A's entry and D's are one, so D puts it back. Excludes a committed row
  // its key no longer finds (the non-unique index lost the entry), a
  // second row let in with the unique key, and D failing with 40001 for an
  // entry no other row holds (the unique index).
  Exec("CREATE TABLE u (id INT PRIMARY KEY, k INT UNIQUE)");
  Exec("CREATE TABLE v (id INT PRIMARY KEY, k INT)");
  Exec("CREATE INDEX v_k ON v (k)");
  for (const std::string table : {"u", "v"}) {
    SCOPED_TRACE(table == "u" ? "unique index" : "non-unique index");
    const std::string update = "UPDATE " + table + " SET k = ";
    Exec("INSERT INTO " + table + " VALUES (1, 1)");
    auto d = db_->CreateSession();
    Exec("BEGIN");
    Exec(update + "5 WHERE id = 1");
    Exec(update + "5 WHERE id = 1", {}, d.get());
    Exec(update + "6 WHERE id = 1", {}, d.get());
    Exec("BEGIN", {}, d.get());
    Exec(update + "5 WHERE id = 1", {}, d.get());
    Exec("ROLLBACK");
    Exec("COMMIT", {}, d.get());
    EXPECT_EQ(Exec("SELECT id FROM " + table + " WHERE k = 5").rows.size(), 1u) << "the row is found by its key";
    if (table == "u") {
      QueryResult r;
      Status s = session_->Execute("INSERT INTO u VALUES (2, 5)", &r);
      EXPECT_TRUE(s.Is(sqlstate::kUniqueViolation)) << s.ToString();
    }
  }
}

TEST_F(DatabaseTest, ConcurrentIncrementsLoseNoUpdate) {
  // T threads × M autocommit increments of one row end at exactly T·M.
  constexpr int kThreads = 4, kIncrements = 500;
  Exec("CREATE TABLE counter (id INT PRIMARY KEY, n BIGINT NOT NULL)");
  Exec("INSERT INTO counter VALUES (1, 0)");
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      auto s = db_->CreateSession();
      for (int i = 0; i < kIncrements; ++i) {
        QueryResult r;
        Status st = s->Execute("UPDATE counter SET n = n + 1 WHERE id = 1", &r);
        EXPECT_TRUE(st.ok()) << st.ToString();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(Exec("SELECT n FROM counter").rows[0][0].ToString(), std::to_string(kThreads * kIncrements));
}

TEST_F(DatabaseTest, PreparedStatementIsReboundAfterAnotherSessionsDdl) {
  // Session A prepares a lookup that the planner serves through an index;
  // session B drops that index. A's execution must not use the dropped index
  // (it is bound again) and must still find the row.
  Exec("CREATE UNIQUE INDEX account_balance ON account (balance)");
  std::shared_ptr<const sql::PreparedStatement> lookup;
  ASSERT_TRUE(session_->Prepare("SELECT id FROM account WHERE balance = $1", {}, &lookup).ok());
  auto b = db_->CreateSession();
  Exec("DROP INDEX account_balance", {}, b.get());
  QueryResult r;
  ASSERT_TRUE(session_->ExecutePrepared(*lookup, {Value::Text("50.00")}, &r).ok());
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0].ToString(), "2");
  // A write prepared before the table was replaced goes into the new table.
  std::shared_ptr<const sql::PreparedStatement> insert;
  ASSERT_TRUE(session_->Prepare("INSERT INTO account VALUES ($1, $2)", {}, &insert).ok());
  Exec("DROP TABLE account", {}, b.get());
  Exec("CREATE TABLE account (id INT PRIMARY KEY, balance NUMERIC(10,2) NOT NULL)", {}, b.get());
  ASSERT_TRUE(session_->ExecutePrepared(*insert, {Value::Int32(7), Value::Int32(1)}, &r).ok());
  EXPECT_EQ(Balance(7), "1.00");
  // A changed result shape is refused, as in PostgreSQL.
  std::shared_ptr<const sql::PreparedStatement> star;
  ASSERT_TRUE(session_->Prepare("SELECT * FROM account", {}, &star).ok());
  Exec("DROP TABLE account", {}, b.get());
  Exec("CREATE TABLE account (id INT PRIMARY KEY)", {}, b.get());
  EXPECT_TRUE(session_->ExecutePrepared(*star, {}, &r).Is(sqlstate::kFeatureNotSupported));
}

TEST_F(DatabaseTest, DestroyingSessionRollsBackItsBlockAndFreesTheGate) {
  {
    auto s = db_->CreateSession();
    Exec("BEGIN", {}, s.get());
    Exec("UPDATE account SET balance = 0 WHERE id = 1", {}, s.get());
  }
  EXPECT_EQ(Balance(1), "100.00");
}

}  // namespace
}  // namespace paceline::engine
