// TatpWorkload: the Telecom Application Transaction Processing benchmark
// (TATP) as a Workload (--workload=tatp): a home location register of
// mobile subscribers, read-mostly, with short transactions on one
// subscriber each.
//
// Schema (the spec's, with its types mapped to ours; every s_id is one
// canonical domain through the foreign keys, so "s_id" is a partition
// domain):
//   subscriber (s_id INT PRIMARY KEY, sub_nbr VARCHAR(15) NOT NULL UNIQUE,
//     bit_1..bit_10, hex_1..hex_10, byte2_1..byte2_10 SMALLINT,
//     msc_location INT, vlr_location INT)
//   access_info (s_id INT REFERENCES subscriber, ai_type SMALLINT,
//     data1 SMALLINT, data2 SMALLINT, data3 VARCHAR(3), data4 VARCHAR(5),
//     PRIMARY KEY (s_id, ai_type))
//   special_facility (s_id INT REFERENCES subscriber, sf_type SMALLINT,
//     is_active SMALLINT, error_cntrl SMALLINT, data_a SMALLINT,
//     data_b VARCHAR(5), PRIMARY KEY (s_id, sf_type))
//   call_forwarding (s_id INT, sf_type SMALLINT, start_time SMALLINT,
//     end_time SMALLINT, numberx VARCHAR(15),
//     PRIMARY KEY (s_id, sf_type, start_time),
//     FOREIGN KEY (s_id, sf_type) REFERENCES special_facility)
// (the engine records foreign keys without enforcing them: Check does).
//
// Population (from TatpOptions::seed, through Database::BulkLoad in chunks
// of subscribers): s_id 1..N, sub_nbr s_id as 15 digits; bits 0/1, hex
// 0..15, byte2 0..255, locations 1..2^31-1. Per subscriber 1–4 access_info
// rows of distinct ai_type in 1..4 (data1, data2 0..255, data3 3 and data4 5
// uppercase letters) and 1–4 special_facility rows of distinct sf_type in
// 1..4 (is_active 1 with probability 85%, else 0; error_cntrl, data_a
// 0..255; data_b 5 uppercase letters); per special facility 0–3
// call_forwarding rows of distinct start_time in {0, 8, 16}, end_time =
// start_time + 1..8, numberx 15 random digits.
//
// Transactions: the spec's seven in its mix (tatp_procedures.h). Each draws
// its subscriber from a HotSet (hot_set.h; --hot-records, --hot-fraction,
// moving every --hot-shift-s by hot_set_clock()), s_id = key + 1; the
// transactions that take a sub_nbr get that subscriber's.
//
// Check: subscriber count = --tatp-subscribers; access_info and
// special_facility counts as loaded (no transaction changes them);
// call_forwarding count = loaded + committed InsertCallForwarding −
// committed DeleteCallForwarding (so every generated transaction's outcome
// must be reported to OnFinished); no access_info or special_facility row
// without its subscriber, no call_forwarding row without its special
// facility (s_id, sf_type); ai_type and sf_type in 1..4; start_time in
// {0, 8, 16} and end_time > start_time. After Attach (a recovered
// database), "as loaded" means as found by Attach.
//
// Thread-safety: as Workload (workload.h): Next and OnFinished may run on
// many threads at once (the committed insert and delete counts are atomics,
// the hot set is thread-safe); Setup, Attach and Check run alone. Options
// are copied; the Database is borrowed.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "workloads/hot_set.h"
#include "workloads/tatp/tatp_options.h"
#include "workloads/tatp/tatp_procedures.h"
#include "workloads/workload.h"

namespace paceline::workloads::tatp {

// Rows per table.
struct TatpRowCounts {
  uint64_t subscriber = 0;
  uint64_t access_info = 0;
  uint64_t special_facility = 0;
  uint64_t call_forwarding = 0;

  uint64_t total() const { return subscriber + access_info + special_facility + call_forwarding; }
};

class TatpWorkload : public Workload {
 public:
  // `options` must be valid (TatpOptions::Validate).
  explicit TatpWorkload(const TatpOptions& options);

  std::string_view Name() const override { return "tatp"; }
  const std::vector<std::string>& TransactionTypes() const override { return types_; }
  Status Setup(engine::Database* db) override;
  Status Attach(engine::Database* db) override;
  uint64_t loaded_rows() const override { return loaded_rows_; }
  void Next(Random& rng, GeneratedTransaction* out) const override;
  void OnFinished(const GeneratedTransaction& txn, const engine::TransactionResult& result) override;
  Status Check(engine::Database* db, std::string* report) const override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  HotSetClock* hot_set_clock() override { return options_.hot_shift.count() == 0 ? nullptr : &clock_; }

  const TatpOptions& options() const { return options_; }
  // The rows per table when the run started: loaded by Setup, or found by
  // Attach.
  const TatpRowCounts& initial_rows() const { return initial_; }
  // Committed InsertCallForwarding and DeleteCallForwarding transactions
  // reported to OnFinished so far.
  uint64_t committed_inserts() const { return committed_inserts_.load(std::memory_order_relaxed); }
  uint64_t committed_deletes() const { return committed_deletes_.load(std::memory_order_relaxed); }

 private:
  Status CreateSchema(engine::Database* db) const;
  // Fills the empty schema; counts the rows into initial_.
  Status Load(engine::Database* db);
  Status RegisterProcedures(engine::Database* db) const;

  const TatpOptions options_;
  const HotSet hot_;
  HotSetClock clock_;
  std::vector<std::string> types_;
  uint64_t loaded_rows_ = 0;
  TatpRowCounts initial_;
  std::atomic<uint64_t> committed_inserts_{0};
  std::atomic<uint64_t> committed_deletes_{0};
};

}  // namespace paceline::workloads::tatp
