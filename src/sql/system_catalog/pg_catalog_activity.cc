// Rows of the statistics relations, from what SystemInfo reports of the
// running database (server_activity.h): pg_stat_activity (one row per
// connection), pg_locks (advisory locks, conflict lanes and 2PL's row
// locks, held and awaited) and pg_stat_user_tables / pg_stat_all_tables (row counts).
#include "sql/system_catalog/server_activity.h"
#include "sql/system_catalog/system_info.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql::system_rows {

namespace {

using Rows = std::vector<std::vector<Value>>;

void Timestamp(CatalogRow* row, std::string_view column, const std::optional<int64_t>& micros) {
  if (micros) row->Set(column, Value::TimestampTz(*micros));
}

void TextOrNull(CatalogRow* row, std::string_view column, const std::string& text) {
  if (!text.empty()) row->Text(column, text);
}

}  // namespace

void Activity(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const BackendActivity& b : info.Backends()) {
    CatalogRow row(rel);
    row.Oid("datid", kDatabaseOid)
        .Text("datname", b.database)
        .Int("pid", b.pid)
        .Oid("usesysid", kOwnerRole)
        .Text("usename", b.user)
        .Text("application_name", b.application_name);
    TextOrNull(&row, "client_addr", b.client_addr);
    if (b.client_port >= 0) row.Int("client_port", b.client_port);
    Timestamp(&row, "backend_start", b.backend_start);
    Timestamp(&row, "xact_start", b.xact_start);
    Timestamp(&row, "query_start", b.query_start);
    Timestamp(&row, "state_change", b.state_change);
    TextOrNull(&row, "wait_event_type", b.wait_event_type);
    TextOrNull(&row, "wait_event", b.wait_event);
    TextOrNull(&row, "state", b.state);
    row.Text("query", b.query).Text("backend_type", "client backend");
    out->push_back(row.Take());
  }
}

void Locks(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const LockActivity& l : info.Locks()) {
    CatalogRow row(rel);
    row.Text("locktype", l.locktype).Oid("database", kDatabaseOid);
    // What does not apply to the lock type is NULL, as in PostgreSQL.
    auto null = [&](std::initializer_list<std::string_view> columns) {
      for (std::string_view c : columns) row.Set(c, Value::Null(rel.columns[rel.Column(c)].type.id));
    };
    null({"transactionid"});
    if (l.relation != 0) {
      row.Oid("relation", l.relation);
      if (l.row) {
        row.Int("page", l.page).Int("tuple", l.tuple);
      } else {
        null({"page", "tuple"});
      }
      null({"classid", "objid", "objsubid"});
    } else {
      row.Oid("classid", l.classid).Oid("objid", l.objid).Int("objsubid", l.objsubid);
      null({"relation", "page", "tuple"});
    }
    row.Text("virtualtransaction", std::to_string(l.pid))
        .Int("pid", l.pid)
        .Text("mode", l.mode)
        .Bool("granted", l.granted)
        .Bool("fastpath", false);
    out->push_back(row.Take());
  }
}

void TableStatistics(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const TableActivity& t : info.TableCounts()) {
    CatalogRow row(rel);
    row.Oid("relid", t.relid)
        .Text("schemaname", "public")
        .Text("relname", t.name)
        .Int("n_tup_ins", t.inserted)
        .Int("n_tup_upd", t.updated)
        .Int("n_tup_del", t.deleted)
        .Int("n_live_tup", t.live)
        .Int("n_dead_tup", 0)
        .Int("n_mod_since_analyze", t.inserted + t.updated + t.deleted)
        .Int("n_ins_since_vacuum", t.inserted);
    out->push_back(row.Take());
  }
}

}  // namespace paceline::sql::system_rows
