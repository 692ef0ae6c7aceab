// ActivityRegistry: the database's live sessions, for pg_stat_activity and
// for naming the holders of locks and lanes in pg_locks. A session adds
// itself when it is made and removes itself when destroyed; readers get a
// snapshot of every session's SessionActivity.
//
// Thread-safety: every method may be called from any thread. The registry's
// mutex is taken before a SessionActivity's, never after. Ownership: owned
// by the Database; borrows the sessions' activity records while they are
// registered.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "engine/session_activity.h"

namespace paceline::engine {

class ActivityRegistry {
 public:
  // `advisory_owner`: the owner the session's advisory locks are held by.
  void Add(uint64_t session_id, const SessionActivity* activity, const void* advisory_owner);
  void Remove(uint64_t session_id);

  // Every registered session's activity, in the order they were made.
  std::vector<sql::BackendActivity> Backends() const;
  // The pid of a session, by its id or by its advisory locks' owner (0 when gone).
  int32_t PidOfSession(uint64_t session_id) const;
  int32_t PidOfAdvisoryOwner(const void* owner) const;

 private:
  struct Entry {
    const SessionActivity* activity;
    const void* advisory_owner;
  };
  mutable std::mutex mu_;
  std::map<uint64_t, Entry> sessions_;
};

}  // namespace paceline::engine
