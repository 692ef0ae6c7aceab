// Scheduler: the plug-in that decides on which worker run queue each
// transaction waits, and hears how each of its attempts ended. This is the
// whole boundary between the engine and a scheduling policy (the paper's
// bolt-on API): (i) Pick a queue for a captured transaction, (ii) the engine
// queues it there, (iii) OnAbort / OnCommit report every outcome, OnFinish
// its departure. A scheduler knows nothing of SQL, storage or threads.
//
// Contract, for one transaction with footprint F (computed as Needs() asks):
//   q = Pick(F)               exactly once, before it is queued on q (the
//                             engine calls Place, which calls Pick unless a
//                             policy pins transactions: see Placement) —
//                             unless MayRunHere(F) said yes first: then the
//                             transaction runs on the thread that submitted
//                             it and waits for it, is never queued, and its
//                             events name kNoQueue
//   OnAbort(F, q, culprit, namer)  once per attempt that ended in a conflict
//                             (each is retried, or fails at the retry limit)
//   OnCommit(F, q)            once if it committed
//   OnFinish(F, q)            exactly once, last, whatever the outcome
// q is the queue Pick chose, even when another worker stole the
// transaction, until RetryPlacement sends its retry to another queue: then
// that one. Stealing: an idle worker takes any transaction that is not
// pinned, and a pinned one only if MayMove(F, q) says so at that moment. A user abort or an error is neither an abort nor a commit.
// Transactions that bypass Pick (Database::SubmitTo, interactive sessions)
// may still report OnAbort/OnCommit, with queue = kNoQueue.
//
// Thread-safety: every method may be called concurrently from any thread.
// Ownership: the engine owns its Scheduler; footprints are only borrowed.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/footprint.h"

namespace paceline::scheduler {

// Outcome events of a transaction that was not placed by Pick.
inline constexpr size_t kNoQueue = std::numeric_limits<size_t>::max();

// Whether History keeps counting once the warm-up is over.
enum class HistoryLearning { kContinuous, kFrozen };
// What State counts per reference and queue: every transaction ever queued
// there (the paper's Table I), or only those queued and not yet finished.
enum class StateMode { kCumulative, kInflight };

struct SchedulerOptions {
  size_t queues = 1;    // run queues (= workers); Pick returns < queues
  uint64_t seed = 42;   // for randomised policies and the warm-up

  // Conflict-aware policies ({count|fraction}-{sum|max}-...):
  // History learns under random placement for the first
  // `history_warmup_transactions` picks and, if non-zero, for
  // `history_warmup_time` after the first pick; then the policy takes over.
  uint64_t history_warmup_transactions = 0;
  std::chrono::milliseconds history_warmup_time{0};
  HistoryLearning history_learning = HistoryLearning::kContinuous;
  // Cumulative is the default: a hot reference keeps its queue even when its
  // transactions come one at a time; inflight evidence drains whenever
  // queues are short (measured: docs/results.md).
  StateMode state = StateMode::kCumulative;
  // History keeps at most about this many references: beyond it, references
  // that never aborted are forgotten (they weigh nothing in any policy).
  size_t history_capacity = size_t{1} << 20;

  // Which clauses yield references, and how often each counts in a
  // transaction's events (footprint.h). The defaults are the paper's
  // authors': key equalities of WHERE clauses (and inserted primary keys),
  // credited once per statement.
  ReferenceSources reference_sources = ReferenceSources::kKeys;
  ReferenceMultiplicity reference_multiplicity = ReferenceMultiplicity::kOccurrence;

  // "adaptive": how fast evidence fades (a reference's aborts and exposures
  // halve every half-life), and the share of transactions placed at random
  // so that evidence keeps coming.
  std::chrono::milliseconds history_half_life{2000};
  double exploration = 0.02;
  // "adaptive": a transaction without conflict evidence on any of its
  // references, whose submitter waits for it anyway (a server connection),
  // runs on the submitter's thread (MayRunHere) instead of crossing to a
  // worker and back; false: every transaction is placed on a queue.
  bool run_here = true;

