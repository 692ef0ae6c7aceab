// ReferenceHash: the hash History and State give libcuckoo for reference
// keys. The engine's keys are already well-mixed 64-bit hashes, so a full
// hash function per lookup is wasted work on the scheduling hot path; one
// multiply and a fold spread any remaining structure (small integers in
// tests, keys differing in few bits) over the low bits that pick a bucket
// and the high bits libcuckoo folds into its partial key.
//
// Thread-safety: a stateless functor.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scheduler/footprint.h"

namespace paceline::scheduler {

struct ReferenceHash {
  static constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;  // 2^64 / golden ratio, odd

  size_t operator()(ReferenceKey key) const {
    const uint64_t h = key * kMultiplier;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

}  // namespace paceline::scheduler
