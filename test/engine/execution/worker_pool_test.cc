// WorkerPool with a fake TransactionRunner and a recording Scheduler: every
// callback runs exactly once; FIFO order; stealing only when enabled and
// only from busy queues; retries and the retry limit; user aborts and
// failures; shutdown with and without draining; statistics.
//
// Nothing here sleeps to wait for work: tests wait on futures, latches and
// condition variables. A lost wake-up or a stuck worker shows as a hang,
// which Await turns into a failure after a minute.
#include "engine/execution/worker_pool.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <latch>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace paceline::engine {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A job is a procedure call whose one argument is its id; its footprint is {id}.
TransactionRequest Request(int id) { return TransactionRequest::Call("job", {Value::Int64(id)}); }
int JobId(const TransactionRequest& request) { return static_cast<int>(request.args[0].int_value()); }
scheduler::Footprint FootprintOf(int id) { return scheduler::Footprint{{static_cast<uint64_t>(id)}}; }

TransactionResult Await(std::future<TransactionResult>& future) {
  if (future.wait_for(std::chrono::minutes(1)) != std::future_status::ready) {
    ADD_FAILURE() << "a transaction never finished (lost wake-up or stuck worker)";
    std::abort();
  }
  return future.get();
}

void Await(std::latch& latch) {
  // std::latch has no timed wait; the ctest timeout covers a hang here.
  latch.wait();
}

// Runs each attempt through `behaviour` (commit when none) and records it.
class FakeRunner : public TransactionRunner {
 public:
  struct Attempt {
    int job;
    size_t worker;
    int attempt;
    uint64_t first_start_ns;
  };
  using Behaviour = std::function<AttemptOutcome(int job, AttemptContext& ctx, TransactionResult* result)>;

  explicit FakeRunner(Behaviour behaviour = nullptr) : behaviour_(std::move(behaviour)) {}

  AttemptOutcome RunAttempt(const TransactionRequest& request, AttemptContext& ctx,
                            TransactionResult* result) override {
    const int job = JobId(request);
    {
      std::lock_guard lock(mu_);
      attempts_.push_back({job, ctx.worker, ctx.attempt, ctx.first_start_ns});
    }
    return behaviour_ ? behaviour_(job, ctx, result) : AttemptOutcome::kCommitted;
  }

  std::vector<Attempt> attempts() const {
    std::lock_guard lock(mu_);
    return attempts_;
  }
  std::vector<int> JobOrder() const {
    std::vector<int> order;
    for (const Attempt& a : attempts()) order.push_back(a.job);
    return order;
  }

 private:
  Behaviour behaviour_;
  mutable std::mutex mu_;
  std::vector<Attempt> attempts_;
};

// Records the events the pool reports; Pick is not used by the pool.
class RecordingScheduler : public scheduler::Scheduler {
 public:
  enum class Kind { kAbort, kCommit, kFinish };
  struct Event {
    Kind kind;
    int job;
    size_t queue;
  };

  std::string_view Name() const override { return "recording"; }
  size_t Pick(const scheduler::Footprint&) override { return 0; }
  void OnAbort(const scheduler::Footprint& f, size_t queue, const scheduler::AbortCulprit&,
               const scheduler::ReferenceNamer*) override { Add(Kind::kAbort, f, queue); }
  void OnCommit(const scheduler::Footprint& f, size_t queue) override { Add(Kind::kCommit, f, queue); }
  void OnFinish(const scheduler::Footprint& f, size_t queue) override { Add(Kind::kFinish, f, queue); }

  // The kinds of `job`'s events, in order.
  std::vector<Kind> KindsOf(int job) const {
    std::lock_guard lock(mu_);
    std::vector<Kind> kinds;
    for (const Event& e : events_) {
      if (e.job == job) kinds.push_back(e.kind);
    }
    return kinds;
  }
  std::vector<Event> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }
  size_t Count(Kind kind) const {
    std::lock_guard lock(mu_);
    size_t n = 0;
    for (const Event& e : events_) n += e.kind == kind;
    return n;
  }

 private:
  void Add(Kind kind, const scheduler::Footprint& f, size_t queue) {
    std::lock_guard lock(mu_);
    events_.push_back({kind, static_cast<int>(f.references.at(0)), queue});
  }

  mutable std::mutex mu_;
  std::vector<Event> events_;
};

using Kind = RecordingScheduler::Kind;

