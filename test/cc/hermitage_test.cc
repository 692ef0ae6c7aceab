// Hermitage: Kleppmann's isolation test cases (and the predicate re-read
// variants found committing under OCC), from test/cc/hermitage_cases.txt,
// run for every CC × scheduler
//   - as interactive sessions, one statement at a time in the file's order
//     (a step that waits for a lock runs on while the next steps go on;
//     the harness waits on "the session is waiting for a lock" or "the step
//     finished", never on a sleep), and
//   - as one-message transactions (each session's statements as one
//     request submitted to the workers, all at once, several rounds).
// Each case names the anomaly it excludes. What every CC does differs
// (block, refuse, abort at a statement or at commit), so the run is judged
// by a serial oracle (a fresh database running the committed transactions
// one after the other):
//   (1) some serial order of the committed transactions gives each of their
//       statements the result it returned and the same final table;
//   (2) an interactive transaction that did not commit got, from each
//       statement that succeeded, the result that statement gives at one
//       point of that order: no statement result contradicts the
//       transaction's own earlier reads (the BenchBase Delivery shape: a row
//       read, then found gone). A one-message transaction that failed
//       shows its client only the error.
// A conflict may surface as 40001 or 40P01. A unique violation (23505) is
// an outcome a serial order can give too (an INSERT of a key a transaction
// ordered before it inserted), so it is judged like a result: the failed
// statement must fail the same way at the same point of the order as the
// transaction's earlier statements (an INSERT of the key an earlier SELECT
// of the same transaction found absent fits no point: 40001 is due). Any
// other error fails the test.
// The table of outcomes (who committed, who failed where) is printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "test/cc/every_cc_and_scheduler.h"

namespace paceline::engine {
namespace {

struct Step {
  int session;
  std::string sql;
};
struct Case {
  std::string name;  // and what it excludes
  std::vector<Step> steps;
};
struct CaseFile {
  std::vector<std::string> setup;
  std::vector<Case> cases;
};

CaseFile LoadCases() {
  CaseFile file;
  std::ifstream in("test/cc/hermitage_cases.txt");  // ctest runs in the source directory
  EXPECT_TRUE(in.good()) << "test/cc/hermitage_cases.txt not found";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.starts_with("setup ")) {
      file.setup.push_back(line.substr(6));
    } else if (line.starts_with("case ")) {
      file.cases.push_back(Case{line.substr(5), {}});
    } else {
      size_t space = line.find(' ');
      EXPECT_FALSE(file.cases.empty() || space == std::string::npos) << "bad line: " << line;
      if (file.cases.empty() || space == std::string::npos) continue;
      file.cases.back().steps.push_back(Step{std::stoi(line.substr(0, space)), line.substr(space + 1)});
    }
  }
  return file;
}

bool IsControl(const std::string& sql) { return sql == "BEGIN" || sql == "COMMIT" || sql == "ROLLBACK"; }
bool IsConflict(const Status& s) { return s.Is(sqlstate::kSerializationFailure) || s.Is(sqlstate::kDeadlockDetected); }
// The errors a serial execution gives as well (see the file comment).
bool IsSerialError(const Status& s) { return s.Is(sqlstate::kUniqueViolation); }
std::string RenderError(const Status& s) { return "ERROR " + std::string(s.sqlstate()); }

// A statement's result as text: its tag and its rows, sorted.
std::string Render(const QueryResult& r) {
  std::vector<std::string> rows;
  for (const auto& row : r.rows) {
    std::string text;
    for (const Value& v : row) text += v.ToString() + ",";
    rows.push_back(text);
  }
  std::sort(rows.begin(), rows.end());
  std::string out = r.command_tag;
  for (const auto& row : rows) out += " (" + row + ")";
  return out;
}

// What one transaction saw.
struct Observed {
  std::string sql;
  std::string result;
};
struct TxnRecord {
  int session = 0;
  std::vector<Observed> statements;  // those that succeeded, in order
  bool committed = false;
  std::string outcome;  // for the printed table
};

