// ExecutionGate: admits one transaction at a time into the engine.
//
// Until the concurrency-control layer lands, transactions are serial: a
// transaction (a one-shot request, an autocommit statement, or an explicit
// BEGIN .. COMMIT block) holds the gate from its first statement to its end.
// The holder may leave from another thread than the one that entered
// (sessions may move between threads), so this is a flag, not a mutex.
// Entering and leaving an uncontended gate are single atomic operations;
// waiters sleep on a condition variable (no spinning, no syscall when nobody
// waits).
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace paceline::engine {

class ExecutionGate {
 public:
  // Waits at most `timeout`; false when it could not enter.
  bool Enter(std::chrono::milliseconds timeout) {
    bool expected = false;
    if (held_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return true;
    std::unique_lock lock(mu_);
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    bool entered = cv_.wait_for(lock, timeout, [&] {
      bool free = false;
      return held_.compare_exchange_strong(free, true, std::memory_order_seq_cst);
    });
    waiters_.fetch_sub(1, std::memory_order_seq_cst);
    return entered;
  }

  void Leave() {
    // A waiter counts itself before it tests the flag (all seq_cst): if its
    // test saw the gate held, this load sees its count and wakes it; taking
    // mu_ makes the notify wait until it actually sleeps.
    held_.store(false, std::memory_order_seq_cst);
    if (waiters_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard lock(mu_);
      cv_.notify_one();
    }
  }

 private:
  std::atomic<bool> held_{false};
  std::atomic<int> waiters_{0};
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace paceline::engine
