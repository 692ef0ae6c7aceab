// ActivityRegistry: the database's live sessions, for pg_stat_activity and
// for naming the holders of locks and lanes in pg_locks. A session adds
// itself when it is made and removes itself when destroyed; readers get a
// snapshot of every session's SessionActivity. It also sums the sessions'
// running totals (SessionActivity::transactions, request_latency), keeping
// those of sessions that ended.
//
// Thread-safety: every method may be called from any thread. The registry's
// mutex is taken before a SessionActivity's, never after. Ownership: owned
// by the Database; borrows the sessions' activity records while they are
// registered.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "common/cancel_token.h"
#include "engine/execution/execution_stats.h"
#include "engine/execution/latency_histogram.h"
#include "engine/session_activity.h"

namespace paceline::engine {

class Session;

class ActivityRegistry {
 public:
  // `advisory_owner`: the owner the session's advisory locks are held by.
  void Add(uint64_t session_id, Session* session, const SessionActivity* activity, const void* advisory_owner);
  // Forgets the session, keeping its totals in those of ended sessions.
  void Remove(uint64_t session_id);

  // Every session's transactions (their `latency` histogram is empty) and
  // requests' durations, ended sessions' included, since the database opened.
  struct SessionTotals {
    ExecutionStats transactions;
    LatencyHistogram request_latency;
  };
  SessionTotals Totals() const;

  // Every registered session's activity, in the order they were made.
  std::vector<sql::BackendActivity> Backends() const;
  // The pid of a session, by its id or by its advisory locks' owner (0 when gone).
  int32_t PidOfSession(uint64_t session_id) const;
  int32_t PidOfAdvisoryOwner(const void* owner) const;
  // Each session's pid by its cancel token: the owners of row locks
  // (cc::RowLockState::owner).
  std::unordered_map<const CancelToken*, int32_t> PidsByCancelToken() const;
  // pg_cancel_backend / pg_terminate_backend: Session::Signal of the
  // session with `pid` (called under the registry's mutex, so the session
  // stays alive meanwhile); false when there is none.
  bool Signal(int32_t pid, bool terminate) const;

 private:
  struct Entry {
    Session* session;
    const SessionActivity* activity;
    const void* advisory_owner;
  };
  mutable std::mutex mu_;
  std::map<uint64_t, Entry> sessions_;
  SessionTotals ended_;  // the totals of removed sessions
};

}  // namespace paceline::engine
