// YcsbWorkload: a YCSB-style key-value workload in transactions (--workload=ycsb).
//
// Schema: usertable (ycsb_key INT PRIMARY KEY, ycsb_updates BIGINT NOT NULL,
// field0 .. field{F-1} VARCHAR(L)), loaded with keys 0..records-1, random
// printable fields of exactly L characters (from YcsbOptions::seed) and
// ycsb_updates 0.
//
// Transactions: one stored procedure, "ycsb_transaction", whose arguments are
// one triple (key INT, field index INT, write BOOL) per operation. A read runs
//   SELECT field<f> FROM usertable WHERE ycsb_key = $1
// and a read-modify-write runs
//   SELECT field<f> FROM usertable WHERE ycsb_key = $1 FOR UPDATE
//   UPDATE usertable SET field<f> = $2, ycsb_updates = ycsb_updates + 1 WHERE ycsb_key = $1
// with $2 the old value rotated left by one character (same length). A key
// without a row is an error (XX000), never skipped. Next draws `operations`
// distinct keys from a Zipfian distribution over the keys (key k is rank k:
// key 0 is the hottest), each operation independently a read with
// probability read_fraction, on a uniformly chosen field. With
// --hot-shift-s the ranks map to keys through a fresh permutation every
// shift (YcsbOptions::hot_shift; KeyOfRank). Transaction types:
// "ReadOnly" (every operation reads) and "ReadWrite" (at least one
// read-modify-write).
//
// Check: the table has exactly `records` rows, and Σ ycsb_updates equals the
// read-modify-writes of the committed transactions reported to OnFinished —
// a lost update or one applied twice (or an aborted one left behind) breaks
// it. So every generated transaction's outcome must be reported.
//
// Thread-safety: as Workload (workload.h): Next and OnFinished may run on
// many threads at once (the committed-write count is an atomic); Setup and
// Check run alone. Options are copied; the Database is borrowed.
#pragma once

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "engine/procedure.h"
#include "workloads/hot_set.h"
#include "workloads/workload.h"
#include "workloads/ycsb/ycsb_options.h"
#include "workloads/ycsb/zipfian_generator.h"

namespace paceline::workloads::ycsb {

class YcsbWorkload : public Workload {
 public:
  // The name of the stored procedure Setup registers.
  static constexpr const char* kProcedureName = "ycsb_transaction";
  // Indexes into TransactionTypes().
  static constexpr size_t kReadOnly = 0;
  static constexpr size_t kReadWrite = 1;

  // `options` must be valid (YcsbOptions::Validate).
  explicit YcsbWorkload(const YcsbOptions& options);

  std::string_view Name() const override { return "ycsb"; }
  const std::vector<std::string>& TransactionTypes() const override { return types_; }
  Status Setup(engine::Database* db) override;
  Status Attach(engine::Database* db) override;
  uint64_t loaded_rows() const override { return loaded_rows_; }
  void Next(Random& rng, GeneratedTransaction* out) const override;
  void OnFinished(const GeneratedTransaction& txn, const engine::TransactionResult& result) override;
  Status Check(engine::Database* db, std::string* report) const override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  HotSetClock* hot_set_clock() override { return options_.hot_shift.count() > 0 ? &clock_ : nullptr; }
  // The key Zipfian rank `rank` stands for in `epoch` (see YcsbOptions).
  uint64_t KeyOfRank(uint64_t rank, uint64_t epoch) const;

  const YcsbOptions& options() const { return options_; }
  // Read-modify-writes of the committed transactions reported so far.
  uint64_t committed_writes() const { return committed_writes_.load(std::memory_order_relaxed); }
  // The stored procedure itself (Setup registers it wrapped with the
  // statement latency): for tests.
  engine::Procedure MakeProcedure() const;

 private:
  uint64_t loaded_rows_ = 0;
  const YcsbOptions options_;
  const ZipfianGenerator zipfian_;
  const std::vector<std::string> types_{"ReadOnly", "ReadWrite"};
  std::atomic<uint64_t> committed_writes_{0};
  HotSetClock clock_;
};

}  // namespace paceline::workloads::ycsb
