// AdaptiveScheduler ("adaptive"): Paceline's own conflict-aware policy.
//
// The algorithm, per transaction with footprint F (canonical single
// references from WHERE conjuncts, with the tables they came from):
//
//  Evidence. Per reference r and table t that r located rows of (the
//   footprint's reference_tables): decayed *exposures* (attempts that
//   ended while another transaction carrying r was in flight on another
//   queue, or that r was blamed for) and decayed *aborts* blamed on r: an
//   abort blames only the (r, t) whose table t is the concurrency
//   control's culprit (AbortCulprit), not every reference of F. Both decay
//   exponentially with `history_half_life`, so a hot set that moves fades.
//   (r, t) is *hot* when its blamed aborts ≥ 1 and it conflicts on ≥ 5% of
//   its attempts beside others: aborts / exposures (the chance an attempt
//   aborts when another carrier runs on another queue) × the share of its
//   attempts that ended with another carrier in flight anywhere (decayed
//   *attempts* and *concurrent* attempts; unlike exposures, that share
//   does not depend on where the carriers were placed). A key whose
//   transactions rarely have company is not worth a home, however often
//   they conflict when they do (pgbench's tellers: 0.06–0.08 aborts per
//   exposure, company about half the time; homed, adaptive ran at 0.94×
//   random, because a home keeps its work off idle workers — measured).
//   Per table, because one value is hot in one role and cold in
//   another: w_id=5 locating warehouse 5's row is hot, w_id=5 locating a
//   remote customer of a Payment at warehouse 2 is not.
//   A reference's *score* in F: the blamed aborts of its hot (r, t) over
//   the tables it locates in F.
//  Placement (Pick).
//   1. When r* (below) is hot on thin evidence (decayed blamed aborts <
//      kThinEvidence), with probability `exploration`: a uniformly random
//      queue. Exposures only come from transactions that run away from
//      their reference's home, so a pinned reference's evidence fades; an
//      explored transaction refreshes it. Exploring costs conflicts (under
//      2PL NO_WAIT each explored transaction made its home's transactions
//      abort and retry ~10 times: measured), so it is spent only where
//      evidence is running out, and never on transactions without a hot
//      reference (they are not pinned anyway).
//   2. r* = the reference of F with the highest score (blamed aborts: rate ×
//      exposures: the conflicts a common queue would avoid; a rarely met
//      reference with a high rate must not pull transactions away from the
//      one that conflicts all the time). r* has a *home set* of `spread`
//      queues (SpreadController: 1 unless throughput measured more with a
//      wider spread, as with fewer hot references than workers), filled
//      as needed with the queues in the fewest home sets, then the least
//      recent home arrivals plus backlog (r*'s own recent traffic is added
//      at once, so eight equally hot warehouses land on eight different
//      queues, and two warehouses spread over four queues each take four
//      different ones). The transaction goes to the member with the least
//      backlog. A home set of every queue is no home: the transaction goes
//      to the shortest queue unpinned, free to be taken by an idle worker
//      (pinned to the member shortest at placement it waited there while
//      another worker idled: pgbench scale 1, 8 clients, 0.96× random
//      pinned, 1.01× unpinned — measured). When a home set shrinks, it
//      gives up its members in the most home sets, so sets that grew over
//      every queue narrow into disjoint ones. A reference found cold in
//      every role gives its home set up
//      (it is assigned anew when it is hot again).
//   3. Load term: when that queue's backlog exceeds twice the mean backlog
//      + 2 and r*'s own transactions are under half of it (another hot
//      reference shares the queue: in a closed loop every client ends up
//      waiting behind such a queue — measured under 2PL, 57 of 64 clients
//      on one queue, the other seven idle), that home moves to the
//      least-loaded queue. While r* has transactions in flight at the old
//      home (the next ones would run beside them), only if that queue's
//      recent home arrivals plus r*'s traffic stay under the old home's: a
//      move must leave the two queues less unequal (equal homes two to a
//      queue, TPC-C 16 warehouses on 8 queues, otherwise moved at every
//      backlog peak to a queue that then held three — measured). With
//      nothing of r* in flight there, only to a queue with fewer homes
//      than the old one: such a move costs no conflicts now, but one to a
//      queue with as many leaves one home alone on a queue that idles and
//      three on one that peaks again. In both cases never a move that
//      leaves the old queue without a home for one that then holds two,
//      and always one to a queue with two homes fewer (MoveHome).
//   4. Expected cost, only where a worker would otherwise idle. In a
//      closed loop whose queues all hold work, moving a transaction from a
//      long queue to a shorter one adds no throughput, only conflicts
//      (measured: spilling to any shorter queue took TPC-C's abort rate
//      from 0.007 to 0.33 at 0.88x the throughput). When some queue is
//      empty and r*'s home holds more than kSpillMargin transactions, the
//      idle worker can gain one transaction; it costs the home (the
//      bottleneck) the aborts that running r*'s work away from it has
//      caused there per transaction so run (SpillCost: blamed aborts of r*'s
//      attempts at home while an attempt r* sent away (explored or
//      spilled) was in flight or had just ended (kAwayShadowNs), per
//      commit of such an attempt, decayed, from a
//      prior of kPriorSpillCost; an abort whose culprit table no reference
//      located counts too, as it cannot be placed; the away attempts' own
//      aborts cost only the idle worker's time, which was free; measured
//      only while the home set is one queue: Entry::sent_away). If that
//      is under kMaxSpillCost, this one transaction *spills* to the empty
//      queue (the home stays). Under 2PL NO_WAIT a TPC-C Payment sent
//      away from its warehouse's home made the home's Payments fail against
//      its locks about 18 times (measured), so a warehouse stops spilling
//      after its first; a skewed key that most transactions read and few
//      write costs little away, and idle workers take its overflow. The
//      exposure rate would not do: one transaction away from home exposes
//      every one at home, so that rate is diluted by the home's backlog.
//      Only where the SpreadController's level spills: with more workers
//      than cores an empty queue's worker is no spare capacity, and
//      throughput tells when spilling loses.
//      The same spill, at any level and to the shortest queue, when r*'s
//      home is its *bottleneck*: overloaded (the step-3 test) by r*'s own
//      work, a reference that more transactions carry than its homes can
//      serve (r* placed more than kBottleneckShare × a worker's share of
//      all placements per home, decayed). In a closed loop such a home
//      holds clients captive while the other workers run short of work,
//      and the idle-queue trigger alone balances that only by letting the
//      others idle first (measured, YCSB θ 0.8: one home held 52 of 64
//      clients, the other queues 0.3–1.9 on average; adaptive 0.87×
//      random). The share keeps a home that is long for a moment out: a
//      queue of equally hot references (TPC-C's warehouses, share ~1)
//      passes the backlog test now and then, and spilling it took TPC-C 8
//      warehouses' OCC abort rate from 0.04 to 0.065 (measured, at the
//      same throughput).
//   5. No hot reference: the shortest queue (random among ties), never
//      worse-balanced than random.
//   6. A transaction whose attempt away from r*'s home set (spilled,
//      explored, or placed before the home moved) conflicted is retried at
//      home (RetryPlacement), at the front of its queue: a spill is
//      speculation on an idle worker, and gets one attempt. (Retrying beside the home
//      instead kept TPC-C's OCC abort rate at 0.11–0.12; at home it fell
//      to 0.06–0.08 and 2PL's from 0.03–0.04 to 0.004–0.014 — measured.)
//      Unless the home is r*'s bottleneck (step 4): then the idle worker
//      is the only spare capacity, and the retry stays (sending it home
//      took YCSB θ 0.99 from 0.97× random to 0.72× — measured). In a home
//      set of several queues, a transaction that failed against one still
//      running (a 2PL lock holder) is retried on the member running most
//      of r*'s work, behind it: a retry at once fails again (2PL NO_WAIT
//      retries its first attempts immediately), and these storms had made
//      the sets lose. (With it,
//      TPC-C 2PL at 4 warehouses went from 1,290–1,350 to 1,560–1,860 tps,
//      2 warehouses +10–25% — measured, interleaved.)
//  Running where it arrived (MayRunHere, SchedulerOptions::run_here). A
//   transaction with no hot reference has no queue better than another
//   (step 2 would put it on the shortest, unpinned). When its submitter
//   waits for it on a thread of its own (a server connection), it runs on
//   that thread instead: no trip to a worker and back, which cost a point
//   read more than the read (pgbench select-only through paceline-server:
//   ~4 context switches per transaction, 65% of the profile in the
//   kernel's task switch — measured). Its traffic is not counted (nothing
//   is placed) and its events name kNoQueue, so its conflicts still teach
//   the evidence: once a reference is hot, its transactions are placed.
//  Stealing (Place, MayMove). A transaction placed at its home is pinned:
//   an idle worker steals only unpinned ones (no evidence, explored,
//   spilled), and a pinned one only when MayMove finds that none of its
//   hot references has another transaction in flight (it would conflict
//   with nothing that runs or waits now).
//  Bookkeeping is in 64 mutex-guarded shards of hash maps, and only for
//   *tracked* references: those blamed for an abort. A bit filter of them
//   (one bit per reference of capacity, 8 KB to 2 MB) lets Pick, commits
//   and finishes pass every other reference without a lookup: most
//   references of a transaction (TPC-C's items) never conflict, and
//   touching each one's entry twice per transaction cost ~8 µs per Pick in
//   cache misses. So a reference's exposures count from its first blame
//   (its rate starts high and settles as they come in), and one whose
//   tracking began while transactions carrying it were in flight counts
//   those low until they finish (counts are clamped at 0). When the table
//   passes `history_capacity`, entries with no transaction in flight and no
//   evidence left are swept, then, down to kSweepTo of the capacity, the
//   idle ones with the least evidence; the filter is rebuilt from the rest.
//
// Thread-safety: every method may be called concurrently (Scheduler).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "scheduler/key_filter.h"
#include "scheduler/scheduler.h"
#include "scheduler/spread_controller.h"

