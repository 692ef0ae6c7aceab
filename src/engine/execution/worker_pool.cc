// WorkerPool: the worker loop, stealing, the sleep/wake protocol, retries.
//
// Wake-up protocol (no lost wake-ups). A worker W that found nothing to run
// takes idle_mu_, sets W.idle, increments idle_count_, then re-checks the
// queue lengths (HasWork) before it waits; a submitter S pushes (the queue's
// seq_cst length store), then loads idle_count_, and only if it is non-zero
// takes idle_mu_ to clear a sleeper's flag and notify it. All four accesses
// are seq_cst, so in their single total order either W's re-check comes after
// S's push (W sees the job and does not sleep) or S's load comes after W's
// increment (S sees a sleeper and takes idle_mu_). In the second case S gets
// idle_mu_ only once W waits (W holds it from its announcement until the
// wait releases it), so the notify cannot fall between W's check and its
// wait. Whom S wakes: the queue's owner if it sleeps, else (with stealing,
// when the queue holds at least steal_threshold jobs) any one sleeper; if
// every flagged sleeper was already woken, nobody. A job on a queue shorter
// than the threshold is its owner's alone, and the owner is awake. That
// suffices because an awake worker sleeps again only after re-checking every
// queue it may take from (with stealing: all of them), so the job is taken by
// the owner, by the woken worker, or by whichever worker runs out of work
// first. Only unpinned jobs count for stealing here (RunQueue::unpinned): a
// pinned job is its owner's, and is taken by a thief only in passing (the
// scheduler's MayMove), so it never keeps a thief awake. Shutdown sets stopping_ and wakes every sleeper under idle_mu_.
#include "engine/execution/worker_pool.h"

#include <chrono>
#include <condition_variable>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "common/split_mix64.h"
#include "common/steady_clock.h"
#include "engine/execution/abort_culprit.h"
#include "engine/execution/retry_pause.h"
#include "engine/execution/run_queue.h"
#include "engine/execution/worker_stats.h"

namespace paceline::engine {

namespace {

uint64_t NowNs() { return static_cast<uint64_t>(SteadyNowNs()); }

uint64_t Elapsed(uint64_t from, uint64_t to) { return to > from ? to - from : 0; }

Status ShutdownStatus(std::string detail) {
  return Status(sqlstate::kAdminShutdown, "terminating: the database is shutting down").WithDetail(std::move(detail));
}


// Names a job's references for the scheduler, asking the runner only if the
// scheduler wants a name (the first abort of a reference).
class JobNamer final : public scheduler::ReferenceNamer {
 public:
  JobNamer(TransactionRunner* runner, const TransactionRequest* request) : runner_(runner), request_(request) {}
  std::string Name(size_t i) const override {
    if (!named_) {
      runner_->NameReferences(*request_, &names_);
      named_ = true;
    }
    return i < names_.size() ? names_[i] : std::string();
  }

 private:
  TransactionRunner* runner_;
  const TransactionRequest* request_;
  mutable bool named_ = false;
  mutable std::vector<std::string> names_;
};

}  // namespace

struct WorkerPool::Worker {
  Worker(size_t index, uint64_t seed) : index(index), victims(seed ^ SplitMix64::Mix(index + 1)) {}