// A one-shot gate: Wait blocks until Open.
class Gate {
 public:
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

AttemptOutcome Conflict(AttemptContext& ctx, TransactionResult* result, cc::AbortReason reason,
                        std::string message) {
  ctx.abort_reason = reason;
  result->status = Status(sqlstate::kSerializationFailure, std::move(message));
  return AttemptOutcome::kConflict;
}

WorkerPoolOptions Options(size_t workers, bool steal, int max_retries = 100) {
  WorkerPoolOptions options;
  options.workers = workers;
  options.steal = steal;
  options.max_retries = max_retries;
  return options;
}

// Runs job `id` alone on queue `queue` of a fresh pool; its result and the
// pool's statistics afterwards.
struct AloneOutcome {
  TransactionResult result;
  ExecutionStats stats;
};
AloneOutcome RunAlone(const WorkerPoolOptions& options, FakeRunner* runner, RecordingScheduler* scheduler,
                      size_t queue, int id) {
  WorkerPool pool(options, runner, scheduler);
  EXPECT_TRUE(pool.Start().ok());
  std::future<TransactionResult> future = pool.Submit(queue, Request(id), FootprintOf(id));
  AloneOutcome outcome;
  outcome.result = Await(future);
  outcome.stats = pool.Stats();
  return outcome;
}

TEST(WorkerPoolTest, EveryCallbackRunsExactlyOnceWithManyWorkersAndSubmitters) {
  constexpr int kSubmitters = 4;
  constexpr int kPerSubmitter = 500;
  constexpr int kJobs = kSubmitters * kPerSubmitter;
  FakeRunner runner;
  RecordingScheduler scheduler;
  WorkerPool pool(Options(16, /*steal=*/true), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());

  std::vector<std::atomic<int>> calls(kJobs);
  std::latch all_done(kJobs);
  std::vector<std::thread> submitters;
  for (int s = 0; s < kSubmitters; ++s) {
    submitters.emplace_back([&, s] {
      for (int i = 0; i < kPerSubmitter; ++i) {
        const int id = s * kPerSubmitter + i;
        pool.Submit(static_cast<size_t>(id * 7 % 16), Request(id), FootprintOf(id), [&, id](TransactionResult&& r) {
          EXPECT_TRUE(r.committed()) << r.status.ToString();
          calls[id].fetch_add(1);
          all_done.count_down();
        });
      }
    });
  }
  for (std::thread& t : submitters) t.join();
  Await(all_done);

  for (int id = 0; id < kJobs; ++id) EXPECT_EQ(calls[id].load(), 1) << "job " << id;
  ExecutionStats stats = pool.Stats();
  EXPECT_EQ(stats.commits, static_cast<uint64_t>(kJobs));
  EXPECT_EQ(stats.finished(), static_cast<uint64_t>(kJobs));
  EXPECT_EQ(stats.latency.Count(), static_cast<uint64_t>(kJobs));
  EXPECT_EQ(scheduler.Count(Kind::kCommit), static_cast<size_t>(kJobs));
  EXPECT_EQ(scheduler.Count(Kind::kFinish), static_cast<size_t>(kJobs));
  for (const RecordingScheduler::Event& e : scheduler.events()) {
    EXPECT_EQ(e.queue, static_cast<size_t>(e.job * 7 % 16)) << "events carry the picked queue, even when stolen";
  }
}

TEST(WorkerPoolTest, OneWorkerRunsItsQueueInFifoOrder) {
  FakeRunner runner;
  WorkerPool pool(Options(1, /*steal=*/false), &runner, nullptr);
  std::vector<std::future<TransactionResult>> futures;
  for (int id = 0; id < 50; ++id) futures.push_back(pool.Submit(0, Request(id), FootprintOf(id)));
  EXPECT_EQ(pool.QueueLength(0), 50u);
  ASSERT_TRUE(pool.Start().ok());
  for (int id = 50; id < 100; ++id) futures.push_back(pool.Submit(0, Request(id), FootprintOf(id)));
  for (auto& f : futures) EXPECT_TRUE(Await(f).committed());

  std::vector<int> expected(100);
  for (int id = 0; id < 100; ++id) expected[id] = id;
  EXPECT_EQ(runner.JobOrder(), expected);
}

// Worker 1 is idle all along, but without stealing it never touches queue 0.
TEST(WorkerPoolTest, WithoutStealingJobsRunOnlyOnTheirQueuesWorker) {
  FakeRunner runner;
  WorkerPool pool(Options(2, /*steal=*/false), &runner, nullptr);
  std::vector<std::future<TransactionResult>> futures;
  for (int id = 0; id < 50; ++id) futures.push_back(pool.Submit(0, Request(id), FootprintOf(id)));
  ASSERT_TRUE(pool.Start().ok());
  for (auto& f : futures) EXPECT_TRUE(Await(f).committed());
  std::future<TransactionResult> on_queue_1 = pool.Submit(1, Request(50), FootprintOf(50));
  EXPECT_TRUE(Await(on_queue_1).committed());

  std::vector<FakeRunner::Attempt> attempts = runner.attempts();
  ASSERT_EQ(attempts.size(), 51u);
  for (int id = 0; id < 50; ++id) {
    EXPECT_EQ(attempts[id].job, id);  // FIFO
    EXPECT_EQ(attempts[id].worker, 0u);
  }
  EXPECT_EQ(attempts[50].worker, 1u);
  EXPECT_EQ(pool.Stats().steals, 0u);
}

// All jobs are on queue 0. The first job to start holds its worker until
// another job has started on the other worker: that can only happen by a
// steal (of the first job by worker 1, or of a later one while worker 0 is
// held).
TEST(WorkerPoolTest, AnIdleWorkerStealsFromABusyQueue) {
  std::mutex mu;
  std::condition_variable cv;
  std::set<size_t> workers_seen;
  bool first_started = false;
  FakeRunner runner([&](int, AttemptContext& ctx, TransactionResult*) {
    std::unique_lock lock(mu);
    workers_seen.insert(ctx.worker);
    cv.notify_all();
    if (!first_started) {
      first_started = true;
      cv.wait(lock, [&] { return workers_seen.size() >= 2; });
    }
    return AttemptOutcome::kCommitted;
  });
  RecordingScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  std::vector<std::future<TransactionResult>> futures;
  for (int id = 0; id < 10; ++id) futures.push_back(pool.Submit(0, Request(id), FootprintOf(id)));
  ASSERT_TRUE(pool.Start().ok());
  for (auto& f : futures) EXPECT_TRUE(Await(f).committed());

  EXPECT_GE(pool.Stats().steals, 1u);
  EXPECT_EQ(pool.Stats().commits, 10u);
  for (const RecordingScheduler::Event& e : scheduler.events()) EXPECT_EQ(e.queue, 0u);
}

// Both workers are started (and may be asleep) before the work arrives; the
// second job must wake a worker other than the one the first job holds.
TEST(WorkerPoolTest, ASleepingWorkerIsWokenForWorkOnABusyQueue) {
  Gate release;
  std::promise<size_t> first_worker;
  FakeRunner runner([&](int job, AttemptContext& ctx, TransactionResult*) {
    if (job == 0) {
      first_worker.set_value(ctx.worker);
      release.Wait();
    }
    return AttemptOutcome::kCommitted;
  });
  WorkerPool pool(Options(2, /*steal=*/true), &runner, nullptr);
  ASSERT_TRUE(pool.Start().ok());
  std::future<TransactionResult> first = pool.Submit(0, Request(0), FootprintOf(0));
  const size_t held = first_worker.get_future().get();
  std::future<TransactionResult> second = pool.Submit(0, Request(1), FootprintOf(1));
  EXPECT_TRUE(Await(second).committed());  // while job 0 still holds its worker
  release.Open();
  EXPECT_TRUE(Await(first).committed());
  EXPECT_NE(runner.attempts()[1].worker, held);
}

// steal_threshold = 2. Interleaving: worker 0 runs job 0 and holds it; job 1
// arrives on queue 0 (1 waiting: its owner's alone, worker 1 must not take
// it); job 2 arrives (2 waiting: worker 1 steals the oldest, job 1, and
// finishes it while job 0 still holds worker 0); job 2 (1 waiting again)
// stays for worker 0. Excluded: stealing from a short queue, which would
// split transactions a scheduler placed together.
TEST(WorkerPoolTest, StealThresholdLeavesShortQueuesToTheirOwner) {
  for (size_t threshold : {2, 3}) {
    SCOPED_TRACE("steal_threshold " + std::to_string(threshold));
    Gate release;
    std::promise<size_t> first_worker;
    FakeRunner runner([&](int job, AttemptContext& ctx, TransactionResult*) {
      if (job == 0) {
        first_worker.set_value(ctx.worker);
        release.Wait();
      }
      return AttemptOutcome::kCommitted;
    });
    WorkerPoolOptions options = Options(2, /*steal=*/true);
    options.steal_threshold = threshold;
    WorkerPool pool(options, &runner, nullptr);
    ASSERT_TRUE(pool.Start().ok());
    std::future<TransactionResult> job0 = pool.Submit(0, Request(0), FootprintOf(0));
    ASSERT_EQ(first_worker.get_future().get(), 0u);  // a queue of 1 is not stolen, even job 0
    std::future<TransactionResult> job1 = pool.Submit(0, Request(1), FootprintOf(1));
    std::future<TransactionResult> job2 = pool.Submit(0, Request(2), FootprintOf(2));
    if (threshold == 2) {
      EXPECT_TRUE(Await(job1).committed());  // stolen while job 0 holds worker 0
    }
    release.Open();
    EXPECT_TRUE(Await(job0).committed());
    if (threshold != 2) {
      EXPECT_TRUE(Await(job1).committed());
    }
    EXPECT_TRUE(Await(job2).committed());
    std::map<int, size_t> worker_of;
    for (const FakeRunner::Attempt& a : runner.attempts()) worker_of[a.job] = a.worker;
    EXPECT_EQ(worker_of[1], threshold == 2 ? 1u : 0u);
    EXPECT_EQ(worker_of[2], 0u);
    EXPECT_EQ(pool.Stats().steals, threshold == 2 ? 1u : 0u);
  }
}

// Lets pinned jobs move only when their id is in `movable`; records the
// queue each MayMove asked about.
class PinningScheduler : public RecordingScheduler {
 public:
  explicit PinningScheduler(std::set<int> movable) : movable_(std::move(movable)) {}
  bool MayMove(const scheduler::Footprint& f, size_t queue) override {
    std::lock_guard lock(mu_);
    asked_queues_.insert(queue);
    return movable_.count(static_cast<int>(f.references.at(0))) > 0;
  }
  std::set<size_t> asked_queues() const {
    std::lock_guard lock(mu_);
    return asked_queues_;
  }

