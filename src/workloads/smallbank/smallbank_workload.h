// SmallbankWorkload: the SmallBank benchmark (--workload=smallbank), a bank
// whose hot spots are customers, not a partition key a person would name.
//
// Schema (custid is one canonical domain through the foreign keys):
//   accounts (custid INT PRIMARY KEY, name VARCHAR(64) NOT NULL)
//   savings  (custid INT PRIMARY KEY REFERENCES accounts, bal BIGINT NOT NULL)
//   checking (custid INT PRIMARY KEY REFERENCES accounts, bal BIGINT NOT NULL)
// loaded with customers 0..accounts-1, each balance uniform in
// [1,000,000, 5,000,000] cents (OLTPBench's 10,000 to 50,000) from the seed.
//
// Transactions (smallbank_procedures.h) in the usual mix: Amalgamate 15,
// Balance 15, DepositChecking 15 ($1.30), SendPayment 25 ($5), TransactSavings
// 15 (a $20.20 deposit or withdrawal, even odds), WriteCheck 15 ($5). Every
// customer is drawn from a HotSet: --hot-fraction of the choices fall on
// --hot-records hot customers, which move every --hot-shift-s (the two
// customers of Amalgamate and SendPayment are distinct draws).
//
// Check: each table has `accounts` rows; no savings balance is negative
// (TransactSavings forbids it, Amalgamate zeroes); and money is conserved
// against the ledger of committed transactions reported to OnFinished:
//   Σ savings + Σ checking = loaded + Σ deposits − Σ checks
// where deposits are DepositChecking's and TransactSavings' amounts and
// checks are what WriteCheck returned it debited. A lost update, a double
// debit, or an aborted transfer left half-applied breaks it. After Attach
// (a recovered database, nothing loaded) the baseline is the sum found at
// Attach.
//
// Thread-safety: as Workload (workload.h): Next and OnFinished may run on
// many threads at once (the ledger is atomic); Setup, Attach and Check run
// alone. Options are copied; the Database is borrowed.
#pragma once

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "workloads/hot_set.h"
#include "workloads/smallbank/smallbank_options.h"
#include "workloads/workload.h"

namespace paceline::workloads::smallbank {

class SmallbankWorkload : public Workload {
 public:
  // Indexes into TransactionTypes().
  enum Type : size_t { kAmalgamate, kBalance, kDepositChecking, kSendPayment, kTransactSavings, kWriteCheck };
  // The amounts the generator uses, in cents.
  static constexpr int64_t kDepositCents = 130;
  static constexpr int64_t kPaymentCents = 500;
  static constexpr int64_t kSavingsCents = 2020;
  static constexpr int64_t kCheckCents = 500;

  // `options` must be valid (SmallbankOptions::Validate).
  explicit SmallbankWorkload(const SmallbankOptions& options);

  std::string_view Name() const override { return "smallbank"; }
  const std::vector<std::string>& TransactionTypes() const override { return types_; }
  Status Setup(engine::Database* db) override;
  Status Attach(engine::Database* db) override;
  uint64_t loaded_rows() const override { return loaded_rows_; }
  void Next(Random& rng, GeneratedTransaction* out) const override;
  void OnFinished(const GeneratedTransaction& txn, const engine::TransactionResult& result) override;
  Status Check(engine::Database* db, std::string* report) const override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  HotSetClock* hot_set_clock() override { return options_.hot_shift.count() > 0 ? &clock_ : nullptr; }

  const SmallbankOptions& options() const { return options_; }
  const HotSet& hot_set() const { return hot_; }
  // Σ of all balances after the load (or at Attach), in cents.
  int64_t initial_total() const { return initial_total_; }

 private:
  // Registers the procedures.
  Status Register(engine::Database* db) const;

  const SmallbankOptions options_;
  const HotSet hot_;
  HotSetClock clock_;
  const std::vector<std::string> types_{"Amalgamate",      "Balance",    "DepositChecking", "SendPayment",
                                        "TransactSavings", "WriteCheck"};
  uint64_t loaded_rows_ = 0;
  int64_t initial_total_ = 0;
  std::atomic<int64_t> deposits_{0};  // committed, cents
  std::atomic<int64_t> checks_{0};    // committed, cents
};

}  // namespace paceline::workloads::smallbank
