// SplitMix64: a tiny, fast pseudo-random generator (Steele, Lea and Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014) for choices
// that need to be cheap and well spread, not cryptographic: a random run
// queue, a random steal victim. Mix() alone is a good 64-bit finalizer for
// deriving independent seeds (seed ^ Mix(stream)).
//
// Thread-safety: a generator is a plain value; give each thread its own.
#pragma once

#include <cstddef>
#include <cstdint>

namespace paceline {

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(uint64_t seed) : state_(seed) {}

  // The finalizer: a bijection on 64 bits that spreads every input bit.
  static constexpr uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  constexpr uint64_t Next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return Mix(state_);
  }

  // Uniform in [0, n) for n > 0 (Lemire's multiply-shift; bias < n / 2^64).
  size_t Below(size_t n) {
    return static_cast<size_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }

 private:
  uint64_t state_;
};

}  // namespace paceline