 private:
  const std::set<int> movable_;
  mutable std::mutex mu_;
  std::set<size_t> asked_queues_;
};

// Stealing respects placement. Queue 0 holds, before the workers start:
// job 0 and job 1 pinned (the scheduler predicts a conflict: MayMove
// refuses), job 2 unpinned, job 3 pinned (MayMove allows). Interleaving:
// worker 0 runs job 0 and holds it; idle worker 1 passes over the pinned
// jobs 0 and 1, steals job 2 (the oldest unpinned one, though behind them),
// then, with nothing unpinned left, job 3 (allowed), then sleeps; jobs 0 and
// 1 run on worker 0 once job 0 is released. Excluded: a thief running a
// transaction beside the work it was placed with (job 1 beside job 0),
// which is the conflict placement exists to avoid; and a thief that leaves
// allowed work waiting behind a held worker.
TEST(WorkerPoolTest, StealingTakesUnpinnedJobsAndPinnedOnesTheSchedulerLetsGo) {
  Gate release;
  FakeRunner runner([&](int job, AttemptContext&, TransactionResult*) {
    if (job == 0) release.Wait();
    return AttemptOutcome::kCommitted;
  });
  PinningScheduler scheduler({3});
  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  std::vector<std::future<TransactionResult>> futures;
  futures.push_back(pool.Submit(0, Request(0), FootprintOf(0), JobPlacement::kPinned));
  futures.push_back(pool.Submit(0, Request(1), FootprintOf(1), JobPlacement::kPinned));
  futures.push_back(pool.Submit(0, Request(2), FootprintOf(2), JobPlacement::kPicked));
  futures.push_back(pool.Submit(0, Request(3), FootprintOf(3), JobPlacement::kPinned));
  ASSERT_TRUE(pool.Start().ok());
  EXPECT_TRUE(Await(futures[2]).committed());  // while job 0 holds worker 0
  EXPECT_TRUE(Await(futures[3]).committed());
  release.Open();
  EXPECT_TRUE(Await(futures[0]).committed());
  EXPECT_TRUE(Await(futures[1]).committed());
  std::map<int, size_t> worker_of;
  for (const FakeRunner::Attempt& a : runner.attempts()) worker_of[a.job] = a.worker;
  EXPECT_EQ(worker_of[0], 0u);
  EXPECT_EQ(worker_of[1], 0u) << "a pinned job the scheduler did not let go was stolen";
  EXPECT_EQ(worker_of[2], 1u);
  EXPECT_EQ(worker_of[3], 1u);
  EXPECT_EQ(pool.Stats().steals, 2u);
  EXPECT_EQ(scheduler.asked_queues(), std::set<size_t>{0});
  for (const RecordingScheduler::Event& e : scheduler.events()) EXPECT_EQ(e.queue, 0u);
}

// Pinned jobs submitted while worker 1 is idle (asleep, or scanning and
// refused by MayMove) stay on queue 0 and run on worker 0, after the job
// that holds it. (That an idle worker sleeps rather than spins beside them
// is the sleep protocol's: only unpinned jobs count in HasWork and WakeFor.)
TEST(WorkerPoolTest, PinnedJobsNeverWakeAThief) {
  Gate release;
  std::promise<size_t> first_worker;
  FakeRunner runner([&](int job, AttemptContext& ctx, TransactionResult*) {
    if (job == 0) {
      first_worker.set_value(ctx.worker);
      release.Wait();
    }
    return AttemptOutcome::kCommitted;
  });
  PinningScheduler scheduler({});
  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::future<TransactionResult> job0 = pool.Submit(0, Request(0), FootprintOf(0), JobPlacement::kPinned);
  ASSERT_EQ(first_worker.get_future().get(), 0u);  // pinned: never taken by worker 1
  std::future<TransactionResult> job1 = pool.Submit(0, Request(1), FootprintOf(1), JobPlacement::kPinned);
  release.Open();
  EXPECT_TRUE(Await(job0).committed());
  EXPECT_TRUE(Await(job1).committed());
  for (const FakeRunner::Attempt& a : runner.attempts()) EXPECT_EQ(a.worker, 0u);
  EXPECT_EQ(pool.Stats().steals, 0u);
}

TEST(WorkerPoolTest, ConflictsAreRetriedAtOnceOnTheSameWorker) {
  FakeRunner runner([](int, AttemptContext& ctx, TransactionResult* result) {
    if (ctx.attempt < 3) return Conflict(ctx, result, cc::AbortReason::kReadValidation, "row changed");
    return AttemptOutcome::kCommitted;
  });
  RecordingScheduler scheduler;
  auto [result, stats] = RunAlone(Options(2, /*steal=*/true), &runner, &scheduler, /*queue=*/1, /*id=*/7);
  EXPECT_TRUE(result.committed()) << result.status.ToString();

  std::vector<FakeRunner::Attempt> attempts = runner.attempts();
  ASSERT_EQ(attempts.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(attempts[i].attempt, i);
    EXPECT_EQ(attempts[i].worker, attempts[0].worker);
    EXPECT_EQ(attempts[i].first_start_ns, attempts[0].first_start_ns);
  }
  EXPECT_THAT(scheduler.KindsOf(7), ElementsAre(Kind::kAbort, Kind::kAbort, Kind::kAbort, Kind::kCommit, Kind::kFinish));
  for (const RecordingScheduler::Event& e : scheduler.events()) EXPECT_EQ(e.queue, 1u);
  EXPECT_EQ(stats.aborts(cc::AbortReason::kReadValidation), 3u);
  EXPECT_EQ(stats.aborts(), 3u);
  EXPECT_EQ(stats.retries, 3u);
  EXPECT_EQ(stats.commits, 1u);
  EXPECT_DOUBLE_EQ(stats.abort_rate(), 0.75);
}

// Sends the retry of a job that conflicted on queue 0 to queue 1 (as
// adaptive sends a spilled transaction home).
class SendingHomeScheduler : public RecordingScheduler {
 public:
  std::optional<scheduler::Placement> RetryPlacement(const scheduler::Footprint&, size_t queue,
                                                      const scheduler::AbortCulprit&) override {
    asked_.fetch_add(1);
    if (queue != 0) return std::nullopt;
    return scheduler::Placement{1, true};
  }
  int asked() const { return asked_.load(); }

