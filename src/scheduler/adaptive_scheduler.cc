// AdaptiveScheduler, part 1 of 3: placement. Where a transaction goes
// (Place: exploration, its hottest reference's home, a spill, or the
// shortest queue), where its retry goes (RetryPlacement), whether a pinned
// transaction may leave its queue (MayMove), and decay. The header has the
// algorithm; adaptive_scheduler_homes.cc keeps the homes and
// adaptive_scheduler_evidence.cc the evidence.
#include "scheduler/adaptive_scheduler.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

#include "common/split_mix64.h"
#include "common/steady_clock.h"

namespace paceline::scheduler {


AdaptiveScheduler::AdaptiveScheduler(const SchedulerOptions& options, std::function<int64_t()> now_ns,
                                     bool spill_at_start)
    : queues_(options.queues),
      half_life_ns_(static_cast<double>(std::max<int64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(options.history_half_life).count(), 1))),
      exploration_(std::clamp(options.exploration, 0.0, 1.0)),
      run_here_(options.run_here),
      capacity_(std::max<size_t>(options.history_capacity, 1)),
      now_ns_(now_ns ? std::move(now_ns) : std::function<int64_t()>(SteadyNowNs)),
      shards_(new Shard[kShards]),
      // Another multiplier than the shards' (whose top 6 bits pick the shard).
      tracked_(options.history_capacity, 0xD6E8FEB86659FD93ull),
      backlog_(new std::atomic<int64_t>[options.queues]),
      arrivals_(options.queues, 0.0),
      arrivals_stamp_(options.queues, 0),
      members_(options.queues, 0),
      rng_(options.seed),
      spread_(options.queues, kSpreadEpochNs, now_ns_(), spill_at_start) {
  assert(queues_ >= 1);
  for (size_t q = 0; q < queues_; ++q) backlog_[q].store(0, std::memory_order_relaxed);
}

FootprintSpec AdaptiveScheduler::Needs() const {
  FootprintSpec spec;
  spec.references = true;
  spec.form = ReferenceForm::kCanonical;
  spec.granularity = ReferenceGranularity::kSingle;
  spec.sources = ReferenceSources::kWhere;
  return spec;
}

AdaptiveScheduler::Entry& AdaptiveScheduler::FindOrAdd(Shard* shard, ReferenceKey key, int64_t now) {
  auto [it, inserted] = shard->map.try_emplace(key);
  if (inserted) {
    it->second.stamp_ns = now;
    it->second.inflight.assign(queues_, 0);
    it->second.sent_away.assign(queues_, 0);
    entries_.fetch_add(1, std::memory_order_relaxed);
  }
  return it->second;
}

AdaptiveScheduler::Entry* AdaptiveScheduler::Find(Shard* shard, ReferenceKey key) {
  auto it = shard->map.find(key);
  return it == shard->map.end() ? nullptr : &it->second;
}

double AdaptiveScheduler::DecayFactor(int64_t since, int64_t now) const {
  return now <= since ? 1.0 : std::exp2(-static_cast<double>(now - since) / half_life_ns_);
}

void AdaptiveScheduler::Decay(Entry* e, int64_t now) const {
  if (now <= e->stamp_ns) return;
  const double f = DecayFactor(e->stamp_ns, now);
  e->exposures *= f;
  e->aborts *= f;
  for (Evidence& t : e->tables) {
    t.exposures *= f;
    t.aborts *= f;
    t.attempts *= f;
    t.concurrent *= f;
  }
  e->traffic *= f;
  e->placed *= f;
  e->away_commits *= f;
  e->away_aborts *= f;
  e->stamp_ns = now;
}

double AdaptiveScheduler::Score(const Entry& e, uint64_t tables) {
  double score = 0;
  for (const Evidence& t : e.tables) {
    if ((tables == 0 || (tables & t.bit) != 0) && Hot(t)) score += t.aborts;
  }
  return score;
}

bool AdaptiveScheduler::Bottleneck(const Entry& e, bool overloaded, int64_t now) {
  if (!overloaded || e.homes.empty()) return false;
  double all;
  {
    std::lock_guard lock(arrivals_mu_);
    all = placements_ * DecayFactor(placements_stamp_, now);
  }
  const double share = e.placed / static_cast<double>(e.homes.size());
  return share > kBottleneckShare * all / static_cast<double>(queues_);
}

