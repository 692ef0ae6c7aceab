// ZipfianGenerator: Gray et al.'s constant-time Zipfian draw (see the header).
#include "workloads/ycsb/zipfian_generator.h"

#include <cassert>
#include <cmath>

namespace paceline::workloads::ycsb {

namespace {

// zeta(n, theta) = Σ_{i=1..n} 1/i^theta, summed from the smallest term up
// (fewer rounding errors for large n).
double Zeta(uint64_t n, double theta) {
  double sum = 0;
  for (uint64_t i = n; i >= 1; --i) sum += 1.0 / std::pow(static_cast<double>(i), theta);
  return sum;
}

// A uniform double in [0, 1) from the top 53 bits of one draw (never 1.0,
// and the same on every platform, unlike std::uniform_real_distribution).
double Uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace

ZipfianGenerator::ZipfianGenerator(uint64_t n, double theta) : n_(n), theta_(theta) {
  assert(n >= 1);
  assert(theta >= 0 && theta < 1);
  zeta_n_ = Zeta(n, theta);
  alpha_ = 1.0 / (1.0 - theta);
  second_threshold_ = 1.0 + std::pow(0.5, theta);
  // With n <= 2 every draw is decided by the two thresholds (zeta(n) <=
  // zeta(2) = second_threshold_), and the formula would divide by zero.
  eta_ = n > 2 ? (1.0 - std::pow(2.0 / static_cast<double>(n), 1.0 - theta)) / (1.0 - second_threshold_ / zeta_n_)
               : 0.0;
}

uint64_t ZipfianGenerator::Next(std::mt19937_64& rng) const {
  const double u = Uniform01(rng);
  const double uz = u * zeta_n_;
  if (uz < 1.0) return 0;
  if (uz < second_threshold_) return n_ > 1 ? 1 : 0;
  const auto rank = static_cast<uint64_t>(static_cast<double>(n_) * std::pow(eta_ * u - eta_ + 1.0, alpha_));
  return rank < n_ ? rank : n_ - 1;  // u < 1 keeps it below n but for rounding
}

double ZipfianGenerator::Probability(uint64_t rank) const {
  return 1.0 / std::pow(static_cast<double>(rank + 1), theta_) / zeta_n_;
}

}  // namespace paceline::workloads::ycsb
