// Job: one submitted transaction waiting in, or taken from, a run queue — the
// request, the footprint the scheduler was given, the queue it picked, the
// callback that receives the result, and when it was submitted.
//
// A plain value type, moved (never copied) through the pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "engine/transaction_request.h"
#include "scheduler/footprint.h"

namespace paceline::engine {

// Receives a transaction's result; called exactly once.
using ResultCallback = std::function<void(TransactionResult&&)>;

// How a job came to its run queue.
enum class JobPlacement {
  kPicked,  // Scheduler::Place chose the queue; any idle worker may steal it
  kPinned,  // ... and pinned it there: stolen only if Scheduler::MayMove allows
  kByHand,  // Database::SubmitTo: no scheduler choice (events name kNoQueue)
};

struct Job {
  TransactionRequest request;
  scheduler::Footprint footprint;
  size_t queue = 0;          // the run queue it was put on (also when stolen)
  // The queue reported with its scheduler events: `queue` when the
  // scheduler picked it, scheduler::kNoQueue when it was placed by hand.
  size_t event_queue = 0;
  bool pinned = false;       // JobPlacement::kPinned
  ResultCallback done;
  uint64_t enqueue_ns = 0;   // steady clock, at Submit
  // Attempts so far that ended in conflicts, when the scheduler sent the
  // job to another queue for its retry (Scheduler::RetryPlacement).
  uint32_t conflicts = 0;
};

}  // namespace paceline::engine
