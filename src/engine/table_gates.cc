// TableGates: per-table admission of transaction blocks and schema changes
// (see table_gates.h).
#include "engine/table_gates.h"

#include <algorithm>

#include "engine/condition_wait.h"

namespace paceline::engine {

bool TableGates::Holds(Owner owner, TableId table) const {
  std::lock_guard lock(mu_);
  auto it = gates_.find(table);
  return it != gates_.end() && (it->second.exclusive == owner || it->second.shared.count(owner) > 0);
}

bool TableGates::TryEnterShared(Owner owner, TableId table) {
  std::lock_guard lock(mu_);
  auto it = gates_.find(table);
  if (it != gates_.end() && it->second.exclusive != nullptr && it->second.exclusive != owner) return false;
  gates_[table].shared.insert(owner);
  held_[owner].insert(table);
  return true;
}

TableGates::Outcome TableGates::EnterShared(Owner owner, TableId table, Clock::time_point deadline,
                                            const CancelToken* cancel) {
  CancelToken::Wakeup wakeup(cancel, &TableGates::WakeWaiters, this);  // before mu_: see WakeWaiters
  std::unique_lock lock(mu_);
  const Outcome outcome = WaitUntil(lock, owner, Wait{table, false}, deadline, cancel, [&] {
    auto it = gates_.find(table);
    return it == gates_.end() || it->second.exclusive == nullptr || it->second.exclusive == owner;
  });
  if (outcome == Outcome::kEntered) {
    gates_[table].shared.insert(owner);
    held_[owner].insert(table);
  }
  return outcome;
}

TableGates::Outcome TableGates::EnterExclusive(Owner owner, const std::vector<TableId>& tables,
                                               Clock::time_point deadline, const CancelToken* cancel) {
  std::vector<TableId> order = tables;
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  CancelToken::Wakeup wakeup(cancel, &TableGates::WakeWaiters, this);
  std::unique_lock lock(mu_);
  std::vector<TableId> claimed;  // by this call
  Outcome outcome = Outcome::kEntered;
  for (TableId table : order) {
    // First the claim (another claimant goes first), then the drain (the
    // other blocks holding it end).
    outcome = WaitUntil(lock, owner, Wait{table, true}, deadline, cancel, [&] {
      auto it = gates_.find(table);
      return it == gates_.end() || it->second.exclusive == nullptr || it->second.exclusive == owner;
    });
    if (outcome != Outcome::kEntered) break;
    Gate& gate = gates_[table];
    if (gate.exclusive != owner) {
      gate.exclusive = owner;
      claimed.push_back(table);
      held_[owner].insert(table);
    }
    outcome = WaitUntil(lock, owner, Wait{table, true}, deadline, cancel, [&] {
      const std::set<Owner>& shared = gates_[table].shared;
      return shared.empty() || (shared.size() == 1 && *shared.begin() == owner);
    });
    if (outcome != Outcome::kEntered) break;
  }
  if (outcome != Outcome::kEntered) {
    for (TableId table : claimed) {
      Gate& gate = gates_[table];
      gate.exclusive = nullptr;
      if (gate.shared.count(owner) == 0) held_[owner].erase(table);
      Prune(table);
    }
    if (held_[owner].empty()) held_.erase(owner);
    cv_.notify_all();
  }
  return outcome;
}

void TableGates::LeaveExclusive(Owner owner) {
  std::lock_guard lock(mu_);
  auto held = held_.find(owner);
  if (held == held_.end()) return;
  for (auto it = held->second.begin(); it != held->second.end();) {
    const TableId table = *it;
    Gate& gate = gates_[table];
    if (gate.exclusive == owner) gate.exclusive = nullptr;
    if (gate.shared.count(owner) == 0) {
      it = held->second.erase(it);
      Prune(table);
    } else {
      ++it;
    }
  }
  if (held->second.empty()) held_.erase(held);
  cv_.notify_all();
}

void TableGates::LeaveAll(Owner owner) {
  std::lock_guard lock(mu_);
  auto held = held_.find(owner);
  if (held == held_.end()) return;
  for (TableId table : held->second) {
    Gate& gate = gates_[table];
    gate.shared.erase(owner);
    if (gate.exclusive == owner) gate.exclusive = nullptr;
    Prune(table);
  }
  held_.erase(held);
  cv_.notify_all();
}

bool TableGates::exclusive_claimed() const {
  std::lock_guard lock(mu_);
  for (const auto& [table, gate] : gates_) {
    if (gate.exclusive != nullptr) return true;
  }
  return false;
}

void TableGates::WakeWaiters(void* self) {
  auto* gates = static_cast<TableGates*>(self);
  { std::lock_guard lock(gates->mu_); }  // a waiter between its check and its wait gets the notify
  gates->cv_.notify_all();
}

size_t TableGates::waiting() const {
  std::lock_guard lock(mu_);
  return waits_.size();
}

void TableGates::WaitsFor(Owner owner, const Wait& wait, std::vector<Owner>* out) const {
  auto it = gates_.find(wait.table);
  if (it == gates_.end()) return;
  const Gate& gate = it->second;
  if (gate.exclusive != nullptr && gate.exclusive != owner) {
    out->push_back(gate.exclusive);  // a shared waiter, or a claim behind another
  } else if (wait.exclusive) {
    for (Owner holder : gate.shared) {
      if (holder != owner) out->push_back(holder);
    }
  }
}

bool TableGates::WouldDeadlock(Owner owner) const {
  return WaitsForItself(owner, [&](Owner o, std::vector<Owner>* out) {
    auto wait = waits_.find(o);
    if (wait != waits_.end()) WaitsFor(o, wait->second, out);
  });
}

template <typename Ready>
TableGates::Outcome TableGates::WaitUntil(std::unique_lock<std::mutex>& lock, Owner owner, Wait wait,
                                          Clock::time_point deadline, const CancelToken* cancel, Ready ready) {
  if (ready()) return Outcome::kEntered;
  waits_[owner] = wait;
  // The holders and claimants change while it waits.
  const WaitEnd end = WaitOnCondition(lock, cv_, deadline, cancel, ready, [&] { return WouldDeadlock(owner); });
  waits_.erase(owner);
  switch (end) {
    case WaitEnd::kReady: return Outcome::kEntered;
    case WaitEnd::kTimedOut: return Outcome::kTimedOut;
    case WaitEnd::kDeadlock: return Outcome::kDeadlock;
    case WaitEnd::kCanceled: return Outcome::kCanceled;
  }
  return Outcome::kTimedOut;
}

void TableGates::Prune(TableId table) {
  auto it = gates_.find(table);
  if (it != gates_.end() && it->second.shared.empty() && it->second.exclusive == nullptr) gates_.erase(it);
}

}  // namespace paceline::engine
