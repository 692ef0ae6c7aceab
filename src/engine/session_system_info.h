// SessionSystemInfo: the engine's side of sql::SystemInfo for one session
// (see sql/system_catalog/system_info.h): the database's catalog,
// the role and database the session's owner says it connected as
// (SetIdentity; an embedded session is "paceline" on "paceline"), its
// backend pid and its settings.
//
// Thread-safety: used by the statements of its session (on the session's
// thread or a worker running the session's request while the session
// waits); SetIdentity before the first statement. Ownership: owned by its
// Session; borrows the Session and the catalog.
#pragma once

#include <string>

#include "sql/system_catalog/system_info.h"

namespace paceline::engine {

class Session;

class SessionSystemInfo : public sql::SystemInfo {
 public:
  SessionSystemInfo(Session* session, const catalog::Catalog* catalog)
      : session_(session), catalog_(catalog) {}

  void SetIdentity(std::string user, std::string database) {
    user_ = std::move(user);
    database_ = std::move(database);
  }

  const catalog::Catalog& catalog() const override { return *catalog_; }
  std::string DatabaseName() const override { return database_; }
  std::string UserName() const override { return user_; }
  int32_t BackendPid() const override;
  std::optional<Endpoint> ClientEndpoint() const override;
  std::optional<Endpoint> ServerEndpoint() const override;
  bool SignalBackend(int32_t pid, bool terminate) override;
  std::vector<std::pair<std::string, std::string>> Settings() const override;
  Status SetSetting(const std::string& name, const std::string& value, bool local) override;
  std::vector<sql::BackendActivity> Backends() const override;
  std::vector<sql::LockActivity> Locks() const override;
  std::vector<sql::TableActivity> TableCounts() const override;

 private:
  Session* session_;
  const catalog::Catalog* catalog_;
  std::string user_ = "paceline";
  std::string database_ = "paceline";
};

}  // namespace paceline::engine
