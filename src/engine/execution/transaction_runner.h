// TransactionRunner: runs one attempt of a transaction on the calling worker
// thread — the boundary between the execution layer (queues, workers,
// retries) and the engine that executes SQL under concurrency control.
// Implemented by the Database; WorkerPool calls it.
//
// Contract of RunAttempt(request, ctx, result), for `*result` freshly
// default-constructed by the caller:
//   kCommitted  the transaction committed; result->status is OK.
//   kConflict   concurrency control aborted it; the runner has rolled it back,
//               set ctx.abort_reason (not kNone) and result->status (the
//               conflict's error). The pool retries it at once on the same
//               worker with ctx.attempt + 1, up to its retry limit.
//   kUserAbort  the transaction rolled itself back (ROLLBACK, a business-rule
//               abort); not a conflict, not retried.
//   kFailed     any other error (including a lock timeout); not retried.
// Thread-safety: called concurrently from all workers, each with its own ctx.
// Must not throw. Ownership: the pool borrows the runner; it must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cc/abort_reason.h"
#include "engine/transaction_request.h"

namespace paceline::engine {

enum class AttemptOutcome { kCommitted, kConflict, kUserAbort, kFailed };

struct AttemptContext {
  size_t worker = 0;        // index of the worker thread running the attempt (workers(): the submitter's, RunHere)
  int attempt = 0;          // 0 for the first, +1 per retry
  uint64_t first_start_ns = 0;  // steady clock at the first attempt's start, constant across
                                // retries (its age in time; the CCs order by `timestamp`)
  cc::AbortReason abort_reason = cc::AbortReason::kNone;  // set by the runner on kConflict
  // With it, the table of the row or range the CC blamed (Table::id()), if
  // it named one.
  TableId culprit_table = cc::kNoCulpritTable;
  TxnTimestamp timestamp;   // the runner's own transaction age: TxnTimestamp() before the first attempt, then
                            // whatever the runner stores (kept across retries)
};

class TransactionRunner {
 public:
  virtual ~TransactionRunner() = default;
  virtual AttemptOutcome RunAttempt(const TransactionRequest& request, AttemptContext& ctx,
                                    TransactionResult* result) = 0;
  // The text of each reference of `request`'s footprint, in the order of its
  // Footprint::references (for the scheduler's introspection; slow, called
  // rarely). The default knows none.
  virtual void NameReferences(const TransactionRequest& request, std::vector<std::string>* names) {
    (void)request;
    names->clear();
  }
};

}  // namespace paceline::engine