// The serial oracle: one database, reset for every replay.
class SerialOracle {
 public:
  explicit SerialOracle(const std::vector<std::string>& setup) : setup_(setup) {
    Options options;
    options.workers = 0;
    EXPECT_TRUE(Database::Open(options, &db_).ok());
    session_ = db_->CreateSession();
  }

  // Empty when the run is serializable (see the file comment), else why not.
  std::string Judge(const std::vector<TxnRecord>& txns, const std::string& final_table) {
    std::vector<size_t> committed, others;
    for (size_t i = 0; i < txns.size(); ++i) (txns[i].committed ? committed : others).push_back(i);
    std::sort(committed.begin(), committed.end());
    std::string why = "no serial order of the committed transactions gives their results and the final table";
    do {
      if (!Replays(txns, committed, committed.size(), final_table)) continue;
      bool all_fit = true;
      for (size_t t : others) {
        bool fits = false;
        for (size_t k = 0; k <= committed.size() && !fits; ++k) fits = Replays(txns, committed, k, "", t);
        if (!fits) {
          all_fit = false;
          why = "transaction of session " + std::to_string(txns[t].session) +
                " (not committed) saw results no point of a serial order gives";
          break;
        }
      }
      if (all_fit) return "";
    } while (std::next_permutation(committed.begin(), committed.end()));
    return why;
  }

 private:
  void Reset() {
    QueryResult r;
    session_->Execute("DROP TABLE IF EXISTS test CASCADE", &r);
    for (const auto& sql : setup_) EXPECT_TRUE(session_->Execute(sql, &r).ok()) << sql;
  }
  bool Same(const Observed& o) {
    QueryResult r;
    const Status s = session_->Execute(o.sql, &r);
    return (s.ok() ? Render(r) : RenderError(s)) == o.result;
  }
  // Runs the first `prefix` transactions of `order` serially, checking their
  // results, then (probe set) the probe transaction's statements, rolled
  // back; then compares the table with `final_table` when given.
  bool Replays(const std::vector<TxnRecord>& txns, const std::vector<size_t>& order, size_t prefix,
               const std::string& final_table, size_t probe = SIZE_MAX) {
    Reset();
    QueryResult r;
    for (size_t i = 0; i < prefix; ++i) {
      session_->Execute("BEGIN", &r);
      for (const auto& o : txns[order[i]].statements) {
        if (!Same(o)) {
          session_->Execute("ROLLBACK", &r);
          return false;
        }
      }
      if (!session_->Execute("COMMIT", &r).ok()) return false;
    }
    if (probe != SIZE_MAX) {
      session_->Execute("BEGIN", &r);
      bool same = true;
      for (const auto& o : txns[probe].statements) same = same && Same(o);
      session_->Execute("ROLLBACK", &r);
      if (!same) return false;
    }
    if (final_table.empty()) return true;
    session_->Execute("SELECT * FROM test", &r);
    return Render(r) == final_table;
  }

