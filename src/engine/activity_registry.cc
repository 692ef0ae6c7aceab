// ActivityRegistry (see activity_registry.h).
#include "engine/activity_registry.h"

#include "engine/session.h"

namespace paceline::engine {

void ActivityRegistry::Add(uint64_t session_id, Session* session, const SessionActivity* activity,
                           const void* advisory_owner) {
  std::lock_guard lock(mu_);
  sessions_[session_id] = Entry{session, activity, advisory_owner};
}

void ActivityRegistry::Remove(uint64_t session_id) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(session_id);
  if (it == sessions_.end()) return;
  it->second.activity->transactions().AddTo(&ended_.transactions);
  ended_.request_latency.Merge(it->second.activity->request_latency());
  sessions_.erase(it);
}

ActivityRegistry::SessionTotals ActivityRegistry::Totals() const {
  std::lock_guard lock(mu_);
  SessionTotals totals = ended_;
  for (const auto& [id, entry] : sessions_) {
    entry.activity->transactions().AddTo(&totals.transactions);
    totals.request_latency.Merge(entry.activity->request_latency());
  }
  return totals;
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

bool ActivityRegistry::Signal(int32_t pid, bool terminate) const {
  std::lock_guard lock(mu_);
  for (const auto& [id, entry] : sessions_) {
    if (entry.activity->pid() == pid) return entry.session->Signal(terminate);
  }
  return false;
}

int32_t ActivityRegistry::PidOfAdvisoryOwner(const void* owner) const {
  std::lock_guard lock(mu_);
  for (const auto& [id, entry] : sessions_) {
    if (entry.advisory_owner == owner) return entry.activity->pid();
  }
  return 0;
}

std::unordered_map<const CancelToken*, int32_t> ActivityRegistry::PidsByCancelToken() const {
  std::lock_guard lock(mu_);
  std::unordered_map<const CancelToken*, int32_t> out;
  for (const auto& [id, entry] : sessions_) out[entry.session->cancel_token()] = entry.activity->pid();
  return out;
}

}  // namespace paceline::engine
