// ActivityRegistry (see activity_registry.h).
#include "engine/activity_registry.h"

namespace paceline::engine {

void ActivityRegistry::Add(uint64_t session_id, const SessionActivity* activity, const void* advisory_owner) {
  std::lock_guard lock(mu_);
  sessions_[session_id] = Entry{activity, advisory_owner};
}

void ActivityRegistry::Remove(uint64_t session_id) {
  std::lock_guard lock(mu_);
  sessions_.erase(session_id);
}

std::vector<sql::BackendActivity> ActivityRegistry::Backends() const {
  std::lock_guard lock(mu_);
  std::vector<sql::BackendActivity> out;
  out.reserve(sessions_.size());
  for (const auto& [id, entry] : sessions_) out.push_back(entry.activity->Snapshot());
  return out;
}

int32_t ActivityRegistry::PidOfSession(uint64_t session_id) const {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(session_id);
  return it == sessions_.end() ? 0 : it->second.activity->pid();
}

int32_t ActivityRegistry::PidOfAdvisoryOwner(const void* owner) const {
  std::lock_guard lock(mu_);
  for (const auto& [id, entry] : sessions_) {
    if (entry.advisory_owner == owner) return entry.activity->pid();
  }
  return 0;
}

}  // namespace paceline::engine