 private:
  std::atomic<int> asked_{0};
};

// A conflict on queue 0 whose scheduler names queue 1 for the retry: the
// retry runs on worker 1 (stealing off: only worker 1 can run it there),
// the attempt count carries over, later events name queue 1, and the job
// finishes exactly once. Excluded: a retry that runs again beside what it
// conflicted with, a job that is lost or run twice on its way, and a retry
// limit that restarts when the job moves.
TEST(WorkerPoolTest, ARetryTheSchedulerSendsElsewhereRunsThereWithItsCountsKept) {
  FakeRunner runner([](int, AttemptContext& ctx, TransactionResult* result) {
    if (ctx.attempt < 2) return Conflict(ctx, result, cc::AbortReason::kReadValidation, "row changed");
    return AttemptOutcome::kCommitted;
  });
  SendingHomeScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/false), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::future<TransactionResult> future = pool.Submit(0, Request(7), FootprintOf(7));
  TransactionResult result = Await(future);
  EXPECT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(result.conflicts, 2u);

  std::vector<FakeRunner::Attempt> attempts = runner.attempts();
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[0].worker, 0u);
  EXPECT_EQ(attempts[1].worker, 1u);  // sent to queue 1
  EXPECT_EQ(attempts[2].worker, 1u);  // retried in place there (RetryPlacement: nowhere else)
  for (int i = 0; i < 3; ++i) EXPECT_EQ(attempts[i].attempt, i);
  EXPECT_EQ(scheduler.asked(), 2);
  const std::vector<RecordingScheduler::Event> events = scheduler.events();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].kind, Kind::kAbort);
  EXPECT_EQ(events[0].queue, 0u);
  for (size_t i = 1; i < events.size(); ++i) EXPECT_EQ(events[i].queue, 1u);
  EXPECT_THAT(scheduler.KindsOf(7), ElementsAre(Kind::kAbort, Kind::kAbort, Kind::kCommit, Kind::kFinish));
  const ExecutionStats stats = pool.Stats();
  EXPECT_EQ(stats.retries, 2u);
  EXPECT_EQ(stats.commits, 1u);
  EXPECT_EQ(stats.aborts(), 2u);
}

