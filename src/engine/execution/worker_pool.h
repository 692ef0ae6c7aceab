// WorkerPool: N worker threads, each owning run queue i, that run submitted
// transactions through a TransactionRunner, retry conflicts, and report every
// outcome to the scheduler.
//
//   Submit(q, request, footprint, done)     q is what Scheduler::Pick chose
//     → run queue q (FIFO) → worker q pops from its front
//                            (or, when steal is on and its own queue is
//                            empty, an idle worker takes the oldest unpinned
//                            job of a random other queue holding at least
//                            steal_threshold unpinned jobs and runs it to the
//                            end; finding none, a pinned job that
//                            Scheduler::MayMove lets go)
//     → attempt: kConflict → OnAbort(footprint, q), retry at once on the same
//                            worker, up to max_retries retries, then 40001;
//                            unless Scheduler::RetryPlacement names another
//                            queue r: then the job goes to the front of r,
//                            its conflicts so far counted, and q becomes r
//                kCommitted → OnCommit(footprint, q)
//                kUserAbort, kFailed → no retry, no scheduler event
//     (a request whose CancelToken is canceled fails with 57014 before its
//      first attempt or a retry: counted as an error, no scheduler event)
//     → OnFinish(footprint, q), exactly once, then done(result), exactly once.
//
//   RunHere(request, footprint)             Scheduler::MayRunHere said yes
//     → the same attempts, retries and events, on the calling thread, with
//       q = scheduler::kNoQueue (so no RetryPlacement: it retries in place);
//       the result is returned. Counted in Stats() (ran_here), in no
//       queue's StatsPerQueue.
//
// Idle workers sleep on condition variables (no spinning, no timed polling):
// work on queue q wakes worker q if it sleeps, otherwise (steal on, the job
// not pinned) one sleeping worker. A pinned job never wakes a thief: it is
// moved only by a worker that runs out of work while it waits. More workers
// than cores is the normal case.
//
// Thread-safety: Submit, Stats, ResetStats, QueueLength and workers() may be
// called concurrently from any thread; Start and Shutdown from any thread but
// a worker (not from a runner or a callback: Shutdown joins the workers).
// Ownership: the runner and the scheduler (which may be null: no events) are
// borrowed and must outlive the pool.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <vector>

#include "common/status.h"
#include "engine/execution/execution_stats.h"
#include "engine/execution/job.h"
#include "engine/execution/transaction_runner.h"
#include "engine/execution/worker_stats.h"
#include "engine/transaction_request.h"
#include "scheduler/footprint.h"
#include "scheduler/scheduler.h"

namespace paceline::engine {

struct WorkerPoolOptions {
  size_t workers = 4;     // threads, and run queues (must be >= 1)
  bool steal = true;      // an idle worker takes the oldest unpinned job of a random other queue
  // ... but only from a queue holding at least this many unpinned jobs (1:
  // any non-empty queue, the paper's rule). Higher values leave short queues
  // to their owners, so conflicting transactions placed together stay
  // together unless a queue really backs up.
  size_t steal_threshold = 1;
  int max_retries = 100;  // retries after conflicts per transaction; <= 0: none
  uint64_t seed = 42;     // for the choice of steal victims
  // Longest pause before a retry (retry_pause.h); 0: every retry at once.
  std::chrono::microseconds max_retry_pause{1000};
  bool retry_yield = true;  // an immediate retry first yields the core
};

class WorkerPool {
 public:
  WorkerPool(WorkerPoolOptions options, TransactionRunner* runner, scheduler::Scheduler* scheduler);
  // Shutdown(true).
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Starts the workers; jobs submitted before run from now on. 22023 for
  // 0 workers; 55000 when already started or shut down.
  Status Start();

