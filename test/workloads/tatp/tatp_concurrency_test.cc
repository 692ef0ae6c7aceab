// TATP under concurrency, for every concurrency control and the schedulers
// random, partition (on s_id) and count-max-canonical: 4 clients submit
// transactions to 4 workers on a small database whose few hot subscribers
// take most of them, with a small statement latency so that transactions
// overlap on 2 cores; then Check must hold, no transaction may fail (only
// commit or end in an expected failure), and the engine must count the same
// commits and user aborts as the clients.
//
// Interleavings exercised, and the anomaly each check excludes:
//   InsertCallForwarding ∥ InsertCallForwarding on one (s_id, sf_type,
//     start_time): both find the slot free → two commits for one row (the
//     count exceeds loaded + inserts − deletes by less than reported), or a
//     duplicate-key error surfacing as a failure instead of a retry.
//   InsertCallForwarding ∥ DeleteCallForwarding on one slot: the delete
//     finds the row being inserted, or not → a delete counted for a row
//     that stays (or the reverse); excluded by the call_forwarding count.
//   UpdateSubscriberData ∥ UpdateSubscriberData / UpdateLocation on one
//     subscriber, a business rollback after its first update → an update
//     of a rolled-back transaction left behind, or a lost update: the
//     subscriber row count and references hold, and nothing fails.
//   reads ∥ writes of one subscriber (GetSubscriberData ∥ UpdateLocation,
//     GetNewDestination ∥ Insert/DeleteCallForwarding): conflicts are
//     retried, never reported as errors.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "tatp_test_database.h"
#include "workloads/tatp/tatp_procedures.h"

namespace paceline::workloads::tatp {
namespace {

struct Param {
  std::string cc;
  std::string scheduler;
};

void PrintTo(const Param& p, std::ostream* os) { *os << "cc " << p.cc << ", scheduler " << p.scheduler; }

class TatpConcurrencyTest : public ::testing::TestWithParam<Param> {
 protected:
  static constexpr int kClients = 4;

  void SetUp() override {
    TatpOptions options = TinyTatpOptions(200);
    options.hot_records = 5;
    options.hot_fraction = 0.9;
    options.statement_latency = std::chrono::microseconds(10);
    db_ = OpenTatp(options, 4, &workload_, GetParam().cc, GetParam().scheduler);
    ASSERT_NE(db_, nullptr);
    db_->ResetStats();
  }

  // Runs `per_client` transactions from `next` on each of kClients threads
  // at once, reporting each outcome to the workload; then checks the
  // outcomes and the consistency conditions.
  template <typename Next>
  void RunClients(int per_client, Next next) {
    struct Ledger {
      uint64_t commits = 0, user_aborts = 0;
      std::vector<std::string> failures;
    };
    std::vector<Ledger> ledgers(kClients);
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
      clients.emplace_back([&, c] {
        Random rng(100 + c);
        Ledger& ledger = ledgers[c];
        GeneratedTransaction t;
        for (int i = 0; i < per_client; ++i) {
          next(rng, &t);
          engine::TransactionResult r = db_->Submit(t.request).get();
          workload_->OnFinished(t, r);
          if (r.committed()) {
            ++ledger.commits;
          } else if (r.user_abort) {
            ++ledger.user_aborts;
          } else {
            ledger.failures.push_back(std::string(TatpMix()[t.type].name) + ": " + r.status.ToString());
          }
        }
      });
    }
    for (std::thread& t : clients) t.join();

    Ledger total;
    for (const Ledger& l : ledgers) {
      total.commits += l.commits;
      total.user_aborts += l.user_aborts;
      for (const std::string& f : l.failures) ADD_FAILURE() << f;
    }
    EXPECT_EQ(total.commits + total.user_aborts, static_cast<uint64_t>(kClients * per_client));
    EXPECT_GT(total.commits, 0u);
    engine::ExecutionStats stats = db_->Stats();
    EXPECT_EQ(stats.commits, total.commits);
    EXPECT_EQ(stats.user_aborts, total.user_aborts);
    RecordProperty("aborts", std::to_string(stats.aborts()));
    std::string report;
    Status s = workload_->Check(db_.get(), &report);
    EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  }

  std::unique_ptr<TatpWorkload> workload_;
  std::unique_ptr<engine::Database> db_;
};

// The standard mix.
TEST_P(TatpConcurrencyTest, CheckHoldsAfterAConcurrentRunOfTheMix) {
  RunClients(250, [&](Random& rng, GeneratedTransaction* t) { workload_->Next(rng, t); });
}

// Only InsertCallForwarding and DeleteCallForwarding (2% each in the mix),
// on 3 subscribers: many race for the same slots.
TEST_P(TatpConcurrencyTest, CallForwardingLedgerHoldsUnderChurn) {
  RunClients(150, [&](Random& rng, GeneratedTransaction* t) {
    const auto type = Uniform(rng, 0, 1) == 0 ? TatpTransaction::kInsertCallForwarding
                                              : TatpTransaction::kDeleteCallForwarding;
    t->type = static_cast<size_t>(type);
    t->request.procedure = TatpType(type).procedure;
    TatpType(type).draw(rng, Uniform(rng, 1, 3), &t->request.args);
  });
  EXPECT_GT(workload_->committed_inserts(), 0u);
  EXPECT_GT(workload_->committed_deletes(), 0u);
}

std::vector<Param> EveryCcAndScheduler() {
  std::vector<Param> params;
  for (const std::string& cc : engine::Database::ConcurrencyControlNames()) {
    for (const char* scheduler : {"random", "partition", "count-max-canonical", "adaptive"}) params.push_back({cc, scheduler});
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(EveryCcAndScheduler, TatpConcurrencyTest, ::testing::ValuesIn(EveryCcAndScheduler()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           std::string name = info.param.cc + "_" + info.param.scheduler;
                           for (char& ch : name) {
                             if (ch == '-') ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace paceline::workloads::tatp
