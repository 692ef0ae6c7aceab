// AdaptiveScheduler, part 3 of 3: evidence. What an attempt's end teaches
// (EndAttempt: exposures, blamed aborts per table, the cost of work run
// away from home), what is in flight where (CountInflight), forgetting
// (SweepIfFull), and what the scheduler reports (TopReferences, Stats).
// The header has the algorithm; adaptive_scheduler.cc places transactions
// and adaptive_scheduler_homes.cc keeps the homes.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "scheduler/adaptive_scheduler.h"

namespace paceline::scheduler {

void AdaptiveScheduler::EndAttempt(const Footprint& footprint, size_t queue, const AbortCulprit* culprit,
                                   const ReferenceNamer* namer) {
  // The clock is read once, when the first tracked or blamed reference
  // needs it (an attempt of untracked references, the common case, never does).
  std::optional<int64_t> now;
  // A culprit that none of the references located (an INSERT's unique
  // conflict, say) still counts against running away from home.
  bool culprit_located = false;
  for (size_t i = 0; culprit != nullptr && i < footprint.references.size() && !culprit_located; ++i) {
    culprit_located = culprit->Blames(footprint, i);
  }
  for (size_t i = 0; i < footprint.references.size(); ++i) {
    const ReferenceKey key = footprint.references[i];
    const bool blamed = culprit != nullptr && culprit->Blames(footprint, i);
    if (!blamed && !Tracked(key)) continue;  // untracked until its first blame
    if (!now) now = now_ns_();
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mu);
    Entry* found = blamed ? &FindOrAdd(&shard, key, *now) : Find(&shard, key);
    if (found == nullptr) continue;
    if (blamed) tracked_.Add(key);  // under the shard lock: a sweep's rebuild sees the entry or the bit
    Entry& e = *found;
    Decay(&e, *now);
    const bool costs_away = blamed || (culprit != nullptr && !culprit_located);
    bool exposed = blamed;
    // Per table it located: exposed when another transaction carrying the
    // reference at that table is in flight on another queue; an abort for
    // the culprit's table.
    ForEachTable(footprint, i, [&](uint64_t bit) {
      Evidence& t = EvidenceOf(&e, bit);
      int64_t others = 0;
      for (size_t q = 0; q < queues_; ++q) {
        if (q != queue) others += t.inflight[q];
      }
      t.attempts += 1;
      const bool guilty = blamed && (culprit->tables == 0 || (culprit->tables & bit) != 0);
      // An attempt outside the run queues (an interactive block) is not
      // counted in flight: a conflict blamed on it proves its company.
      if (others > 0 || (queue < queues_ && t.inflight[queue] > 1) || (queue >= queues_ && guilty)) {
        t.concurrent += 1;
      }
      if (others == 0 && !guilty) return;  // not exposed there: no evidence either way
      exposed = true;
      t.exposures += 1;
      if (guilty) t.aborts += 1;
    });
    if (exposed) e.exposures += 1;
    // Running away from home: only where the reference is hot in the role
    // this transaction gives it (w_id=5 locating a remote customer is not).
    const uint64_t tables = footprint.TablesOf(i);
    // (Only work it sent away itself, Entry::sent_away; and only at a home
    // of one queue: the members of a wider home set conflict with each
    // other, and their aborts are no cost of work away.)
    if (e.homes.size() == 1 && queue < queues_ && Score(e, tables) > 0) {
      if (!AtHome(e, queue)) {
        if (e.sent_away[queue] > 0) {  // (else placed by another reference, or before its home)
          // Its own aborts cost only the idle worker's time it was sent to use.
          if (culprit == nullptr) e.away_commits += 1;
          e.away_seen_ns = *now;
        }
      } else if (costs_away && (*now - e.away_seen_ns < kAwayShadowNs || AwayInflight(e))) {
        e.away_aborts += 1;  // at home, beside (or just after) work of it away: the cost of that
      }
    }
    if (blamed) {
      e.aborts += 1;
      if (e.name.empty() && namer != nullptr) e.name = namer->Name(i);
    }
  }
}

AdaptiveScheduler::Evidence& AdaptiveScheduler::EvidenceOf(Entry* e, uint64_t bit) const {
  for (Evidence& t : e->tables) {
    if (t.bit == bit) return t;
  }
  Evidence& t = e->tables.emplace_back();
  t.bit = bit;
  t.inflight.assign(queues_, 0);
  return t;
}

