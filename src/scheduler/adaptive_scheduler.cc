// AdaptiveScheduler: evidence, decay, homes and the load term (see the
// header for the algorithm).
#include "scheduler/adaptive_scheduler.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

#include "common/split_mix64.h"

namespace paceline::scheduler {

namespace {

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}


}  // namespace

AdaptiveScheduler::AdaptiveScheduler(const SchedulerOptions& options, std::function<int64_t()> now_ns,
                                     bool spill_at_start)
    : queues_(options.queues),
      half_life_ns_(static_cast<double>(std::max<int64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(options.history_half_life).count(), 1))),
      exploration_(std::clamp(options.exploration, 0.0, 1.0)),
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
    it->second.leftover.assign(queues_, 0);
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

void AdaptiveScheduler::GiveUpHome(Entry* e, int queue) {
  LeftHome(e, static_cast<size_t>(queue));
  ReleaseHome(queue);
}

void AdaptiveScheduler::ReleaseHomes(Entry* e) {
  for (int home : e->homes) GiveUpHome(e, home);
  e->homes.clear();
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

size_t AdaptiveScheduler::FitHomes(Entry* e, size_t spread, int64_t now) {
  spread = std::clamp<size_t>(spread, 1, queues_);
  while (e->homes.size() > spread) {
    GiveUpHome(e, e->homes.back());
    e->homes.pop_back();
  }
  while (e->homes.size() < spread) {
    const size_t q = AssignHome(e->traffic / static_cast<double>(spread), now, e->homes);
    e->homes.push_back(static_cast<int>(q));
    e->leftover[q] = 0;  // its own work again
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

size_t AdaptiveScheduler::Pick(const Footprint& footprint) { return Place(footprint).queue; }

AdaptiveScheduler::Hottest AdaptiveScheduler::HottestOf(const Footprint& footprint, int64_t now, bool count_traffic) {
  // Evidence of each reference; of the hot ones, the one with the most
  // blamed aborts (rate × exposures: the conflicts its home would avoid).
  Hottest h;
  for (size_t i = 0; i < footprint.references.size(); ++i) {
    const ReferenceKey key = footprint.references[i];
    if (!Tracked(key)) continue;  // never blamed: no evidence, nothing to count
    const uint64_t tables = footprint.TablesOf(i);
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mu);
    Entry* found = Find(&shard, key);
    if (found == nullptr) continue;  // swept, or another key's filter bit
    Entry& e = *found;
    Decay(&e, now);
    if (count_traffic) e.traffic += 1;
    const double score = Score(e, tables);
    // Cold in every role (hot in this footprint's tables is hot): no home any more.
    if (score <= 0 && !e.homes.empty() && Score(e, 0) <= 0) ReleaseHomes(&e);
    if (score > 0 && score > h.aborts) {
      h.hot = true;
      h.key = key;
      h.aborts = score;
      h.spill_cost = SpillCost(e);
    }
  }
  return h;
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
      LeftHome(&e, queue);
      e.leftover[*moved] = 0;  // its own work again
      queue = *moved;
      moves_.fetch_add(1, std::memory_order_relaxed);
    } else if (((spread.spill && shortest.backlog == 0) || Bottleneck(e, overloaded, now)) &&
               static_cast<double>(backlog) > kSpillMargin && h.spill_cost < kMaxSpillCost) {
      // Expected cost: a worker idles (or r*'s overloaded home keeps the
      // clients the other workers need) while r*'s home has a backlog, and
      // running r*'s work beside its home has cost less than it gains.
      spilled_.fetch_add(1, std::memory_order_relaxed);
      spilled = true;
      queue = shortest.queue;
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

bool AdaptiveScheduler::AwayInflight(const Entry& e) const {
  for (size_t q = 0; q < queues_; ++q) {
    if (e.inflight[q] > e.leftover[q] && !AtHome(e, q)) return true;
  }
  return false;
}

bool AdaptiveScheduler::MayMove(const Footprint& footprint, size_t queue) {
  // A pinned transaction may leave its queue when, for each of its hot
  // references, no other transaction carrying it is in flight anywhere:
  // then it conflicts with nothing that runs or waits now.
  (void)queue;
  const int64_t now = now_ns_();
  for (size_t i = 0; i < footprint.references.size(); ++i) {
    const ReferenceKey key = footprint.references[i];
    if (!Tracked(key)) continue;
    const uint64_t tables = footprint.TablesOf(i);
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mu);
    Entry* found = Find(&shard, key);
    if (found == nullptr) continue;
    Entry& e = *found;
    Decay(&e, now);
    if (Score(e, tables) <= 0) continue;
    int64_t inflight = 0;
    for (int32_t n : e.inflight) inflight += n;
    if (inflight > 1) return false;  // itself, and another
  }
  moved_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void AdaptiveScheduler::EndAttempt(const Footprint& footprint, size_t queue, const AbortCulprit* culprit,
                                   const ReferenceNamer* namer) {
  const int64_t now = now_ns_();
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
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mu);
    Entry* found = blamed ? &FindOrAdd(&shard, key, now) : Find(&shard, key);
    if (found == nullptr) continue;
    if (blamed) tracked_.Add(key);  // under the shard lock: a sweep's rebuild sees the entry or the bit
    Entry& e = *found;
    Decay(&e, now);
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
      const bool guilty = blamed && (culprit->tables == 0 || (culprit->tables & bit) != 0);
      if (others == 0 && !guilty) return;  // not exposed there: no evidence either way
      exposed = true;
      t.exposures += 1;
      if (guilty) t.aborts += 1;
    });
    if (exposed) e.exposures += 1;
    // Running away from home: only where the reference is hot in the role
    // this transaction gives it (w_id=5 locating a remote customer is not).
    const uint64_t tables = footprint.TablesOf(i);
    // (Not on a queue that left the home set while it held this work; and
    // only at a home of one queue: the members of a wider home set
    // conflict with each other, and their aborts are no cost of work away.)
    if (e.homes.size() == 1 && queue < queues_ && Score(e, tables) > 0 && e.leftover[queue] == 0) {
      if (!AtHome(e, queue)) {
        // Its own aborts cost only the idle worker's time it was sent to use.
        if (culprit == nullptr) e.away_commits += 1;
        e.away_seen_ns = now;
      } else if (costs_away && (now - e.away_seen_ns < kAwayShadowNs || AwayInflight(e))) {
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
    // The oldest finish first (a run queue is FIFO): leftovers before
    // what came to that queue after it left the home set.
    if (delta < 0 && e.leftover[queue] > 0) --e.leftover[queue];
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

uint64_t AdaptiveScheduler::NextRandom() {
  // SplitMix64's step on a shared state: one atomic add per draw.
  return SplitMix64::Mix(rng_.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed) + 0x9e3779b97f4a7c15ULL);
}

int64_t AdaptiveScheduler::Backlog(size_t queue) const { return backlog_[queue].load(std::memory_order_relaxed); }

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
