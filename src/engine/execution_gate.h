// ExecutionGate: keeps schema changes apart from running statements.
//
// Every statement in flight holds the gate *shared*: a one-message
// transaction (a submitted request, an autocommit statement) from its start
// to its end, a transaction block for each of its statements and its
// commit, and binding a statement. DDL and bulk loads hold it *exclusive*:
// they wait until no statement runs, and new ones wait while one is pending
// (so DDL is not starved). What an idle transaction block keeps between its
// statements are the tables it uses (table_gates.h), which DDL enters before
// it claims this gate: DDL waits only for the blocks that use what it
// changes.
//
// The holder may leave from another thread than the one that entered
// (sessions may move between threads), so this is a counter, not a mutex.
// Entering and leaving shared without a pending exclusive holder is one
// atomic operation; waiters sleep on a condition variable (no spinning).
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace paceline::engine {

class ExecutionGate {
 public:
  // Each waits at most `timeout`; false when it could not enter.
  bool EnterShared(std::chrono::milliseconds timeout) {
    uint64_t s = state_.load(std::memory_order_relaxed);
    while (!(s & kExclusive)) {
      if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire)) return true;
    }
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] {
      uint64_t cur = state_.load(std::memory_order_relaxed);
      while (!(cur & kExclusive)) {
        if (state_.compare_exchange_weak(cur, cur + 1, std::memory_order_acquire)) return true;
      }
      return false;
    });
  }

  void LeaveShared() {
    uint64_t s = state_.fetch_sub(1, std::memory_order_acq_rel) - 1;
    if ((s & kExclusive) && (s & kCountMask) == 0) {
      // An exclusive claimant may be waiting for the count to drop to 0.
      std::lock_guard lock(mu_);
      cv_.notify_all();
    }
  }

  bool EnterExclusive(std::chrono::milliseconds timeout) { return Claim(timeout); }
  void LeaveExclusive() {
    state_.fetch_and(~kExclusive, std::memory_order_release);
    std::lock_guard lock(mu_);
    cv_.notify_all();
  }
  // Whether a schema change has claimed the gate (waiting or running).
  bool exclusive_claimed() const { return state_.load(std::memory_order_acquire) & kExclusive; }

 private:
  static constexpr uint64_t kExclusive = uint64_t{1} << 63;
  static constexpr uint64_t kCountMask = kExclusive - 1;

  // Claims the exclusive bit (new shared entries then wait), then waits
  // until no shared hold remains.
  bool Claim(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(mu_);
    bool claimed = cv_.wait_until(lock, deadline, [&] {
      // Retried while no claim is set: a statement entering or leaving on
      // the lock-free path changes the count under the CAS, and a claimant
      // that slept on that would sleep out its timeout (leaving statements
      // signal only a set claim).
      uint64_t cur = state_.load(std::memory_order_relaxed);
      while (!(cur & kExclusive)) {
        if (state_.compare_exchange_weak(cur, cur | kExclusive, std::memory_order_acquire)) return true;
      }
      return false;
    });
    if (!claimed) return false;
    bool drained = cv_.wait_until(lock, deadline, [&] {
      return (state_.load(std::memory_order_acquire) & kCountMask) == 0;
    });
    if (drained) return true;
    state_.fetch_and(~kExclusive, std::memory_order_release);
    cv_.notify_all();
    return false;
  }

  std::atomic<uint64_t> state_{0};  // exclusive bit | shared count
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace paceline::engine
