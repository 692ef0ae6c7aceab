// LatencyHistogram: a log-bucketed histogram of durations in nanoseconds,
// for percentiles of transaction latency and queue wait.
//
// Buckets: values below 64 have a bucket each; above, every power of two is
// split into 32 equal sub-buckets, so a bucket is at most 1/32 of its lower
// bound wide and a percentile (the bucket's midpoint, clamped to the exact
// Min and Max) is within kRelativeError (1/64, about 1.6%) of a recorded
// value of that rank. The whole uint64_t range fits in 1920 buckets (15 KiB).
// Count, Mean (from the exact sum), Min and Max are exact.
//
// Thread-safety: one writer at a time (Record, Merge; in the engine, the
// histogram's worker) and any number of concurrent readers. Every field is a
// relaxed atomic, so reading while the writer records is race-free; a reader
// may see a record half applied (in its bucket, not yet in Count), so a
// snapshot taken while recording is off by the records in flight. Copying
// takes such a snapshot. Reset may be called from any thread: it is exact
// when no Record runs meanwhile, and otherwise may keep part of that record.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace paceline::engine {

class LatencyHistogram {
 public:
  static constexpr double kRelativeError = 1.0 / 64;

  LatencyHistogram() = default;
  LatencyHistogram(const LatencyHistogram& other) { CopyFrom(other); }
  LatencyHistogram& operator=(const LatencyHistogram& other) {
    if (this != &other) CopyFrom(other);
    return *this;
  }

  void Record(uint64_t ns);
  // Adds every record of `other` (which may be written concurrently).
  void Merge(const LatencyHistogram& other);
  void Reset();

  uint64_t Count() const { return count_.load(std::memory_order_relaxed); }
  // Sum of the recorded values in ns (exact, wrapping past 2^64).
  uint64_t Sum() const { return sum_.load(std::memory_order_relaxed); }
  // Records in the buckets that lie wholly at or below `ns`: a lower bound
  // on the records <= ns, exact when ns ends a bucket, else short by those
  // in (ns's bucket start, ns] (a bucket is at most 1/32 of its start
  // wide). Monotone in ns; CountAtMost(UINT64_MAX) is every record. For
  // cumulative histogram buckets (Prometheus's `le`).
  uint64_t CountAtMost(uint64_t ns) const;
  // Arithmetic mean in ns; 0 when empty.
  double Mean() const;
  // Smallest and largest recorded values; 0 when empty.
  uint64_t Min() const;
  uint64_t Max() const { return max_.load(std::memory_order_relaxed); }
  // The value at percentile `p` in [0, 100] (clamped): the smallest bucket
  // holding at least p% of the records; 0 when empty. Percentile(0) is Min(),
  // Percentile(100) is Max().
  uint64_t Percentile(double p) const;

 private:
  static constexpr int kSubBucketBits = 5;                   // 32 sub-buckets per power of two
  static constexpr size_t kSubBuckets = size_t{1} << kSubBucketBits;
  static constexpr size_t kBuckets = (64 - kSubBucketBits + 1) * kSubBuckets;  // 1920

  static size_t BucketOf(uint64_t ns);
  // The midpoint of bucket `index`'s range of values.
  static uint64_t BucketMidpoint(size_t index);

  void CopyFrom(const LatencyHistogram& other);

  std::array<std::atomic<uint64_t>, kBuckets> buckets_{};
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_{0};
  std::atomic<uint64_t> min_{UINT64_MAX};
  std::atomic<uint64_t> max_{0};
};

}  // namespace paceline::engine
