// RunQueue: the FIFO of jobs waiting for one worker. The owner takes from
// the front; an idle worker may steal the oldest job that is not pinned
// (the oldest has waited longest: FIFO fairness bounds its latency), or,
// when every job is pinned, the oldest pinned one its caller allows.
//
// A std::mutex around a std::deque: every critical section is a push or pop
// of one element. The queue never blocks a caller waiting for work — idle
// workers sleep in WorkerPool, which reads size() (a seq_cst mirror of the
// length, readable without the lock) in its wake-up protocol.
//
// Close() makes later Pushes fail, so that a shutting-down pool knows every
// job it has to run or fail is already queued.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "engine/execution/job.h"

namespace paceline::engine {

class RunQueue {
 public:
  // Appends `job` (moved from) and returns true; once closed, returns false
  // and leaves `job` untouched.
  bool Push(Job&& job);
  // The same at the front: a job that already waited its turn elsewhere.
  bool PushFront(Job&& job);
  // Moves the oldest job into `*job`; false when empty.
  bool PopFront(Job* job);
  // Moves into `*job` the oldest unpinned job or, if there is none, the
  // oldest of the first kPinnedScan pinned jobs for which may_move(job)
  // holds (called under the queue's lock); false when there is neither.
  bool Steal(Job* job, const std::function<bool(const Job&)>& may_move);
  static constexpr size_t kPinnedScan = 4;
  // Refuses later Pushes. Idempotent.
  void Close();
  // Removes and returns every queued job, oldest first.
  std::vector<Job> TakeAll();

  // Jobs queued, without taking the lock (a seq_cst load: see WorkerPool).
  size_t size() const { return size_.load(std::memory_order_seq_cst); }
  // Of these, the jobs that are not pinned (the same kind of load).
  size_t unpinned() const { return unpinned_.load(std::memory_order_seq_cst); }

 private:
  mutable std::mutex mu_;
  std::deque<Job> jobs_;         // guarded by mu_
  bool closed_ = false;          // guarded by mu_
  std::atomic<size_t> size_{0};  // = jobs_.size(), stored under mu_
  std::atomic<size_t> unpinned_{0};  // jobs_ that are not pinned, stored under mu_

  // Push and PushFront.
  bool Insert(Job&& job, bool front);
  // Stores both mirrors; caller holds mu_.
  void Mirror(size_t unpinned);
};

}  // namespace paceline::engine
