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
//  - Lanes are numbered like the run queues (lane q = queue q's group: the
//    home the scheduler gives the hot reference), so one lane serialises
//    what one queue would.
//  - A block may hold several lanes: it meets its references one statement
//    at a time (pgbench's tpcb-like locates a teller, then its branch).
//    Each session waits for at most one lane at a time, so the wait-for
//    graph is a set of chains; a wait that would close a cycle (the lane's
//    holder waits, through holders, for a lane this session holds) fails at
//    once with 40P01 instead of waiting. Cycles can only close when a wait
//    starts, so that one check finds them all.
//  - A freed lane goes to its longest waiter (FIFO): no block starves.
//  - Waits end with 55P03 at the deadline (lock_timeout) and with 57014
//    when the session's CancelToken is canceled (it wakes the wait).
//  - Memory: evidence fades once lanes stop the conflicts that made it (a
//    reference with no aborts cools within a few half-lives), and the
//    conflicts would come back. So a reference stays laned while blocks
//    carrying it keep meeting in its lane: a block that waits for a holder
//    sent to that lane by the same reference marks the reference
//    contended, and Remembered() keeps answering its lane for `memory`
//    after the last such wait. Evidence brings a reference in; contention
//    in its lane keeps it.
//
// Thread-safety: every method may be called from any thread; one mutex
// guards the table (a few sessions per lane, waits are on a condition
// variable). Ownership: owned by the Database; sessions are named by id.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/cancel_token.h"
#include "common/status.h"
#include "scheduler/footprint.h"

namespace paceline::engine {

class LaneTable {
 public:
  // `lanes`: as many as run queues; `memory`: how long a reference stays
  // laned after blocks last met in its lane.
  LaneTable(size_t lanes, std::chrono::milliseconds memory);
  LaneTable(const LaneTable&) = delete;
  LaneTable& operator=(const LaneTable&) = delete;

  size_t lanes() const { return lanes_.size(); }

  // The lane `key` was laned to, while blocks carrying it met there within
  // `memory` of now; nullopt otherwise.
  std::optional<size_t> Remembered(scheduler::ReferenceKey key);

  // Session `session` takes `lane` for reference `key` (named `name`, for
  // SHOW paceline.lanes): at once when free or its own, else after the
  // holders before it end. Errors: 40P01 when waiting would close a cycle,
  // 55P03 at `deadline`, 57014 when `cancel` (may be null) is canceled.
  Status Acquire(uint64_t session, size_t lane, scheduler::ReferenceKey key, const std::string& name,
                 std::chrono::steady_clock::time_point deadline, const CancelToken* cancel);
  // Acquire without waiting: false (nothing changed) when another session
  // holds `lane`.
  bool TryAcquire(uint64_t session, size_t lane, scheduler::ReferenceKey key, const std::string& name);
  // Whether `session` holds `lane`.
  bool Holds(uint64_t session, size_t lane) const;
  // Gives back every lane `session` holds (its block ended); the next
  // waiter of each takes it.
  void ReleaseAll(uint64_t session);

  // One lane as SHOW paceline.lanes lists it.
  struct LaneState {
    size_t lane = 0;
    uint64_t holder = 0;                 // 0: free
    std::vector<std::string> held_for;   // the references that sent the holder here
    std::vector<uint64_t> waiting;       // in arrival order
    std::vector<std::string> waiting_for;  // per waiter, its reference
  };
  // The lanes held or waited for, by lane number.
  std::vector<LaneState> Snapshot() const;
  // Waits that started since creation, and those that failed by a cycle
  // (introspection and tests).
  uint64_t waits() const;
  uint64_t deadlocks() const;

 private:
  struct Waiter {
    uint64_t session;
    scheduler::ReferenceKey key;
    std::string name;
  };
  struct Lane {
    uint64_t holder = 0;
    std::vector<scheduler::ReferenceKey> keys;  // that sent the holder here
    std::vector<std::string> names;
    std::deque<Waiter> waiters;
  };
  struct Remembrance {
    size_t lane = 0;
    int64_t contended_ns = 0;  // when blocks carrying it last met in the lane
  };
  // Whether `session` waiting for `lane` would close a cycle (mu_ held).
  bool ClosesCycle(uint64_t session, size_t lane) const;
  // `session` holds `lane` now for `key` (mu_ held).
  void Take(Lane* lane, size_t index, uint64_t session, scheduler::ReferenceKey key, const std::string& name);
  void Remember(scheduler::ReferenceKey key, size_t lane, bool contended, int64_t now);  // mu_ held
  static int64_t NowNs();

  const int64_t memory_ns_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Lane> lanes_;
  std::unordered_map<uint64_t, std::vector<size_t>> held_;  // per session, the lanes it holds
  std::unordered_map<uint64_t, size_t> waiting_;            // per session, the lane it waits for
  std::unordered_map<scheduler::ReferenceKey, Remembrance> remembered_;
  uint64_t waits_ = 0;
  uint64_t deadlocks_ = 0;
};

}  // namespace paceline::engine
