// What pg_stat_activity, pg_locks and pg_stat_user_tables show: the
// database's connections, the locks and conflict lanes they hold or wait
// for, and each table's row counts. Plain data, produced by the engine
// (SystemInfo's Backends, Locks and TableCounts) and turned into rows by
// the SQL layer (pg_catalog_activity.cc); the SQL layer never reaches the
// sessions or the server for them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace paceline::sql {

// One connection (a session of the database), as pg_stat_activity shows it.
// Timestamps are Unix microseconds (timestamptz); "" and nullopt are NULL.
struct BackendActivity {
  int32_t pid = 0;
  std::string database;
  std::string user;
  std::string application_name;
  std::string client_addr;      // "" for an embedded session
  int32_t client_port = -1;     // -1: NULL
  int64_t backend_start = 0;
  std::optional<int64_t> xact_start;
  std::optional<int64_t> query_start;
  std::optional<int64_t> state_change;
  std::string wait_event_type;  // "Lock" (a conflict lane, an advisory lock), "RunQueue" (a worker's queue)
  std::string wait_event;       // "lane w_id=5", "advisory", "queue 3"
  std::string state;            // active, idle, idle in transaction, idle in transaction (aborted)
  std::string query;            // the statement running, or the last one
};

// One lock held or awaited, as pg_locks shows it: advisory locks
// (locktype "advisory": classid and objid the key's high and low 32 bits,
// objsubid 1 for a bigint key, 2 for two integers), conflict lanes
// (locktype "lane": classid and objid the lane's 64-bit key; the
// reference is in its waiters' pg_stat_activity.wait_event) and the row
// locks of two-phase locking (locktype "tuple": relation the table's OID,
// page and tuple the row's id as page × kRowsPerLockPage + tuple; classid,
// objid and objsubid NULL).
inline constexpr uint64_t kRowsPerLockPage = 32768;  // tuple is an int2
struct LockActivity {
  std::string locktype;
  uint32_t relation = 0;  // a tuple's table, a range lock's index or table (0 for the other lock types)
  bool row = false;       // a row lock: page and tuple name the row in `relation`
  int32_t page = 0;
  int16_t tuple = 0;
  uint32_t classid = 0;
  uint32_t objid = 0;
  int16_t objsubid = 0;
  int32_t pid = 0;
  std::string mode;             // ExclusiveLock, ShareLock
  bool granted = false;
};

// One table's row counts since the server started, as pg_stat_user_tables
// shows them.
struct TableActivity {
  uint32_t relid = 0;
  std::string name;
  int64_t inserted = 0;
  int64_t updated = 0;
  int64_t deleted = 0;
  int64_t live = 0;
};

}  // namespace paceline::sql
