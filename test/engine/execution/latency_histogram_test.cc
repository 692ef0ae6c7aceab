// LatencyHistogram: exact counts, mean, min and max; percentiles within the
// bucket error against exact order statistics; merge; reset; and a reader
// taking snapshots while the writer records.
#include "engine/execution/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace paceline::engine {
namespace {

// The value of rank ceil(p% · n) in sorted `values` (the definition Percentile follows).
uint64_t ExactPercentile(std::vector<uint64_t> values, double p) {
  std::sort(values.begin(), values.end());
  size_t rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(p / 100 * static_cast<double>(values.size()))));
  return values[rank - 1];
}

void ExpectPercentilesWithinError(const LatencyHistogram& histogram, const std::vector<uint64_t>& values) {
  for (double p : {1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9}) {
    const double exact = static_cast<double>(ExactPercentile(values, p));
    const double got = static_cast<double>(histogram.Percentile(p));
    EXPECT_LE(std::abs(got - exact), exact * LatencyHistogram::kRelativeError + 0.5)
        << "p" << p << ": got " << got << ", exact " << exact;
  }
}

TEST(LatencyHistogramTest, EmptyHistogramReportsZeros) {
  LatencyHistogram histogram;
  EXPECT_EQ(histogram.Count(), 0u);
  EXPECT_EQ(histogram.Mean(), 0.0);
  EXPECT_EQ(histogram.Min(), 0u);
  EXPECT_EQ(histogram.Max(), 0u);
  EXPECT_EQ(histogram.Percentile(50), 0u);
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram histogram;
  for (uint64_t v = 0; v < 64; ++v) histogram.Record(v);
  EXPECT_EQ(histogram.Count(), 64u);
  EXPECT_EQ(histogram.Min(), 0u);
  EXPECT_EQ(histogram.Max(), 63u);
  EXPECT_DOUBLE_EQ(histogram.Mean(), 31.5);
  EXPECT_EQ(histogram.Percentile(50), 31u);
  EXPECT_EQ(histogram.Percentile(0), 0u);
  EXPECT_EQ(histogram.Percentile(100), 63u);
}

TEST(LatencyHistogramTest, PercentilesOfAUniformRangeAreWithinTheBucketError) {
  LatencyHistogram histogram;
  std::vector<uint64_t> values;
  for (uint64_t v = 1; v <= 100000; ++v) {
    values.push_back(v);
    histogram.Record(v);
  }
  ExpectPercentilesWithinError(histogram, values);
  EXPECT_EQ(histogram.Max(), 100000u);
  EXPECT_DOUBLE_EQ(histogram.Mean(), 50000.5);
}

TEST(LatencyHistogramTest, PercentilesOfALogNormalSampleAreWithinTheBucketError) {
  std::mt19937_64 random(1);
  std::lognormal_distribution<double> latency(std::log(200000.0), 1.5);  // around 200 µs, long tail
  LatencyHistogram histogram;
  std::vector<uint64_t> values;
  for (int i = 0; i < 50000; ++i) {
    uint64_t v = static_cast<uint64_t>(latency(random));
    values.push_back(v);
    histogram.Record(v);
  }
  ExpectPercentilesWithinError(histogram, values);
  EXPECT_EQ(histogram.Max(), *std::max_element(values.begin(), values.end()));
  EXPECT_EQ(histogram.Min(), *std::min_element(values.begin(), values.end()));
}

