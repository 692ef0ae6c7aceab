// PauseBeforeRetry: what a worker (or a session retrying an autocommit
// statement) does between a conflict abort and the retry.
//
// The first kImmediateRetries retries follow the reference paper's rule —
// again at once, on the same thread — after only yielding the core once: with
// more workers than cores, the transaction that won the conflict may be
// descheduled while it holds what the loser needs, and a loser that retried
// without yielding would spin against it. Later retries of the same
// transaction sleep for an exponentially growing time capped at `max_pause`
// (0: always only yield), so that a long conflict (a descheduled lock holder,
// an interactive transaction holding a lock) does not use up the retry limit
// in microseconds. `yield` false with max_pause 0 is the paper's rule to the
// letter (its "Original"): every retry at once, not even yielding.
//
// RetryLimitStatus is the 40001 a transaction ends with when its retries
// run out.
//
// Thread-safety: pure functions.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "cc/abort_reason.h"
#include "common/status.h"

namespace paceline::engine {

inline constexpr int kImmediateRetries = 8;

// `retry` counts from 1 (the first retry of a transaction).
inline void PauseBeforeRetry(int retry, std::chrono::microseconds max_pause, bool yield = true) {
  if (max_pause.count() <= 0 || retry <= kImmediateRetries) {
    if (yield) std::this_thread::yield();
    return;
  }
  const int shift = std::min(retry - kImmediateRetries, 20);
  std::this_thread::sleep_for(std::chrono::microseconds(std::min<int64_t>(int64_t{1} << shift, max_pause.count())));
}

// `attempts` attempts all ended in conflicts, the last for `reason` with
// status `last`; `max_retries` is the limit that was reached.
inline Status RetryLimitStatus(int attempts, int max_retries, cc::AbortReason reason, const Status& last) {
  std::string detail = "Last conflict (" + std::string(cc::AbortReasonName(reason)) + ")";
  if (!last.ok()) detail += ": " + last.message();
  return Status(sqlstate::kSerializationFailure,
                "could not serialize access: transaction aborted " + std::to_string(attempts) +
                    (attempts == 1 ? " time" : " times") + " by conflicts (retry limit " +
                    std::to_string(max_retries) + ")")
      .WithDetail(std::move(detail));
}

}  // namespace paceline::engine
