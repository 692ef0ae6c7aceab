// Concurrency-control conformance: the same anomalies must be impossible
// under every algorithm (--cc=occ, 2pl, 2pl-wait-die, 2pl-wound-wait), with
// transactions submitted to the workers through each baseline scheduler.
// Everything runs through the real engine: SQL, stored procedures, worker
// run queues, retries.
//
// Workload tests (each CC × each scheduler, 4 workers on a 2-core machine):
//   lost update, bank invariant with consistent read-only audits, write
//   skew, phantom (scan-then-insert-if-absent), concurrent duplicate unique
//   keys, concurrent upserts of one key, aborted inserts leaving nothing,
//   a job queue drained with SKIP LOCKED.
// Savepoints: transfers rolled back to a savepoint beside concurrent writers.
// Execution tests: retry limit → 40001, user aborts never retried, stealing
// only when enabled.
// Deterministic schedules (interactive sessions, one statement at a time)
// are in schedule_test.cc.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "test/cc/every_cc_and_scheduler.h"
#include "engine/execution/retry_pause.h"

namespace paceline::engine {
namespace {

using test_params::DistinctSchedulerNames;
using test_params::kCcNames;

class ConformanceTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override { Open(4, true, 10000); }

  void Open(size_t workers, bool steal, int max_retries) {
    session_.reset();  // sessions must not outlive their Database
    db_.reset();
    Options options;
    options.cc = std::get<0>(GetParam());
    options.scheduler = std::get<1>(GetParam());
    options.workers = workers;
    options.steal = steal;
    options.max_retries = max_retries;
    options.lock_timeout = std::chrono::milliseconds(20000);
    Status s = Database::Open(options, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    session_ = db_->CreateSession();
  }

  void TearDown() override {
    session_.reset();
    db_.reset();
  }

  void Exec(const std::string& sql) {
    QueryResult r;
    Status s = session_->Execute(sql, &r);
    ASSERT_TRUE(s.ok()) << sql << ": " << s.ToString();
  }
  int64_t QueryInt(const std::string& sql) {
    QueryResult r;
    Status s = session_->Execute(sql, &r);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.ToString();
    if (!s.ok() || r.rows.empty()) return -1;
    return r.rows[0][0].int_value();
  }
  void Register(Procedure p) {
    Status s = db_->RegisterProcedure(std::move(p));
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  // Table counter with row (1, 0), and procedure "increment", which reads
  // its n and writes n + 1 computed in C++.
  void MakeCounter() {
    Exec("CREATE TABLE counter (id INT PRIMARY KEY, n BIGINT NOT NULL)");
    Exec("INSERT INTO counter VALUES (1, 0)");
    Procedure p;
    p.name = "increment";
    p.statements = {"SELECT n FROM counter WHERE id = 1", "UPDATE counter SET n = $1 WHERE id = 1"};
    p.body = [](ProcedureContext& ctx, const std::vector<Value>&) {
      QueryResult r;
      PL_RETURN_IF_ERROR(ctx.Execute(0, {}, &r));
      return ctx.Execute(1, {Value::Int64(r.rows[0][0].int_value() + 1)}, &r);
    };
    Register(std::move(p));
  }
  // Submits every request and waits for all results (in submission order).
  std::vector<TransactionResult> RunAll(std::vector<TransactionRequest> requests) {
    std::vector<std::future<TransactionResult>> futures;
    for (auto& r : requests) futures.push_back(db_->Submit(std::move(r)));
    std::vector<TransactionResult> results;
    for (auto& f : futures) results.push_back(f.get());
    return results;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

// Lost update. Each transaction reads n, computes n + 1 in C++ and writes it
// back: if two increments ever read the same n and both commit, one update
// is lost and the total falls short of T·M.
TEST_P(ConformanceTest, ConcurrentReadModifyWritesLoseNoUpdate) {
  constexpr int kClients = 8, kEach = 150;
  MakeCounter();
  std::vector<TransactionRequest> requests;
  for (int i = 0; i < kClients * kEach; ++i) requests.push_back(TransactionRequest::Call("increment", {}));
  for (const auto& r : RunAll(std::move(requests))) ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(QueryInt("SELECT n FROM counter WHERE id = 1"), kClients * kEach);
  ExecutionStats stats = db_->Stats();
  EXPECT_EQ(stats.commits, static_cast<uint64_t>(kClients * kEach));
}

// Lost update through Database::Run, which runs a transaction without
// conflict evidence on the calling thread ("adaptive") and queues the
// rest: clients on threads of their own (as server connections) increment
// one counter, half in C++ between two statements (a procedure), half as
// `n = n + 1` statement lists with literals (as a server sends them). Both
// kinds meet on one row, here-runs beside queued ones. Excluded: a lost
// increment (two read the same n and both commit), a result delivered to
// the wrong caller, and a scheduler other than adaptive running anything
// off its queues.
TEST_P(ConformanceTest, RunFromClientThreadsLosesNoUpdate) {
  constexpr int kClients = 8, kEach = 100;
  MakeCounter();
  std::atomic<int> failed{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < kEach; ++i) {
        TransactionRequest request =
            (c + i) % 2 == 0 ? TransactionRequest::Call("increment", {})
                             : TransactionRequest::Statements(
                                   {{"UPDATE counter SET n = n + 1 WHERE id = 1", {}},
                                    {"SELECT " + std::to_string(c * kEach + i) + " AS who FROM counter WHERE id = 1", {}}});
        TransactionResult r = db_->Run(std::move(request));
        const bool listed = (c + i) % 2 != 0;
        if (!r.committed() || (listed && r.results.at(1).rows.at(0).at(0).int_value() != c * kEach + i)) {
          failed.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(QueryInt("SELECT n FROM counter WHERE id = 1"), kClients * kEach);
  const ExecutionStats stats = db_->Stats();
  EXPECT_EQ(stats.commits, static_cast<uint64_t>(kClients * kEach));
  if (std::get<1>(GetParam()) == "adaptive") {
    EXPECT_GT(stats.ran_here, 0u) << "the first transactions, without evidence, run where they arrived";
  } else {
    EXPECT_EQ(stats.ran_here, 0u);
    EXPECT_EQ(stats.queued, static_cast<uint64_t>(kClients * kEach));
  }
}

// Bank invariant. Transfers among K accounts move money, refusing (as a
// business rule) to overdraw; audits read every balance in one read-only
// transaction. Excluded: money created or destroyed, a negative balance, and
// an audit that sees half of a transfer (inconsistent snapshot).
TEST_P(ConformanceTest, TransfersKeepTheTotalAndAuditsSeeConsistentSnapshots) {
  constexpr int kAccounts = 10, kTransfers = 1500, kAudits = 150;
  constexpr int64_t kInitial = 100;
  Exec("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
  for (int i = 1; i <= kAccounts; ++i) {
    Exec("INSERT INTO account VALUES (" + std::to_string(i) + ", " + std::to_string(kInitial) + ")");
  }
  Procedure transfer;
  transfer.name = "transfer";
  transfer.statements = {"SELECT balance FROM account WHERE id = $1",
                         "UPDATE account SET balance = balance + $2 WHERE id = $1"};
  transfer.body = [](ProcedureContext& ctx, const std::vector<Value>& args) {
    const Value& from = args[0];
    const Value& to = args[1];
    const int64_t amount = args[2].int_value();
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {from}, &r));
    if (r.rows[0][0].int_value() < amount) return ctx.Rollback("insufficient funds");
    PL_RETURN_IF_ERROR(ctx.Execute(1, {from, Value::Int64(-amount)}, &r));
    return ctx.Execute(1, {to, Value::Int64(amount)}, &r);
  };
  Register(std::move(transfer));
  Procedure audit;
  audit.name = "audit";
  audit.statements = {"SELECT balance FROM account WHERE id = $1"};
  audit.body = [](ProcedureContext& ctx, const std::vector<Value>&) {
    // Reads the accounts one by one, so that a transfer committed between
    // two reads would be visible half-way unless the CC prevents it.
    int64_t sum = 0;
    QueryResult r;
    for (int i = 1; i <= kAccounts; ++i) {
      PL_RETURN_IF_ERROR(ctx.Execute(0, {Value::Int32(i)}, &r));
      sum += r.rows[0][0].int_value();
    }
    if (sum != kAccounts * kInitial) {
      return Status(sqlstate::kInternalError, "audit saw a total of " + std::to_string(sum));
    }
    return Status::OK();
  };
  Register(std::move(audit));

  std::vector<TransactionRequest> requests;
  uint64_t x = 12345;
  for (int i = 0; i < kTransfers; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    int from = static_cast<int>((x >> 33) % kAccounts) + 1;
    int to = static_cast<int>((x >> 13) % (kAccounts - 1)) + 1;
    if (to >= from) ++to;
    requests.push_back(TransactionRequest::Call(
        "transfer", {Value::Int32(from), Value::Int32(to), Value::Int64(static_cast<int64_t>((x >> 40) % 60) + 1)}));
    if (i % (kTransfers / kAudits) == 0) requests.push_back(TransactionRequest::Call("audit", {}));
  }
  int committed = 0, refused = 0;
  for (const auto& r : RunAll(std::move(requests))) {
    if (r.committed()) {
      ++committed;
    } else {
      ASSERT_TRUE(r.user_abort) << r.status.ToString();  // the audit's error would land here
      ++refused;
    }
  }
  EXPECT_GT(committed, kTransfers / 2);
  EXPECT_EQ(QueryInt("SELECT sum(balance) FROM account"), kAccounts * kInitial);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM account WHERE balance < 0"), 0);
  EXPECT_EQ(db_->Stats().user_aborts, static_cast<uint64_t>(refused));
}

// Write skew (two doctors on call). Each transaction checks that at least
// two doctors are on call, then takes itself off. Run concurrently, both
// checks can pass under snapshot isolation and nobody is left on call;
// serializable execution must keep at least one.
TEST_P(ConformanceTest, WriteSkewIsPrevented) {
  constexpr int kRounds = 150;
  Exec("CREATE TABLE doctors (id INT PRIMARY KEY, shift INT NOT NULL, on_call BOOLEAN NOT NULL)");
  Procedure off;
  off.name = "go_off_call";
  off.statements = {"SELECT count(*) FROM doctors WHERE shift = $1 AND on_call",
                    "UPDATE doctors SET on_call = false WHERE id = $2 AND shift = $1"};
  off.body = [](ProcedureContext& ctx, const std::vector<Value>& args) {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    if (r.rows[0][0].int_value() < 2) return ctx.Rollback("the shift needs a doctor on call");
    return ctx.Execute(1, {args[0], args[1]}, &r);
  };
  Register(std::move(off));
  std::vector<TransactionRequest> requests;
  for (int shift = 0; shift < kRounds; ++shift) {
    Exec("INSERT INTO doctors VALUES (" + std::to_string(2 * shift) + ", " + std::to_string(shift) + ", true), (" +
         std::to_string(2 * shift + 1) + ", " + std::to_string(shift) + ", true)");
    requests.push_back(TransactionRequest::Call("go_off_call", {Value::Int32(shift), Value::Int32(2 * shift)}));
    requests.push_back(TransactionRequest::Call("go_off_call", {Value::Int32(shift), Value::Int32(2 * shift + 1)}));
  }
  for (const auto& r : RunAll(std::move(requests))) {
    ASSERT_TRUE(r.committed() || r.user_abort) << r.status.ToString();
  }
  QueryResult empty_shifts;
  ASSERT_TRUE(session_
                  ->Execute("SELECT shift FROM doctors GROUP BY shift HAVING sum(CASE WHEN on_call THEN 1 ELSE 0 END) = 0",
                            &empty_shifts)
                  .ok());
  EXPECT_EQ(empty_shifts.rows.size(), 0u) << "a shift was left with nobody on call";
  EXPECT_EQ(QueryInt("SELECT count(*) FROM doctors WHERE on_call"), kRounds);
}

// Phantom. "Insert if absent" scans an index range for the key and inserts
// only when it found nothing. Two such transactions for one key must not
// both see the range empty and both commit: exactly one row per key.
TEST_P(ConformanceTest, ScanThenInsertIfAbsentInsertsExactlyOnce) {
  constexpr int kKeys = 40, kContenders = 6;
  Exec("CREATE TABLE items (id INT PRIMARY KEY, k INT NOT NULL)");
  Exec("CREATE INDEX items_k ON items (k)");
  Procedure p;
  p.name = "insert_if_absent";
  p.statements = {"SELECT count(*) FROM items WHERE k = $1", "INSERT INTO items VALUES ($2, $1)"};
  p.body = [](ProcedureContext& ctx, const std::vector<Value>& args) {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    if (r.rows[0][0].int_value() > 0) return Status::OK();
    return ctx.Execute(1, {args[0], args[1]}, &r);
  };
  Register(std::move(p));
  std::vector<TransactionRequest> requests;
  int id = 0;
  for (int c = 0; c < kContenders; ++c) {
    for (int k = 0; k < kKeys; ++k) {
      requests.push_back(TransactionRequest::Call("insert_if_absent", {Value::Int32(k), Value::Int32(++id)}));
    }
  }
  for (const auto& r : RunAll(std::move(requests))) ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(QueryInt("SELECT count(*) FROM items"), kKeys);
  EXPECT_EQ(QueryInt("SELECT count(DISTINCT k) FROM items"), kKeys);
}

// A unique key inserted by several transactions at once commits once; the
// others fail with 23505 (after retrying any conflict), never two rows.
TEST_P(ConformanceTest, ConcurrentInsertsOfOneUniqueKeyCommitOnce) {
  constexpr int kKeys = 40, kContenders = 6;
  Exec("CREATE TABLE u (id INT PRIMARY KEY, who INT NOT NULL)");
  std::vector<TransactionRequest> requests;
  for (int c = 0; c < kContenders; ++c) {
    for (int k = 0; k < kKeys; ++k) {
      requests.push_back(TransactionRequest::Statements({{"SELECT who FROM u WHERE id = $1", {Value::Int32(k)}},
                                                         {"INSERT INTO u VALUES ($1, $2)", {Value::Int32(k), Value::Int32(c)}}}));
    }
  }
  int committed = 0;
  for (const auto& r : RunAll(std::move(requests))) {
    if (r.committed()) {
      ++committed;
    } else {
      ASSERT_TRUE(r.status.Is(sqlstate::kUniqueViolation)) << r.status.ToString();
    }
  }
  EXPECT_EQ(committed, kKeys);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM u"), kKeys);
}

// Upserts of one key at once. Interleaving: six contenders per key submit
// `INSERT .. ON CONFLICT (k) DO UPDATE SET n = n + 1` for 40 keys, none of
// which exists at first, all at once on every worker; then as many DO
// NOTHING inserts of the same keys. Excluded: a duplicate key (two
// inserts of one key both committing), a 23505 escaping to the client (an
// upsert meeting a concurrent insert must update, after retrying), and a
// lost update (each key's count short of its contenders).
TEST_P(ConformanceTest, ConcurrentUpsertsOfOneKeyInsertOnceAndLoseNoUpdate) {
  constexpr int kKeys = 40, kContenders = 6;
  Exec("CREATE TABLE tally (k INT PRIMARY KEY, n INT NOT NULL, first INT NOT NULL)");
  std::vector<TransactionRequest> requests;
  for (int c = 0; c < kContenders; ++c) {
    for (int k = 0; k < kKeys; ++k) {
      requests.push_back(TransactionRequest::Statements(
          {{"INSERT INTO tally VALUES ($1, 1, $2) ON CONFLICT (k) DO UPDATE SET n = tally.n + excluded.n",
            {Value::Int32(k), Value::Int32(c)}}}));
    }
  }
  for (const auto& r : RunAll(std::move(requests))) ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(QueryInt("SELECT count(*) FROM tally"), kKeys);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM tally WHERE n = " + std::to_string(kContenders)), kKeys);
  requests.clear();
  for (int c = 0; c < kContenders; ++c) {
    for (int k = 0; k < 2 * kKeys; ++k) {
      requests.push_back(TransactionRequest::Statements(
          {{"INSERT INTO tally VALUES ($1, 100, $2) ON CONFLICT DO NOTHING", {Value::Int32(k), Value::Int32(c)}}}));
    }
  }
  int inserted = 0;
  for (const auto& r : RunAll(std::move(requests))) {
    ASSERT_TRUE(r.committed()) << r.status.ToString();
    inserted += static_cast<int>(r.results.at(0).rows_affected);
  }
  EXPECT_EQ(inserted, kKeys);  // each new key once, whoever came first
  EXPECT_EQ(QueryInt("SELECT count(*) FROM tally"), 2 * kKeys);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM tally WHERE n = 100"), kKeys);
}

// The job queue: 16 sessions drain 10,000 jobs, each taking the first job
// no other session holds (SELECT .. ORDER BY id LIMIT 1 FOR UPDATE SKIP
// LOCKED), moving it to `processed` and committing; a session stops when it
// finds nothing. Interleaving: every session scans the same head of the
// queue at once, and takes a job while others hold, delete and commit the
// ones before it. Excluded: a job processed twice (two sessions both
// committing one job: a duplicate key in processed, 23505), a job lost
// (left in the queue or missing from processed), and any error but a
// retried conflict (55P03 from a held row, which SKIP LOCKED passes). That
// a held row is passed, not waited for, is shown deterministically in
// row_locking.test.
TEST_P(ConformanceTest, JobQueueDrainedWithSkipLockedProcessesEachJobOnce) {
  constexpr int kJobs = 10000, kSessions = 16;
  Exec("CREATE TABLE jobs (id INT PRIMARY KEY, payload INT NOT NULL)");
  Exec("CREATE TABLE processed (id INT PRIMARY KEY, payload INT NOT NULL, session INT NOT NULL)");
  Exec("INSERT INTO jobs SELECT g, g * 7 FROM generate_series(1, " + std::to_string(kJobs) + ") AS g");
  std::atomic<int> failures{0};
  std::atomic<int> done{0};
  auto drain = [&](int session) {
    auto s = db_->CreateSession();
    for (;;) {
      QueryResult r;
      bool empty = false;
      Status st = s->Execute("BEGIN", &r);
      if (st.ok()) st = s->Execute("SELECT id, payload FROM jobs ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED", &r);
      if (st.ok() && r.rows.empty()) {
        empty = true;
      } else if (st.ok()) {
        const std::string id = std::to_string(r.rows[0][0].int_value());
        const std::string payload = std::to_string(r.rows[0][1].int_value());
        st = s->Execute("DELETE FROM jobs WHERE id = " + id, &r);
        if (st.ok() && r.rows_affected != 1) st = Status(sqlstate::kInternalError, "job " + id + " was gone");
        if (st.ok()) {
          st = s->Execute("INSERT INTO processed VALUES (" + id + ", " + payload + ", " + std::to_string(session) + ")",
                          &r);
        }
      }
      if (st.ok()) st = s->Execute("COMMIT", &r);
      if (st.ok()) {
        if (empty) return;
        done.fetch_add(1);
        continue;
      }
      if (s->state() != TransactionState::kIdle) s->Execute("ROLLBACK", &r);
      // A conflict (another session wrote what this one read) is retried,
      // as a client retries 40001; anything else is a failure.
      if (!(st.Is(sqlstate::kSerializationFailure) || st.Is(sqlstate::kDeadlockDetected))) {
        ADD_FAILURE() << st.ToString();
        failures.fetch_add(1);
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < kSessions; ++c) threads.emplace_back(drain, c);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(done.load(), kJobs);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM jobs"), 0);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM processed"), kJobs);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM processed WHERE payload = id * 7"), kJobs);
  EXPECT_GT(QueryInt("SELECT count(DISTINCT session) FROM processed"), 1);
}

// Sequences cost no conflict and never hand out a value twice. Interleaving:
// eight clients' worth of nextval requests run at once on every worker,
// first alone, then each beside an increment of one hot counter row (so
// attempts abort and retry, and the values their nextval took are gaps).
// Excluded: two results with one value (a lost or repeated increment of the
// sequence's state), and an abort caused by the sequence itself.
TEST_P(ConformanceTest, SequencesNeverRepeatAndCostNoConflict) {
  constexpr int kRequests = 8 * 100;
  Exec("CREATE SEQUENCE s");
  std::vector<TransactionRequest> requests;
  for (int i = 0; i < kRequests; ++i) requests.push_back(TransactionRequest::Statements({{"SELECT nextval('s')", {}}}));
  std::set<int64_t> seen;
  for (const auto& r : RunAll(std::move(requests))) {
    ASSERT_TRUE(r.committed()) << r.status.ToString();
    ASSERT_TRUE(seen.insert(r.results.back().rows[0][0].int_value()).second) << "a value handed out twice";
  }
  EXPECT_EQ(db_->Stats().aborts(), 0u);  // a sequence is no row: nothing to conflict over
  EXPECT_EQ(*seen.begin(), 1);
  EXPECT_EQ(*seen.rbegin(), kRequests);  // none lost either, without aborts

  MakeCounter();
  requests.clear();
  for (int i = 0; i < kRequests; ++i) {
    requests.push_back(TransactionRequest::Statements({{"SELECT nextval('s')", {}},
                                                        {"UPDATE counter SET n = n + 1 WHERE id = 1", {}}}));
  }
  for (const auto& r : RunAll(std::move(requests))) {
    ASSERT_TRUE(r.committed()) << r.status.ToString();
    ASSERT_TRUE(seen.insert(r.results.front().rows[0][0].int_value()).second) << "a value handed out twice";
  }
  EXPECT_EQ(QueryInt("SELECT n FROM counter WHERE id = 1"), kRequests);
  // Every attempt, retried or not, took a value: the sequence is at least
  // as far as the committed ones.
  EXPECT_GE(QueryInt("SELECT nextval('s')"), *seen.rbegin() + 1);
}

// An insert rolled back by its transaction leaves nothing: no row, no index
// entry that a lookup or a later insert of the same key would meet.
TEST_P(ConformanceTest, AbortedInsertLeavesNothingVisible) {
  Exec("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
  Exec("CREATE INDEX t_v ON t (v)");
  Procedure p;
  p.name = "insert_then_refuse";
  p.statements = {"INSERT INTO t VALUES ($1, 7)"};
  p.body = [](ProcedureContext& ctx, const std::vector<Value>& args) {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    return ctx.Rollback("changed my mind");
  };
  Register(std::move(p));
  std::vector<TransactionRequest> requests;
  for (int i = 0; i < 50; ++i) requests.push_back(TransactionRequest::Call("insert_then_refuse", {Value::Int32(i)}));
  for (const auto& r : RunAll(std::move(requests))) EXPECT_TRUE(r.user_abort) << r.status.ToString();
  EXPECT_EQ(QueryInt("SELECT count(*) FROM t"), 0);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM t WHERE v = 7"), 0);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM t WHERE id = 3"), 0);
  Exec("INSERT INTO t VALUES (3, 8)");
  EXPECT_EQ(QueryInt("SELECT v FROM t WHERE id = 3"), 8);
}

// A user abort (business rule) is not retried and is not a conflict.
TEST_P(ConformanceTest, UserAbortIsNotRetried) {
  std::atomic<int> attempts{0};
  Procedure p;
  p.name = "refuse";
  p.body = [&](ProcedureContext& ctx, const std::vector<Value>&) {
    attempts.fetch_add(1);
    return ctx.Rollback("item number is not valid");
  };
  Register(std::move(p));
  TransactionResult r = db_->Submit(TransactionRequest::Call("refuse", {})).get();
  EXPECT_TRUE(r.user_abort);
  EXPECT_TRUE(r.status.Is(sqlstate::kRaiseException)) << r.status.ToString();
  EXPECT_EQ(attempts.load(), 1);
  ExecutionStats stats = db_->Stats();
  EXPECT_EQ(stats.user_aborts, 1u);
  EXPECT_EQ(stats.aborts(), 0u);
  EXPECT_EQ(stats.commits, 0u);
}

// The retry limit. A side session makes every attempt conflict: under OCC
// it commits a change to the row the procedure read (validation fails);
// under NO_WAIT and WAIT_DIE it holds the row's lock from an older open
// transaction (the younger procedure aborts or dies). After max_retries
// retries the client gets 40001. Under WOUND_WAIT a younger requester waits
// instead of aborting: the test checks that it waits and then commits on its
// first attempt once the side session ends.
TEST_P(ConformanceTest, RetryLimitEndsIn40001) {
  constexpr int kRetries = 3;
  Open(2, true, kRetries);
  const std::string cc = std::get<0>(GetParam());
  Exec("CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)");
  Exec("INSERT INTO x VALUES (1, 0)");
  auto side = db_->CreateSession();
  std::atomic<int> attempts{0};
  Procedure p;
  p.name = "doomed";
  p.statements = {"SELECT v FROM x WHERE id = 1", "UPDATE x SET v = $1 WHERE id = 1"};
  p.body = [&](ProcedureContext& ctx, const std::vector<Value>&) {
    attempts.fetch_add(1);
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {}, &r));
    if (cc == "occ") {
      QueryResult s;
      Status st = side->Execute("UPDATE x SET v = v + 1 WHERE id = 1", &s);
      if (!st.ok()) return st;
    }
    return ctx.Execute(1, {Value::Int32(42)}, &r);
  };
  Register(std::move(p));
  QueryResult r;
  if (cc != "occ") {
    ASSERT_TRUE(side->Execute("BEGIN", &r).ok());
    ASSERT_TRUE(side->Execute("UPDATE x SET v = -1 WHERE id = 1", &r).ok());
  }
  TransactionResult result;
  if (cc == "2pl-wound-wait") {
    // The procedure waits for the side session's lock: let the side session
    // end only after the procedure's wait has been observed, and see it
    // then commit on its first attempt (waiting, not aborting).
    auto future = db_->Submit(TransactionRequest::Call("doomed", {}));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (db_->concurrency_control().Waiting() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    ASSERT_EQ(db_->concurrency_control().Waiting(), 1u);
    ASSERT_TRUE(side->Execute("COMMIT", &r).ok());
    result = future.get();
    EXPECT_TRUE(result.committed()) << result.status.ToString();
    EXPECT_EQ(attempts.load(), 1);
    return;
  }
  result = db_->Submit(TransactionRequest::Call("doomed", {})).get();
  EXPECT_TRUE(result.status.Is(sqlstate::kSerializationFailure)) << result.status.ToString();
  EXPECT_EQ(attempts.load(), kRetries + 1);
  ExecutionStats stats = db_->Stats();
  EXPECT_EQ(stats.retry_limit_failures, 1u);
  EXPECT_EQ(stats.aborts(), static_cast<uint64_t>(kRetries + 1));
  if (cc != "occ") {
    ASSERT_TRUE(side->Execute("ROLLBACK", &r).ok());
  }
}

// Stealing: with two workers and everything queued on queue 0, the first
// transaction blocks until the second has started. Only a thief (worker 1)
// can start the second, so the first completes only if stealing works.
// With stealing off, jobs queued on queue 0 all run there: no steals.
TEST_P(ConformanceTest, IdleWorkersStealOnlyWhenEnabled) {
  Open(2, true, 10);
  std::promise<void> second_started;
  std::shared_future<void> started = second_started.get_future().share();
  Procedure block;
  block.name = "block_until_second";
  block.body = [started](ProcedureContext&, const std::vector<Value>&) {
    if (started.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      return Status(sqlstate::kInternalError, "the second transaction never started: no worker stole it");
    }
    return Status::OK();
  };
  Register(std::move(block));
  Procedure second;
  second.name = "second";
  second.body = [&](ProcedureContext&, const std::vector<Value>&) {
    second_started.set_value();
    return Status::OK();
  };
  Register(std::move(second));
  std::promise<TransactionResult> first_done, second_done;
  db_->SubmitTo(0, TransactionRequest::Call("block_until_second", {}),
                [&](TransactionResult&& r) { first_done.set_value(std::move(r)); });
  db_->SubmitTo(0, TransactionRequest::Call("second", {}),
                [&](TransactionResult&& r) { second_done.set_value(std::move(r)); });
  TransactionResult first = first_done.get_future().get();
  EXPECT_TRUE(first.committed()) << first.status.ToString();
  EXPECT_TRUE(second_done.get_future().get().committed());
  EXPECT_GE(db_->Stats().steals, 1u);

  Open(2, false, 10);
  Procedure nothing;
  nothing.name = "nothing";
  nothing.body = [](ProcedureContext&, const std::vector<Value>&) { return Status::OK(); };
  Register(std::move(nothing));
  std::vector<std::promise<TransactionResult>> done(40);
  for (auto& d : done) {
    db_->SubmitTo(0, TransactionRequest::Call("nothing", {}), [&d](TransactionResult&& r) { d.set_value(std::move(r)); });
  }
  for (auto& d : done) EXPECT_TRUE(d.get_future().get().committed());
  EXPECT_EQ(db_->Stats().steals, 0u);
  EXPECT_EQ(db_->Stats().commits, 40u);
}

// Interactive transactions get the same guarantees. Client threads run
// transfers as BEGIN .. COMMIT blocks one statement at a time (retrying on
// 40001 like a real client), and audits that sum every balance inside a
// block. Excluded: money created or lost, and an audit block that commits
// having seen a partial transfer.
TEST_P(ConformanceTest, InteractiveBlocksKeepTheTotal) {
  constexpr int kAccounts = 8, kClients = 4, kTransfersEach = 150;
  constexpr int64_t kInitial = 100;
  Exec("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
  for (int i = 1; i <= kAccounts; ++i) {
    Exec("INSERT INTO account VALUES (" + std::to_string(i) + ", " + std::to_string(kInitial) + ")");
  }
  std::atomic<int> bad_audits{0}, failures{0};
  auto worker = [&](int client) {
    auto s = db_->CreateSession();
    uint64_t x = 977 * (client + 1);
    auto step = [&](const std::string& sql, QueryResult* r) { return s->Execute(sql, r); };
    for (int i = 0; i < kTransfersEach; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const int from = static_cast<int>((x >> 33) % kAccounts) + 1;
      const int to = from % kAccounts + 1;
      const bool audit = i % 10 == 0;
      for (int attempt = 0;; ++attempt) {
        QueryResult r;
        Status st = step("BEGIN", &r);
        if (audit) {
          if (st.ok()) st = step("SELECT sum(balance) FROM account", &r);
          const int64_t seen = st.ok() ? r.rows[0][0].int_value() : -1;
          if (st.ok()) st = step("COMMIT", &r);
          if (st.ok() && seen != kAccounts * kInitial) bad_audits.fetch_add(1);
        } else {
          if (st.ok()) st = step("SELECT balance FROM account WHERE id = " + std::to_string(from), &r);
          const int64_t balance = st.ok() ? r.rows[0][0].int_value() : 0;
          if (st.ok() && balance >= 5) {
            st = step("UPDATE account SET balance = balance - 5 WHERE id = " + std::to_string(from), &r);
            if (st.ok()) st = step("UPDATE account SET balance = balance + 5 WHERE id = " + std::to_string(to), &r);
          }
          if (st.ok()) st = step("COMMIT", &r);
        }
        if (st.ok()) break;
        if (s->state() != TransactionState::kIdle) step("ROLLBACK", &r);
        if (!st.Is(sqlstate::kSerializationFailure) || attempt > 10000) {
          ADD_FAILURE() << st.ToString();
          failures.fetch_add(1);
          break;
        }
        // A client retrying at once would spin against the winner (see
        // execution/retry_pause.h); it backs off the way the workers do.
        PauseBeforeRetry(attempt + 1, std::chrono::milliseconds(1));
      }
    }
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) threads.emplace_back(worker, c);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(bad_audits.load(), 0);
  EXPECT_EQ(QueryInt("SELECT sum(balance) FROM account"), kAccounts * kInitial);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM account WHERE balance < 0"), 0);
}

// Savepoints under concurrent writers. Client threads run blocks of two
// transfers on shared accounts; each transfer runs after a SAVEPOINT, and
// every third is undone with ROLLBACK TO (a business change of mind), or
// fails on a duplicate key in a ledger table and is resumed with ROLLBACK
// TO, before the block goes on and commits (retrying the whole block on
// 40001). Excluded: money created or lost, a transfer undone by ROLLBACK
// TO that still shows (in the balances or as its ledger row), and a kept
// transfer whose ledger row is missing.
TEST_P(ConformanceTest, SavepointsRolledBackBesideConcurrentWriters) {
  constexpr int kAccounts = 6, kClients = 4, kBlocksEach = 60;
  constexpr int64_t kInitial = 1000;
  Exec("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
  Exec("CREATE TABLE ledger (id INT PRIMARY KEY, amount INT NOT NULL)");
  Exec("INSERT INTO ledger VALUES (0, 0)");  // the key every failing transfer collides with
  for (int i = 1; i <= kAccounts; ++i) {
    Exec("INSERT INTO account VALUES (" + std::to_string(i) + ", " + std::to_string(kInitial) + ")");
  }
  std::atomic<int> failures{0};
  std::atomic<int64_t> kept_amount{0};
  auto worker = [&](int client) {
    auto s = db_->CreateSession();
    auto step = [&](const std::string& sql, QueryResult* r) { return s->Execute(sql, r); };
    for (int b = 0; b < kBlocksEach; ++b) {
      int64_t kept = 0;
      for (int attempt = 0;; ++attempt) {
        kept = 0;
        QueryResult r;
        Status st = step("BEGIN", &r);
        for (int t = 0; t < 2 && st.ok(); ++t) {
          const int n = (client * kBlocksEach + b) * 2 + t;  // this transfer's number
          const int from = n % kAccounts + 1, to = (n + 1 + client) % kAccounts + 1;
          const int amount = n % 7 + 1;
          st = step("SAVEPOINT transfer", &r);
          if (st.ok()) st = step("UPDATE account SET balance = balance - " + std::to_string(amount) + " WHERE id = " + std::to_string(from), &r);
          if (st.ok()) st = step("UPDATE account SET balance = balance + " + std::to_string(amount) + " WHERE id = " + std::to_string(to), &r);
          if (!st.ok()) break;
          if (n % 3 == 0) {  // changed mind
            st = step("ROLLBACK TO SAVEPOINT transfer", &r);
          } else if (n % 3 == 1) {  // a duplicate key: the block fails until ROLLBACK TO
            Status dup = step("INSERT INTO ledger VALUES (0, " + std::to_string(amount) + ")", &r);
            if (dup.Is(sqlstate::kUniqueViolation)) {
              st = step("ROLLBACK TO SAVEPOINT transfer", &r);
            } else {
              st = dup.ok() ? Status(sqlstate::kInternalError, "a duplicate ledger key was accepted") : dup;
            }
          } else {
            st = step("INSERT INTO ledger VALUES (" + std::to_string(n + 1) + ", " + std::to_string(amount) + ")", &r);
            if (st.ok()) kept += amount;
          }
          if (st.ok()) st = step("RELEASE SAVEPOINT transfer", &r);
        }
        if (st.ok()) st = step("COMMIT", &r);
        if (st.ok()) break;
        if (s->state() != TransactionState::kIdle) step("ROLLBACK", &r);
        if (!(st.Is(sqlstate::kSerializationFailure) || st.Is(sqlstate::kDeadlockDetected)) || attempt > 10000) {
          ADD_FAILURE() << st.ToString();
          failures.fetch_add(1);
          break;
        }
        PauseBeforeRetry(attempt + 1, std::chrono::milliseconds(1));
      }
      kept_amount.fetch_add(kept);
    }
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < kClients; ++c) threads.emplace_back(worker, c);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(QueryInt("SELECT sum(balance) FROM account"), kAccounts * kInitial);
  // Exactly the kept transfers (n % 3 == 2) left a ledger row, with their amounts.
  EXPECT_EQ(QueryInt("SELECT count(*) FROM ledger WHERE id > 0"), kClients * kBlocksEach * 2 / 3);
  EXPECT_EQ(QueryInt("SELECT count(*) FROM ledger WHERE id > 0 AND (id - 1) % 3 <> 2"), 0);
  EXPECT_EQ(QueryInt("SELECT sum(amount) FROM ledger"), kept_amount.load());
}

// Schema changes while transactions run: DDL waits for running
// transactions (and new ones wait for it), so transfers keep the invariant
// across CREATE INDEX, TRUNCATE and DROP of other tables, and rows, tuples
// and indexes those remove are freed only when no transaction can reach them
// (ThreadSanitizer / AddressSanitizer builds check that part).
TEST_P(ConformanceTest, DdlWhileTransactionsRun) {
  constexpr int kAccounts = 10, kTransfers = 1200;
  Exec("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL, note INT)");
  for (int i = 1; i <= kAccounts; ++i) Exec("INSERT INTO account VALUES (" + std::to_string(i) + ", 100, 0)");
  Procedure transfer;
  transfer.name = "move";
  transfer.statements = {"UPDATE account SET balance = balance - 1, note = note + 1 WHERE id = $1",
                         "UPDATE account SET balance = balance + 1 WHERE id = $1",
                         "INSERT INTO scratch VALUES ($1)"};
  transfer.body = [](ProcedureContext& ctx, const std::vector<Value>& args) {
    QueryResult r;
    PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
    PL_RETURN_IF_ERROR(ctx.Execute(1, {args[1]}, &r));
    return ctx.Execute(2, {args[2]}, &r);
  };
  Exec("CREATE TABLE scratch (n INT)");
  Register(std::move(transfer));
  std::vector<std::future<TransactionResult>> futures;
  for (int i = 0; i < kTransfers; ++i) {
    futures.push_back(db_->Submit(TransactionRequest::Call(
        "move", {Value::Int32(i % kAccounts + 1), Value::Int32((i + 3) % kAccounts + 1), Value::Int32(i)})));
    if (i == kTransfers / 4) Exec("CREATE INDEX account_note ON account (note)");
    if (i == kTransfers / 2) Exec("TRUNCATE scratch");
    if (i == 3 * kTransfers / 4) {
      Exec("CREATE TABLE other (k INT PRIMARY KEY)");
      Exec("INSERT INTO other VALUES (1), (2)");
      Exec("DROP TABLE other");
      Exec("DROP INDEX account_note");
    }
  }
  for (auto& f : futures) {
    TransactionResult r = f.get();
    ASSERT_TRUE(r.committed()) << r.status.ToString();
  }
  EXPECT_EQ(QueryInt("SELECT sum(balance) FROM account"), kAccounts * 100);
  EXPECT_EQ(QueryInt("SELECT sum(note) FROM account"), kTransfers);
  EXPECT_LE(QueryInt("SELECT count(*) FROM scratch"), kTransfers);
}


INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, ConformanceTest,
                         ::testing::Combine(::testing::ValuesIn(kCcNames), ::testing::ValuesIn(DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

}  // namespace
}  // namespace paceline::engine
