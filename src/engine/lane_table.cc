// LaneTable: conflict lanes for interactive blocks (see lane_table.h).
#include "engine/lane_table.h"

#include <algorithm>
#include <limits>

namespace paceline::engine {

namespace {

// The wake-up a CancelToken calls: the waits re-check their condition.
void WakeAll(void* arg) {
  auto* args = static_cast<std::pair<std::mutex*, std::condition_variable*>*>(arg);
  std::lock_guard lock(*args->first);
  args->second->notify_all();
}

// The remembered references are swept of stale ones past this many.
constexpr size_t kRememberedSweepAt = 4096;

}  // namespace

LaneTable::LaneTable(size_t lanes, std::chrono::milliseconds memory)
    : memory_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(memory).count()),
      lanes_(std::max<size_t>(lanes, 1)) {}

int64_t LaneTable::NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::optional<size_t> LaneTable::Remembered(scheduler::ReferenceKey key) {
  std::lock_guard lock(mu_);
  auto it = remembered_.find(key);
  if (it == remembered_.end() || NowNs() - it->second.contended_ns > memory_ns_) return std::nullopt;
  return it->second.lane;
}

void LaneTable::Remember(scheduler::ReferenceKey key, size_t lane, bool contended, int64_t now) {
  if (remembered_.size() >= kRememberedSweepAt && !remembered_.count(key)) {
    std::erase_if(remembered_, [&](const auto& kv) { return now - kv.second.contended_ns > memory_ns_; });
  }
  auto [it, added] = remembered_.try_emplace(key);
  it->second.lane = lane;
  if (added) it->second.contended_ns = std::numeric_limits<int64_t>::min() / 2;
  if (contended) it->second.contended_ns = now;
}

bool LaneTable::Holds(uint64_t session, size_t lane) const {
  std::lock_guard lock(mu_);
  return lane < lanes_.size() && lanes_[lane].holder == session;
}

bool LaneTable::ClosesCycle(uint64_t session, size_t lane) const {
  // Follow holder -> the lane it waits for -> that lane's holder ...; each
  // session waits for at most one lane, so this is a chain.
  uint64_t holder = lanes_[lane].holder;
  for (size_t steps = 0; holder != 0 && steps <= lanes_.size(); ++steps) {
    if (holder == session) return true;
    auto it = waiting_.find(holder);
    if (it == waiting_.end()) return false;
    holder = lanes_[it->second].holder;
  }
  return false;
}

void LaneTable::Take(Lane* lane, size_t index, uint64_t session, scheduler::ReferenceKey key,
                     const std::string& name) {
  if (lane->holder != session) {
    lane->holder = session;
    lane->keys.clear();
    lane->names.clear();
    held_[session].push_back(index);
  }
  if (std::find(lane->keys.begin(), lane->keys.end(), key) == lane->keys.end()) {
    lane->keys.push_back(key);
    lane->names.push_back(name);
  }
}

bool LaneTable::TryAcquire(uint64_t session, size_t lane_index, scheduler::ReferenceKey key,
                           const std::string& name) {
  std::lock_guard lock(mu_);
  lane_index %= lanes_.size();
  Lane& lane = lanes_[lane_index];
  if (lane.holder != 0 && lane.holder != session) return false;
  Take(&lane, lane_index, session, key, name);
  Remember(key, lane_index, false, NowNs());
  return true;
}

Status LaneTable::Acquire(uint64_t session, size_t lane_index, scheduler::ReferenceKey key, const std::string& name,
                          std::chrono::steady_clock::time_point deadline, const CancelToken* cancel) {
  std::unique_lock lock(mu_);
  lane_index %= lanes_.size();
  Lane& lane = lanes_[lane_index];
  const int64_t now = NowNs();
  if (lane.holder == 0 || lane.holder == session) {
    Take(&lane, lane_index, session, key, name);
    Remember(key, lane_index, false, now);
    return Status::OK();
  }
  // Blocks carrying the same reference met here: it stays laned.
  const bool contended = std::find(lane.keys.begin(), lane.keys.end(), key) != lane.keys.end();
  Remember(key, lane_index, contended, now);
  if (ClosesCycle(session, lane_index)) {
    ++deadlocks_;
    return Status(sqlstate::kDeadlockDetected, "deadlock detected: conflict lane " + std::to_string(lane_index) +
                                                   " (for " + name + ") is held by a transaction that waits for " +
                                                   "a lane this transaction holds");
  }
  ++waits_;
  lane.waiters.push_back(Waiter{session, key, name});
  waiting_[session] = lane_index;
  std::pair<std::mutex*, std::condition_variable*> wake_args{&mu_, &changed_};
  Status status;
  lock.unlock();
  {
    // Lock order: the token's lock, then ours (Cancel calls WakeAll under
    // its own), so the Wakeup is registered and removed without ours held.
    CancelToken::Wakeup wakeup(cancel, &WakeAll, &wake_args);
    std::unique_lock wait_lock(mu_);
    for (;;) {
      if (lane.holder == session) break;  // handed over by ReleaseAll
      if (cancel != nullptr && cancel->canceled()) {
        status = CanceledStatus();
        break;
      }
      if (changed_.wait_until(wait_lock, deadline) == std::cv_status::timeout && lane.holder != session) {
        status = Status(sqlstate::kLockNotAvailable,
                        "canceling statement due to lock timeout: waited longer than lock_timeout for conflict lane " +
                            std::to_string(lane_index) + " (for " + name + ")");
        break;
      }
    }
  }
  lock.lock();
  waiting_.erase(session);
  if (lane.holder == session) {
    Take(&lane, lane_index, session, key, name);
    return Status::OK();
  }
  auto it = std::find_if(lane.waiters.begin(), lane.waiters.end(),
                         [&](const Waiter& w) { return w.session == session; });
  if (it != lane.waiters.end()) lane.waiters.erase(it);
  return status;
}

void LaneTable::ReleaseAll(uint64_t session) {
  std::lock_guard lock(mu_);
  auto it = held_.find(session);
  if (it == held_.end()) return;
  bool handed = false;
  for (size_t index : it->second) {
    Lane& lane = lanes_[index];
    if (lane.holder != session) continue;
    lane.holder = 0;
    lane.keys.clear();
    lane.names.clear();
    if (!lane.waiters.empty()) {
      Waiter next = std::move(lane.waiters.front());
      lane.waiters.pop_front();
      lane.holder = next.session;
      held_[next.session].push_back(index);
      waiting_.erase(next.session);
      lane.keys.push_back(next.key);
      lane.names.push_back(std::move(next.name));
      handed = true;
    }
  }
  held_.erase(session);
  if (handed) changed_.notify_all();
}

std::vector<LaneTable::LaneState> LaneTable::Snapshot() const {
  std::lock_guard lock(mu_);
  std::vector<LaneState> out;
  for (size_t i = 0; i < lanes_.size(); ++i) {
    const Lane& lane = lanes_[i];
    if (lane.holder == 0 && lane.waiters.empty()) continue;
    LaneState s;
    s.lane = i;
    s.holder = lane.holder;
    s.held_for = lane.names;
    for (const Waiter& w : lane.waiters) {
      s.waiting.push_back(w.session);
      s.waiting_for.push_back(w.name);
    }
    out.push_back(std::move(s));
  }
  return out;
}

uint64_t LaneTable::waits() const {
  std::lock_guard lock(mu_);
  return waits_;
}

uint64_t LaneTable::deadlocks() const {
  std::lock_guard lock(mu_);
  return deadlocks_;
}

}  // namespace paceline::engine
