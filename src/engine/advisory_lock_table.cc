// AdvisoryLockTable: holds, waits and the waits-for cycle check (see
// advisory_lock_table.h).
#include "engine/advisory_lock_table.h"

#include <iterator>

#include "engine/condition_wait.h"

namespace paceline::engine {

void AdvisoryLockTable::Blockers(Owner owner, const Key& key, bool shared, std::vector<Owner>* out) const {
  auto it = locks_.find(key);
  if (it == locks_.end()) return;
  for (const auto& [holder, holds] : it->second) {
    if (holder == owner || holds.empty()) continue;
    if (!shared || holds.exclusive()) out->push_back(holder);
  }
}

bool AdvisoryLockTable::WouldDeadlock(Owner owner) const {
  return WaitsForItself(owner, [&](Owner o, std::vector<Owner>* out) {
    auto wait = waits_.find(o);
    if (wait != waits_.end()) Blockers(o, wait->second.key, wait->second.shared, out);
  });
}

void AdvisoryLockTable::WakeWaiters(void* self) {
  auto* table = static_cast<AdvisoryLockTable*>(self);
  std::lock_guard lock(table->mu_);  // so that a waiter between its check and its wait sees it
  table->cv_.notify_all();
}

AdvisoryLockTable::Outcome AdvisoryLockTable::Lock(Owner owner, Key key, bool shared, bool transaction, bool wait,
                                                   Clock::time_point deadline, const CancelToken* cancel) {
  CancelToken::Wakeup wakeup(wait ? cancel : nullptr, &AdvisoryLockTable::WakeWaiters, this);  // before mu_
  std::unique_lock lock(mu_);
  auto free = [&] {
    std::vector<Owner> blockers;
    Blockers(owner, key, shared, &blockers);
    return blockers.empty();
  };
  Outcome outcome = Outcome::kAcquired;
  if (!free()) {
    if (!wait) return Outcome::kBusy;
    waits_[owner] = Wait{key, shared};
    // The holders change while it waits.
    switch (WaitOnCondition(lock, cv_, deadline, cancel, free, [&] { return WouldDeadlock(owner); })) {
      case WaitEnd::kReady: break;
      case WaitEnd::kTimedOut: outcome = Outcome::kTimedOut; break;
      case WaitEnd::kDeadlock: outcome = Outcome::kDeadlock; break;
      case WaitEnd::kCanceled: outcome = Outcome::kCanceled; break;
    }
    waits_.erase(owner);
    // A waiter that gave up may have been what closed another's cycle.
    cv_.notify_all();
    if (outcome != Outcome::kAcquired) return outcome;
  }
  ++locks_[key][owner].count[transaction ? 1 : 0][shared ? 0 : 1];
  return Outcome::kAcquired;
}

bool AdvisoryLockTable::Unlock(Owner owner, Key key, bool shared, bool transaction) {
  std::lock_guard lock(mu_);
  auto it = locks_.find(key);
  if (it == locks_.end()) return false;
  auto holder = it->second.find(owner);
  if (holder == it->second.end()) return false;
  int& count = holder->second.count[transaction ? 1 : 0][shared ? 0 : 1];
  if (count == 0) return false;
  --count;
  if (holder->second.empty()) it->second.erase(holder);
  if (it->second.empty()) locks_.erase(it);
  cv_.notify_all();
  return true;
}

void AdvisoryLockTable::Release(Owner owner, bool session, bool transaction) {
  std::lock_guard lock(mu_);
  bool released = false;
  for (auto it = locks_.begin(); it != locks_.end();) {
    auto holder = it->second.find(owner);
    if (holder != it->second.end()) {
      for (int scope = 0; scope < 2; ++scope) {
        if ((scope == 0 && !session) || (scope == 1 && !transaction)) continue;
        released |= holder->second.count[scope][0] + holder->second.count[scope][1] > 0;
        holder->second.count[scope][0] = holder->second.count[scope][1] = 0;
      }
      if (holder->second.empty()) it->second.erase(holder);
    }
    it = it->second.empty() ? locks_.erase(it) : std::next(it);
  }
  if (released) cv_.notify_all();
}

size_t AdvisoryLockTable::Waiting() const {
  std::lock_guard lock(mu_);
  return waits_.size();
}

int AdvisoryLockTable::HoldsOf(Owner owner, Key key) const {
  std::lock_guard lock(mu_);
  auto it = locks_.find(key);
  if (it == locks_.end()) return 0;
  auto holder = it->second.find(owner);
  if (holder == it->second.end()) return 0;
  const Holds& h = holder->second;
  return h.count[0][0] + h.count[0][1] + h.count[1][0] + h.count[1][1];
}

std::vector<AdvisoryLockTable::LockState> AdvisoryLockTable::Snapshot() const {
  std::lock_guard lock(mu_);
  std::vector<LockState> out;
  for (const auto& [key, holders] : locks_) {
    for (const auto& [owner, holds] : holders) {
      const int shared = holds.count[0][0] + holds.count[1][0];
      if (shared > 0) out.push_back(LockState{owner, key, false, true});
      if (holds.exclusive()) out.push_back(LockState{owner, key, true, true});
    }
  }
  for (const auto& [owner, wait] : waits_) out.push_back(LockState{owner, wait.key, !wait.shared, false});
  return out;
}

}  // namespace paceline::engine
