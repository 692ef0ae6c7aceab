// SessionSystemInfo (see session_system_info.h).
#include "engine/session_system_info.h"

#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {

int32_t SessionSystemInfo::BackendPid() const { return session_->backend_pid(); }

std::optional<sql::SystemInfo::Endpoint> SessionSystemInfo::ClientEndpoint() const { return session_->client_end(); }

std::optional<sql::SystemInfo::Endpoint> SessionSystemInfo::ServerEndpoint() const { return session_->server_end(); }

bool SessionSystemInfo::SignalBackend(int32_t pid, bool terminate) { return session_->SignalBackend(pid, terminate); }

std::vector<std::pair<std::string, std::string>> SessionSystemInfo::Settings() const {
  return session_->AllSettings();
}

Status SessionSystemInfo::SetSetting(const std::string& name, const std::string& value, bool local) {
  return session_->SetSettingFromStatement(name, value, local);
}

std::vector<sql::BackendActivity> SessionSystemInfo::Backends() const { return session_->database().Backends(); }

std::vector<sql::LockActivity> SessionSystemInfo::Locks() const { return session_->database().LockActivities(); }

std::vector<sql::TableActivity> SessionSystemInfo::TableCounts() const {
  return session_->database().TableActivities();
}

}  // namespace paceline::engine