namespace paceline::scheduler {

class AdaptiveScheduler : public Scheduler {
 public:
  static constexpr std::string_view kName = "adaptive";
  static constexpr double kMinAborts = 1.0;  // decayed blamed aborts to be hot
  static constexpr double kMinRate = 0.05;   // blamed aborts per exposure to be hot
  static constexpr double kThinEvidence = 4.0;  // below: exploration may place at random
  static constexpr double kSpillMargin = 2.0;     // a home this long or shorter never spills
  static constexpr double kMaxSpillCost = 1.0;    // aborts per spilled transaction worth its gain
  static constexpr double kPriorSpillCost = 0.25; // SpillCost before any evidence
  // A reference placing more than this × a worker's share of all
  // placements per home is its homes' bottleneck (Bottleneck). Equally hot
  // references sit at ~1; YCSB θ 0.8's head key measured above 1.5 (at 3 it
  // failed the test, and its home held 36–51 of 64 clients again).
  static constexpr double kBottleneckShare = 1.5;
  // A home abort this soon after an attempt away from home ended is counted
  // against it (under OCC the home transaction that overlapped it fails at
  // its own commit, after the one away has gone).
  static constexpr int64_t kAwayShadowNs = 20'000'000;
  // The SpreadController's epoch: long enough to count a few hundred
  // commits at TPC-C's rates, short enough to follow a moving hot set.
  static constexpr int64_t kSpreadEpochNs = 200'000'000;