bool AdaptiveScheduler::Overloaded(size_t queue) const {
  int64_t total = 0;
  for (size_t q = 0; q < queues_; ++q) total += backlog_[q].load(std::memory_order_relaxed);
  const double mean = static_cast<double>(total) / static_cast<double>(queues_);
  return static_cast<double>(backlog_[queue].load(std::memory_order_relaxed)) > 2 * mean + 2;
}

AdaptiveScheduler::ShortestQueue AdaptiveScheduler::Shortest() {
  // Random among the shortest: start the scan at a random queue.
  const size_t start = NextRandom() % queues_;
  ShortestQueue best{start, std::numeric_limits<int64_t>::max()};
  size_t empty = 0;
  for (size_t i = 0; i < queues_; ++i) {
    const size_t q = (start + i) % queues_;
    const int64_t length = backlog_[q].load(std::memory_order_relaxed);
    if (length <= 0) ++empty;
    if (length < best.backlog) best = ShortestQueue{q, length};
  }
  best.empty = empty;
  return best;
}

size_t AdaptiveScheduler::Pick(const Footprint& footprint) { return Place(footprint).queue; }

template <typename Fn>
void AdaptiveScheduler::ForEachEntry(const Footprint& footprint, int64_t now, Fn fn) {
  for (size_t i = 0; i < footprint.references.size(); ++i) {
    const ReferenceKey key = footprint.references[i];
    if (!Tracked(key)) continue;  // never blamed: no evidence
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mu);
    Entry* e = Find(&shard, key);
    if (e == nullptr) continue;  // swept, or another key's filter bit
    Decay(e, now);
    if (!fn(i, footprint.TablesOf(i), *e)) return;
  }
}

AdaptiveScheduler::Hottest AdaptiveScheduler::HottestOf(const Footprint& footprint, int64_t now, bool count_traffic) {
  // Evidence of each reference; of the hot ones, the one with the most
  // blamed aborts (rate × exposures: the conflicts its home would avoid).
  Hottest h;
  ForEachEntry(footprint, now, [&](size_t i, uint64_t tables, Entry& e) {
    if (count_traffic) e.traffic += 1;
    const double score = Score(e, tables);
    // Cold in every role (hot in this footprint's tables is hot): no home any more.
    if (score <= 0 && !e.homes.empty() && Score(e, 0) <= 0) ReleaseHomes(&e);
    if (score > 0 && score > h.aborts) {
      h.hot = true;
      h.key = footprint.references[i];
      h.aborts = score;
      h.spill_cost = SpillCost(e);
    }
    return true;
  });
  return h;
}

