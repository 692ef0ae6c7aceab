// Scheduler: the plug-in that decides on which worker run queue each
// transaction waits, and hears how each of its attempts ended. This is the
// whole boundary between the engine and a scheduling policy (the paper's
// bolt-on API): (i) Pick a queue for a captured transaction, (ii) the engine
// queues it there, (iii) OnAbort / OnCommit report every outcome, OnFinish
// its departure. A scheduler knows nothing of SQL, storage or threads.
//
// Contract, for one transaction with footprint F:
//   q = Pick(F)               exactly once, before it is queued on q
//   OnAbort(F, q)             once per attempt that ended in a conflict
//                             (each is retried, or fails at the retry limit)
//   OnCommit(F, q)            once if it committed
//   OnFinish(F, q)            exactly once, last, whatever the outcome
// q is always the queue Pick chose, even when another worker stole the
// transaction. A user abort or an error is neither an abort nor a commit.
//
// Thread-safety: every method may be called concurrently from any thread.
// Ownership: the engine owns its Scheduler; footprints are only borrowed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scheduler/footprint.h"

namespace paceline::scheduler {

struct SchedulerOptions {
  size_t queues = 1;    // run queues (= workers); Pick returns < queues
  uint64_t seed = 42;   // for randomised policies
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The name used to select it (--scheduler=NAME), e.g. "random".
  virtual std::string_view Name() const = 0;
  // The run queue for a transaction with `footprint`, in [0, queues).
  virtual size_t Pick(const Footprint& footprint) = 0;
  // The outcome events; a policy that ignores outcomes (the baselines)
  // keeps these no-op defaults.
  virtual void OnAbort(const Footprint& footprint, size_t queue) {
    (void)footprint;
    (void)queue;
  }
  virtual void OnCommit(const Footprint& footprint, size_t queue) {
    (void)footprint;
    (void)queue;
  }
  virtual void OnFinish(const Footprint& footprint, size_t queue) {
    (void)footprint;
    (void)queue;
  }
};

}  // namespace paceline::scheduler
