// AdvisoryLockTable: the database's advisory locks (pg_advisory_lock & co.,
// see sql/advisory_lock_access.h for their semantics), keyed by the
// application's keys, held by owners (sessions).
//
// Algorithm. Each key has, per owner, counts of its holds by mode
// (shared, exclusive) and scope (session, transaction). A request
// conflicts with another owner's exclusive hold, and an exclusive request
// with any other owner's hold; an owner never conflicts with itself.
// A waiter waits on one condition variable until no conflict remains, its
// deadline passes (kTimedOut), its cancel token fires (kCanceled), or
// waiting would close a cycle (kDeadlock): waits-for edges go from a waiter
// to the owners holding its key in a conflicting mode, and the waiter that
// would close a cycle is refused, checked at every wake-up. Only advisory
// waits are in this graph: a cycle through a row lock or a table gate
// ends at that wait's own timeout.
//
// Thread-safety: every method may be called concurrently (one mutex).
// Owners are opaque pointers used by one thread at a time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "common/cancel_token.h"
#include "sql/advisory_lock_access.h"

namespace paceline::engine {

class AdvisoryLockTable {
 public:
  using Owner = const void*;
  using Key = sql::AdvisoryLockAccess::Key;
  using Clock = std::chrono::steady_clock;
  enum class Outcome { kAcquired, kBusy, kTimedOut, kDeadlock, kCanceled };

  AdvisoryLockTable() = default;
  AdvisoryLockTable(const AdvisoryLockTable&) = delete;
  AdvisoryLockTable& operator=(const AdvisoryLockTable&) = delete;

  // Takes one hold of `key` for `owner`. Without `wait`: kAcquired or
  // kBusy at once. With it: kAcquired, or how the wait ended.
  Outcome Lock(Owner owner, Key key, bool shared, bool transaction, bool wait, Clock::time_point deadline,
               const CancelToken* cancel);
  // Gives back one hold of `key` of the scope (session-level by default;
  // a transaction-level one when a savepoint rolls back past its taking);
  // false when there is none.
  bool Unlock(Owner owner, Key key, bool shared, bool transaction = false);
  // Gives back every hold of one scope (a transaction's at its end; a
  // session's at pg_advisory_unlock_all), or both (the session closes).
  void Release(Owner owner, bool session, bool transaction);
  // Holds of `owner` on `key` in either mode and scope (tests, monitoring).
  int HoldsOf(Owner owner, Key key) const;
  // How many owners wait now (tests, monitoring).
  size_t Waiting() const;
  // Every hold and every wait now (pg_locks): one entry per owner, key and
  // mode held, and one per waiting owner (granted false).
  struct LockState {
    Owner owner;
    Key key;
    bool exclusive;
    bool granted;
  };
  std::vector<LockState> Snapshot() const;

 private:
  struct KeyOrder {
    bool operator()(const Key& a, const Key& b) const {
      return a.pair != b.pair ? a.pair < b.pair : a.id < b.id;
    }
  };
  struct Holds {
    int count[2][2] = {{0, 0}, {0, 0}};  // [transaction][exclusive]
    bool empty() const { return count[0][0] + count[0][1] + count[1][0] + count[1][1] == 0; }
    bool exclusive() const { return count[0][1] + count[1][1] > 0; }
  };
  struct Wait {
    Key key;
    bool shared;
  };

  // The other owners whose holds of `key` conflict with a `shared` request.
  void Blockers(Owner owner, const Key& key, bool shared, std::vector<Owner>* out) const;
  bool WouldDeadlock(Owner owner) const;
  static void WakeWaiters(void* self);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<Key, std::map<Owner, Holds>, KeyOrder> locks_;
  std::map<Owner, Wait> waits_;
};

}  // namespace paceline::engine