bool AdaptiveScheduler::MayRunHere(const Footprint& footprint) {
  if (!run_here_) return false;
  if (HottestOf(footprint, now_ns_(), /*count_traffic=*/false).hot) return false;  // Place it
  ran_here_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

Placement AdaptiveScheduler::Place(const Footprint& footprint) {
  picks_.fetch_add(1, std::memory_order_relaxed);
  const int64_t now = now_ns_();
  {
    std::lock_guard lock(arrivals_mu_);
    placements_ = placements_ * DecayFactor(placements_stamp_, now) + 1;
    placements_stamp_ = std::max(placements_stamp_, now);
  }
  const Hottest h = HottestOf(footprint, now, /*count_traffic=*/true);
  const SpreadController::Level spread = spread_.Spread(now);
  const ShortestQueue shortest = Shortest();  // one scan: the default, a spill's target, and idle workers

  size_t queue;
  bool pinned = false;
  bool spread_decided = false;  // homed or spilled: where the spread chose
  bool spilled = false;
  const uint64_t draw = NextRandom();
  if (h.hot && h.aborts < kThinEvidence && exploration_ > 0 &&
      static_cast<double>(draw >> 11) * 0x1.0p-53 < exploration_) {
    explored_.fetch_add(1, std::memory_order_relaxed);
    queue = SplitMix64::Mix(draw) % queues_;
    SentAway(h.key, queue);
  } else if (h.hot) {
    spread_decided = true;
    Shard& shard = ShardOf(h.key);
    std::lock_guard lock(shard.mu);
    Entry& e = FindOrAdd(&shard, h.key, now);  // (swept since the first pass: added again)
    tracked_.Add(h.key);
    queue = FitHomes(&e, spread.queues, now);
    e.placed += 1;
    const int64_t backlog = backlog_[queue].load(std::memory_order_relaxed);
    const bool overloaded = Overloaded(queue);  // for steps 3 and 4
    std::optional<size_t> moved;
    if (overloaded && 2 * int64_t{e.inflight[queue]} < backlog && e.homes.size() < queues_) {
      moved = MoveHome(e.traffic / static_cast<double>(e.homes.size()), now, e.homes, queue, e.inflight[queue] > 0);
    }
    if (moved.has_value()) {
      *std::find(e.homes.begin(), e.homes.end(), static_cast<int>(queue)) = static_cast<int>(*moved);
      e.sent_away[*moved] = 0;  // at home now
      queue = *moved;
      moves_.fetch_add(1, std::memory_order_relaxed);
    } else if (e.homes.size() >= queues_) {
      // A home set of every queue is no home: nothing to keep r*'s work
      // away from, so it goes where it waits least and stays free to be
      // taken by an idle worker, as without evidence.
      homed_.fetch_add(1, std::memory_order_relaxed);
      AddArrivals(shortest.queue, 1, now);
      queue = shortest.queue;
    } else if (((spread.spill && shortest.backlog == 0) || Bottleneck(e, overloaded, now)) &&
               static_cast<double>(backlog) > kSpillMargin && h.spill_cost < kMaxSpillCost) {
      // Expected cost: a worker idles (or r*'s overloaded home keeps the
      // clients the other workers need) while r*'s home has a backlog, and
      // running r*'s work beside its home has cost less than it gains.
      spilled_.fetch_add(1, std::memory_order_relaxed);
      spilled = true;
      queue = shortest.queue;
      CountSentAway(&e, queue);
    } else {
      homed_.fetch_add(1, std::memory_order_relaxed);
      AddArrivals(queue, 1, now);
      pinned = true;
    }
  } else {
    default_picks_.fetch_add(1, std::memory_order_relaxed);
    queue = shortest.queue;
  }

  spread_.OnPlaced(spread_decided, shortest.empty, spilled);
  CountInflight(footprint, queue, +1);
  backlog_[queue].fetch_add(1, std::memory_order_relaxed);
  return Placement{queue, pinned};
}

std::optional<Placement> AdaptiveScheduler::RetryPlacement(const Footprint& footprint, size_t queue,
                                                           const AbortCulprit& culprit) {
  // An attempt that ran away from its hot reference's home (spilled,
  // explored, or placed before the home moved) and conflicted: its retry
  // waits at home, where it runs after what it conflicts with instead of
  // beside it again. Spilling is speculation on an idle worker; it gets
  // one attempt.
  if (queue >= queues_) return std::nullopt;
  const int64_t now = now_ns_();
  const Hottest h = HottestOf(footprint, now, /*count_traffic=*/false);
  if (!h.hot) return std::nullopt;
  size_t home;
  bool bottleneck;
  {
    Shard& shard = ShardOf(h.key);
    std::lock_guard lock(shard.mu);
    Entry* e = Find(&shard, h.key);
    if (e == nullptr || e->homes.empty()) return std::nullopt;
    if (AtHome(*e, queue)) {
      // In a home set of several queues, a conflict with a transaction
      // still running (a lock it holds) is most likely with the member
      // running most of r*'s other work: the retry waits there, behind it,
      // instead of failing against it again at once (2PL NO_WAIT retries
      // its first attempts immediately). An OCC validation failure's
      // writer has committed: the retry stays.
      if (!culprit.still_running) return std::nullopt;
      const std::optional<size_t> busiest = BusiestOtherMember(*e, queue);
      if (!busiest.has_value()) return std::nullopt;
      home = *busiest;
    } else {
      home = FitHomes(e, spread_.Spread(now).queues, now);
    }
    bottleneck = Bottleneck(*e, Overloaded(home), now);
  }
  // A home that is the bottleneck (a key most transactions carry) gains
  // nothing from one more waiting there: the worker it was spilled to is
  // the only spare capacity, so the retry stays with it.
  if (bottleneck) return std::nullopt;
  CountInflight(footprint, queue, -1);
  CountInflight(footprint, home, +1);
  backlog_[queue].fetch_sub(1, std::memory_order_relaxed);
  backlog_[home].fetch_add(1, std::memory_order_relaxed);
  AddArrivals(home, 1, now);
  sent_home_.fetch_add(1, std::memory_order_relaxed);
  return Placement{home, true};
}

std::optional<size_t> AdaptiveScheduler::BusiestOtherMember(const Entry& e, size_t queue) const {
  std::optional<size_t> busiest;
  int32_t most = 0;
  for (int member : e.homes) {
    const size_t q = static_cast<size_t>(member);
    if (q != queue && e.inflight[q] > most) {
      busiest = q;
      most = e.inflight[q];
    }
  }
  return busiest;
}

void AdaptiveScheduler::SentAway(ReferenceKey key, size_t queue) {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mu);
  Entry* e = Find(&shard, key);
  if (e != nullptr) CountSentAway(e, queue);
}