// The retry limit counts the attempts made before the move: max_retries 1
// allows the first attempt on queue 0 and one retry on queue 1.
TEST(WorkerPoolTest, ARetrySentElsewhereKeepsTheRetryLimit) {
  FakeRunner runner([](int, AttemptContext& ctx, TransactionResult* result) {
    return Conflict(ctx, result, cc::AbortReason::kReadValidation, "row changed");
  });
  SendingHomeScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/false, /*max_retries=*/1), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::future<TransactionResult> future = pool.Submit(0, Request(3), FootprintOf(3));
  TransactionResult result = Await(future);
  EXPECT_EQ(result.status.sqlstate(), sqlstate::kSerializationFailure);
  EXPECT_EQ(result.conflicts, 2u);
  ASSERT_EQ(runner.attempts().size(), 2u);
  EXPECT_EQ(runner.attempts()[1].worker, 1u);
  EXPECT_THAT(scheduler.KindsOf(3), ElementsAre(Kind::kAbort, Kind::kAbort, Kind::kFinish));
}

TEST(WorkerPoolTest, RetryLimitFailsWithSerializationFailure) {
  FakeRunner runner([](int, AttemptContext& ctx, TransactionResult* result) {
    return Conflict(ctx, result, cc::AbortReason::kLockConflict, "row is locked by another transaction");
  });
  RecordingScheduler scheduler;
  auto [result, stats] = RunAlone(Options(1, /*steal=*/false, /*max_retries=*/5), &runner, &scheduler, 0, 3);

  EXPECT_TRUE(result.status.Is(sqlstate::kSerializationFailure)) << result.status.ToString();
  EXPECT_THAT(result.status.message(), HasSubstr("aborted 6 times by conflicts (retry limit 5)"));
  EXPECT_THAT(result.status.detail(), HasSubstr("lock-conflict"));
  EXPECT_THAT(result.status.detail(), HasSubstr("row is locked by another transaction"));
  EXPECT_FALSE(result.user_abort);
  EXPECT_EQ(runner.attempts().size(), 6u);
  std::vector<Kind> expected(6, Kind::kAbort);
  expected.push_back(Kind::kFinish);
  EXPECT_EQ(scheduler.KindsOf(3), expected);
  EXPECT_EQ(stats.aborts(cc::AbortReason::kLockConflict), 6u);
  EXPECT_EQ(stats.retries, 5u);
  EXPECT_EQ(stats.retry_limit_failures, 1u);
  EXPECT_EQ(stats.commits, 0u);
  EXPECT_EQ(stats.finished(), 1u);
  EXPECT_DOUBLE_EQ(stats.abort_rate(), 1.0);
}

TEST(WorkerPoolTest, ZeroRetriesFailsAtTheFirstConflict) {
  FakeRunner runner([](int, AttemptContext& ctx, TransactionResult* result) {
    return Conflict(ctx, result, cc::AbortReason::kDie, "younger transaction died");
  });
  auto [result, stats] = RunAlone(Options(1, /*steal=*/false, /*max_retries=*/0), &runner, nullptr, 0, 0);
  EXPECT_TRUE(result.status.Is(sqlstate::kSerializationFailure));
  EXPECT_THAT(result.status.message(), HasSubstr("aborted 1 time by conflicts (retry limit 0)"));
  EXPECT_EQ(runner.attempts().size(), 1u);
  EXPECT_EQ(stats.retries, 0u);
}

TEST(WorkerPoolTest, UserAbortIsNeitherRetriedNorAConflict) {
  FakeRunner runner([](int, AttemptContext&, TransactionResult* result) {
    result->status = Status(sqlstate::kRaiseException, "invalid item number");
    return AttemptOutcome::kUserAbort;
  });
  RecordingScheduler scheduler;
  auto [result, stats] = RunAlone(Options(1, /*steal=*/false), &runner, &scheduler, 0, 4);
  EXPECT_TRUE(result.user_abort);
  EXPECT_TRUE(result.status.Is(sqlstate::kRaiseException));
  EXPECT_EQ(runner.attempts().size(), 1u);
  EXPECT_THAT(scheduler.KindsOf(4), ElementsAre(Kind::kFinish));
  EXPECT_EQ(stats.user_aborts, 1u);
  EXPECT_EQ(stats.aborts(), 0u);
  EXPECT_EQ(stats.commits, 0u);
  EXPECT_EQ(stats.abort_rate(), 0.0);
}