  // Queues `request` on run queue `queue`; the pool reports the scheduler
  // events for `footprint` with this queue index. `done` is called exactly
  // once: on a worker thread; or, if the pool is shut down, on the calling
  // thread with 57P01 ("terminating: the database is shutting down"); or
  // with 22023 if `queue` >= workers() (then without scheduler events).
  // `placement` says who chose `queue` (JobPlacement); kByHand's events
  // name scheduler::kNoQueue.
  void Submit(size_t queue, TransactionRequest request, scheduler::Footprint footprint, ResultCallback done,
              JobPlacement placement = JobPlacement::kPicked);
  // The same, with the result delivered through a future.
  std::future<TransactionResult> Submit(size_t queue, TransactionRequest request, scheduler::Footprint footprint,
                                        JobPlacement placement = JobPlacement::kPicked);

  // Runs `request` on the calling thread as a worker would run it (see
  // above) and returns its result: 57P01 once Shutdown has begun. For a
  // submitter that would otherwise wait for the result (Database::Run).
  TransactionResult RunHere(TransactionRequest request, scheduler::Footprint footprint);

  // Stops the pool and returns when every worker has exited. drain = true:
  // the jobs already queued run first; drain = false: they fail with 57P01
  // (their callbacks run on this thread), running transactions finish their
  // current attempt and are not retried. A pool never started fails its
  // queued jobs either way. Later Submits fail with 57P01. Idempotent.
  void Shutdown(bool drain);

  // A snapshot summed over workers (see WorkerStats for its precision).
  ExecutionStats Stats() const;
  // One snapshot per run queue q: `queued` counts what was put on queue q;
  // everything else is what worker q did (steals: jobs it took from others).
  // A job is counted as queued just after it is pushed, so a snapshot may
  // see its worker's outcome first.
  std::vector<ExecutionStats> StatsPerQueue() const;
  // RunHere's transactions alone (queued is 0, ran_here counts them).
  ExecutionStats HereStats() const;
  // Zeroes the statistics, e.g. after a warm-up; exact between runs, see
  // WorkerStats::Reset for a reset while transactions run.
  void ResetStats();

  size_t workers() const { return workers_.size(); }
  // Jobs waiting on run queue `queue` (not the one running); 0 if out of range.
  size_t QueueLength(size_t queue) const;

 private:
  struct Worker;

  void WorkerLoop(Worker& worker);
  // Takes the oldest unpinned job of a random other queue (or a pinned one
  // the scheduler lets move).
  bool TrySteal(Worker& thief, Job* job);
  // Whether `worker` has something to run: its queue, or with stealing any.
  bool HasWork(const Worker& worker) const;
  // After a push on `queue`: wakes its owner if asleep, else one sleeper.
  void WakeFor(size_t queue);
  void Run(Worker& worker, Job& job, bool stolen);
  // Run's attempts and retries, counted in `stats`; `worker` is null for
  // RunHere (its job names kNoQueue, so it is never re-placed).
  void RunAttempts(Worker* worker, WorkerStats& stats, Job& job, bool stolen);
  // Reports OnFinish, then hands `result` to the job's callback.
  void Finish(Job& job, TransactionResult&& result);
  // Fails every queued job with 57P01 on the calling thread.
  void FailQueued();

  const WorkerPoolOptions options_;
  const size_t steal_threshold_;  // >= 1
  TransactionRunner* const runner_;
  scheduler::Scheduler* const scheduler_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::unique_ptr<WorkerStats> here_stats_;  // RunHere's transactions (written by any thread)
  std::atomic<bool> closed_{false};          // Shutdown has begun: RunHere refuses

  // Sleeping workers. A worker announces itself (Worker::idle, idle_count_)
  // under idle_mu_ before it sleeps; a waker clears its flag under idle_mu_.
  std::mutex idle_mu_;
  std::atomic<size_t> idle_count_{0};  // workers whose idle flag is set (seq_cst)
  bool stopping_ = false;              // guarded by idle_mu_
  std::atomic<bool> abandon_{false};   // Shutdown(false): no more retries

  std::mutex lifecycle_mu_;  // serialises Start and Shutdown
  bool started_ = false;     // guarded by lifecycle_mu_
  bool shut_down_ = false;   // guarded by lifecycle_mu_
};

}  // namespace paceline::engine