  std::vector<std::string> setup_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

using test_params::DistinctSchedulerNames;
using test_params::kCcNames;

class HermitageTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
 protected:
  void Open(size_t workers) {
    db_.reset();
    Options options;
    options.cc = std::get<0>(GetParam());
    options.scheduler = std::get<1>(GetParam());
    options.workers = workers;
    options.max_retries = 5;
    options.lock_timeout = std::chrono::milliseconds(20000);
    Status s = Database::Open(options, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void Setup(const CaseFile& file) {
    auto s = db_->CreateSession();
    QueryResult r;
    s->Execute("DROP TABLE IF EXISTS test CASCADE", &r);
    for (const auto& sql : file.setup) ASSERT_TRUE(s->Execute(sql, &r).ok()) << sql;
  }
  std::string FinalTable() {
    auto s = db_->CreateSession();
    QueryResult r;
    EXPECT_TRUE(s->Execute("SELECT * FROM test", &r).ok());
    return Render(r);
  }

  std::unique_ptr<Database> db_;
};

// One interactive session of a case: its statements run on a thread of
// their own so that one may wait for a lock while the schedule goes on.
struct SessionRun {
  std::unique_ptr<Session> session;
  std::future<Status> pending;  // a step still running (waiting for a lock)
  std::string pending_sql;
  std::shared_ptr<QueryResult> pending_result;
  bool in_block = false;
  bool failed = false;  // its transaction met an error and is rolled back
  TxnRecord txn;
};

TEST_P(HermitageTest, InteractiveSessions) {
  const CaseFile file = LoadCases();
  ASSERT_FALSE(file.cases.empty());
  Open(0);
  std::ostringstream table;
  const char* only = std::getenv("HERMITAGE_CASE");  // to run one case by name while debugging
  for (const Case& c : file.cases) {
    if (only != nullptr && !c.name.starts_with(std::string(only) + " ")) continue;
    SCOPED_TRACE(c.name);
    Setup(file);
    std::map<int, SessionRun> runs;
    std::vector<TxnRecord> txns;
    auto ended = [&](SessionRun& run, bool committed, const std::string& outcome) {
      run.txn.committed = committed;
      run.txn.outcome = outcome;
      txns.push_back(std::move(run.txn));
      run.txn = TxnRecord{};
      run.in_block = false;
      run.failed = false;
    };
    // Records the outcome of `sql` on `run`.
    auto record = [&](SessionRun& run, const std::string& sql, const Status& s, const QueryResult& r) {
      if (!s.ok()) {
        EXPECT_TRUE(IsConflict(s) || IsSerialError(s)) << sql << ": " << s.ToString();
      }
      if (IsSerialError(s)) run.txn.statements.push_back({sql, RenderError(s)});  // judged like a result
      const std::string where = s.ok() ? "" : std::string(s.sqlstate()) + " at " + sql;
      if (sql == "BEGIN") {
        run.in_block = true;
      } else if (sql == "COMMIT") {
        ended(run, s.ok() && !run.failed, s.ok() ? (run.failed ? "rolled back" : "commit") : where);
      } else if (sql == "ROLLBACK") {
        ended(run, false, run.failed ? run.txn.outcome : "rollback");
      } else if (!run.in_block) {
        if (s.ok()) run.txn.statements.push_back({sql, Render(r)});
        ended(run, s.ok(), s.ok() ? "autocommit" : where);
      } else if (s.ok()) {
        run.txn.statements.push_back({sql, Render(r)});
      } else {
        run.failed = true;
        run.txn.outcome = where;
      }
    };
    auto finish_pending = [&](SessionRun& run) {
      if (!run.pending.valid()) return;
      Status s = run.pending.get();
      record(run, run.pending_sql, s, *run.pending_result);
    };
    auto unfinished_others = [&](const SessionRun* self) {
      size_t n = 0;
      for (auto& [id, run] : runs) {
        if (&run != self && run.pending.valid() &&
            run.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
          ++n;
        }
      }
      return n;
    };
    auto running = [](SessionRun& run) {
      return run.pending.valid() && run.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
    };
    // Starts `sql` on `run` and returns once it finished or waits for a lock.
    auto dispatch = [&](SessionRun& run, std::string sql) {
      if (run.failed && sql == "COMMIT") sql = "ROLLBACK";  // COMMIT of a failed block rolls back
      if (run.failed && !IsControl(sql)) return;            // the rest of a failed block is skipped
      auto result = std::make_shared<QueryResult>();
      Session* session = run.session.get();
      run.pending_sql = sql;
      run.pending_result = result;
      run.pending = std::async(std::launch::async, [session, sql, result] { return session->Execute(sql, result.get()); });
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (running(run) && db_->concurrency_control().Waiting() < 1 + unfinished_others(&run)) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "step neither finished nor waited: " << sql;
        std::this_thread::yield();
      }
      if (!running(run)) finish_pending(run);
    };
    // A session whose step waits for a lock keeps its later steps queued
    // (as a client waits for its statement); the others go on.
    std::map<int, std::vector<std::string>> queued;
    auto drain = [&] {
      for (bool progress = true; progress;) {
        progress = false;
        for (auto& [id, run] : runs) {
          if (running(run)) continue;
          finish_pending(run);
          if (!queued[id].empty()) {
            std::string sql = queued[id].front();
            queued[id].erase(queued[id].begin());
            dispatch(run, sql);
            progress = true;
          }
        }
      }
    };
    for (const Step& step : c.steps) {
      SessionRun& run = runs[step.session];
      if (!run.session) run.session = db_->CreateSession();
      run.txn.session = step.session;
      queued[step.session].push_back(step.sql);
      drain();
    }
    // The rest: whichever waiting step ends first lets its session's next
    // steps go on (waiting for one in particular could wait for a step that
    // only a queued step of another session ends).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      drain();
      bool any_running = false;
      for (auto& [id, run] : runs) any_running = any_running || running(run);
      if (!any_running) break;  // drain() left nothing queued either
      bool progressed = false;
      while (!progressed) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "steps still waiting at the end";
        for (auto& [id, run] : runs) progressed = progressed || (run.pending.valid() && !running(run));
        std::this_thread::yield();
      }
    }
    for (auto& [id, run] : runs) {
      finish_pending(run);
      if (run.in_block) {
        QueryResult r;
        run.session->Execute("ROLLBACK", &r);
        ended(run, false, "left open");
      }
    }
    SerialOracle oracle(file.setup);
    const std::string why = oracle.Judge(txns, FinalTable());
    EXPECT_EQ(why, "") << "case " << c.name;
    if (!why.empty() || only != nullptr) {
      for (const auto& t : txns) {
        std::cout << "  T" << t.session << (t.committed ? " committed" : " did not commit") << ":\n";
        for (const auto& o : t.statements) std::cout << "    " << o.sql << " -> " << o.result << "\n";
      }
      std::cout << "  final: " << FinalTable() << "\n";
    }
    table << "  " << c.name.substr(0, c.name.find(' ')) << ":";
    for (const auto& t : txns) table << "  T" << t.session << " " << t.outcome << ";";
    table << (why.empty() ? "  serializable\n" : "  NOT SERIALIZABLE\n");
  }
  std::cout << "Hermitage, interactive, " << std::get<0>(GetParam()) << ":\n" << table.str();
}

