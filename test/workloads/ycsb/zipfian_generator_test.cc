// ZipfianGenerator: the distribution it draws from (fixed seeds, generous
// statistical thresholds: deterministic, never flaky).
#include "workloads/ycsb/zipfian_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace paceline::workloads::ycsb {
namespace {

std::vector<uint64_t> Histogram(const ZipfianGenerator& zipf, uint64_t draws, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> counts(zipf.n(), 0);
  for (uint64_t i = 0; i < draws; ++i) {
    uint64_t rank = zipf.Next(rng);
    EXPECT_LT(rank, zipf.n());
    if (rank >= zipf.n()) return counts;
    ++counts[rank];
  }
  return counts;
}

TEST(ZipfianGeneratorTest, ThetaZeroIsUniform) {
  constexpr uint64_t kKeys = 100;
  constexpr uint64_t kDraws = 200000;
  ZipfianGenerator zipf(kKeys, 0.0);
  for (uint64_t r = 0; r < kKeys; ++r) EXPECT_DOUBLE_EQ(zipf.Probability(r), 1.0 / kKeys);
  std::vector<uint64_t> counts = Histogram(zipf, kDraws, 7);
  // Pearson's chi-square against uniform, 99 degrees of freedom: the 99.99th
  // percentile is about 160; a skewed generator lands in the thousands.
  const double expected = static_cast<double>(kDraws) / kKeys;
  double chi2 = 0;
  for (uint64_t c : counts) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 160.0);
}

TEST(ZipfianGeneratorTest, ProbabilitiesSumToOneAndDecrease) {
  for (double theta : {0.0, 0.5, 0.9, 0.99}) {
    ZipfianGenerator zipf(1000, theta);
    double sum = 0;
    for (uint64_t r = 0; r < zipf.n(); ++r) {
      sum += zipf.Probability(r);
      if (r > 0) {
        EXPECT_LE(zipf.Probability(r), zipf.Probability(r - 1));
      }
    }
    EXPECT_NEAR(sum, 1.0, 1e-9) << "theta " << theta;
  }
}

// Ranks 0 and 1 are drawn with their exact Zipfian probability; the next
// ranks follow Gray et al.'s continuous approximation, which over-weights
// them by a known amount (rank 2 by ~17% at theta 0.99, n 1000), shrinking
// with the rank. The tolerances say so.
TEST(ZipfianGeneratorTest, SkewedFrequenciesMatchZipf) {
  constexpr uint64_t kDraws = 1000000;
  ZipfianGenerator zipf(1000, 0.99);
  std::vector<uint64_t> counts = Histogram(zipf, kDraws, 11);
  for (uint64_t rank = 0; rank < 10; ++rank) {
    const double observed = static_cast<double>(counts[rank]) / kDraws;
    const double expected = zipf.Probability(rank);
    const double tolerance = rank < 2 ? 0.03 : rank < 5 ? 0.20 : 0.08;
    EXPECT_NEAR(observed / expected, 1.0, tolerance) << "rank " << rank << ": " << observed << " vs " << expected;
  }
  // Mean frequency per rank over buckets [0], [1], [2, 4), [4, 8), ...:
  // never increasing (single ranks far in the tail are too noisy to compare).
  double previous = 1.0;
  for (uint64_t lo = 0, hi = 1; lo < zipf.n(); lo = hi, hi = std::min<uint64_t>(zipf.n(), hi * 2)) {
    uint64_t total = 0;
    for (uint64_t r = lo; r < hi; ++r) total += counts[r];
    const double mean = static_cast<double>(total) / kDraws / static_cast<double>(hi - lo);
    EXPECT_LE(mean, previous) << "ranks [" << lo << ", " << hi << ")";
    EXPECT_GT(mean, 0.0) << "ranks [" << lo << ", " << hi << ")";
    previous = mean;
  }
  // The hottest rank: theta 0.99 over 1000 items gives it about 13%.
  EXPECT_NEAR(static_cast<double>(counts[0]) / kDraws, 0.1294, 0.003);
}

TEST(ZipfianGeneratorTest, DrawsStayInRange) {
  for (uint64_t n : {1, 2, 3, 10, 12345}) {
    for (double theta : {0.0, 0.5, 0.99, 0.999}) {
      ZipfianGenerator zipf(n, theta);
      std::mt19937_64 rng(n * 31 + static_cast<uint64_t>(theta * 1000));
      for (int i = 0; i < 20000; ++i) ASSERT_LT(zipf.Next(rng), n) << "n " << n << " theta " << theta;
    }
  }
}

TEST(ZipfianGeneratorTest, TwoItemsFollowExactProbabilities) {
  ZipfianGenerator zipf(2, 0.9);
  std::vector<uint64_t> counts = Histogram(zipf, 200000, 3);
  EXPECT_NEAR(static_cast<double>(counts[0]) / 200000, zipf.Probability(0), 0.005);
  EXPECT_NEAR(zipf.Probability(0) + zipf.Probability(1), 1.0, 1e-12);
}

TEST(ZipfianGeneratorTest, SameSeedSameDraws) {
  ZipfianGenerator zipf(1000, 0.9);
  std::mt19937_64 a(5), b(5);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(zipf.Next(a), zipf.Next(b));
}

}  // namespace
}  // namespace paceline::workloads::ycsb
