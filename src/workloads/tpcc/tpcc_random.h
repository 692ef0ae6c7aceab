// TpccRandom: the random input and data generation rules of the TPC-C
// specification (§2.1.5, §2.1.6, §4.3.2): uniform integers and fixed-point
// amounts, NURand(A, x, y) with its per-run constants C, customer last names
// built from syllables, and alphanumeric/numeric strings.
//
// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y − x + 1)) + x.
// C is drawn once per run for each A (255: last names, 1023: customer ids,
// 8191: item ids). The C used for last names at run time differs from the one
// used when loading by a delta in [65, 119] other than 96 and 112 (§2.1.6.1).
//
// Thread-safety: immutable after construction; every method takes the
// caller's Random.
#pragma once

#include <cstdint>
#include <string>

#include "workloads/workload.h"

namespace paceline::workloads::tpcc {

class TpccRandom {
 public:
  // Draws the C constants from `seed`.
  explicit TpccRandom(uint64_t seed);

  // Uniform in [lo, hi].
  static int64_t Uniform(Random& rng, int64_t lo, int64_t hi);
  // NURand with the run-time constants (A ∈ {255, 1023, 8191}).
  int64_t NURand(Random& rng, int64_t a, int64_t x, int64_t y) const;
  // NURand(255, 0, 999) with the loader's C (the initial customers' names).
  int64_t NURandLastNameForLoad(Random& rng) const;

  // The last name of number n in [0, 999]: three syllables chosen by its
  // digits (BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING), "BARBARBAR"
  // for 0.
  static std::string LastName(int n);
  // A random string of letters and digits, its length uniform in [lo, hi].
  static std::string AlphaString(Random& rng, int lo, int hi);
  // A random string of digits, its length uniform in [lo, hi].
  static std::string NumericString(Random& rng, int lo, int hi);
  // AlphaString(lo, hi) that in 10% of cases holds "ORIGINAL" at a random
  // position (item and stock data, §4.3.3.1).
  static std::string DataString(Random& rng, int lo, int hi);
  // A zip code: 4 random digits then "11111".
  static std::string Zip(Random& rng);

  int64_t c_last_load() const { return c_last_load_; }
  int64_t c_last_run() const { return c_last_run_; }
  int64_t c_id() const { return c_id_; }
  int64_t ol_i_id() const { return ol_i_id_; }

 private:
  int64_t c_last_load_;
  int64_t c_last_run_;
  int64_t c_id_;
  int64_t ol_i_id_;
};

}  // namespace paceline::workloads::tpcc
