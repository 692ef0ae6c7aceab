// TableGates: which open transaction blocks use which tables, so that a
// schema change waits only for the blocks that use the tables it changes.
//
// The database's ExecutionGate (execution_gate.h) keeps every statement in
// flight apart from DDL. A transaction block leaves that gate between its
// statements, so an idle block holds up no DDL elsewhere; what it keeps
// until it ends are its tables. On the first statement that names a table,
// the block enters that table's gate *shared* here. DDL enters the gates of
// the tables it changes *exclusive* (a claim: blocks that arrive at a
// claimed gate wait behind it, so DDL is not starved; then it waits until
// the blocks holding the gate have ended), and only then claims the
// execution gate, which waits just for the statements in flight.
//
// Nobody waits here while holding the execution gate, so the execution
// gate's exclusive claimant never waits for a waiter of this class.
//
// Waits end at a deadline (kTimedOut), at the waiter's cancel
// (kCanceled), and at once when waiting would close a cycle of waits
// (kDeadlock): each owner waits for at most one gate; a shared waiter waits
// for the gate's exclusive claimant, an exclusive claimant for the gate's
// other shared holders (or, before it could claim, for the other
// claimant). The waiter that would close the cycle is the one refused.
//
// Owners are opaque pointers (a Session, a bulk load's stack frame); an
// owner is used by one thread at a time.
//
// Thread-safety: every method may be called concurrently. One mutex guards
// every gate: a block takes it once per table it starts to use and once
// when it ends; one-message transactions never come here (they hold the
// execution gate from start to end).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "common/cancel_token.h"
#include "common/ids.h"

namespace paceline::engine {

class TableGates {
 public:
  using Owner = const void*;
  using Clock = std::chrono::steady_clock;
  enum class Outcome { kEntered, kTimedOut, kDeadlock, kCanceled };

  TableGates() = default;
  TableGates(const TableGates&) = delete;
  TableGates& operator=(const TableGates&) = delete;

  // Whether `owner` holds `table`'s gate (shared or exclusive).
  bool Holds(Owner owner, TableId table) const;
  // Enters `table` shared for `owner` without waiting; false when another
  // owner claims or holds it exclusive. True when already held.
  bool TryEnterShared(Owner owner, TableId table);
  // The same, waiting until `deadline` while another owner claims it.
  // `cancel` (may be null) ends the wait with kCanceled.
  Outcome EnterShared(Owner owner, TableId table, Clock::time_point deadline, const CancelToken* cancel);
  // Enters each gate of `tables` exclusive, in ascending table order (so
  // two schema changes claim in one order). `owner` may hold some of them
  // shared (DDL inside a block): those count as its own. On any outcome but
  // kEntered, it holds none of them exclusive.
  Outcome EnterExclusive(Owner owner, const std::vector<TableId>& tables, Clock::time_point deadline,
                         const CancelToken* cancel);
  // Gives up `owner`'s exclusive holds; its shared holds stay.
  void LeaveExclusive(Owner owner);
  // Gives up everything `owner` holds (its block ended).
  void LeaveAll(Owner owner);
  // Whether any gate is claimed or held exclusive (tests, monitoring).
  bool exclusive_claimed() const;
  // How many owners wait now (tests, monitoring).
  size_t waiting() const;

 private:
  struct Gate {
    std::set<Owner> shared;
    Owner exclusive = nullptr;  // the claimant or holder
  };
  struct Wait {
    TableId table;
    bool exclusive;
  };

  // Whether `owner` waiting as `waits_` says would close a cycle.
  bool WouldDeadlock(Owner owner) const;
  // The owners `owner`'s current wait is for.
  void WaitsFor(Owner owner, const Wait& wait, std::vector<Owner>* out) const;
  // Waits on cv_ until `ready()` holds (kEntered), or the deadline, a
  // cancel or a deadlock ends the wait. `lock` holds mu_.
  template <typename Ready>
  Outcome WaitUntil(std::unique_lock<std::mutex>& lock, Owner owner, Wait wait, Clock::time_point deadline,
                    const CancelToken* cancel, Ready ready);
  // A cancel's wakeup (CancelToken::Wakeup): every waiter looks again.
  // Registered before mu_ is taken, since Cancel() calls it holding the
  // token's lock and it takes mu_.
  static void WakeWaiters(void* self);
  // Drops `table`'s entry when nobody holds or claims it.
  void Prune(TableId table);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<TableId, Gate> gates_;         // tables somebody holds or claims
  std::map<Owner, Wait> waits_;            // who waits for what now
  std::map<Owner, std::set<TableId>> held_;  // every gate each owner holds or claims
};

}  // namespace paceline::engine
