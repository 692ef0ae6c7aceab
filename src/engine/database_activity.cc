// Database: what pg_stat_activity, pg_locks and pg_stat_user_tables show
// (see database.h): the locks (advisory, lanes, the CC's row and key-range locks) by
// holder, the tables' counts.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "engine/database.h"

namespace paceline::engine {

LaneTable::Stats Database::LaneStats() const {
  return statements_->lanes() != nullptr ? statements_->lanes()->stats() : LaneTable::Stats{};
}

std::vector<sql::LockActivity> Database::LockActivities() const {
  std::vector<sql::LockActivity> out;
  for (const AdvisoryLockTable::LockState& l : advisory_lock_table_.Snapshot()) {
    sql::LockActivity a;
    a.locktype = "advisory";
    // PostgreSQL's layout: a bigint key's high and low halves with objsubid
    // 1; two int4 keys as classid and objid with objsubid 2.
    const uint64_t key = static_cast<uint64_t>(l.key.id);
    a.classid = static_cast<uint32_t>(key >> 32);
    a.objid = static_cast<uint32_t>(key);
    a.objsubid = l.key.pair ? 2 : 1;
    a.pid = activity_.PidOfAdvisoryOwner(l.owner);
    a.mode = l.exclusive ? "ExclusiveLock" : "ShareLock";
    a.granted = l.granted;
    out.push_back(std::move(a));
  }
  if (statements_->lanes() != nullptr) {
    for (const LaneTable::LaneState& lane : statements_->lanes()->Snapshot()) {
      sql::LockActivity a;
      a.locktype = "lane";
      a.classid = static_cast<uint32_t>(lane.key >> 32);
      a.objid = static_cast<uint32_t>(lane.key);
      a.mode = "ExclusiveLock";
      if (lane.holder != 0) {
        a.pid = activity_.PidOfSession(lane.holder);
        a.granted = true;
        out.push_back(a);
      }
      for (uint64_t waiter : lane.waiting) {
        a.pid = activity_.PidOfSession(waiter);
        a.granted = false;
        out.push_back(a);
      }
    }
  }
  std::unordered_map<TableId, uint32_t, TableId::Hash> table_oids;  // Table::id() → its OID
  std::unordered_set<uint32_t> relation_oids;         // the tables' and their indexes'
  for (const auto& table : catalog_.Tables()) {
    table_oids[table->id()] = table->schema().oid;
    relation_oids.insert(table->schema().oid);
    for (const auto& index : table->indexes()) relation_oids.insert(index->schema().oid);
  }
  const std::vector<cc::RowLockState> row_locks = cc_->RowLocks();
  const std::vector<cc::RangeLockState> range_locks = cc_->RangeLocks();
  const auto pids = row_locks.empty() && range_locks.empty() ? std::unordered_map<const CancelToken*, int32_t>{}
                                                             : activity_.PidsByCancelToken();
  auto pid_of = [&](const CancelToken* owner) {
    const auto pid = pids.find(owner);
    return pid != pids.end() ? pid->second : 0;
  };
  for (const cc::RowLockState& l : row_locks) {
    sql::LockActivity a;
    a.locktype = "tuple";
    const auto oid = table_oids.find(l.table_id);
    if (oid == table_oids.end()) continue;  // a table dropped since
    a.relation = oid->second;
    a.row = true;
    a.page = static_cast<int32_t>(l.row_id / sql::kRowsPerLockPage);
    a.tuple = static_cast<int16_t>(l.row_id % sql::kRowsPerLockPage);
    a.pid = pid_of(l.owner);
    a.mode = l.exclusive ? "ExclusiveLock" : "ShareLock";
    a.granted = l.granted;
    out.push_back(std::move(a));
  }
  for (const cc::RangeLockState& l : range_locks) {
    if (relation_oids.count(l.relation_oid) == 0) continue;  // an index or table dropped since
    sql::LockActivity a;
    a.locktype = "range";
    a.relation = l.relation_oid;
    a.pid = pid_of(l.owner);
    a.mode = l.exclusive ? "ExclusiveLock" : "ShareLock";
    a.granted = l.granted;
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<sql::TableActivity> Database::TableActivities() const {
  std::vector<sql::TableActivity> out;
  for (const auto& table : catalog_.Tables()) {
    sql::TableActivity t;
    t.relid = table->schema().oid;
    t.name = table->name();
    t.inserted = table->Committed(storage::Table::Change::kInsert);
    t.updated = table->Committed(storage::Table::Change::kUpdate);
    t.deleted = table->Committed(storage::Table::Change::kDelete);
    t.live = static_cast<int64_t>(table->LiveRowCount());
    out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.relid < b.relid; });
  return out;
}

}  // namespace paceline::engine
