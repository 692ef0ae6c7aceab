// AdaptiveScheduler, part 2 of 3: homes. Which queue a hot reference's home
// goes to (the fewest homes, then the least recent arrivals and backlog),
// when a home moves (MoveHome's rules), how a home set grows and shrinks
// (FitHomes), and the arrival counts behind those choices. The header has
// the algorithm; adaptive_scheduler.cc places transactions and
// adaptive_scheduler_evidence.cc keeps the evidence.
#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "scheduler/adaptive_scheduler.h"

namespace paceline::scheduler {

double AdaptiveScheduler::Arrivals(size_t q, int64_t now) const {
  // Caller holds arrivals_mu_.
  return arrivals_[q] * DecayFactor(arrivals_stamp_[q], now);
}

void AdaptiveScheduler::AddArrivals(size_t q, double n, int64_t now) {
  std::lock_guard lock(arrivals_mu_);
  arrivals_[q] = Arrivals(q, now) + n;
  arrivals_stamp_[q] = std::max(arrivals_stamp_[q], now);
}

size_t AdaptiveScheduler::CandidateHome(int64_t now, const std::vector<int>& taken) const {
  // Caller holds arrivals_mu_.
  size_t best = 0;
  int best_members = std::numeric_limits<int>::max();
  double best_load = std::numeric_limits<double>::infinity();
  for (size_t q = 0; q < queues_; ++q) {
    if (std::find(taken.begin(), taken.end(), static_cast<int>(q)) != taken.end()) continue;
    const double load = Arrivals(q, now) + static_cast<double>(backlog_[q].load(std::memory_order_relaxed));
    if (members_[q] < best_members || (members_[q] == best_members && load < best_load)) {
      best = q;
      best_members = members_[q];
      best_load = load;
    }
  }
  return best;
}

void AdaptiveScheduler::TakeHome(size_t queue, double traffic, int64_t now) {
  // Caller holds arrivals_mu_.
  ++members_[queue];
  arrivals_[queue] = Arrivals(queue, now) + traffic;
  arrivals_stamp_[queue] = std::max(arrivals_stamp_[queue], now);
}

size_t AdaptiveScheduler::AssignHome(double traffic, int64_t now, const std::vector<int>& taken) {
  // One critical section: two references made hot at once must see each
  // other's traffic, or both land on the same idle queue.
  std::lock_guard lock(arrivals_mu_);
  const size_t best = CandidateHome(now, taken);
  TakeHome(best, traffic, now);
  return best;
}

std::optional<size_t> AdaptiveScheduler::MoveHome(double traffic, int64_t now, const std::vector<int>& taken,
                                                  size_t leaving, bool in_flight) {
  std::lock_guard lock(arrivals_mu_);
  const size_t best = CandidateHome(now, taken);
  const double left = Arrivals(leaving, now);
  const int fewer = members_[leaving] - members_[best];  // homes the candidate has fewer
  bool move;
  if (fewer >= 2) {
    move = true;  // evens the homes, whatever the arrivals say
  } else if (!in_flight) {
    move = fewer >= 1;
  } else {
    move = Arrivals(best, now) + traffic < left && (fewer >= 1 || members_[leaving] >= 2);
  }
  if (!move) return std::nullopt;
  --members_[leaving];
  arrivals_[leaving] = std::max(0.0, left - traffic);
  arrivals_stamp_[leaving] = std::max(arrivals_stamp_[leaving], now);
  TakeHome(best, traffic, now);
  return best;
}

void AdaptiveScheduler::ReleaseHome(int queue) {
  std::lock_guard lock(arrivals_mu_);
  --members_[static_cast<size_t>(queue)];
}

void AdaptiveScheduler::ReleaseHomes(Entry* e) {
  for (int home : e->homes) ReleaseHome(home);
  e->homes.clear();
}

void AdaptiveScheduler::NarrowHomes(Entry* e, size_t spread, int64_t now) {
  // The members given up are those on the queues shared with the most
  // other homes (then the most loaded): two home sets that grew over every
  // queue and narrow one after the other end disjoint, instead of both
  // keeping the queues they took first.
  std::lock_guard lock(arrivals_mu_);
  while (e->homes.size() > spread) {
    size_t drop = 0;
    double drop_load = -1;
    for (size_t i = 0; i < e->homes.size(); ++i) {
      const size_t q = static_cast<size_t>(e->homes[i]);
      const size_t d = static_cast<size_t>(e->homes[drop]);
      const double load = Arrivals(q, now) + static_cast<double>(backlog_[q].load(std::memory_order_relaxed));
      if (members_[q] > members_[d] || (members_[q] == members_[d] && load > drop_load)) {
        drop = i;
        drop_load = load;
      }
    }
    --members_[static_cast<size_t>(e->homes[drop])];
    e->homes.erase(e->homes.begin() + static_cast<std::ptrdiff_t>(drop));
  }
}

size_t AdaptiveScheduler::FitHomes(Entry* e, size_t spread, int64_t now) {
  spread = std::clamp<size_t>(spread, 1, queues_);
  if (e->homes.size() > spread) NarrowHomes(e, spread, now);
  while (e->homes.size() < spread) {
    const size_t q = AssignHome(e->traffic / static_cast<double>(spread), now, e->homes);
    e->homes.push_back(static_cast<int>(q));
    e->sent_away[q] = 0;  // at home now
  }
  // The member with the least backlog (the oldest among ties: one home
  // while the others are no shorter).
  size_t best = static_cast<size_t>(e->homes[0]);
  for (size_t i = 1; i < e->homes.size(); ++i) {
    const size_t q = static_cast<size_t>(e->homes[i]);
    if (backlog_[q].load(std::memory_order_relaxed) < backlog_[best].load(std::memory_order_relaxed)) best = q;
  }
  return best;
}

bool AdaptiveScheduler::FitHomesOf(ReferenceKey key, size_t queues) {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mu);
  Entry* e = Find(&shard, key);
  if (e == nullptr || e->homes.empty()) return false;
  FitHomes(e, queues, now_ns_());
  return true;
}

}  // namespace paceline::scheduler
