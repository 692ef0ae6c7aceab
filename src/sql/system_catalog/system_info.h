// SystemInfo: what the system catalogs (pg_catalog, information_schema) and
// the session functions (current_database(), current_user, pg_settings,
// pg_backend_pid()) show that the SQL layer does not own: the catalog of
// the database, and the identity and settings of the connection that runs
// the statement. The SQL layer declares it; the engine's Session implements
// it, so SQL never reaches up into the session or the server.
//
// Thread-safety: called from the thread that runs the statement, while the
// statement holds the database's execution gate (the catalog does not
// change under it). Ownership: the session owns it; a transaction borrows
// it for its statements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "sql/system_catalog/server_activity.h"

namespace paceline::catalog {
class Catalog;
}

namespace paceline::sql {

class SystemInfo {
 public:
  virtual ~SystemInfo() = default;

  virtual const catalog::Catalog& catalog() const = 0;
  // The database the connection uses, as pg_database names it.
  virtual std::string DatabaseName() const = 0;
  // The role the connection logged in as (current_user, session_user).
  virtual std::string UserName() const = 0;
  virtual int32_t BackendPid() const = 0;
  // The connection's client and server ends (inet_client_addr & co.);
  // nullopt for a session without a connection (NULL, as PostgreSQL
  // answers over a Unix socket).
  struct Endpoint {
    std::string address;
    int32_t port = 0;
  };
  virtual std::optional<Endpoint> ClientEndpoint() const { return std::nullopt; }
  virtual std::optional<Endpoint> ServerEndpoint() const { return std::nullopt; }
  // pg_cancel_backend / pg_terminate_backend: stops the statement the
  // session with `pid` runs (57014), or ends its connection (FATAL 57P01);
  // false when no session has that pid or, to terminate, it has no
  // connection. Default: false.
  virtual bool SignalBackend(int32_t /*pid*/, bool /*terminate*/) { return false; }
  // The session's settings as SHOW prints them, in name order.
  virtual std::vector<std::pair<std::string, std::string>> Settings() const = 0;
  // set_config(name, value, is_local): as SET [LOCAL] name = value (undone
  // with the transaction's rollback, LOCAL at its end).
  virtual Status SetSetting(const std::string& name, const std::string& value, bool local) = 0;
  // The database's connections, its locks and lanes, and its tables' row
  // counts, now (pg_stat_activity, pg_locks, pg_stat_user_tables).
  // Default: none.
  virtual std::vector<BackendActivity> Backends() const { return {}; }
  virtual std::vector<LockActivity> Locks() const { return {}; }
  virtual std::vector<TableActivity> TableCounts() const { return {}; }
};

}  // namespace paceline::sql
