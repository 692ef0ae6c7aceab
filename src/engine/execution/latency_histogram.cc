// LatencyHistogram: bucket arithmetic, recording, merging and percentiles.
//
// Bucket index of v: v itself below 2·32; otherwise, with s = msb(v) − 5 (so
// that v >> s is in [32, 64)), s·32 + (v >> s). Consecutive ranges meet: 63
// → 63, 64 → 1·32 + 32 = 64. The bucket then covers
// [(v >> s) << s, ((v >> s) + 1) << s).
#include "engine/execution/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace paceline::engine {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

size_t LatencyHistogram::BucketOf(uint64_t ns) {
  if (ns < 2 * kSubBuckets) return static_cast<size_t>(ns);
  const int shift = (63 - std::countl_zero(ns)) - kSubBucketBits;
  return static_cast<size_t>(shift) * kSubBuckets + static_cast<size_t>(ns >> shift);
}

uint64_t LatencyHistogram::BucketMidpoint(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const size_t shift = index / kSubBuckets - 1;
  const uint64_t top = kSubBuckets + index % kSubBuckets;
  const uint64_t width = uint64_t{1} << shift;
  return (top << shift) + (width - 1) / 2;
}

void LatencyHistogram::Record(uint64_t ns) {
  buckets_[BucketOf(ns)].fetch_add(1, kRelaxed);
  count_.fetch_add(1, kRelaxed);
  sum_.fetch_add(ns, kRelaxed);
  // Single writer: a plain load-compare-store suffices.
  if (ns < min_.load(kRelaxed)) min_.store(ns, kRelaxed);
  if (ns > max_.load(kRelaxed)) max_.store(ns, kRelaxed);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) {
    const uint64_t n = other.buckets_[i].load(kRelaxed);
    if (n != 0) buckets_[i].fetch_add(n, kRelaxed);
  }
  count_.fetch_add(other.count_.load(kRelaxed), kRelaxed);
  sum_.fetch_add(other.sum_.load(kRelaxed), kRelaxed);
  const uint64_t other_min = other.min_.load(kRelaxed);
  const uint64_t other_max = other.max_.load(kRelaxed);
  if (other_min < min_.load(kRelaxed)) min_.store(other_min, kRelaxed);
  if (other_max > max_.load(kRelaxed)) max_.store(other_max, kRelaxed);
}

void LatencyHistogram::Reset() {
  for (std::atomic<uint64_t>& bucket : buckets_) bucket.store(0, kRelaxed);
  count_.store(0, kRelaxed);
  sum_.store(0, kRelaxed);
  min_.store(UINT64_MAX, kRelaxed);
  max_.store(0, kRelaxed);
}

void LatencyHistogram::CopyFrom(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) buckets_[i].store(other.buckets_[i].load(kRelaxed), kRelaxed);
  count_.store(other.count_.load(kRelaxed), kRelaxed);
  sum_.store(other.sum_.load(kRelaxed), kRelaxed);
  min_.store(other.min_.load(kRelaxed), kRelaxed);
  max_.store(other.max_.load(kRelaxed), kRelaxed);
}

uint64_t LatencyHistogram::CountAtMost(uint64_t ns) const {
  const size_t end = ns == UINT64_MAX ? kBuckets : BucketOf(ns + 1);  // buckets before it end at or below ns
  uint64_t n = 0;
  for (size_t i = 0; i < end; ++i) n += buckets_[i].load(kRelaxed);
  return n;
}

double LatencyHistogram::Mean() const {
  const uint64_t count = Count();
  return count == 0 ? 0.0 : static_cast<double>(sum_.load(kRelaxed)) / static_cast<double>(count);
}

uint64_t LatencyHistogram::Min() const {
  const uint64_t min = min_.load(kRelaxed);
  return min == UINT64_MAX && Count() == 0 ? 0 : min;
}

uint64_t LatencyHistogram::Percentile(double p) const {
  if (Count() == 0) return 0;
  if (!(p > 0)) return Min();  // also NaN
  if (p >= 100) return Max();
  // Rank from the buckets themselves, so that the walk below reaches it even
  // when Count() and the buckets disagree (a record in flight).
  uint64_t total = 0;
  for (const std::atomic<uint64_t>& bucket : buckets_) total += bucket.load(kRelaxed);
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p / 100 * static_cast<double>(total))));
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += buckets_[i].load(kRelaxed);
    if (seen >= rank) return std::clamp(BucketMidpoint(i), Min(), std::max(Min(), Max()));
  }
  return Max();  // only when a concurrent Reset emptied buckets under the walk
}

}  // namespace paceline::engine