bool AdaptiveScheduler::AwayInflight(const Entry& e) const {
  for (size_t q = 0; q < queues_; ++q) {
    if (e.sent_away[q] > 0 && !AtHome(e, q)) return true;
  }
  return false;
}

void AdaptiveScheduler::LanedReferences(const Footprint& footprint, std::vector<size_t>* laned) {
  // The references with blamed aborts (≥ kMinAborts, decayed) at the
  // tables they locate here. Not Hot's rate test: that one weighs a home's
  // cost to idle workers, while a block's conflict reaches its client as
  // 40001 (no retry), so any repeated conflict is worth a lane, and a lane
  // costs nothing where blocks do not meet.
  laned->clear();
  ForEachEntry(footprint, now_ns_(), [&](size_t i, uint64_t tables, Entry& e) {
    for (const Evidence& t : e.tables) {
      if ((tables == 0 || (tables & t.bit) != 0) && t.aborts >= kMinAborts) {
        laned->push_back(i);
        break;
      }
    }
    return true;
  });
}

std::vector<ReferenceEvidence> AdaptiveScheduler::EvidenceFor(const Footprint& footprint) {
  std::vector<ReferenceEvidence> out(footprint.references.size());
  ForEachEntry(footprint, now_ns_(), [&](size_t i, uint64_t tables, Entry& e) {
    ReferenceEvidence& r = out[i];
    r.known = true;
    for (const auto& t : e.tables) {
      if (tables != 0 && (tables & t.bit) == 0) continue;
      r.blamed_aborts += t.aborts;
      r.exposures += t.exposures;
      r.hot = r.hot || Hot(t);
    }
    r.homes = e.homes;
    return true;
  });
  return out;
}

bool AdaptiveScheduler::MayMove(const Footprint& footprint, size_t queue) {
  // A pinned transaction may leave its queue when, for each of its hot
  // references, no other transaction carrying it is in flight anywhere:
  // then it conflicts with nothing that runs or waits now.
  (void)queue;
  bool may = true;
  ForEachEntry(footprint, now_ns_(), [&](size_t, uint64_t tables, Entry& e) {
    if (Score(e, tables) <= 0) return true;
    int64_t inflight = 0;
    for (int32_t n : e.inflight) inflight += n;
    may = inflight <= 1;  // itself, and no other
    return may;
  });
  if (may) moved_.fetch_add(1, std::memory_order_relaxed);
  return may;
}

uint64_t AdaptiveScheduler::NextRandom() {
  // SplitMix64's step on a shared state: one atomic add per draw.
  return SplitMix64::Mix(rng_.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed) + 0x9e3779b97f4a7c15ULL);
}

int64_t AdaptiveScheduler::Backlog(size_t queue) const { return backlog_[queue].load(std::memory_order_relaxed); }

}  // namespace paceline::scheduler
