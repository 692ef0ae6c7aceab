// LaneTable: conflict lanes for interactive blocks (see lane_table.h).
#include "engine/lane_table.h"

#include <algorithm>

#include "common/steady_clock.h"

namespace paceline::engine {

namespace {

// The wake-up a CancelToken calls (a cancel, a wound at a row lock): the
// wait re-checks its condition.
void WakeWaiter(void* arg) {
  auto* args = static_cast<std::pair<std::mutex*, std::condition_variable*>*>(arg);
  std::lock_guard lock(*args->first);
  args->second->notify_all();
}

// The contention memory is swept of stale references past this many.
constexpr size_t kContendedSweepAt = 4096;

}  // namespace

LaneTable::LaneTable(std::chrono::milliseconds memory, cc::ConcurrencyControl* cc)
    : memory_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(memory).count()), cc_(cc) {}

void LaneTable::Wake(uint64_t session) {
  auto it = wakers_.find(session);
  if (it != wakers_.end()) it->second->notify_one();
}

void LaneTable::ForgetUnlessHolding(uint64_t session) {
  if (!held_.count(session)) txns_.erase(session);
}

bool LaneTable::Remembered(Key key) {
  std::vector<size_t> laned;
  AddRemembered({key}, &laned);
  return !laned.empty();
}

void LaneTable::AddRemembered(const std::vector<Key>& keys, std::vector<size_t>* laned) {
  const int64_t now = SteadyNowNs();
  std::lock_guard lock(mu_);
  if (contended_.empty()) return;
  for (size_t i = 0; i < keys.size(); ++i) {
    auto it = contended_.find(keys[i]);
    if (it == contended_.end() || now - it->second > memory_ns_) continue;
    if (std::find(laned->begin(), laned->end(), i) == laned->end()) laned->push_back(i);
  }
}

void LaneTable::Contended(Key key, int64_t now) {
  if (contended_.size() >= kContendedSweepAt && !contended_.count(key)) {
    std::erase_if(contended_, [&](const auto& kv) { return now - kv.second > memory_ns_; });
  }
  contended_[key] = now;
}

LaneTable::Lane& LaneTable::LaneOf(Key key, const std::string& name) {
  auto [it, added] = lanes_.try_emplace(key);
  if (added) it->second.name = name;
  return it->second;
}

void LaneTable::EraseIfIdle(Key key) {
  auto it = lanes_.find(key);
  if (it != lanes_.end() && it->second.holder == 0 && it->second.waiters.empty()) lanes_.erase(it);
}

bool LaneTable::Holds(uint64_t session, Key key) const {
  std::lock_guard lock(mu_);
  auto it = lanes_.find(key);
  return it != lanes_.end() && it->second.holder == session;
}

bool LaneTable::ClosesCycle(uint64_t session, Key key) const {
  // Follow holder -> the lane it waits for -> that lane's holder ...; each
  // session waits for at most one lane, so this is a chain (bounded by the
  // number of waiting sessions, should it ever loop).
  auto lane = lanes_.find(key);
  uint64_t holder = lane == lanes_.end() ? 0 : lane->second.holder;
  for (size_t steps = 0; holder != 0 && steps <= waiting_.size(); ++steps) {
    if (holder == session) return true;
    auto next = waiting_.find(holder);
    if (next == waiting_.end()) return false;
    lane = lanes_.find(next->second);
    holder = lane == lanes_.end() ? 0 : lane->second.holder;
  }
  return false;
}

void LaneTable::Take(Lane* lane, Key key, uint64_t session) {
  if (lane->holder == session) return;
  lane->holder = session;
  held_[session].push_back(key);
}

bool LaneTable::TryAcquire(uint64_t session, Key key, const std::string& name, cc::TransactionContext* txn) {
  std::lock_guard lock(mu_);
  Lane& lane = LaneOf(key, name);
  if (lane.holder != 0 && lane.holder != session) return false;
  Take(&lane, key, session);
  if (txn != nullptr) txns_[session] = txn;
  return true;
}