  // For tests: `now_ns` replaces the steady clock, and `spill_at_start`
  // starts the SpreadController at its level that spills to idle queues.
  explicit AdaptiveScheduler(const SchedulerOptions& options, std::function<int64_t()> now_ns = nullptr,
                             bool spill_at_start = false);

  std::string_view Name() const override { return kName; }
  FootprintSpec Needs() const override;
  size_t Pick(const Footprint& footprint) override;
  Placement Place(const Footprint& footprint) override;
  bool MayRunHere(const Footprint& footprint) override;
  bool MayMove(const Footprint& footprint, size_t queue) override;
  std::optional<Placement> RetryPlacement(const Footprint& footprint, size_t queue,
                                          const AbortCulprit& culprit) override;
  void OnAbort(const Footprint& footprint, size_t queue, const AbortCulprit& culprit,
               const ReferenceNamer* namer) override;
  void OnCommit(const Footprint& footprint, size_t queue) override;
  void OnFinish(const Footprint& footprint, size_t queue) override;
  void LanedReferences(const Footprint& footprint, std::vector<size_t>* laned) override;
  std::vector<ReferenceEvidence> EvidenceFor(const Footprint& footprint) override;
  std::vector<HotReference> TopReferences(size_t k) const override;
  SchedulerStats Stats() const override;

