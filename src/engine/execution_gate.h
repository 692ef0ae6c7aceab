// ExecutionGate: keeps schema changes apart from running transactions.
//
// Transactions run concurrently (concurrency control orders their data
// accesses); each holds the gate *shared* from its start to its end, and
// binding a statement holds it shared too. DDL and bulk loads hold it
// *exclusive*: they wait until no transaction runs, and new transactions
// wait while one is pending (so DDL is not starved). A session inside a
// transaction block upgrades its shared hold to run DDL.
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
    if ((s & kExclusive) && (s & kCountMask) <= 1) {
      // An exclusive claimant may be waiting for the count to drop (to 0,
      // or to 1 when it upgrades its own hold).
      std::lock_guard lock(mu_);
      cv_.notify_all();
    }
  }

  bool EnterExclusive(std::chrono::milliseconds timeout) { return Claim(timeout, 0) == Outcome::kEntered; }
  void LeaveExclusive() { Release(); }
  // For a holder of one shared hold: becomes exclusive (still counted as
  // one shared hold), waiting for every other holder to leave. kDeadlock at
  // once when another claimant holds the exclusive bit: it waits for every
  // shared hold to leave, this one included, and this one would wait for
  // its bit (two blocks that each run DDL, or a block's DDL behind another
  // session's).
  enum class Outcome { kEntered, kTimedOut, kDeadlock };
  Outcome Upgrade(std::chrono::milliseconds timeout) { return Claim(timeout, 1); }
  void Downgrade() { Release(); }
  // Whether a schema change has claimed the gate (waiting or running).
  bool exclusive_claimed() const { return state_.load(std::memory_order_acquire) & kExclusive; }

 private:
  static constexpr uint64_t kExclusive = uint64_t{1} << 63;
  static constexpr uint64_t kCountMask = kExclusive - 1;

  // Claims the exclusive bit (new shared entries then wait), then waits
  // until only `own` shared holds remain.
  Outcome Claim(std::chrono::milliseconds timeout, uint64_t own) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::unique_lock lock(mu_);
    if (own > 0 && (state_.load(std::memory_order_acquire) & kExclusive)) return Outcome::kDeadlock;
    bool claimed = cv_.wait_until(lock, deadline, [&] {
      uint64_t cur = state_.load(std::memory_order_relaxed);
      return !(cur & kExclusive) && state_.compare_exchange_strong(cur, cur | kExclusive, std::memory_order_acquire);
    });
    if (!claimed) return Outcome::kTimedOut;
    bool drained = cv_.wait_until(lock, deadline, [&] {
      return (state_.load(std::memory_order_acquire) & kCountMask) == own;
    });
    if (drained) return Outcome::kEntered;
    state_.fetch_and(~kExclusive, std::memory_order_release);
    cv_.notify_all();
    return Outcome::kTimedOut;
  }

  void Release() {
    state_.fetch_and(~kExclusive, std::memory_order_release);
    std::lock_guard lock(mu_);
    cv_.notify_all();
  }

  std::atomic<uint64_t> state_{0};  // exclusive bit | shared count
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace paceline::engine
