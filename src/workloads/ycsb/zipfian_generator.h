// ZipfianGenerator: draws item ranks in [0, n) with P(rank i) ∝ 1/(i+1)^theta,
// by the method of Gray et al., "Quickly Generating Billion-Record Synthetic
// Databases" (SIGMOD 1994), exactly as YCSB's ZipfianGenerator uses it:
// zeta(n, theta) = Σ_{i=1..n} 1/i^theta is computed once (O(n)) in the
// constructor, then each draw is O(1):
//
//   u ← uniform [0, 1);  uz ← u · zeta(n)
//   uz < 1                → rank 0
//   uz < 1 + 0.5^theta    → rank 1
//   otherwise             → ⌊n · (eta·u − eta + 1)^alpha⌋
//   alpha = 1/(1 − theta),  eta = (1 − (2/n)^(1−theta)) / (1 − zeta(2)/zeta(n))
//
// Ranks 0 and 1 get exactly their Zipfian probability; the rest follow a
// continuous approximation of the tail, which is close for large ranks but
// over-weights the next few (for theta = 0.99, n = 1000: rank 2 by ~17%,
// rank 3 by ~10%, rank 5 by ~5%, rank 10 by ~1%), as in YCSB itself.
// Probability() gives the exact Zipfian value, not the approximation's.
//
// theta = 0 is the uniform distribution; theta must be in [0, 1) (the
// formula divides by 1 − theta; YcsbOptions::Validate rejects the rest).
// Rank 0 is the hottest item: ranks are not scrambled (YCSB's
// ScrambledZipfianGenerator hashes them); callers that want the hot items
// spread over the key space map ranks to keys themselves.
//
// Thread-safety: immutable after construction; Next is const and draws only
// from the caller's generator, so one instance serves many threads, each
// with its own Random.
#pragma once

#include <cstdint>
#include <random>

namespace paceline::workloads::ycsb {

class ZipfianGenerator {
 public:
  // n >= 1 items, 0 <= theta < 1 (checked by assert).
  ZipfianGenerator(uint64_t n, double theta);

  // A rank in [0, n), from one draw of `rng` (workloads::Random, workload.h,
  // is this type).
  uint64_t Next(std::mt19937_64& rng) const;

  // The exact Zipfian probability of `rank` (< n): 1/(rank+1)^theta / zeta(n).
  double Probability(uint64_t rank) const;

  uint64_t n() const { return n_; }
  double theta() const { return theta_; }

 private:
  const uint64_t n_;
  const double theta_;
  double zeta_n_;             // zeta(n, theta)
  double alpha_;              // 1 / (1 - theta)
  double eta_;                // see above; unused when n <= 2
  double second_threshold_;   // 1 + 0.5^theta: uz below it (and >= 1) is rank 1
};

}  // namespace paceline::workloads::ycsb