  // "partition": the canonical domain whose value picks the queue.
  std::string partition_domain = "w_id";
};

// What the concurrency control named as the cause of a conflict: the
// tables (TableBit masks, footprint.h) of the row whose validation failed,
// the range that gained a phantom, or the lock that was refused. A policy
// blames the references whose reference_tables meet it; 0 means unknown
// (blame every reference). `still_running`: the transaction it conflicted
// with was still running (a 2PL lock holder, an uncommitted row), so a
// retry at once would meet it again.
struct AbortCulprit {
  uint64_t tables = 0;
  bool still_running = false;
  static AbortCulprit OfTable(TableId table_id) { return AbortCulprit{TableBit(table_id)}; }
  // The engine's form: `known` false gives the unknown culprit.
  static AbortCulprit OfTable(bool known, TableId table_id) { return known ? OfTable(table_id) : AbortCulprit{}; }
  // Whether reference i of `footprint` is to blame.
  bool Blames(const Footprint& footprint, size_t i) const {
    return tables == 0 || i >= footprint.reference_tables.size() || (footprint.reference_tables[i] & tables) != 0;
  }
};

// One reference as a policy sees it (introspection).
struct HotReference {
  ReferenceKey key = 0;
  std::string name;          // text, e.g. "w_id=5" ("" if never named)
  uint64_t aborts = 0;
  uint64_t commits = 0;
  double weight = 0;         // under the policy's weight (count or fraction)
  std::vector<int64_t> queued;  // State count per queue
};

// What a policy has learned of one reference (introspection: EXPLAIN).
struct ReferenceEvidence {
  bool known = false;         // the policy keeps evidence for it
  double blamed_aborts = 0;   // decayed, over the tables it locates
  double exposures = 0;       // decayed
  bool hot = false;           // placement would follow it (r* candidates)
  std::vector<int> homes;     // its home queues (empty: none)
};

// Bookkeeping size and decisions (introspection; approximate under load).
struct SchedulerStats {
  bool warming_up = false;
  uint64_t picks = 0;            // Pick calls
  uint64_t default_picks = 0;    // no evidence: smallest total
  uint64_t warmup_picks = 0;     // random, during the warm-up
  size_t history_references = 0;
  size_t state_references = 0;
  size_t named_references = 0;
  size_t history_forgotten = 0;  // references dropped to respect history_capacity
  size_t bytes = 0;              // estimate of History + State + names
  // Placements of a policy with homes ("adaptive"): at a hot reference's
  // home (pinned), at random to refresh evidence, on a shorter queue than
  // the home (expected cost), homes moved off shared long queues, pinned
  // transactions let go to an idle worker (MayMove), and the retries of
  // those that conflicted away from home sent back there.
  uint64_t homed = 0, explored = 0, spilled = 0, home_moves = 0, moved = 0;
  uint64_t sent_home = 0;  // retries sent back to the home queue (RetryPlacement)
  uint64_t ran_here = 0;   // run on their submitter's thread (MayRunHere), never placed
  // The queues a hot reference's transactions spread over ("adaptive":
  // SpreadController) and whether they spill to idle queues, with the
  // probes of other levels, those adopted, and the adoptions their audit
  // undid.
  size_t spread = 0;
  bool spill = false;  // whether it spills to idle queues
  uint64_t spread_probes = 0, spread_adopted = 0, spread_reverted = 0;

