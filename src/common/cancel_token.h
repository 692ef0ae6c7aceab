// CancelToken: a request to stop the statement or transaction running now
// (PostgreSQL's CancelRequest), raised from any thread and observed by the
// running work at cheap, bounded points: the executor's row loops (every
// kCancelCheckRows rows), between the statements of a script or a submitted
// transaction, before a retry, when a queued transaction is taken up, and in
// the lock waits of the 2PL waiting variants and pg_sleep
// (SleepUnlessCanceled), which a Cancel wakes up. Work
// that observes it fails with 57014 (CanceledStatus()), rolled back like any
// failed statement; a cancel is not a conflict (no AbortReason, no retry, no
// History event).
//
// Semantics as PostgreSQL's: a cancel affects only what runs when it
// arrives. The owner calls Reset() when a new request (statement, script,
// client message) starts, so a cancel that arrived while nothing ran is
// dropped. (std::stop_source cannot be reset, hence this small class.)
//
// Waking a waiter: a thread about to block registers a Wakeup for the
// duration of its wait; Cancel() calls it, so the waiter's condition (which
// also tests canceled()) is re-evaluated at once. One waiter at a time: a
// token belongs to one session or request, run by one thread at a time.
//
// Thread-safety: Cancel, canceled, Poll and checks from any thread; Reset by
// the owner. Lock order: the token's mutex may be held while a Wakeup's
// function takes its own lock (e.g. a lock waiter's signal mutex), never the
// reverse. Ownership: the token must outlive everything that borrows it
// (Transaction, TransactionRequest).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "common/status.h"

namespace paceline {

// The executor polls its token once per this many rows visited.
inline constexpr uint32_t kCancelCheckRows = 1024;

// 57014, PostgreSQL's SQLSTATE and wording for a canceled statement.
inline Status CanceledStatus() {
  return Status(sqlstate::kQueryCanceled, "canceling statement due to user request");
}

class CancelToken {
 public:
  CancelToken() = default;
  CancelToken(const CancelToken&) = delete;
  CancelToken& operator=(const CancelToken&) = delete;

  // Requests cancellation and wakes the registered waiter, if any.
  void Cancel() {
    canceled_.store(true, std::memory_order_seq_cst);
    Wake();
  }
  // Wakes the registered waiter without canceling, so that it looks at its
  // condition again (its transaction was wounded: 2PL wound-wait).
  void Wake() const {
    std::lock_guard lock(mu_);
    if (waiter_ != nullptr) waiter_->fn_(waiter_->arg_);
  }
  // Clears the request (the owner, when new work starts).
  void Reset() { canceled_.store(false, std::memory_order_relaxed); }
  bool canceled() const { return canceled_.load(std::memory_order_relaxed); }
  // canceled(), counted in checks(): what running work calls at its
  // check points.
  bool Poll() const {
    checks_.fetch_add(1, std::memory_order_relaxed);
    return canceled();
  }
  // How many times running work has polled this token (for tests and
  // monitoring: a statement that polls is running).
  uint64_t checks() const { return checks_.load(std::memory_order_relaxed); }

  // Registers fn(arg) to be called by Cancel() while this object lives.
  // `token` may be null (then nothing is registered).
  class Wakeup {
   public:
    Wakeup(const CancelToken* token, void (*fn)(void*), void* arg) : token_(token), fn_(fn), arg_(arg) {
      if (token_ == nullptr) return;
      std::lock_guard lock(token_->mu_);
      token_->waiter_ = this;
    }
    ~Wakeup() {
      if (token_ == nullptr) return;
      std::lock_guard lock(token_->mu_);
      if (token_->waiter_ == this) token_->waiter_ = nullptr;
    }
    Wakeup(const Wakeup&) = delete;
    Wakeup& operator=(const Wakeup&) = delete;

   private:
    friend class CancelToken;
    const CancelToken* token_;
    void (*fn_)(void*);
    void* arg_;
  };

 private:
  std::atomic<bool> canceled_{false};
  mutable std::atomic<uint64_t> checks_{0};
  mutable std::mutex mu_;
  mutable Wakeup* waiter_ = nullptr;  // guarded by mu_
};

// Waits `duration` (pg_sleep) unless `cancel` (may be null) is or becomes
// canceled: then it returns 57014 at once, woken by the token's Wakeup, not
// by polling. A Wake() without a cancel does not end the wait. Blocks the
// calling thread; the token's one waiter for that long.
Status SleepUnlessCanceled(std::chrono::microseconds duration, const CancelToken* cancel);

}  // namespace paceline
