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
#include <iterator>
#include <string_view>

#include "common/ids.h"
#include "common/status.h"

namespace paceline::cc {

// Every reason, in one list: X(enumerator, name for statistics and logs,
// conflict, still running). A *conflict* is retried and counted as an
// abort in History (every reason but kNone and kLockTimeout). *Still
// running*: the transaction that caused the conflict was running when it
// did (it holds the lock, or its uncommitted row the key), so a retry at
// once meets it again; OCC's validation failures come from transactions
// that have committed.
#define PACELINE_ABORT_REASONS(X)                                                                     \
  X(kNone, "none", false, false)                                                                      \
  X(kReadValidation, "read-validation", true, false) /* OCC: a row read changed before commit */       \
  X(kPhantom, "phantom", true, false)    /* OCC: a scanned range or missed key gained a row */         \
  X(kLockConflict, "lock-conflict", true, true) /* 2PL NO_WAIT: a lock was held by another */          \
  X(kDie, "die", true, true)              /* 2PL WAIT_DIE: a younger requester met an older holder */  \
  X(kWounded, "wounded", true, true)      /* 2PL WOUND_WAIT: an older transaction took our lock */     \
  X(kUniqueConflict, "unique-conflict", true, true) /* another's uncommitted row holds the key */      \
  X(kLockTimeout, "lock-timeout", false, false)     /* waited longer than lock_timeout (55P03) */

enum class AbortReason {
#define PACELINE_ABORT_REASON_ENUMERATOR(id, name, conflict, running) id,
  PACELINE_ABORT_REASONS(PACELINE_ABORT_REASON_ENUMERATOR)
#undef PACELINE_ABORT_REASON_ENUMERATOR
};

namespace abort_reason_internal {
struct Info {
  std::string_view name;
  bool conflict;
  bool still_running;
};
inline constexpr Info kInfo[] = {
#define PACELINE_ABORT_REASON_INFO(id, name, conflict, running) {name, conflict, running},
    PACELINE_ABORT_REASONS(PACELINE_ABORT_REASON_INFO)
#undef PACELINE_ABORT_REASON_INFO
};
}  // namespace abort_reason_internal

// How many reasons there are (counters indexed by AbortReason).
inline constexpr size_t kAbortReasonCount = std::size(abort_reason_internal::kInfo);

// The culprit table of a conflict the algorithm could not attribute to a
// table (TransactionContext::culprit_table()).
inline constexpr TableId kNoCulpritTable{};  // TableId(): table ids start at 1

// Whether `reason` is a conflict: retried, and an abort in History.
constexpr bool IsConflict(AbortReason reason) {
  return abort_reason_internal::kInfo[static_cast<size_t>(reason)].conflict;
}

// Whether the transaction that caused the conflict was still running when
// it did (see PACELINE_ABORT_REASONS).
constexpr bool ConflictStillRunning(AbortReason reason) {
  return abort_reason_internal::kInfo[static_cast<size_t>(reason)].still_running;
}

// The SQLSTATE an attempt that ended for `reason` fails with: 55P03 for a
// lock timeout, 40001 for every conflict (TransactionContext::Conflict).
constexpr std::string_view AbortReasonSqlState(AbortReason reason) {
  return reason == AbortReason::kLockTimeout ? sqlstate::kLockNotAvailable : sqlstate::kSerializationFailure;
}

// "read-validation", "phantom", ... (for statistics and logs).
constexpr std::string_view AbortReasonName(AbortReason reason) {
  return abort_reason_internal::kInfo[static_cast<size_t>(reason)].name;
}

}  // namespace paceline::cc