TEST(LatencyHistogramTest, ExtremeValuesFit) {
  LatencyHistogram histogram;
  histogram.Record(UINT64_MAX);
  histogram.Record(uint64_t{1} << 63);
  histogram.Record(1);
  EXPECT_EQ(histogram.Count(), 3u);
  EXPECT_EQ(histogram.Max(), UINT64_MAX);
  EXPECT_EQ(histogram.Percentile(100), UINT64_MAX);
  EXPECT_EQ(histogram.Percentile(10), 1u);
  const double median = static_cast<double>(histogram.Percentile(50));
  EXPECT_NEAR(median, std::ldexp(1.0, 63), std::ldexp(1.0, 63) * LatencyHistogram::kRelativeError);
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, both;
  std::vector<uint64_t> values;
  for (uint64_t v = 1000; v < 3000; ++v) {
    (v % 3 == 0 ? a : b).Record(v * 7);
    both.Record(v * 7);
    values.push_back(v * 7);
  }
  LatencyHistogram merged;
  merged.Merge(a);
  merged.Merge(b);
  EXPECT_EQ(merged.Count(), both.Count());
  EXPECT_EQ(merged.Min(), both.Min());
  EXPECT_EQ(merged.Max(), both.Max());
  EXPECT_DOUBLE_EQ(merged.Mean(), both.Mean());
  for (double p : {5.0, 50.0, 95.0, 99.0}) EXPECT_EQ(merged.Percentile(p), both.Percentile(p)) << p;
  ExpectPercentilesWithinError(merged, values);
  merged.Merge(LatencyHistogram());  // an empty one changes nothing
  EXPECT_EQ(merged.Min(), both.Min());
}

TEST(LatencyHistogramTest, CopyIsASnapshotAndResetEmpties) {
  LatencyHistogram histogram;
  histogram.Record(500);
  LatencyHistogram copy = histogram;
  histogram.Reset();
  EXPECT_EQ(histogram.Count(), 0u);
  EXPECT_EQ(histogram.Percentile(50), 0u);
  EXPECT_EQ(histogram.Max(), 0u);
  EXPECT_EQ(copy.Count(), 1u);
  EXPECT_EQ(copy.Percentile(50), 500u);
  histogram.Record(7);
  EXPECT_EQ(histogram.Min(), 7u);
}

// CountAtMost counts the buckets wholly at or below a value: exact at a
// bucket's end (values below 64 have a bucket each; 64..65 share one, as
// do 1024..1055), short by the records of a bucket the value cuts, and
// every record at UINT64_MAX. Sum is exact.
TEST(LatencyHistogramTest, CountAtMostAndSum) {
  LatencyHistogram histogram;
  for (uint64_t v : {10, 20, 63, 64, 65, 1024, 1050, 5000000}) histogram.Record(v);
  EXPECT_EQ(histogram.CountAtMost(0), 0u);
  EXPECT_EQ(histogram.CountAtMost(9), 0u);
  EXPECT_EQ(histogram.CountAtMost(10), 1u);
  EXPECT_EQ(histogram.CountAtMost(63), 3u);
  EXPECT_EQ(histogram.CountAtMost(64), 3u);  // cuts [64, 66): 64 not counted yet
  EXPECT_EQ(histogram.CountAtMost(65), 5u);  // its end
  EXPECT_EQ(histogram.CountAtMost(1055), 7u);
  EXPECT_EQ(histogram.CountAtMost(1054), 5u);  // cuts [1024, 1056)
  EXPECT_EQ(histogram.CountAtMost(4999999), 7u);
  EXPECT_EQ(histogram.CountAtMost(UINT64_MAX), 8u);
  EXPECT_EQ(histogram.Sum(), 10u + 20 + 63 + 64 + 65 + 1024 + 1050 + 5000000);
}

// One writer records while another thread copies and queries snapshots
// (clean under ThreadSanitizer; snapshots only grow).
TEST(LatencyHistogramTest, SnapshotsWhileTheWriterRecords) {
  LatencyHistogram histogram;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (uint64_t v = 1; v <= 200000; ++v) histogram.Record(v);
    done.store(true);
  });
  uint64_t last_count = 0;
  while (!done.load()) {
    LatencyHistogram snapshot = histogram;
    EXPECT_GE(snapshot.Count(), last_count);
    EXPECT_LE(snapshot.Percentile(50), snapshot.Max() == 0 ? 0 : 200000u);
    last_count = snapshot.Count();
  }
  writer.join();
  EXPECT_EQ(histogram.Count(), 200000u);
}

}  // namespace
}  // namespace paceline::engine