Status LaneTable::Acquire(uint64_t session, Key key, const std::string& name,
                          std::chrono::steady_clock::time_point deadline, const CancelToken* cancel,
                          cc::TransactionContext* txn) {
  std::unique_lock lock(mu_);
  Lane& lane = LaneOf(key, name);
  if (lane.holder == 0 || lane.holder == session) {
    Take(&lane, key, session);
    if (txn != nullptr) txns_[session] = txn;
    return Status::OK();
  }
  Contended(key, SteadyNowNs());  // blocks carrying it met here: it stays laned
  if (ClosesCycle(session, key)) {
    ++deadlocks_;
    return Status(sqlstate::kDeadlockDetected,
                  "deadlock detected: the conflict lane of " + name +
                      " is held by a transaction that waits for a lane this transaction holds");
  }
  const bool ruled = cc_ != nullptr && txn != nullptr;
  if (ruled) txns_[session] = txn;  // later arrivals' rule sees it ahead of them
  if (ruled && (held_.count(session) > 0 || cc_->HoldsLocks(txn))) {
    // The concurrency control's deadlock rule, on the blocks ahead: the
    // holder, then the earlier waiters. A block that holds no lane and no
    // lock waits without it: only later waiters of this lane can wait for
    // it, and their own rule covers every block ahead of them, so any
    // cycle through it has a shortcut of ruled waits (which the rule
    // breaks). A block whose first hot statement comes before it touches
    // a row then queues in arrival order instead of dying (wait-die) or
    // wounding (wound-wait) by age.
    std::vector<cc::TransactionContext*> ahead;
    auto add = [&](uint64_t s) {
      auto t = txns_.find(s);
      if (t != txns_.end()) ahead.push_back(t->second);
    };
    add(lane.holder);
    for (uint64_t w : lane.waiters) add(w);
    bool wounded = false;
    Status rule = cc_->ArbitrateOutsideWait(txn, ahead, "the conflict lane of " + name, &wounded);
    if (!rule.ok()) {  // it died; the lane has a holder, so it stays
      ForgetUnlessHolding(session);
      return rule;
    }
    if (wounded) {
      // The wounded that wait in a lane (the holder maybe in another) look again.
      Wake(lane.holder);
      for (uint64_t w : lane.waiters) Wake(w);
    }
  }
  ++waits_;
  lane.waiters.push_back(session);
  waiting_[session] = key;
  std::condition_variable woken;  // this wait's own: a hand-over wakes one waiter, not all
  wakers_[session] = &woken;
  std::pair<std::mutex*, std::condition_variable*> wake_args{&mu_, &woken};
  Status status;
  lock.unlock();
  {
    // Lock order: the token's lock, then ours (Cancel calls WakeWaiter
    // under its own), so the Wakeup is registered and removed without ours
    // held.
    CancelToken::Wakeup wakeup(cancel, &WakeWaiter, &wake_args);
    std::unique_lock wait_lock(mu_);
    for (;;) {
      if (lane.holder == session) break;  // handed over by ReleaseAll
      if (ruled) {
        status = cc_->OutsideWaitStatus(txn);  // wounded while it waited
        if (!status.ok()) break;
      }
      if (cancel != nullptr && cancel->canceled()) {
        status = CanceledStatus();
        break;
      }
      if (woken.wait_until(wait_lock, deadline) == std::cv_status::timeout && lane.holder != session) {
        status = Status(sqlstate::kLockNotAvailable,
                        "canceling statement due to lock timeout: waited longer than lock_timeout for the "
                        "conflict lane of " + name);
        break;
      }
    }
  }
  lock.lock();
  waiting_.erase(session);
  wakers_.erase(session);
  if (lane.holder == session) return Status::OK();  // handed over (maybe just after the deadline)
  auto it = std::find(lane.waiters.begin(), lane.waiters.end(), session);
  if (it != lane.waiters.end()) lane.waiters.erase(it);
  EraseIfIdle(key);
  ForgetUnlessHolding(session);
  return status;
}

void LaneTable::ReleaseAll(uint64_t session) {
  std::lock_guard lock(mu_);
  auto it = held_.find(session);
  if (it == held_.end()) return;
  for (Key key : it->second) {
    auto found = lanes_.find(key);
    if (found == lanes_.end() || found->second.holder != session) continue;
    Lane& lane = found->second;
    lane.holder = 0;
    if (lane.waiters.empty()) {
      lanes_.erase(found);
      continue;
    }
    const uint64_t next = lane.waiters.front();
    lane.waiters.pop_front();
    lane.holder = next;
    held_[next].push_back(key);
    waiting_.erase(next);
    Wake(next);
  }
  held_.erase(session);
  txns_.erase(session);
}

std::vector<LaneTable::LaneState> LaneTable::Snapshot() const {
  std::lock_guard lock(mu_);
  std::vector<LaneState> out;
  for (const auto& [key, lane] : lanes_) {
    out.push_back(LaneState{lane.name, key, lane.holder, {lane.waiters.begin(), lane.waiters.end()}});
  }
  std::sort(out.begin(), out.end(), [](const LaneState& a, const LaneState& b) { return a.reference < b.reference; });
  return out;
}

uint64_t LaneTable::waits() const {
  std::lock_guard lock(mu_);
  return waits_;
}

LaneTable::Stats LaneTable::stats() const {
  std::lock_guard lock(mu_);
  Stats stats;
  for (const auto& [key, lane] : lanes_) stats.held += lane.holder != 0 ? 1 : 0;
  stats.waiting = waiting_.size();
  stats.waits = waits_;
  stats.deadlocks = deadlocks_;
  return stats;
}

uint64_t LaneTable::deadlocks() const {
  std::lock_guard lock(mu_);
  return deadlocks_;
}

}  // namespace paceline::engine
