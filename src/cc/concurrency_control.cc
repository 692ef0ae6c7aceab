// TransactionContext helpers shared by the algorithms (concurrency_control.h).
#include "cc/concurrency_control.h"

namespace paceline::cc {

Status TransactionContext::Conflict(AbortReason reason, std::string message) {
  abort_reason_ = reason;
  return Status(AbortReasonSqlState(reason), std::move(message));
}

}  // namespace paceline::cc