  // Every field above by name, in this order (the one list reports use:
  // paceline-bench's JSON, SHOW paceline.scheduler_stats). `flag` marks
  // the booleans (value 0 or 1).
  struct Field {
    std::string_view name;
    uint64_t value;
    bool flag;
  };
  std::vector<Field> Fields() const;
};

// Where a transaction goes, and whether it is pinned there: placed with
// the references it conflicts on, so that a worker stealing work must leave
// it where it is unless MayMove allows the move.
struct Placement {
  size_t queue = 0;
  bool pinned = false;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The name used to select it (--scheduler=NAME), e.g. "random".
  virtual std::string_view Name() const = 0;
  // What the engine must compute into each footprint (default: nothing, so
  // baselines cost nothing per transaction).
  virtual FootprintSpec Needs() const { return {}; }
  // The run queue for a transaction with `footprint`, in [0, queues).
  virtual size_t Pick(const Footprint& footprint) = 0;
  // Pick, and whether the transaction is pinned to the queue (default: never
  // pinned, any idle worker may steal it). A policy that pins overrides this
  // and Pick alike; the engine calls only this one.
  virtual Placement Place(const Footprint& footprint) { return Placement{Pick(footprint), false}; }
  // Asked instead of Place, first, for a transaction whose submitter waits
  // for its result on a thread of its own: true when no queue is better
  // for it than another (a policy that sees nothing it conflicts with), so
  // the engine may run it on that thread — saving the trip to a worker and
  // back — with its events naming kNoQueue. False: Place it as usual (the
  // default: the baselines and the paper's policies place every
  // transaction, as the sweep measures them).
  virtual bool MayRunHere(const Footprint& footprint) {
    (void)footprint;
    return false;
  }
  // Whether a pinned transaction waiting on `queue` may run on another
  // worker now, because nothing in flight is predicted to conflict with it.
  // Called by an idle worker that found nothing unpinned to steal, while it
  // holds the run queue's lock: it must not block for long.
  virtual bool MayMove(const Footprint& footprint, size_t queue) {
    (void)footprint;
    (void)queue;
    return true;
  }
  // After an attempt of a transaction on `queue` ended in a conflict with
  // `culprit` (its OnAbort came first): where its retry should wait.
  // Default: nowhere else (the worker retries it at once). A policy that
  // placed it speculatively may send it to another queue; it has then
  // moved its own bookkeeping there, and the engine reports the
  // transaction's later events with the returned queue.
  virtual std::optional<Placement> RetryPlacement(const Footprint& footprint, size_t queue,
                                                  const AbortCulprit& culprit) {
    (void)footprint;
    (void)queue;
    (void)culprit;
    return std::nullopt;
  }
  // The outcome events; a policy that ignores outcomes (the baselines)
  // keeps these no-op defaults. `culprit` is what the concurrency control
  // blamed; `namer` (may be null) renders the footprint's references during
  // the call.
  virtual void OnAbort(const Footprint& footprint, size_t queue, const AbortCulprit& culprit,
                       const ReferenceNamer* namer) {
    (void)footprint;
    (void)queue;
    (void)culprit;
    (void)namer;
  }
  virtual void OnCommit(const Footprint& footprint, size_t queue) {
    (void)footprint;
    (void)queue;
  }
  virtual void OnFinish(const Footprint& footprint, size_t queue) {
    (void)footprint;
    (void)queue;
  }
  // Conflict lanes (engine/lane_table.h): an interactive transaction block
  // (BEGIN ... COMMIT, its statements arriving one at a time) is about to
  // run a statement whose references are `footprint`. Sets `*laned` to the
  // indexes (into footprint.references) of those whose blocks should run
  // one after the other: the references with conflict evidence. Empty: the
  // block runs free. Default: none (policies that do not learn).
  virtual void LanedReferences(const Footprint& footprint, std::vector<size_t>* laned) {
    (void)footprint;
    laned->clear();
  }
  // What the policy knows of each reference of `footprint`, parallel to
  // footprint.references; changes nothing it decides by. Default:
  // nothing known (policies that do not learn).
  virtual std::vector<ReferenceEvidence> EvidenceFor(const Footprint& footprint) {
    return std::vector<ReferenceEvidence>(footprint.references.size());
  }
  // The k references of greatest weight, heaviest first (empty for
  // policies without History).
  virtual std::vector<HotReference> TopReferences(size_t k) const {
    (void)k;
    return {};
  }
  virtual SchedulerStats Stats() const { return {}; }
};

}  // namespace paceline::scheduler
