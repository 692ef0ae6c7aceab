// LaneTable: conflict lanes, the interactive counterpart of the run queues.
//
// An interactive transaction block (BEGIN ... COMMIT with a round trip per
// statement) cannot be placed on a run queue in advance: its statements
// arrive one by one. A lane is a token that serialises the blocks of one
// conflict group instead. Before a block's statement runs, the session asks
// which lanes that statement's references call for (Session, through
// Scheduler::Lane and Remembered below), takes each it does not hold yet —
// waiting while another block holds it — and keeps them all until the block
// commits, rolls back or fails. Blocks of other groups run in parallel;
// blocks whose references have no evidence run free.
//
// The algorithm:
//  - One lane per hot reference (its 64-bit key): the blocks that carry a
//    reference with conflict evidence run one after the other, blocks of
//    other references in parallel. (Lanes shared per run queue — the home
//    the scheduler gives a reference — put unrelated references in one
//    lane: pgbench's tpcb-like at scale 8 then met false cycles, a block
//    holding teller t's lane waiting for branch b's while another held b's
//    queue-mate's lane and waited for t's: 3.4% of blocks failed with
//    40P01, against 1.2% at scale 2 and 0.06% at scale 1 — measured.)
//  - A block may hold several lanes: it meets its references one statement
//    at a time (pgbench's tpcb-like locates a teller, then its branch).
//    Each session waits for at most one lane at a time, so the wait-for
//    graph is a set of chains; a wait that would close a cycle (the lane's
//    holder waits, through holders, for a lane this session holds) fails at
//    once with 40P01 instead of waiting. Cycles can only close when a wait
//    starts, so that one check finds them all. Within one statement, lanes
//    are taken in key order.
//  - A freed lane goes to its longest waiter (FIFO): no block starves.
//  - Waits end with 55P03 at the deadline (lock_timeout) and with 57014
//    when the session's CancelToken is canceled (it wakes the wait).
//  - Lane waits keep the concurrency control's deadlock rule
//    (ConcurrencyControl::ArbitrateOutsideWait), or a block holding a lane
//    and waiting for a row lock could wait forever for a block that holds
//    that lock and waits for the lane. Under 2PL wait-die a block that
//    finds an older one ahead of it in the lane dies (40001), as it would
//    at a lock; under wound-wait it wounds the younger ones ahead and
//    waits. A wounded block waiting in a lane wakes and fails with 40001:
//    by the table (wounded here) or through its CancelToken's Wakeup
//    (wounded at a row lock). OCC and 2PL NO_WAIT never wait for a lock
//    a block holds (OCC's commit locks are held only inside a commit or a
//    rollback, never across a lane wait), so lane waits need no rule
//    there. A block that holds no lane and no
//    row lock yet (its first hot statement comes first) waits without the
//    rule, in arrival order: nothing waits for it but later waiters of the
//    same lane, whose rule covers every block ahead of them.
//  - Memory: evidence fades once lanes stop the conflicts that made it (a
//    reference with no aborts cools within a few half-lives), and the
//    conflicts would come back. So a reference stays laned while blocks
//    carrying it keep meeting in its lane: a block that waits for the lane
//    marks it contended, and Remembered() keeps answering true for
//    `memory` after the last such wait. Evidence brings a reference in;
//    contention in its lane keeps it.
//
// Thread-safety: every method may be called from any thread; one mutex
// guards the table. Each wait sleeps on its own condition variable, so a
// hand-over wakes the one new holder, not every waiter. (Waking every
// waiter of the table at each hand-over held pgbench tpcb-like at scale 1
// with 32 clients, all queued on one branch's lane, to 2,213 tps; one wake
// per hand-over: 6,713 — docs/results.md.) Ownership: owned by the Database; sessions are named by id.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cc/concurrency_control.h"
#include "common/cancel_token.h"
#include "common/status.h"
#include "scheduler/footprint.h"

namespace paceline::engine {

class LaneTable {
 public:
  using Key = scheduler::ReferenceKey;

  // `memory`: how long a reference stays laned after blocks last met in
  // its lane. `cc` (borrowed, may be null: no deadlock rule): the
  // database's concurrency control, whose rule lane waits keep.
  explicit LaneTable(std::chrono::milliseconds memory, cc::ConcurrencyControl* cc = nullptr);
  LaneTable(const LaneTable&) = delete;
  LaneTable& operator=(const LaneTable&) = delete;