TEST(WorkerPoolTest, FailureIsNotRetriedAndKeepsItsStatus) {
  FakeRunner runner([](int job, AttemptContext&, TransactionResult* result) {
    if (job == 0) result->status = Status(sqlstate::kLockNotAvailable, "lock timeout");
    return AttemptOutcome::kFailed;  // job 1: without a status
  });
  RecordingScheduler scheduler;
  WorkerPool pool(Options(1, /*steal=*/false), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::future<TransactionResult> with_status = pool.Submit(0, Request(0), FootprintOf(0));
  std::future<TransactionResult> without_status = pool.Submit(0, Request(1), FootprintOf(1));
  EXPECT_TRUE(Await(with_status).status.Is(sqlstate::kLockNotAvailable));
  EXPECT_TRUE(Await(without_status).status.Is(sqlstate::kInternalError));
  EXPECT_EQ(runner.attempts().size(), 2u);
  EXPECT_THAT(scheduler.KindsOf(0), ElementsAre(Kind::kFinish));
  EXPECT_EQ(pool.Stats().errors, 2u);
}

// Job 0 holds the only worker while jobs 1..5 wait; Shutdown(false) fails
// those at once and waits for job 0, which then commits.
TEST(WorkerPoolTest, ShutdownWithoutDrainFailsQueuedJobs) {
  Gate release;
  std::promise<void> started;
  FakeRunner runner([&](int job, AttemptContext&, TransactionResult*) {
    if (job == 0) {
      started.set_value();
      release.Wait();
    }
    return AttemptOutcome::kCommitted;
  });
  RecordingScheduler scheduler;
  WorkerPool pool(Options(1, /*steal=*/true), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::vector<std::future<TransactionResult>> futures;
  for (int id = 0; id < 6; ++id) futures.push_back(pool.Submit(0, Request(id), FootprintOf(id)));
  started.get_future().wait();
  std::thread stopper([&] { pool.Shutdown(/*drain=*/false); });

  for (int id = 1; id < 6; ++id) {
    TransactionResult result = Await(futures[id]);
    EXPECT_TRUE(result.status.Is(sqlstate::kAdminShutdown)) << result.status.ToString();
    EXPECT_THAT(result.status.message(), HasSubstr("shutting down"));
    EXPECT_THAT(scheduler.KindsOf(id), ElementsAre(Kind::kFinish));
  }
  // The queues are closed by now: a new job fails at once, on this thread.
  std::thread::id callback_thread;
  int calls = 0;
  pool.Submit(0, Request(6), FootprintOf(6), [&](TransactionResult&& result) {
    EXPECT_TRUE(result.status.Is(sqlstate::kAdminShutdown));
    callback_thread = std::this_thread::get_id();
    ++calls;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(callback_thread, std::this_thread::get_id());
  EXPECT_THAT(scheduler.KindsOf(6), ElementsAre(Kind::kFinish));

  release.Open();
  stopper.join();
  EXPECT_TRUE(Await(futures[0]).committed());
  EXPECT_THAT(scheduler.KindsOf(0), ElementsAre(Kind::kCommit, Kind::kFinish));
  EXPECT_EQ(runner.attempts().size(), 1u);
  EXPECT_EQ(pool.Stats().commits, 1u);
  pool.Shutdown(/*drain=*/true);  // idempotent
}

// A transaction that conflicts after Shutdown(false) began is not retried.
TEST(WorkerPoolTest, ShutdownWithoutDrainStopsRetrying) {
  Gate release;
  std::promise<void> started;
  FakeRunner runner([&](int job, AttemptContext& ctx, TransactionResult* result) {
    if (job == 0 && ctx.attempt == 0) {
      started.set_value();
      release.Wait();
      return Conflict(ctx, result, cc::AbortReason::kWounded, "wounded by an older transaction");
    }
    return AttemptOutcome::kCommitted;
  });
  RecordingScheduler scheduler;
  WorkerPool pool(Options(1, /*steal=*/false), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::future<TransactionResult> running = pool.Submit(0, Request(0), FootprintOf(0));
  std::future<TransactionResult> queued = pool.Submit(0, Request(1), FootprintOf(1));
  started.get_future().wait();
  std::thread stopper([&] { pool.Shutdown(/*drain=*/false); });
  EXPECT_TRUE(Await(queued).status.Is(sqlstate::kAdminShutdown));  // so shutdown has begun
  release.Open();
  TransactionResult result = Await(running);
  stopper.join();
  EXPECT_TRUE(result.status.Is(sqlstate::kAdminShutdown)) << result.status.ToString();
  EXPECT_THAT(result.status.detail(), HasSubstr("wounded by an older transaction"));
  EXPECT_THAT(scheduler.KindsOf(0), ElementsAre(Kind::kAbort, Kind::kFinish));
  EXPECT_EQ(runner.attempts().size(), 1u);
  ExecutionStats stats = pool.Stats();
  EXPECT_EQ(stats.aborts(cc::AbortReason::kWounded), 1u);
  EXPECT_EQ(stats.errors, 1u);
}

TEST(WorkerPoolTest, ShutdownWithDrainRunsQueuedJobs) {
  FakeRunner runner;
  RecordingScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/false), &runner, &scheduler);
  std::vector<std::future<TransactionResult>> futures;
  for (int id = 0; id < 20; ++id) futures.push_back(pool.Submit(id % 2, Request(id), FootprintOf(id)));
  ASSERT_TRUE(pool.Start().ok());
  pool.Shutdown(/*drain=*/true);
  for (auto& f : futures) {
    ASSERT_EQ(f.wait_for(std::chrono::seconds(0)), std::future_status::ready);  // before Shutdown returned
    EXPECT_TRUE(f.get().committed());
  }
  EXPECT_EQ(pool.Stats().commits, 20u);
  EXPECT_EQ(scheduler.Count(Kind::kFinish), 20u);
  std::future<TransactionResult> late = pool.Submit(0, Request(20), FootprintOf(20));
  EXPECT_TRUE(Await(late).status.Is(sqlstate::kAdminShutdown));
  EXPECT_TRUE(pool.Start().Is(sqlstate::kObjectNotInPrerequisiteState));
}

TEST(WorkerPoolTest, APoolNeverStartedFailsItsQueuedJobsAtShutdown) {
  FakeRunner runner;
  RecordingScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  std::future<TransactionResult> future = pool.Submit(1, Request(0), FootprintOf(0));
  pool.Shutdown(/*drain=*/true);
  EXPECT_TRUE(Await(future).status.Is(sqlstate::kAdminShutdown));
  EXPECT_THAT(scheduler.KindsOf(0), ElementsAre(Kind::kFinish));
  EXPECT_TRUE(runner.attempts().empty());
}

TEST(WorkerPoolTest, DestructorDrains) {
  FakeRunner runner;
  std::atomic<int> committed{0};
  {
    WorkerPool pool(Options(3, /*steal=*/true), &runner, nullptr);
    ASSERT_TRUE(pool.Start().ok());
    for (int id = 0; id < 30; ++id) {
      pool.Submit(id % 3, Request(id), FootprintOf(id), [&](TransactionResult&& r) { committed += r.committed(); });
    }
  }
  EXPECT_EQ(committed.load(), 30);
}

TEST(WorkerPoolTest, MisuseIsReportedAsErrors) {
  FakeRunner runner;
  RecordingScheduler scheduler;
  WorkerPool none(Options(0, /*steal=*/true), &runner, &scheduler);
  EXPECT_TRUE(none.Start().Is(sqlstate::kInvalidParameterValue));

  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  EXPECT_TRUE(pool.Start().Is(sqlstate::kObjectNotInPrerequisiteState));
  std::future<TransactionResult> future = pool.Submit(2, Request(0), FootprintOf(0));
  TransactionResult result = Await(future);
  EXPECT_TRUE(result.status.Is(sqlstate::kInvalidParameterValue)) << result.status.ToString();
  EXPECT_THAT(result.status.message(), HasSubstr("run queue 2 does not exist"));
  EXPECT_TRUE(scheduler.events().empty());
  EXPECT_EQ(pool.QueueLength(2), 0u);
}

// Outcomes by job id mod 4: commit; conflict once then commit; user abort;
// failure. A reader takes snapshots throughout (race-free under TSan).
// Records the thread of every attempt.
class ThreadRecordingRunner : public FakeRunner {
 public:
  using FakeRunner::FakeRunner;
  AttemptOutcome RunAttempt(const TransactionRequest& request, AttemptContext& ctx,
                            TransactionResult* result) override {
    {
      std::lock_guard lock(mu_);
      threads_.push_back(std::this_thread::get_id());
    }
    return FakeRunner::RunAttempt(request, ctx, result);
  }
  std::vector<std::thread::id> threads() const {
    std::lock_guard lock(mu_);
    return threads_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::thread::id> threads_;
};

// RunHere runs every attempt on the calling thread (none on a worker),
// retries a conflict there, reports its events with kNoQueue, never asks
// for a RetryPlacement, returns the result, and counts it in Stats() as
// ran_here (not queued) and in no queue's figures. Excluded: a "here"
// transaction that crosses to a worker anyway, or that a scheduler re-places
// on a queue it was never counted on.
TEST(WorkerPoolTest, RunHereRunsOnTheCallingThreadWithAWorkersRetriesAndEvents) {
  ThreadRecordingRunner runner([](int, AttemptContext& ctx, TransactionResult* result) {
    if (ctx.attempt < 2) return Conflict(ctx, result, cc::AbortReason::kReadValidation, "row changed");
    return AttemptOutcome::kCommitted;
  });
  SendingHomeScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  TransactionResult result = pool.RunHere(Request(9), FootprintOf(9));
  EXPECT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(result.conflicts, 2u);
  for (std::thread::id id : runner.threads()) EXPECT_EQ(id, std::this_thread::get_id());
  EXPECT_EQ(runner.threads().size(), 3u);
  for (const FakeRunner::Attempt& a : runner.attempts()) EXPECT_EQ(a.worker, pool.workers());
  EXPECT_THAT(scheduler.KindsOf(9), ElementsAre(Kind::kAbort, Kind::kAbort, Kind::kCommit, Kind::kFinish));
  for (const RecordingScheduler::Event& e : scheduler.events()) EXPECT_EQ(e.queue, scheduler::kNoQueue);
  EXPECT_EQ(scheduler.asked(), 0);

  ExecutionStats stats = pool.Stats();
  EXPECT_EQ(stats.ran_here, 1u);
  EXPECT_EQ(stats.queued, 0u);
  EXPECT_EQ(stats.commits, 1u);
  EXPECT_EQ(stats.aborts(), 2u);
  EXPECT_EQ(stats.retries, 2u);
  EXPECT_EQ(pool.HereStats().commits, 1u);
  for (const ExecutionStats& q : pool.StatsPerQueue()) EXPECT_EQ(q.finished(), 0u);
  pool.ResetStats();
  EXPECT_EQ(pool.Stats().ran_here, 0u);
}

// Many threads RunHere while others Submit: each result arrives exactly
// once, to its own caller (a here-run's result is never another's).
TEST(WorkerPoolTest, RunHereFromManyThreadsBesideQueuedJobs) {
  constexpr int kThreads = 8, kEach = 200;
  FakeRunner runner([](int job, AttemptContext& ctx, TransactionResult* result) {
    if (job % 3 == 0 && ctx.attempt == 0) return Conflict(ctx, result, cc::AbortReason::kPhantom, "phantom");
    result->user_abort = false;
    result->results.resize(1);
    result->results[0].rows.push_back({Value::Int64(job)});
    return AttemptOutcome::kCommitted;
  });
  RecordingScheduler scheduler;
  WorkerPool pool(Options(2, /*steal=*/true), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const int id = t * kEach + i;
        TransactionResult r;
        if (t % 2 == 0) {
          r = pool.RunHere(Request(id), FootprintOf(id));
        } else {
          std::future<TransactionResult> f = pool.Submit(static_cast<size_t>(id % 2), Request(id), FootprintOf(id));
          r = Await(f);
        }
        if (!r.committed() || r.results.size() != 1 || r.results[0].rows[0][0].int_value() != id) wrong.fetch_add(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  ExecutionStats stats = pool.Stats();
  EXPECT_EQ(stats.ran_here, static_cast<uint64_t>(kThreads / 2 * kEach));
  EXPECT_EQ(stats.queued, static_cast<uint64_t>(kThreads / 2 * kEach));
  EXPECT_EQ(stats.commits, static_cast<uint64_t>(kThreads * kEach));
  EXPECT_EQ(scheduler.Count(Kind::kFinish), static_cast<size_t>(kThreads * kEach));
}

// After Shutdown, RunHere fails with 57P01 without running the attempt,
// and the scheduler still hears OnFinish (its bookkeeping stays balanced).
TEST(WorkerPoolTest, RunHereAfterShutdownFailsWithAdminShutdown) {
  FakeRunner runner;
  RecordingScheduler scheduler;
  WorkerPool pool(Options(1, /*steal=*/false), &runner, &scheduler);
  ASSERT_TRUE(pool.Start().ok());
  pool.Shutdown(/*drain=*/true);
  TransactionResult r = pool.RunHere(Request(3), FootprintOf(3));
  EXPECT_TRUE(r.status.Is(sqlstate::kAdminShutdown)) << r.status.ToString();
  EXPECT_TRUE(runner.attempts().empty());
  EXPECT_THAT(scheduler.KindsOf(3), ElementsAre(Kind::kFinish));
}

TEST(WorkerPoolTest, StatsSumOverWorkersAndReset) {
  constexpr int kJobs = 400;
  FakeRunner runner([](int job, AttemptContext& ctx, TransactionResult* result) {
    switch (job % 4) {
      case 1:
        if (ctx.attempt == 0) return Conflict(ctx, result, cc::AbortReason::kPhantom, "phantom");
        return AttemptOutcome::kCommitted;
      case 2:
        result->status = Status(sqlstate::kRaiseException, "rolled back");
        return AttemptOutcome::kUserAbort;
      case 3:
        result->status = Status(sqlstate::kLockNotAvailable, "lock timeout");
        return AttemptOutcome::kFailed;
      default:
        return AttemptOutcome::kCommitted;
    }
  });
  WorkerPool pool(Options(4, /*steal=*/true), &runner, nullptr);
  ASSERT_TRUE(pool.Start().ok());
  std::atomic<bool> finished{false};
  std::thread reader([&] {
    uint64_t last = 0;
    while (!finished.load()) {
      ExecutionStats snapshot = pool.Stats();
      EXPECT_GE(snapshot.finished(), last);
      last = snapshot.finished();
    }
  });
  std::vector<std::future<TransactionResult>> futures;
  for (int id = 0; id < kJobs; ++id) futures.push_back(pool.Submit(id % 4, Request(id), FootprintOf(id)));
  for (auto& f : futures) Await(f);
  finished.store(true);
  reader.join();

  ExecutionStats stats = pool.Stats();
  EXPECT_EQ(stats.commits, 200u);
  EXPECT_EQ(stats.aborts(cc::AbortReason::kPhantom), 100u);
  EXPECT_EQ(stats.aborts(), 100u);
  EXPECT_EQ(stats.retries, 100u);
  EXPECT_EQ(stats.user_aborts, 100u);
  EXPECT_EQ(stats.errors, 100u);
  EXPECT_EQ(stats.retry_limit_failures, 0u);
  EXPECT_EQ(stats.finished(), static_cast<uint64_t>(kJobs));
  EXPECT_DOUBLE_EQ(stats.abort_rate(), 100.0 / 300.0);
  EXPECT_EQ(stats.latency.Count(), static_cast<uint64_t>(kJobs));
  EXPECT_EQ(stats.queue_wait.Count(), static_cast<uint64_t>(kJobs));
  EXPECT_GE(stats.latency.Max(), stats.queue_wait.Max());
  EXPECT_DOUBLE_EQ(stats.latency.Mean(), static_cast<double>(stats.queued_ns + stats.executing_ns) / kJobs);

  pool.ResetStats();
  ExecutionStats reset = pool.Stats();
  EXPECT_EQ(reset.finished(), 0u);
  EXPECT_EQ(reset.aborts(), 0u);
  EXPECT_EQ(reset.retries + reset.steals + reset.queued_ns + reset.executing_ns, 0u);
  EXPECT_EQ(reset.latency.Count(), 0u);
}

}  // namespace
}  // namespace paceline::engine