  // For tests: the (first) home queue of `key` (-1 none), all its homes,
  // its conflict rate, its SpillCost, and a queue's transactions picked
  // and not finished.
  int Home(ReferenceKey key) const;
  std::vector<int> Homes(ReferenceKey key) const;
  int64_t Backlog(size_t queue) const;
  double Rate(ReferenceKey key) const;
  double SpillCostOf(ReferenceKey key) const;
  // For tests: grows or shrinks the home set of `key` (tracked, with a home)
  // to `queues` members, as a change of the SpreadController's level does
  // at its next placement (FitHomes). False if `key` has no home set.
  bool FitHomesOf(ReferenceKey key, size_t queues);

 private:
  struct Evidence {  // of one (reference, table bit)
    uint64_t bit = 0;      // TableBit
    double exposures = 0;  // decayed
    double aborts = 0;     // decayed, blamed
    double attempts = 0;    // decayed attempts ended
    double concurrent = 0;  // decayed attempts ended while another carrier was in flight anywhere
    std::vector<int32_t> inflight;  // per queue: picked, not finished, carrying it at this table
  };
  struct Entry {
    std::vector<Evidence> tables;
    double exposures = 0;  // decayed, over all tables (introspection, forgetting)
    double aborts = 0;     // decayed, blamed, over all tables
    double traffic = 0;    // decayed picks carrying it
    double placed = 0;     // decayed picks placed by it (it was r*: homed, spilled or moved)
    // Decayed commits of transactions it sent away from its home (explored
    // or spilled: sent_away), and the aborts blamed on it at home while
    // such an attempt was in flight or had just ended: what running away
    // from home cost the home.
    double away_commits = 0;
    double away_aborts = 0;
    int64_t away_seen_ns = std::numeric_limits<int64_t>::min() / 2;  // an attempt away last ended
    int64_t stamp_ns = 0;  // when the three were last decayed
    std::vector<int> homes;  // its home set (spread), first the oldest; empty: none yet
    std::vector<int32_t> inflight;   // per queue: picked, not finished
    // Per queue outside the home set: transactions carrying it that it
    // sent there itself (explored or spilled) and that have not finished.
    // Only those are away work for SpillCost: not what another reference
    // placed there, what was placed before the home existed, or what was
    // placed at home on a queue that later left the set. Nor is anything
    // at a home set of several queues: its members conflict with each
    // other, and their aborts there are no cost of work away. (Counted as
    // away work, transactions that other references placed took the new
    // head key of YCSB θ 0.99 to SpillCost 1.2 within 100 ms of its hot
    // set moving, over kMaxSpillCost: no spills, 62-63 of 64 clients at its
    // one home for 1-3 s, at half of random's throughput — measured; and
    // earlier the leftovers of a shrunk home set did the same.)
    std::vector<int32_t> sent_away;
    std::string name;
  };
  struct Shard {
    mutable std::mutex mu;
    absl::flat_hash_map<ReferenceKey, Entry> map;
  };
  static constexpr size_t kShards = 64;

