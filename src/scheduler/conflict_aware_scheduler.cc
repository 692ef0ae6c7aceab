// ConflictAwareScheduler: score every queue from History weights and State
// counts, take the best (or the least loaded without evidence), count the
// transaction into State there. Random placement while History warms up.
#include "scheduler/conflict_aware_scheduler.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace paceline::scheduler {

namespace {

// The calling thread's score buffer for `queues` queues (ScoreInto zeroes
// it). Grows once per thread to the largest number of queues it has scored.
double* ScratchScores(size_t queues) {
  thread_local std::vector<double> scratch;
  if (scratch.size() < queues) scratch.resize(queues);
  return scratch.data();
}

}  // namespace

ConflictAwareScheduler::ConflictAwareScheduler(const SchedulingPolicy& policy, const SchedulerOptions& options,
                                               std::string name, Clock clock)
    : policy_(policy),
      name_(std::move(name)),
      sources_(options.reference_sources),
      multiplicity_(options.reference_multiplicity),
      queues_(options.queues),
      learning_(options.history_learning),
      warmup_transactions_(options.history_warmup_transactions),
      warmup_nanos_(std::chrono::duration_cast<std::chrono::nanoseconds>(options.history_warmup_time).count()),
      clock_(std::move(clock)),
      history_(options.history_capacity),
      state_(options.queues, options.state, options.history_capacity),
      warmup_(options),
      warm_(options.history_warmup_transactions > 0 || options.history_warmup_time.count() > 0) {
  assert(queues_ >= 1);
}

FootprintSpec ConflictAwareScheduler::Needs() const {
  FootprintSpec spec;
  spec.references = true;
  spec.form = policy_.form;
  spec.granularity = policy_.granularity;
  spec.sources = sources_;
  spec.multiplicity = multiplicity_;
  return spec;
}

size_t ConflictAwareScheduler::Pick(const Footprint& footprint) {
  const uint64_t picks_before = picks_.fetch_add(1, std::memory_order_relaxed);
  // The first warmup_transactions_ tickets are warm-up picks whatever other
  // threads have latched meanwhile; past them, the clock decides.
  bool warming_up = picks_before < warmup_transactions_;
  if (warm_.load(std::memory_order_acquire)) {
    if (warmup_nanos_ > 0 && first_pick_nanos_.load(std::memory_order_acquire) == kNotStarted) {
      int64_t expected = kNotStarted;
      first_pick_nanos_.compare_exchange_strong(expected, NowNanos(), std::memory_order_acq_rel);
    }
    if (!warming_up) {
      warming_up = WarmingUp(picks_before);
      if (!warming_up) warm_.store(false, std::memory_order_release);
    }
  }

  size_t queue;
  if (warming_up) {
    queue = warmup_.Pick(footprint);
    warmup_picks_.fetch_add(1, std::memory_order_relaxed);
  } else {
    double* scores = ScratchScores(queues_);
    const bool evidence = ScoreInto(footprint, scores);
    bool by_default = false;
    queue = Choose(scores, evidence, &by_default);
    if (by_default) default_picks_.fetch_add(1, std::memory_order_relaxed);
  }
  state_.Add(footprint.references, queue);
  MaybeForgetState();
  return queue;
}

void ConflictAwareScheduler::OnAbort(const Footprint& footprint, size_t, const AbortCulprit&,
                                     const ReferenceNamer* namer) {
  if (Learning()) history_.RecordAbort(footprint.references, namer, footprint.reference_occurrences);
}

void ConflictAwareScheduler::OnCommit(const Footprint& footprint, size_t) {
  if (Learning()) history_.RecordCommit(footprint.references, footprint.reference_occurrences);
}

void ConflictAwareScheduler::OnFinish(const Footprint& footprint, size_t queue) {
  if (queue == kNoQueue) return;
  assert(queue < queues_);
  if (queue >= queues_) return;
  state_.Remove(footprint.references, queue);
}

void ConflictAwareScheduler::Place(const Footprint& footprint, size_t queue) {
  assert(queue < queues_);
  state_.Add(footprint.references, queue);
  MaybeForgetState();
}

bool ConflictAwareScheduler::Score(const Footprint& footprint, std::vector<double>* scores) const {
  scores->assign(queues_, 0.0);
  return ScoreInto(footprint, scores->data());
}

double ConflictAwareScheduler::Weight(const HistoryCounts& counts) const {
  if (counts.aborts == 0) return 0;
  if (policy_.weight == ReferenceWeight::kCount) return static_cast<double>(counts.aborts);
  const double aborts = static_cast<double>(counts.aborts);
  return aborts / (aborts + static_cast<double>(counts.commits));
}

