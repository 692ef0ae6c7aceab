// WaitOnCondition: the wait loop of the engine's own waits (table gates,
// advisory locks): on the caller's mutex and condition variable, until
// `ready()`, the deadline, the cancel token (which the caller has
// registered a Wakeup on), or `would_deadlock()` — both checked at every
// wake-up, since what the waiter waits for changes while it waits, and the
// waiter whose wait would close a cycle is the one refused.
// WaitsForItself: that cycle check over the caller's waits-for edges.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <vector>

#include "common/cancel_token.h"

namespace paceline::engine {

enum class WaitEnd { kReady, kTimedOut, kDeadlock, kCanceled };

// Call with `lock` held and `ready()` false.
template <typename Ready, typename WouldDeadlock>
WaitEnd WaitOnCondition(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                        std::chrono::steady_clock::time_point deadline, const CancelToken* cancel, Ready ready,
                        WouldDeadlock would_deadlock) {
  for (;;) {
    if (cancel != nullptr && cancel->canceled()) return WaitEnd::kCanceled;
    if (would_deadlock()) return WaitEnd::kDeadlock;
    const bool timed_out = cv.wait_until(lock, deadline) == std::cv_status::timeout;
    if (ready()) return WaitEnd::kReady;
    if (timed_out) return WaitEnd::kTimedOut;
  }
}

// Whether `owner`, by its waits-for edges, waits for itself: `edges(o,
// &out)` appends the owners that o waits for (none when o does not wait).
template <typename Owner, typename Edges>
bool WaitsForItself(Owner owner, Edges edges) {
  std::vector<Owner> pending;
  edges(owner, &pending);
  std::set<Owner> seen;
  while (!pending.empty()) {
    Owner next = pending.back();
    pending.pop_back();
    if (next == owner) return true;
    if (seen.insert(next).second) edges(next, &pending);
  }
  return false;
}

}  // namespace paceline::engine
