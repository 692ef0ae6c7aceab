// TransactionContext helpers shared by the algorithms (concurrency_control.h).
#include "cc/concurrency_control.h"

namespace paceline::cc {

Status TransactionContext::Conflict(AbortReason reason, std::string message) {
  abort_reason_ = reason;
  if (reason == AbortReason::kLockTimeout) return Status(sqlstate::kLockNotAvailable, std::move(message));
  return Status(sqlstate::kSerializationFailure, std::move(message));
}

}  // namespace paceline::cc