bool ConflictAwareScheduler::ScoreInto(const Footprint& footprint, double* scores) const {
  std::fill_n(scores, queues_, 0.0);
  if (policy_.aggregation == ScoreAggregation::kSum) {
    bool evidence = false;
    for (ReferenceKey key : footprint.references) {
      if (!history_.MayHaveAborted(key)) continue;  // weight 0, without a table lookup
      const double weight = Weight(history_.Lookup(key));
      if (weight > 0) {
        evidence = true;
        state_.Accumulate(key, weight, scores);
      }
    }
    return evidence;
  }
  // Max: the heaviest reference; strict comparisons keep the first of equals.
  double best_weight = 0;
  uint64_t best_aborts = 0;
  ReferenceKey best_key = 0;
  for (ReferenceKey key : footprint.references) {
    if (!history_.MayHaveAborted(key)) continue;
    const HistoryCounts counts = history_.Lookup(key);
    const double weight = Weight(counts);
    if (weight > best_weight || (weight == best_weight && weight > 0 && counts.aborts > best_aborts)) {
      best_weight = weight;
      best_aborts = counts.aborts;
      best_key = key;
    }
  }
  if (best_weight <= 0) return false;
  state_.Accumulate(best_key, best_weight, scores);
  return true;
}

size_t ConflictAwareScheduler::Choose(const double* scores, bool evidence, bool* by_default) const {
  double best = 0;
  if (evidence) best = *std::max_element(scores, scores + queues_);
  *by_default = !(best > 0);
  size_t chosen = 0;
  int64_t chosen_total = 0;
  int64_t chosen_in_flight = 0;
  bool any = false;
  for (size_t q = 0; q < queues_; ++q) {
    if (!*by_default && scores[q] != best) continue;
    const int64_t total = state_.Total(q);
    const int64_t in_flight = state_.InFlight(q);
    if (!any || total < chosen_total || (total == chosen_total && in_flight < chosen_in_flight)) {
      any = true;
      chosen = q;
      chosen_total = total;
      chosen_in_flight = in_flight;
    }
  }
  return chosen;
}

bool ConflictAwareScheduler::WarmingUp(uint64_t picks) const {
  if (picks < warmup_transactions_) return true;
  if (!warm_.load(std::memory_order_acquire)) return false;
  if (warmup_nanos_ > 0) {
    const int64_t start = first_pick_nanos_.load(std::memory_order_acquire);
    if (start == kNotStarted) return true;  // the clock starts at the first pick
    if (NowNanos() - start < warmup_nanos_) return true;
  }
  return false;
}

bool ConflictAwareScheduler::Learning() const {
  return learning_ == HistoryLearning::kContinuous || WarmingUp(picks_.load(std::memory_order_relaxed));
}

int64_t ConflictAwareScheduler::NowNanos() const {
  const std::chrono::steady_clock::time_point now = clock_ ? clock_() : std::chrono::steady_clock::now();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
}

void ConflictAwareScheduler::MaybeForgetState() {
  if (!state_.OverCapacity()) return;
  state_.Forget([this](ReferenceKey key) { return history_.Lookup(key).aborts > 0; });
}

std::vector<HotReference> ConflictAwareScheduler::TopReferences(size_t k) const {
  struct Weighted {
    HistoryEntry entry;
    double weight;
  };
  std::vector<Weighted> weighted;
  for (const HistoryEntry& entry : history_.Aborted()) {
    weighted.push_back(Weighted{.entry = entry, .weight = Weight(entry.counts)});
  }
  const auto heavier = [](const Weighted& a, const Weighted& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.entry.counts.aborts != b.entry.counts.aborts) return a.entry.counts.aborts > b.entry.counts.aborts;
    return a.entry.key < b.entry.key;
  };
  const size_t n = std::min(k, weighted.size());
  std::partial_sort(weighted.begin(), weighted.begin() + static_cast<ptrdiff_t>(n), weighted.end(), heavier);
  std::vector<HotReference> top;
  top.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const HistoryEntry& entry = weighted[i].entry;
    top.push_back(HotReference{
        .key = entry.key,
        .name = history_.Name(entry.key),
        .aborts = entry.counts.aborts,
        .commits = entry.counts.commits,
        .weight = weighted[i].weight,
        .queued = state_.Counts(entry.key),
    });
  }
  return top;
}

SchedulerStats ConflictAwareScheduler::Stats() const {
  return SchedulerStats{
      .warming_up = WarmingUp(picks_.load(std::memory_order_relaxed)),
      .picks = picks_.load(std::memory_order_relaxed),
      .default_picks = default_picks_.load(std::memory_order_relaxed),
      .warmup_picks = warmup_picks_.load(std::memory_order_relaxed),
      .history_references = history_.references(),
      .state_references = state_.entries(),
      .named_references = history_.named(),
      .history_forgotten = history_.forgotten(),
      .bytes = history_.ApproximateBytes() + state_.ApproximateBytes(),
  };
}

}  // namespace paceline::scheduler