template <typename Fn>
void AdaptiveScheduler::ForEachTable(const Footprint& footprint, size_t i, Fn fn) {
  uint64_t tables = footprint.TablesOf(i);
  if (tables == 0) tables = uint64_t{1} << 63;  // no table known: one bucket
  while (tables != 0) {
    const uint64_t bit = tables & (~tables + 1);
    tables &= tables - 1;
    fn(bit);
  }
}

void AdaptiveScheduler::CountInflight(const Footprint& footprint, size_t queue, int delta) {
  for (size_t i = 0; i < footprint.references.size(); ++i) {
    const ReferenceKey key = footprint.references[i];
    if (!Tracked(key)) continue;
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mu);
    Entry* found = Find(&shard, key);
    if (found == nullptr) continue;  // untracked (never swept while in flight)
    Entry& e = *found;
    e.inflight[queue] = std::max(0, e.inflight[queue] + delta);
    // Of its work on that queue, what it sent there finishes first (an
    // approximation: attempts do not say who placed them).
    if (delta < 0 && e.sent_away[queue] > 0) --e.sent_away[queue];
    ForEachTable(footprint, i, [&](uint64_t bit) {
      Evidence& t = EvidenceOf(&e, bit);
      t.inflight[queue] = std::max(0, t.inflight[queue] + delta);
    });
  }
}

void AdaptiveScheduler::OnAbort(const Footprint& footprint, size_t queue, const AbortCulprit& culprit,
                                const ReferenceNamer* namer) {
  EndAttempt(footprint, queue, &culprit, namer);
}

void AdaptiveScheduler::OnCommit(const Footprint& footprint, size_t queue) {
  spread_.OnCommit();
  EndAttempt(footprint, queue, nullptr, nullptr);
}

void AdaptiveScheduler::OnFinish(const Footprint& footprint, size_t queue) {
  if (queue >= queues_) return;  // not placed by Pick
  CountInflight(footprint, queue, -1);
  backlog_[queue].fetch_sub(1, std::memory_order_relaxed);
  SweepIfFull();
}

void AdaptiveScheduler::SweepIfFull() {
  if (entries_.load(std::memory_order_relaxed) <= capacity_) return;
  std::unique_lock sweeping(sweep_mu_, std::try_to_lock);
  if (!sweeping.owns_lock()) return;  // another caller sweeps
  const int64_t now = now_ns_();
  // The filter is rebuilt from the entries that stay: cleared first, then
  // each shard's survivors set again under its lock (a blame meanwhile sets
  // its bit under that lock too, so no tracked entry loses its bit).
  // Forgotten: nothing in flight, and too little evidence left to be hot.
  // If that leaves more than kSweepTo of the capacity, the idle entries
  // with the least evidence go too (a second pass), so that every sweep
  // frees a quarter of the table and entries stay within the capacity
  // (plus those in flight): sweeping cannot run on every call.
  tracked_.Clear();
  std::vector<double> idle_aborts;
  const auto idle = [](const Entry& e) {
    for (int32_t n : e.inflight) {
      if (n != 0) return false;
    }
    return true;
  };
  using Iterator = decltype(shards_[0].map.begin());
  const auto erase = [this](Shard* shard, Iterator* it) {
    for (int home : (*it)->second.homes) ReleaseHome(home);
    shard->map.erase((*it)++);
    entries_.fetch_sub(1, std::memory_order_relaxed);
    forgotten_.fetch_add(1, std::memory_order_relaxed);
  };
  for (size_t s = 0; s < kShards; ++s) {
    Shard& shard = shards_[s];
    std::lock_guard lock(shard.mu);
    for (auto it = shard.map.begin(); it != shard.map.end();) {
      Entry& e = it->second;
      Decay(&e, now);
      if (idle(e) && e.aborts < kMinAborts / 2) {
        erase(&shard, &it);
        continue;
      }
      if (idle(e)) idle_aborts.push_back(e.aborts);
      tracked_.Add(it->first);
      ++it;
    }
  }
  const size_t keep = static_cast<size_t>(kSweepTo * static_cast<double>(capacity_));
  const size_t entries = entries_.load(std::memory_order_relaxed);
  if (entries <= keep || idle_aborts.empty()) return;
  const size_t drop = std::min(entries - keep, idle_aborts.size());
  std::nth_element(idle_aborts.begin(), idle_aborts.begin() + static_cast<ptrdiff_t>(drop - 1), idle_aborts.end());
  const double threshold = idle_aborts[drop - 1];
  size_t dropped = 0;
  for (size_t s = 0; s < kShards && dropped < drop; ++s) {
    Shard& shard = shards_[s];
    std::lock_guard lock(shard.mu);
    for (auto it = shard.map.begin(); it != shard.map.end() && dropped < drop;) {
      if (idle(it->second) && it->second.aborts <= threshold) {
        erase(&shard, &it);  // its filter bit stays: a false positive, as for any other key
        ++dropped;
      } else {
        ++it;
      }
    }
  }
}