  // r* of a footprint: of its hot references, the one with the most
  // blamed aborts; its score and SpillCost.
  struct Hottest {
    bool hot = false;
    ReferenceKey key = 0;
    double aborts = -1;
    double spill_cost = 0;
  };
  // count_traffic: this is a Pick (the references' traffic counts it).
  Hottest HottestOf(const Footprint& footprint, int64_t now, bool count_traffic);
  Shard& ShardOf(ReferenceKey key) const { return shards_[(key * 0x9E3779B97F4A7C15ull) >> 58]; }
  // False only if `key` was never blamed (or was swept since): no entry.
  bool Tracked(ReferenceKey key) const { return tracked_.MayContain(key); }
  // The entry of `key` in `shard` (locked by the caller), null if absent.
  Entry* Find(Shard* shard, ReferenceKey key);
  // The entry of `key` in `shard` (locked by the caller), new if absent.
  Entry& FindOrAdd(Shard* shard, ReferenceKey key, int64_t now);
  void Decay(Entry* e, int64_t now) const;
  // What a decayed count stamped at `since` is worth at `now` (1 if not later).
  double DecayFactor(int64_t since, int64_t now) const;
  // Hot: blamed aborts per attempt run beside another carrier — the rate
  // per exposure times the share of attempts that have another carrier
  // in flight anywhere (whatever the placement) — at least kMinRate.
  static bool Hot(const Evidence& t) {
    return t.aborts >= kMinAborts && t.aborts * t.concurrent >= kMinRate * t.exposures * t.attempts;
  }
  // The blamed aborts of e's hot tables among `tables` (0: any table).
  static double Score(const Entry& e, uint64_t tables);
  // Whether a transaction e sent away is in flight on a queue not its home.
  bool AwayInflight(const Entry& e) const;
  // e's own placement sends a transaction to `queue`: away work when that
  // is not its home (Entry::sent_away). SentAway looks e up by key.
  static void CountSentAway(Entry* e, size_t queue) {
    if (!AtHome(*e, queue)) ++e->sent_away[queue];
  }
  void SentAway(ReferenceKey key, size_t queue);
  // The member of e's home set other than `queue` with the most of e's
  // transactions in flight (none: nullopt).
  std::optional<size_t> BusiestOtherMember(const Entry& e, size_t queue) const;
  static bool AtHome(const Entry& e, size_t queue) {
    return std::find(e.homes.begin(), e.homes.end(), static_cast<int>(queue)) != e.homes.end();
  }
  // Grows or shrinks e's home set to `spread` queues (new ones chosen as
  // AssignHome does, the ones given up as NarrowHomes does); returns its
  // member with the least backlog.
  size_t FitHomes(Entry* e, size_t spread, int64_t now);
  // Shrinks e's home set to `spread` queues, giving up the members in the
  // most home sets (then the most loaded).
  void NarrowHomes(Entry* e, size_t spread, int64_t now);
  // Aborts at home that running e's work away from it cost, per transaction
  // so run (one pseudo-commit of prior weighs kPriorSpillCost).
  static double SpillCost(const Entry& e) { return (e.away_aborts + kPriorSpillCost) / (e.away_commits + 1); }
  static double RateOf(const Entry& e) { return e.exposures > 0 ? e.aborts / e.exposures : 0; }
  // Ends an attempt on `queue`: exposures for every reference, aborts for
  // the blamed ones (culprit null: a commit).
  Evidence& EvidenceOf(Entry* e, uint64_t bit) const;
  // For each reference i of `footprint` with an entry: fn(i, tables it
  // locates, its entry decayed to `now`), with the entry's shard locked;
  // stops when fn returns false.
  template <typename Fn>
  void ForEachEntry(const Footprint& footprint, int64_t now, Fn fn);
  // Calls fn(bit) for each table reference i of `footprint` located.
  template <typename Fn>
  static void ForEachTable(const Footprint& footprint, size_t i, Fn fn);
  // Adds delta to the in-flight counts of queue for every reference.
  void CountInflight(const Footprint& footprint, size_t queue, int delta);
  void EndAttempt(const Footprint& footprint, size_t queue, const AbortCulprit* culprit, const ReferenceNamer* namer);
  // Of the queues outside `taken` (at least one), the one in the fewest
  // home sets and then with the least recent home arrivals + backlog.
  // Only transactions placed at their home count as arrivals: those placed
  // without evidence go wherever is shortest and say nothing of the load
  // homes bring (counting them put two warehouses' homes on one queue).
  // Caller holds arrivals_mu_.
  size_t CandidateHome(int64_t now, const std::vector<int>& taken) const;
  // `queue` holds one more home set and counts `traffic` (the reference's
  // recent picks per home) as arrived. Caller holds arrivals_mu_.
  void TakeHome(size_t queue, double traffic, int64_t now);
  // A new home (CandidateHome, then TakeHome), in one critical section:
  // two references made hot at once must see each other's traffic, or both
  // land on the same idle queue.
  size_t AssignHome(double traffic, int64_t now, const std::vector<int>& taken);
  // Step 3's move of the home at `leaving` (in `taken`), carrying
  // `traffic`, to CandidateHome. A move while r* is `in_flight` at
  // `leaving` runs its next transactions beside those, so it happens only
  // if the candidate's recent home arrivals plus `traffic` stay under
  // `leaving`'s: the move leaves the two queues less unequal than it found
  // them. (Without that test, equal homes two to a queue — TPC-C 16
  // warehouses on 8 queues — moved at every backlog peak to a queue that
  // then held three: ~150–190 moves in 5 s, 2PL abort rate 0.17–0.19
  // against partition's 0.000 — measured.) With nothing of r* in flight
  // there, a move costs no conflicts and evens a backlog peak (SmallBank's
  // many lukewarm homes: ~200 such moves in 5 s; with the arrivals test
  // for these too, 3% fewer commits, 3 runs of 3 — measured), if the
  // candidate has fewer homes than `leaving`. (Between queues with as
  // many, such moves left TPC-C 16 warehouses, 2PL, with one home on a
  // queue and three on another after 6 moves: 30% of the queues empty,
  // the abort rate 0.13, 0.82× the runs without — measured.) Either way,
  // never a move that leaves `leaving` without a home for a candidate
  // that then holds two or more, and always one to a candidate with two
  // homes fewer: the arrivals test compares flows, and a queue that holds
  // most clients captive serves, and so counts, no more arrivals than
  // the others (TPC-C 8 warehouses, OCC: two homes on one queue with 52 of
  // 64 clients, none on another, for the whole 4 s; 0.84× random in 1
  // run of 3 — measured).
  // Moved: `leaving` counts one home set and `traffic` fewer, the new
  // home one more (TakeHome). nullopt: no move, nothing changed.
  std::optional<size_t> MoveHome(double traffic, int64_t now, const std::vector<int>& taken, size_t leaving,
                                 bool in_flight);
  // A home set no longer holds `queue`.
  void ReleaseHome(int queue);
  // e is cold: its home set is given up, so that CandidateHome counts
  // only the homes of hot references. (Kept,
  // the homes of references hot once, at start-up or for a moment — a
  // d_id, an item — made queues look fuller than they were: TPC-C 8
  // warehouses, 2 runs of 6 with `d_id=8` holding a home beside a
  // warehouse's — measured.)
  void ReleaseHomes(Entry* e);
  // The queue with the fewest transactions picked and not finished (random
  // among ties), that number, and how many queues have none.
  struct ShortestQueue {
    size_t queue;
    int64_t backlog;
    size_t empty = 0;
  };
  ShortestQueue Shortest();
  // Whether `queue`'s backlog is over twice the mean backlog + 2.
  bool Overloaded(size_t queue) const;
  // Whether a home of e that is `overloaded` (Overloaded) is so by e's own
  // work: e placed more than kBottleneckShare × a worker's share of all
  // placements per member of its home set, decayed (a reference that
  // more transactions carry than its homes can serve), not a home that is
  // long for a moment.
  bool Bottleneck(const Entry& e, bool overloaded, int64_t now);
  uint64_t NextRandom();
  double Arrivals(size_t q, int64_t now) const;
  void AddArrivals(size_t q, double n, int64_t now);
  void SweepIfFull();
  static constexpr double kSweepTo = 0.75;  // share of the capacity a sweep leaves

