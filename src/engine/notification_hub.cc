// NotificationHub (see notification_hub.h).
#include "engine/notification_hub.h"

namespace paceline::engine {

void NotificationHub::Listen(uint64_t session, const std::string& channel) {
  std::lock_guard lock(mu_);
  listeners_[channel].insert(session);
}

void NotificationHub::Unlisten(uint64_t session, const std::string& channel) {
  std::lock_guard lock(mu_);
  auto it = listeners_.find(channel);
  if (it == listeners_.end()) return;
  it->second.erase(session);
  if (it->second.empty()) listeners_.erase(it);
}

void NotificationHub::UnlistenAll(uint64_t session, bool forget_inbox) {
  std::lock_guard lock(mu_);
  for (auto it = listeners_.begin(); it != listeners_.end();) {
    it->second.erase(session);
    it = it->second.empty() ? listeners_.erase(it) : std::next(it);
  }
  if (forget_inbox) {
    inbox_.erase(session);
    wakers_.erase(session);
  }
}

void NotificationHub::SetWaker(uint64_t session, std::function<void()> waker) {
  std::lock_guard lock(mu_);
  if (waker) {
    wakers_[session] = std::move(waker);
  } else {
    wakers_.erase(session);
  }
}

void NotificationHub::Publish(const std::vector<Notification>& batch) {
  if (batch.empty()) return;
  std::lock_guard lock(mu_);
  std::set<uint64_t> reached;
  for (const Notification& n : batch) {
    auto it = listeners_.find(n.channel);
    if (it == listeners_.end()) continue;
    for (uint64_t session : it->second) {
      inbox_[session].push_back(n);
      reached.insert(session);
    }
  }
  for (uint64_t session : reached) {
    auto waker = wakers_.find(session);
    if (waker != wakers_.end()) waker->second();
  }
}

std::vector<Notification> NotificationHub::Take(uint64_t session) {
  std::lock_guard lock(mu_);
  auto it = inbox_.find(session);
  if (it == inbox_.end()) return {};
  std::vector<Notification> out;
  // Only for the channels it still listens on (an UNLISTEN since drops them).
  for (Notification& n : it->second) {
    auto listening = listeners_.find(n.channel);
    if (listening != listeners_.end() && listening->second.count(session) > 0) out.push_back(std::move(n));
  }
  inbox_.erase(it);
  return out;
}

}  // namespace paceline::engine