  const size_t index;
  RunQueue queue;
  WorkerStats stats;
  SplitMix64 victims;              // used by this worker's thread only
  std::condition_variable wake;    // waited on with idle_mu_
  bool idle = false;               // guarded by idle_mu_: asleep (or about to be), not yet woken
  std::thread thread;
};

WorkerPool::WorkerPool(WorkerPoolOptions options, TransactionRunner* runner, scheduler::Scheduler* scheduler)
    : options_(options),
      steal_threshold_(options.steal_threshold < 1 ? 1 : options.steal_threshold),
      runner_(runner),
      scheduler_(scheduler) {
  workers_.reserve(options_.workers);
  for (size_t i = 0; i < options_.workers; ++i) workers_.push_back(std::make_unique<Worker>(i, options_.seed));
  here_stats_ = std::make_unique<WorkerStats>();
}

WorkerPool::~WorkerPool() { Shutdown(true); }

Status WorkerPool::Start() {
  std::lock_guard lifecycle(lifecycle_mu_);
  if (shut_down_) return Status(sqlstate::kObjectNotInPrerequisiteState, "the worker pool has been shut down");
  if (started_) return Status(sqlstate::kObjectNotInPrerequisiteState, "the worker pool is already started");
  if (workers_.empty()) return Status(sqlstate::kInvalidParameterValue, "a worker pool needs at least 1 worker");
  started_ = true;  // from here on, Shutdown joins whatever threads exist
  for (const std::unique_ptr<Worker>& worker : workers_) {
    try {
      worker->thread = std::thread([this, w = worker.get()] { WorkerLoop(*w); });
    } catch (const std::system_error& e) {
      return InternalError("could not start worker thread " + std::to_string(worker->index) + ": " + e.what());
    }
  }
  return Status::OK();
}

void WorkerPool::Submit(size_t queue, TransactionRequest request, scheduler::Footprint footprint,
                        ResultCallback done, JobPlacement placement) {
  Job job{std::move(request),
          std::move(footprint),
          queue,
          placement == JobPlacement::kByHand ? scheduler::kNoQueue : queue,
          placement == JobPlacement::kPinned,
          std::move(done),
          NowNs()};
  if (queue >= workers_.size()) {
    TransactionResult result;
    result.status = Status(sqlstate::kInvalidParameterValue, "run queue " + std::to_string(queue) +
                                                                 " does not exist (the pool has " +
                                                                 std::to_string(workers_.size()) + ")");
    job.done(std::move(result));
    return;
  }
  if (!workers_[queue]->queue.Push(std::move(job))) {  // closed: `job` is intact
    TransactionResult result;
    result.status = ShutdownStatus("The transaction was submitted after shutdown began.");
    Finish(job, std::move(result));
    return;
  }
  workers_[queue]->stats.CountQueued();
  WakeFor(queue);
}

std::future<TransactionResult> WorkerPool::Submit(size_t queue, TransactionRequest request,
                                                  scheduler::Footprint footprint, JobPlacement placement) {
  auto promise = std::make_shared<std::promise<TransactionResult>>();
  std::future<TransactionResult> future = promise->get_future();
  Submit(queue, std::move(request), std::move(footprint),
         [promise](TransactionResult&& result) { promise->set_value(std::move(result)); }, placement);
  return future;
}

void WorkerPool::WakeFor(size_t queue) {
  if (idle_count_.load(std::memory_order_seq_cst) == 0) return;  // see the protocol above
  std::lock_guard lock(idle_mu_);
  Worker* target = nullptr;
  if (workers_[queue]->idle) {
    target = workers_[queue].get();
  } else if (options_.steal && workers_[queue]->queue.unpinned() >= steal_threshold_) {
    for (size_t k = 1; k < workers_.size() && target == nullptr; ++k) {
      Worker& candidate = *workers_[(queue + k) % workers_.size()];
      if (candidate.idle) target = &candidate;
    }
  }
  if (target == nullptr) return;
  target->idle = false;
  idle_count_.fetch_sub(1, std::memory_order_seq_cst);
  target->wake.notify_one();
}

bool WorkerPool::HasWork(const Worker& worker) const {
  if (worker.queue.size() != 0) return true;
  if (!options_.steal) return false;
  for (const std::unique_ptr<Worker>& other : workers_) {
    if (other->queue.unpinned() >= steal_threshold_) return true;
  }
  return false;
}

bool WorkerPool::TrySteal(Worker& thief, Job* job) {
  const size_t n = workers_.size();
  if (n < 2) return false;
  const size_t start = thief.victims.Below(n - 1);
  const auto nothing_pinned = [](const Job&) { return false; };
  for (size_t k = 0; k < n - 1; ++k) {
    Worker& victim = *workers_[(thief.index + 1 + (start + k) % (n - 1)) % n];
    if (victim.queue.unpinned() >= steal_threshold_ && victim.queue.Steal(job, nothing_pinned)) return true;
  }
  // Nothing unpinned: a pinned job the scheduler lets go (not counted by
  // HasWork, so a worker that finds none sleeps rather than spins).
  if (scheduler_ == nullptr) return false;
  for (size_t k = 0; k < n - 1; ++k) {
    Worker& victim = *workers_[(thief.index + 1 + (start + k) % (n - 1)) % n];
    if (victim.queue.size() == 0) continue;
    const size_t from = victim.index;
    auto may_move = [this, from](const Job& j) { return scheduler_->MayMove(j.footprint, from); };
    if (victim.queue.Steal(job, may_move)) return true;
  }
  return false;
}

void WorkerPool::WorkerLoop(Worker& worker) {
  for (;;) {
    Job job;
    if (worker.queue.PopFront(&job)) {
      Run(worker, job, /*stolen=*/false);
      continue;
    }
    if (options_.steal && TrySteal(worker, &job)) {
      Run(worker, job, /*stolen=*/true);
      continue;
    }
    std::unique_lock lock(idle_mu_);
    if (HasWork(worker)) continue;  // arrived since the attempts above (or left to drain)
    if (stopping_) return;
    worker.idle = true;
    idle_count_.fetch_add(1, std::memory_order_seq_cst);
    if (HasWork(worker)) {  // the re-check of the protocol
      worker.idle = false;
      idle_count_.fetch_sub(1, std::memory_order_seq_cst);
      continue;
    }
    worker.wake.wait(lock, [&] { return !worker.idle; });
  }
}

void WorkerPool::Run(Worker& worker, Job& job, bool stolen) { RunAttempts(&worker, worker.stats, job, stolen); }

TransactionResult WorkerPool::RunHere(TransactionRequest request, scheduler::Footprint footprint) {
  TransactionResult out;
  Job job{std::move(request),
          std::move(footprint),
          scheduler::kNoQueue,
          scheduler::kNoQueue,
          false,
          [&out](TransactionResult&& result) { out = std::move(result); },
          NowNs()};
  if (closed_.load(std::memory_order_acquire)) {
    TransactionResult result;
    result.status = ShutdownStatus("The transaction was submitted after shutdown began.");
    Finish(job, std::move(result));
    return out;
  }
  here_stats_->CountQueued();
  RunAttempts(nullptr, *here_stats_, job, /*stolen=*/false);
  return out;
}

void WorkerPool::RunAttempts(Worker* worker, WorkerStats& stats, Job& job, bool stolen) {
  const uint64_t start_ns = NowNs();
  const int max_retries = options_.max_retries > 0 ? options_.max_retries : 0;
  AttemptContext ctx;
  ctx.worker = worker != nullptr ? worker->index : workers_.size();
  ctx.first_start_ns = start_ns;
  TransactionResult result;
  uint32_t conflicts = job.conflicts;  // of attempts on another queue before
  ctx.attempt = static_cast<int>(conflicts);
  for (;;) {
    result = TransactionResult();
    ctx.abort_reason = cc::AbortReason::kNone;
    ctx.culprit_table = cc::kNoCulpritTable;
    if (job.request.cancel != nullptr && job.request.cancel->Poll()) {
      // Canceled while queued (it never runs) or before a retry: not a
      // conflict, no scheduler event but OnFinish.
      stats.CountError();
      result.status = CanceledStatus();
      break;
    }
    const AttemptOutcome outcome = runner_->RunAttempt(job.request, ctx, &result);
    if (outcome == AttemptOutcome::kCommitted) {
      stats.CountCommit();
      if (scheduler_ != nullptr) scheduler_->OnCommit(job.footprint, job.event_queue);
      break;
    }
    if (outcome == AttemptOutcome::kUserAbort) {
      stats.CountUserAbort();
      result.user_abort = true;
      break;
    }
    if (outcome == AttemptOutcome::kFailed) {
      stats.CountError();
      if (result.status.ok()) result.status = InternalError("a transaction attempt failed without an error");
      break;
    }
    // kConflict.
    ++conflicts;
    stats.CountAbort(ctx.abort_reason);
    const scheduler::AbortCulprit culprit = CulpritOf(ctx.abort_reason, ctx.culprit_table);
    if (scheduler_ != nullptr) {
      JobNamer namer(runner_, &job.request);
      scheduler_->OnAbort(job.footprint, job.event_queue, culprit, &namer);
    }
    if (ctx.attempt >= max_retries) {
      stats.CountRetryLimitFailure();
      result.status = RetryLimitStatus(ctx.attempt + 1, max_retries, ctx.abort_reason, result.status);
      break;
    }
    if (abandon_.load(std::memory_order_relaxed)) {
      stats.CountError();
      result.status = ShutdownStatus("The transaction was not retried after a conflict: " +
                                     (result.status.ok() ? std::string("(no message)") : result.status.message()));
      break;
    }
    stats.CountRetry();
    ++ctx.attempt;
    if (worker != nullptr && scheduler_ != nullptr && job.event_queue != scheduler::kNoQueue) {
      if (std::optional<scheduler::Placement> to = scheduler_->RetryPlacement(job.footprint, job.event_queue, culprit);
          to.has_value() && to->queue < workers_.size() && to->queue != job.queue) {
        // The retry waits on that queue, at its front (it has had its turn).
        job.queue = job.event_queue = to->queue;
        job.pinned = to->pinned;
        job.conflicts = conflicts;
        if (stolen) stats.CountSteal();
        Worker& target = *workers_[to->queue];
        if (!target.queue.PushFront(std::move(job))) {  // closed by Shutdown: `job` is intact
          result.conflicts = conflicts;
          result.status = ShutdownStatus("The transaction was not retried after a conflict: the pool shut down.");
          Finish(job, std::move(result));
          return;
        }
        target.stats.CountQueued();
        WakeFor(to->queue);
        return;
      }
    }
    PauseBeforeRetry(ctx.attempt, options_.max_retry_pause, options_.retry_yield);  // on this worker, at once at first
  }
  result.conflicts = conflicts;
  if (stolen) stats.CountSteal();
  stats.RecordTimes(Elapsed(job.enqueue_ns, start_ns), Elapsed(start_ns, NowNs()));
  Finish(job, std::move(result));
}

void WorkerPool::Finish(Job& job, TransactionResult&& result) {
  // The scheduler hears of the departure before the client does, so a
  // client's next transaction is picked against the updated state.
  if (scheduler_ != nullptr) scheduler_->OnFinish(job.footprint, job.event_queue);
  job.done(std::move(result));
}

void WorkerPool::FailQueued() {
  for (const std::unique_ptr<Worker>& worker : workers_) {
    for (Job& job : worker->queue.TakeAll()) {
      TransactionResult result;
      result.status = ShutdownStatus("The transaction was queued but not run.");
      Finish(job, std::move(result));
    }
  }
}

void WorkerPool::Shutdown(bool drain) {
  std::lock_guard lifecycle(lifecycle_mu_);
  if (shut_down_) return;
  shut_down_ = true;
  closed_.store(true, std::memory_order_release);
  if (!drain) abandon_.store(true, std::memory_order_relaxed);
  for (const std::unique_ptr<Worker>& worker : workers_) worker->queue.Close();  // no new jobs from here on
  if (!drain || !started_) FailQueued();
  {
    std::lock_guard lock(idle_mu_);
    stopping_ = true;
    for (const std::unique_ptr<Worker>& worker : workers_) {
      if (!worker->idle) continue;
      worker->idle = false;
      idle_count_.fetch_sub(1, std::memory_order_seq_cst);
      worker->wake.notify_one();
    }
  }
  for (const std::unique_ptr<Worker>& worker : workers_) {
    if (worker->thread.joinable()) worker->thread.join();
  }
  FailQueued();  // what no thread could run (a worker thread that failed to start)
}

ExecutionStats WorkerPool::Stats() const {
  ExecutionStats stats;
  for (const std::unique_ptr<Worker>& worker : workers_) worker->stats.AddTo(&stats);
  stats.Add(HereStats());
  return stats;
}

ExecutionStats WorkerPool::HereStats() const {
  ExecutionStats here;
  here_stats_->AddTo(&here);
  here.ran_here = here.queued;  // never queued: counted as run here
  here.queued = 0;
  return here;
}

std::vector<ExecutionStats> WorkerPool::StatsPerQueue() const {
  std::vector<ExecutionStats> per_queue(workers_.size());
  for (size_t q = 0; q < workers_.size(); ++q) workers_[q]->stats.AddTo(&per_queue[q]);
  return per_queue;
}

void WorkerPool::ResetStats() {
  for (const std::unique_ptr<Worker>& worker : workers_) worker->stats.Reset();
  here_stats_->Reset();
}

size_t WorkerPool::QueueLength(size_t queue) const {
  return queue < workers_.size() ? workers_[queue]->queue.size() : 0;
}

}  // namespace paceline::engine
