// AbortReason: why concurrency control ended a transaction attempt.
//
// An abort is an outcome with a reason (Silo style), not an exception. Every
// reason except kNone and kLockTimeout is a *conflict* (IsConflict): the
// attempt is retried by its worker and counted as an abort in the
// scheduler's History. A lock timeout is the user's limit (lock_timeout,
// 55P03): never retried, not evidence. A user's ROLLBACK or a
// stored procedure's business-rule abort is not an AbortReason (see
// TransactionResult::user_abort).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace paceline::cc {

enum class AbortReason {
  kNone = 0,
  kReadValidation,  // OCC: a row read changed before commit
  kPhantom,         // OCC: a scanned range or missed key gained a row
  kLockConflict,    // 2PL NO_WAIT: a lock was held by another transaction
  kDie,             // 2PL WAIT_DIE: a younger requester met an older holder
  kWounded,         // 2PL WOUND_WAIT: an older transaction took our lock
  kUniqueConflict,  // another transaction's uncommitted row holds the key
  kLockTimeout,     // waited longer than lock_timeout (never retried)
};
inline constexpr size_t kAbortReasonCount = 8;

// The culprit table of a conflict the algorithm could not attribute to a
// table (TransactionContext::culprit_table()).
inline constexpr uint32_t kNoCulpritTable = ~uint32_t{0};

// Whether `reason` is a conflict: retried, and an abort in History.
constexpr bool IsConflict(AbortReason reason) {
  return reason != AbortReason::kNone && reason != AbortReason::kLockTimeout;
}

// Whether the transaction that caused the conflict was still running when
// it did (it holds the lock, or its uncommitted row the key): a retry at
// once meets it again. OCC's validation failures come from transactions
// that have committed.
constexpr bool ConflictStillRunning(AbortReason reason) {
  return reason == AbortReason::kLockConflict || reason == AbortReason::kDie || reason == AbortReason::kWounded ||
         reason == AbortReason::kUniqueConflict;
}

// The SQLSTATE an attempt that ended for `reason` fails with: 55P03 for a
// lock timeout, 40001 for every conflict (TransactionContext::Conflict).
constexpr std::string_view AbortReasonSqlState(AbortReason reason) {
  return reason == AbortReason::kLockTimeout ? sqlstate::kLockNotAvailable : sqlstate::kSerializationFailure;
}

// "read-validation", "phantom", ... (for statistics and logs).
constexpr std::string_view AbortReasonName(AbortReason reason) {
  switch (reason) {
    case AbortReason::kNone: return "none";
    case AbortReason::kReadValidation: return "read-validation";
    case AbortReason::kPhantom: return "phantom";
    case AbortReason::kLockConflict: return "lock-conflict";
    case AbortReason::kDie: return "die";
    case AbortReason::kWounded: return "wounded";
    case AbortReason::kUniqueConflict: return "unique-conflict";
    case AbortReason::kLockTimeout: return "lock-timeout";
  }
  return "unknown";
}

}  // namespace paceline::cc
