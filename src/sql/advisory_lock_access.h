// AdvisoryLockAccess: what pg_advisory_lock and its relatives need from the
// engine: locks on application-chosen keys, held by a session (until
// unlocked or the session ends) or by its transaction (until it ends). The
// SQL layer declares it; the engine implements it (engine::AdvisoryLocks
// over the database's AdvisoryLockTable), so SQL never reaches up into the
// session.
//
// Keys: a bigint, or a pair of integers (PostgreSQL keeps the two forms
// apart: pg_advisory_lock(1) and pg_advisory_lock(0, 1) are different
// locks). Modes: exclusive, or shared (shared holders only exclude
// exclusive ones). A session's own locks never conflict with each other,
// and each acquisition is counted: a lock taken twice is unlocked twice.
//
// Thread-safety: an implementation belongs to one session (or one request)
// and is used by one thread at a time.
#pragma once

#include <cstdint>

#include "common/status.h"

namespace paceline::sql {

class AdvisoryLockAccess {
 public:
  struct Key {
    int64_t id = 0;
    bool pair = false;  // the (int4, int4) form: id is (first << 32) | second
  };

  virtual ~AdvisoryLockAccess() = default;

  // Takes the lock for the session (`transaction` false) or for the
  // current transaction. With `wait`, waits while another session holds
  // it in a conflicting mode: 55P03 past lock_timeout, 40P01 when the wait
  // would close a cycle of advisory lock waits, 57014 when canceled; then
  // *acquired is true. Without, *acquired says whether it was free.
  virtual Status Lock(Key key, bool shared, bool transaction, bool wait, bool* acquired) = 0;
  // Gives back one session-level acquisition; false when the session holds
  // none in that mode (PostgreSQL warns and returns false).
  virtual bool Unlock(Key key, bool shared) = 0;
  // pg_advisory_unlock_all: every session-level lock of the session.
  virtual void UnlockAll() = 0;
};

}  // namespace paceline::sql
