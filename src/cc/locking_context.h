// LockingContext: the per-transaction state of two-phase locking — its
// phase (active, wounded, committing), the locks it holds, and the signal it
// sleeps on while it waits for a lock — plus DeadlockRule, the policy that
// decides what a requester does when a lock it wants is held:
//
//   kNoWait    ("2pl"):            abort the requester at once.
//   kWaitDie   ("2pl-wait-die"):   an older requester waits for younger
//                                  holders; a younger one dies (aborts).
//   kWoundWait ("2pl-wound-wait"): an older requester wounds (aborts) the
//                                  younger holders and waits for them to
//                                  let go; a younger requester waits.
// Age is the transaction's timestamp, kept across retries, so a transaction
// that keeps dying eventually becomes the oldest and gets through. Waits go
// only from older to younger (wait-die) or younger to older (wound-wait), so
// neither can deadlock. A waiter sleeps on a condition variable; it never
// spins (workers outnumber cores, and a spinning waiter would starve the
// descheduled holder it waits for).
//
// Thread-safety: `phase`, `Signal`, `Wound` may be used by any thread; the
// rest by the transaction's own thread. Lock order: a lock table's mutex may
// be held while taking a context's signal mutex, never the reverse; a
// CancelToken's mutex is taken before the signal mutex (Cancel → Signal).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "cc/concurrency_control.h"

namespace paceline::cc {

enum class DeadlockRule { kNoWait, kWaitDie, kWoundWait };
enum class LockMode { kShared, kExclusive };

class PredicateLockTable;

class LockingContext : public TransactionContext {
 public:
  using TransactionContext::Conflict;
  using TransactionContext::TransactionContext;

  enum Phase : int { kActive = 0, kWounded = 1, kCommitting = 2 };
  std::atomic<int> phase{kActive};

  // Row locks held, and predicate locks held (table, lock id).
  std::unordered_map<storage::Row*, LockMode> held;
  std::vector<std::pair<PredicateLockTable*, uint64_t>> predicate_locks;

  // Wakes the transaction if it waits (a lock it waits for was released).
  void Signal();
  // Wounds it unless it is already committing; wakes it if it waits, for a
  // lock or (through its CancelToken's Wakeup) outside the algorithm, for a
  // conflict lane.
  void Wound();
  // Wound without waking a wait outside the algorithm: for a caller that
  // holds the mutex such waits sleep on, and wakes them itself. True when
  // this call wounded it.
  bool WoundHere();
  // The abort of a wounded transaction (40001, AbortReason::kWounded).
  Status WoundedStatus();
  // Sleeps until Signal, a wound, a cancel (the context's CancelToken, which
  // wakes it), or `deadline`; false on timeout. The caller armed the signal
  // (ArmSignal) while holding the lock table mutex it then released, so a
  // Signal in between is not lost; then checks canceled() and wounded().
  bool WaitSignal(std::chrono::steady_clock::time_point deadline);
  void ArmSignal();
  bool wounded() const { return phase.load(std::memory_order_acquire) == kWounded; }

 private:
  std::mutex signal_mu_;
  std::condition_variable signal_cv_;
  bool signaled_ = false;
};

// What `me` does about `holders` (other transactions holding incompatible
// locks, or ahead of it in a conflict lane) under `rule`: OK means wait
// (after wounding, for wound-wait: with Wound, or with WoundHere when
// `wounded_here` is given, which it then sets when it wounded any); an
// error is the abort, naming `table` (Table::id() of what is locked) as
// its culprit. Called with the lock table's (or lane table's) mutex held.
Status Arbitrate(DeadlockRule rule, LockingContext* me, const std::vector<LockingContext*>& holders,
                 const std::string& what, TableId table, bool* wounded_here = nullptr);

}  // namespace paceline::cc
