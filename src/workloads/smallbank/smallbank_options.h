// SmallbankOptions: the size, the hot set and the pacing of a SmallBank run
// (--workload=smallbank; smallbank_workload.h).
//
// Thread-safety: plain value type.
#pragma once

#include <chrono>
#include <cstdint>

#include "common/status.h"

namespace paceline::workloads::smallbank {

struct SmallbankOptions {
  uint64_t accounts = 100000;  // --smallbank-accounts: customers 0..accounts-1
  uint64_t hot_records = 50;   // --hot-records: hot customers (0: uniform)
  double hot_fraction = 0.9;   // --hot-fraction: share of customer choices on them
  std::chrono::nanoseconds hot_shift{0};  // --hot-shift-s: the hot customers move this often (0: never)
  // Waited after each statement, transaction open (statement_latency.h).
  std::chrono::microseconds statement_latency{0};  // --stmt-latency-us
  uint64_t seed = 1;  // the loader's balances and the hot sets

  // 22023 naming the flag and its valid range: accounts 2..2^31-1 (INT
  // keys; two distinct customers per payment), hot_records 0..accounts,
  // hot_fraction [0, 1], hot_shift >= 0, statement latency >= 0.
  Status Validate() const;
};

}  // namespace paceline::workloads::smallbank