TEST_P(HermitageTest, OneMessageTransactions) {
  const CaseFile file = LoadCases();
  Open(4);
  constexpr int kRounds = 5;
  for (const Case& c : file.cases) {
    SCOPED_TRACE(c.name);
    // A savepoint needs a session: a request holds DML only.
    if (std::any_of(c.steps.begin(), c.steps.end(), [](const Step& step) {
          return step.sql.starts_with("SAVEPOINT") || step.sql.starts_with("ROLLBACK TO") ||
                 step.sql.starts_with("RELEASE");
        })) {
      continue;
    }
    // Each session's transaction as one request; a session's autocommit
    // statements are a request each. Blocks that end in ROLLBACK are left
    // out: a one-message transaction commits.
    std::vector<std::pair<int, TransactionRequest>> requests;
    std::map<int, size_t> open;  // session → its block's request
    std::map<int, bool> rolled_back;
    for (const Step& step : c.steps) {
      if (step.sql == "BEGIN") {
        open[step.session] = requests.size();
        requests.push_back({step.session, TransactionRequest{}});
      } else if (step.sql == "COMMIT") {
        open.erase(step.session);
      } else if (step.sql == "ROLLBACK") {
        rolled_back[static_cast<int>(open[step.session])] = true;
        open.erase(step.session);
      } else if (open.count(step.session)) {
        requests[open[step.session]].second.statements.push_back({step.sql, {}});
      } else {
        requests.push_back({step.session, TransactionRequest::Statements({{step.sql, {}}})});
      }
    }
    for (int round = 0; round < kRounds; ++round) {
      Setup(file);
      std::vector<std::future<TransactionResult>> futures;
      std::vector<std::pair<int, const TransactionRequest*>> sent;
      for (size_t i = 0; i < requests.size(); ++i) {
        if (rolled_back[static_cast<int>(i)]) continue;
        futures.push_back(db_->Submit(requests[i].second));
        sent.push_back({requests[i].first, &requests[i].second});
      }
      std::vector<TxnRecord> txns;
      for (size_t i = 0; i < futures.size(); ++i) {
        TransactionResult result = futures[i].get();
        if (!result.status.ok()) {
          EXPECT_TRUE(IsConflict(result.status) || IsSerialError(result.status)) << result.status.ToString();
        }
        // A one-message transaction that failed on a conflict shows its
        // client only the error: it is not judged. One that failed on a
        // unique violation is judged (not committed) up to that statement.
        const bool judged_failure = IsSerialError(result.status);
        if (!result.committed() && !judged_failure) continue;
        TxnRecord t;
        t.session = sent[i].first;
        t.committed = result.committed();
        if (t.committed) {
          EXPECT_EQ(result.results.size(), sent[i].second->statements.size());
        }
        for (size_t k = 0; k < result.results.size() && k < sent[i].second->statements.size(); ++k) {
          const bool failed_here = judged_failure && k + 1 == result.results.size();
          t.statements.push_back({sent[i].second->statements[k].sql,
                                  failed_here ? RenderError(result.status) : Render(result.results[k])});
        }
        txns.push_back(std::move(t));
      }
      SerialOracle oracle(file.setup);
      EXPECT_EQ(oracle.Judge(txns, FinalTable()), "") << "case " << c.name << ", round " << round;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, HermitageTest,
                         ::testing::Combine(::testing::ValuesIn(kCcNames), ::testing::ValuesIn(DistinctSchedulerNames())),
                         test_params::CcSchedulerName);

// The oracle can fail: a write skew where both committed with the reads
// that made it one (T1 and T2 each read both rows unchanged, then wrote one)
// is not serializable, and a reader that saw a row, then saw it gone, fits
// no point of any order.
TEST(HermitageOracle, RejectsWriteSkewAndContradictoryReads) {
  const std::vector<std::string> setup = {"CREATE TABLE test (id int PRIMARY KEY, value int)",
                                          "INSERT INTO test VALUES (1, 10), (2, 20)"};
  SerialOracle oracle(setup);
  auto rows = [](const std::string& tag, const std::string& body) { return tag + body; };
  TxnRecord t1{1, {{"SELECT * FROM test WHERE id IN (1, 2)", rows("SELECT 2", " (1,10,) (2,20,)")},
                   {"UPDATE test SET value = 11 WHERE id = 1", "UPDATE 1"}},
               true, ""};
  TxnRecord t2{2, {{"SELECT * FROM test WHERE id IN (1, 2)", rows("SELECT 2", " (1,10,) (2,20,)")},
                   {"UPDATE test SET value = 21 WHERE id = 2", "UPDATE 1"}},
               true, ""};
  EXPECT_NE(oracle.Judge({t1, t2}, "SELECT 2 (1,11,) (2,21,)"), "");
  t2.committed = false;
  EXPECT_EQ(oracle.Judge({t1, t2}, "SELECT 2 (1,11,) (2,20,)"), "");  // T2 before T1, rolled back
  TxnRecord del{2, {{"DELETE FROM test WHERE id = 1", "DELETE 1"}}, true, ""};
  TxnRecord reader{1, {{"SELECT value FROM test WHERE id = 1", rows("SELECT 1", " (10,)")},
                       {"DELETE FROM test WHERE id = 1", "DELETE 0"}},
                   false, ""};
  EXPECT_NE(oracle.Judge({del, reader}, "SELECT 1 (2,20,)"), "");
  // An INSERT that met a key its own SELECT found absent fits no point; one
  // that met a key inserted before it began fits the point after that.
  TxnRecord insert{2, {{"INSERT INTO test VALUES (3, 30)", "INSERT 0 1"}}, true, ""};
  TxnRecord stale{1, {{"SELECT * FROM test WHERE id = 3", "SELECT 0"},
                      {"INSERT INTO test VALUES (3, 31)", "ERROR 23505"}},
                  false, ""};
  EXPECT_NE(oracle.Judge({insert, stale}, "SELECT 3 (1,10,) (2,20,) (3,30,)"), "");
  TxnRecord after{1, {{"INSERT INTO test VALUES (3, 31)", "ERROR 23505"}}, false, ""};
  EXPECT_EQ(oracle.Judge({insert, after}, "SELECT 3 (1,10,) (2,20,) (3,30,)"), "");
}

}  // namespace
}  // namespace paceline::engine
