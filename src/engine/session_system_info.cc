// SessionSystemInfo (see session_system_info.h).
#include "engine/session_system_info.h"

#include "engine/session.h"

namespace paceline::engine {

int32_t SessionSystemInfo::BackendPid() const { return session_->backend_pid(); }

std::vector<std::pair<std::string, std::string>> SessionSystemInfo::Settings() const {
  return session_->AllSettings();
}

Status SessionSystemInfo::SetSetting(const std::string& name, const std::string& value, bool local) {
  return session_->SetSettingFromStatement(name, value, local);
}

}  // namespace paceline::engine