  const size_t queues_;
  const double half_life_ns_;
  const double exploration_;
  const bool run_here_;
  const size_t capacity_;
  std::function<int64_t()> now_ns_;
  mutable std::unique_ptr<Shard[]> shards_;
  KeyFilter tracked_;  // the references with an entry (Tracked)
  std::atomic<size_t> entries_{0};
  std::atomic<size_t> forgotten_{0};  // entries swept
  std::mutex sweep_mu_;  // one sweep at a time
  std::unique_ptr<std::atomic<int64_t>[]> backlog_;  // per queue: picked, not finished
  // Per queue, decayed arrivals, home sets and all placements (guarded by
  // arrivals_mu_).
  mutable std::mutex arrivals_mu_;
  std::vector<double> arrivals_;
  std::vector<int64_t> arrivals_stamp_;
  std::vector<int> members_;  // per queue: the home sets holding it
  double placements_ = 0;      // decayed Place calls
  int64_t placements_stamp_ = 0;
  std::atomic<uint64_t> rng_;
  SpreadController spread_;
  std::atomic<uint64_t> picks_{0}, explored_{0}, homed_{0}, default_picks_{0}, moves_{0}, spilled_{0}, moved_{0},
      sent_home_{0}, ran_here_{0};
};

}  // namespace paceline::scheduler
