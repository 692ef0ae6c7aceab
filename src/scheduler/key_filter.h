// KeyFilter: a set of reference keys that may answer "maybe" for a key it
// never held, never "no" for one it holds — one bit per hash slot, sized
// from a capacity (rounded up to a power of two within [2^16, 2^24] bits:
// 8 KB to 2 MB). It lets a scheduler pass the many references it keeps
// nothing for without a table lookup (History: references that aborted;
// adaptive: references it tracks).
//
// Thread-safety: Add and MayContain may be called concurrently (relaxed
// atomic bit operations: a reader sees a bit set by another thread soon,
// not at once; callers that need more order it themselves). Clear must not
// race with an Add whose bit has to survive. Ownership: a plain member.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "scheduler/footprint.h"

namespace paceline::scheduler {

class KeyFilter {
 public:
  // `multiplier` (odd) picks the bit: its product's top bits, so that two
  // filters (or a hash table indexing by low bits) do not share slots.
  KeyFilter(size_t capacity, uint64_t multiplier) : shift_(64 - BitsLog2(capacity)), multiplier_(multiplier),
                                                    words_(new std::atomic<uint64_t>[Words()]) {
    Clear();
  }

  bool MayContain(ReferenceKey key) const {
    const uint64_t bit = Bit(key);
    return (words_[bit / 64].load(std::memory_order_relaxed) >> (bit % 64)) & 1;
  }
  void Add(ReferenceKey key) {
    const uint64_t bit = Bit(key);
    words_[bit / 64].fetch_or(uint64_t{1} << (bit % 64), std::memory_order_relaxed);
  }
  void Clear() {
    for (size_t w = 0; w < Words(); ++w) words_[w].store(0, std::memory_order_relaxed);
  }
  size_t Bytes() const { return Words() * sizeof(uint64_t); }

 private:
  static unsigned BitsLog2(size_t capacity) {
    unsigned log2 = 16;
    while (log2 < 24 && (size_t{1} << log2) < capacity) ++log2;
    return log2;
  }
  size_t Words() const { return (uint64_t{1} << (64 - shift_)) / 64; }
  uint64_t Bit(ReferenceKey key) const { return (key * multiplier_) >> shift_; }

  const unsigned shift_;  // 64 - log2(bits)
  const uint64_t multiplier_;
  std::unique_ptr<std::atomic<uint64_t>[]> words_;
};

}  // namespace paceline::scheduler
