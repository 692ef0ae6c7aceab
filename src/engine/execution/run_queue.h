// RunQueue: the FIFO of jobs waiting for one worker. The owner takes from
// the front; an idle worker may steal, also from the front (the oldest job
// has waited longest: FIFO fairness bounds its latency).
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
#include <mutex>
#include <vector>

#include "engine/execution/job.h"

namespace paceline::engine {

class RunQueue {
 public:
  // Appends `job` (moved from) and returns true; once closed, returns false
  // and leaves `job` untouched.
  bool Push(Job&& job);
  // Moves the oldest job into `*job`; false when empty.
  bool PopFront(Job* job);
  // Refuses later Pushes. Idempotent.
  void Close();
  // Removes and returns every queued job, oldest first.
  std::vector<Job> TakeAll();

  // Jobs queued, without taking the lock (a seq_cst load: see WorkerPool).
  size_t size() const { return size_.load(std::memory_order_seq_cst); }

 private:
  mutable std::mutex mu_;
  std::deque<Job> jobs_;         // guarded by mu_
  bool closed_ = false;          // guarded by mu_
  std::atomic<size_t> size_{0};  // = jobs_.size(), stored under mu_
};

}  // namespace paceline::engine