int AdaptiveScheduler::Home(ReferenceKey key) const {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mu);
  auto it = shard.map.find(key);
  return it == shard.map.end() || it->second.homes.empty() ? -1 : it->second.homes[0];
}

std::vector<int> AdaptiveScheduler::Homes(ReferenceKey key) const {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mu);
  auto it = shard.map.find(key);
  return it == shard.map.end() ? std::vector<int>{} : it->second.homes;
}

double AdaptiveScheduler::Rate(ReferenceKey key) const {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mu);
  auto it = shard.map.find(key);
  return it == shard.map.end() ? 0 : RateOf(it->second);
}

double AdaptiveScheduler::SpillCostOf(ReferenceKey key) const {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mu);
  auto it = shard.map.find(key);
  return it == shard.map.end() ? 0 : SpillCost(it->second);
}

std::vector<HotReference> AdaptiveScheduler::TopReferences(size_t k) const {
  const int64_t now = now_ns_();
  std::vector<HotReference> all;
  for (size_t s = 0; s < kShards; ++s) {
    Shard& shard = shards_[s];
    std::lock_guard lock(shard.mu);
    for (auto& [key, e] : shard.map) {
      Entry copy = e;
      Decay(&copy, now);
      if (copy.aborts < 0.01) continue;
      HotReference h;
      h.key = key;
      h.name = copy.name;
      h.aborts = static_cast<uint64_t>(std::llround(copy.aborts));
      h.weight = RateOf(copy);
      h.commits = static_cast<uint64_t>(std::llround(copy.exposures));  // shown as exposures
      h.queued.assign(queues_, 0);
      for (int home : copy.homes) h.queued[static_cast<size_t>(home)] = 1;  // its homes
      all.push_back(std::move(h));
    }
  }
  std::sort(all.begin(), all.end(), [](const HotReference& a, const HotReference& b) { return a.aborts > b.aborts; });
  if (all.size() > k) all.resize(k);
  return all;
}

SchedulerStats AdaptiveScheduler::Stats() const {
  SchedulerStats stats;
  stats.picks = picks_.load(std::memory_order_relaxed);
  stats.default_picks = default_picks_.load(std::memory_order_relaxed);
  stats.homed = homed_.load(std::memory_order_relaxed);
  stats.explored = explored_.load(std::memory_order_relaxed);
  stats.spilled = spilled_.load(std::memory_order_relaxed);
  stats.home_moves = moves_.load(std::memory_order_relaxed);
  stats.moved = moved_.load(std::memory_order_relaxed);
  stats.sent_home = sent_home_.load(std::memory_order_relaxed);
  stats.ran_here = ran_here_.load(std::memory_order_relaxed);
  const SpreadController::Stats spread = spread_.GetStats();
  stats.spread = spread.spread;
  stats.spill = spread.spill;
  stats.spread_probes = spread.probes;
  stats.spread_adopted = spread.adopted;
  stats.spread_reverted = spread.reverted;
  stats.history_references = entries_.load(std::memory_order_relaxed);
  stats.history_forgotten = forgotten_.load(std::memory_order_relaxed);
  stats.state_references = stats.history_references;
  stats.bytes = stats.history_references * (sizeof(Entry) + sizeof(ReferenceKey) + queues_ * sizeof(int32_t) + 16) +
                kShards * sizeof(Shard);
  return stats;
}

}  // namespace paceline::scheduler
