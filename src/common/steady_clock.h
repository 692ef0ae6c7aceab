// SteadyNowNs: the monotonic clock (std::chrono::steady_clock) now, in
// nanoseconds since its epoch: for durations and deadlines measured across
// threads as plain integers (atomics, histograms). Never a wall time.
#pragma once

#include <chrono>
#include <cstdint>

namespace paceline {

inline int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace paceline
