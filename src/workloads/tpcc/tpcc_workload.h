// TpccWorkload: TPC-C as a Workload — the schema (tpcc_schema.h), the
// initial population (tpcc_loader.h), the five transactions as stored
// procedures issuing SQL (new_order.h, payment.h, order_status.h,
// delivery.h, stock_level.h), drawn in the configured mix, and the
// consistency conditions 1–4 (tpcc_consistency.h).
//
// Each transaction's home warehouse is drawn uniformly (there are no
// terminals bound to warehouses): more workers than warehouses is what makes
// transactions collide on the warehouse and district rows. With
// --tpcc-hot-warehouses=K it is drawn from a HotSet instead (hot_set.h):
// --hot-fraction of the transactions go to K hot warehouses, which move
// every --hot-shift-s.
//
// Thread-safety: as Workload. Next is const and uses only the caller's rng.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "workloads/hot_set.h"
#include "workloads/tpcc/tpcc_loader.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/tpcc/tpcc_random.h"
#include "workloads/workload.h"

namespace paceline::workloads::tpcc {

class TpccWorkload : public Workload {
 public:
  // `options` must be valid (TpccOptions::Validate).
  explicit TpccWorkload(const TpccOptions& options);

  std::string_view Name() const override { return "tpcc"; }
  const std::vector<std::string>& TransactionTypes() const override { return types_; }
  Status Setup(engine::Database* db) override;
  Status Attach(engine::Database* db) override;
  uint64_t loaded_rows() const override { return load_stats_.rows; }
  void Next(Random& rng, GeneratedTransaction* out) const override;
  Status Check(engine::Database* db, std::string* report) const override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  HotSetClock* hot_set_clock() override { return hot_ && options_.hot_shift.count() > 0 ? &clock_ : nullptr; }
  // The hot warehouses' generator (indexes w_id − 1); none without
  // --tpcc-hot-warehouses.
  const std::optional<HotSet>& hot_warehouses() const { return hot_; }

  // Draws the inputs of transaction `type` for home warehouse `w_id`.
  void Draw(TpccTransaction type, Random& rng, int w_id, engine::TransactionRequest* request) const;
  const TpccLoadStats& load_stats() const { return load_stats_; }

 private:
  const TpccOptions options_;
  const TpccRandom random_;
  std::vector<std::string> types_;
  std::vector<double> cumulative_;  // the mix's cumulative weights, normalised to 1
  TpccLoadStats load_stats_;
  std::optional<HotSet> hot_;
  HotSetClock clock_;
};

}  // namespace paceline::workloads::tpcc
