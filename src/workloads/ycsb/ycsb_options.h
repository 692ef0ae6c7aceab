// YcsbOptions: the table and the transaction mix of a YCSB-style run.
//
// One table, usertable, of `records` rows: an INT key 0..records-1, a BIGINT
// count of the updates applied to the row, and `fields` VARCHAR(field_length)
// columns. Each transaction touches `operations` distinct keys drawn from a
// Zipfian distribution with parameter `theta` (0: uniform; rank 0, key 0, the
// hottest); each operation reads one field, or with probability
// 1 − read_fraction reads it and writes it back changed (read-modify-write).
//
// Thread-safety: plain value type.
#pragma once

#include <chrono>
#include <cstdint>

#include "common/status.h"

namespace paceline::workloads::ycsb {

struct YcsbOptions {
  uint64_t records = 100000;  // --ycsb-records: rows, keys 0..records-1
  int fields = 10;            // --ycsb-fields: VARCHAR columns field0..
  int field_length = 100;     // --ycsb-field-length: characters per field
  int operations = 10;        // --ycsb-operations: distinct keys per transaction
  double read_fraction = 0.5;  // --ycsb-read-fraction: P(an operation only reads)
  double theta = 0.9;          // --ycsb-theta: Zipfian skew, in [0, 1)
  // Waited after each statement, transaction open (statement_latency.h).
  std::chrono::microseconds statement_latency{0};  // --stmt-latency-us
  uint64_t seed = 1;  // the loader's data and the moving hot set's permutations
  // The hot keys move this often (0: never; --hot-shift-s): in epoch e > 0
  // (hot_set.h's HotSetClock) rank r is key (a_e · r + b_e) mod records, a
  // fresh permutation per epoch (a_e coprime to records); epoch 0 keeps
  // rank r = key r.
  std::chrono::nanoseconds hot_shift{0};

  // 22023 naming the flag and its valid range when an option is out of it:
  // records 1..2^31-1 (INT keys), fields 1..100, field_length 1..10000,
  // operations 1..min(records, 1000), read_fraction [0, 1], theta [0, 1),
  // statement latency >= 0, hot_shift >= 0.
  Status Validate() const;
};

}  // namespace paceline::workloads::ycsb
