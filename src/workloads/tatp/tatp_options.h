// TatpOptions: the database size and the access skew of a TATP run
// (Telecom Application Transaction Processing benchmark, --workload=tatp).
//
// `subscribers` subscribers, s_id 1..subscribers, each with its access_info,
// special_facility and call_forwarding rows (tatp_workload.h). Every
// transaction picks its subscriber from a HotSet (hot_set.h): a share
// `hot_fraction` of the transactions falls on `hot_records` hot subscribers,
// which move to a new random set every `hot_shift` (0: they never move).
//
// Thread-safety: plain value type.
#pragma once

#include <chrono>
#include <cstdint>

#include "common/status.h"

namespace paceline::workloads::tatp {

struct TatpOptions {
  uint64_t subscribers = 100000;  // --tatp-subscribers: s_id 1..subscribers
  uint64_t hot_records = 20;      // --hot-records: hot subscribers, 0..subscribers
  double hot_fraction = 0.9;      // --hot-fraction: share of transactions on them
  // --hot-shift-s: the hot subscribers move this often (0: never).
  std::chrono::nanoseconds hot_shift{0};
  // Waited after each statement, transaction open (statement_latency.h).
  std::chrono::microseconds statement_latency{0};  // --stmt-latency-us
  uint64_t seed = 1;  // the loader's data and the hot sets

  // 22023 naming the flag and its valid range when an option is out of it:
  // subscribers 1..10,000,000, hot_records 0..subscribers, hot_fraction
  // [0, 1], hot_shift >= 0, statement latency >= 0.
  Status Validate() const;
};

}  // namespace paceline::workloads::tatp