  // Whether blocks carrying `key` met in its lane within `memory` of now.
  bool Remembered(Key key);
  // The same for each of `keys`, under one lock: appends the index of each
  // remembered one to `*laned` unless it is there already.
  void AddRemembered(const std::vector<Key>& keys, std::vector<size_t>* laned);

  // Session `session` takes the lane of reference `key` (named `name`, for
  // SHOW paceline.lanes): at once when free or its own, else after the
  // holders before it end. Errors: 40P01 when waiting would close a cycle,
  // 55P03 at `deadline`, 57014 when `cancel` (may be null) is canceled,
  // 40001 by the deadlock rule (it died, or was wounded while it waited).
  // `txn` (may be null: no rule) is the session's open transaction; it must
  // live until the session's ReleaseAll (or this call's failure, when the
  // session holds no lane).
  Status Acquire(uint64_t session, Key key, const std::string& name, std::chrono::steady_clock::time_point deadline,
                 const CancelToken* cancel, cc::TransactionContext* txn = nullptr);
  // Acquire without waiting: false (nothing changed) when another session
  // holds the lane.
  bool TryAcquire(uint64_t session, Key key, const std::string& name, cc::TransactionContext* txn = nullptr);
  // Whether `session` holds the lane of `key`.
  bool Holds(uint64_t session, Key key) const;
  // Gives back every lane `session` holds (its block ended); the next
  // waiter of each takes it.
  void ReleaseAll(uint64_t session);

  // One lane as SHOW paceline.lanes lists it.
  struct LaneState {
    std::string reference;         // the lane's reference, e.g. "bid=1"
    Key key = 0;
    uint64_t holder = 0;           // 0: none (all its waiters are being woken)
    std::vector<uint64_t> waiting;  // in arrival order
  };
  // The lanes held or waited for, by reference name.
  std::vector<LaneState> Snapshot() const;
  // Waits that started since creation, and those that failed by a cycle
  // (introspection and tests).
  uint64_t waits() const;
  uint64_t deadlocks() const;
  // All of it at once (the metrics page): lanes with a holder, sessions
  // waiting in a lane now, and the two counts above.
  struct Stats {
    size_t held = 0;
    size_t waiting = 0;
    uint64_t waits = 0;
    uint64_t deadlocks = 0;
  };
  Stats stats() const;

 private:
  struct Lane {
    std::string name;
    uint64_t holder = 0;
    std::deque<uint64_t> waiters;
  };
  // Whether `session` waiting for `key`'s lane would close a cycle (mu_ held).
  bool ClosesCycle(uint64_t session, Key key) const;
  // `session` holds `lane` of `key` now (mu_ held).
  void Take(Lane* lane, Key key, uint64_t session);
  // The lane of `key`, new (free) if absent (mu_ held); stable until erased.
  Lane& LaneOf(Key key, const std::string& name);
  // Erases `key`'s lane when free with no waiters (mu_ held).
  void EraseIfIdle(Key key);
  void Contended(Key key, int64_t now);  // mu_ held

  // Wakes `session`'s lane wait, if it waits (mu_ held).
  void Wake(uint64_t session);
  // Forgets `session`'s transaction unless it holds a lane (mu_ held).
  void ForgetUnlessHolding(uint64_t session);

  const int64_t memory_ns_;
  cc::ConcurrencyControl* const cc_;
  mutable std::mutex mu_;
  std::unordered_map<Key, Lane> lanes_;  // held or waited for (node-based: references stay valid)
  std::unordered_map<uint64_t, std::vector<Key>> held_;  // per session, the lanes it holds
  std::unordered_map<uint64_t, Key> waiting_;            // per session, the lane it waits for
  std::unordered_map<uint64_t, cc::TransactionContext*> txns_;  // per holding or waiting session, its transaction
  std::unordered_map<uint64_t, std::condition_variable*> wakers_;  // per waiting session, what its wait sleeps on
  std::unordered_map<Key, int64_t> contended_;           // when blocks last met in the lane
  uint64_t waits_ = 0;
  uint64_t deadlocks_ = 0;
};

}  // namespace paceline::engine
