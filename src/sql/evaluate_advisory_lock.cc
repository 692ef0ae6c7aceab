// ExpressionEvaluator: pg_advisory_lock and its relatives, through the
// engine's AdvisoryLockAccess (advisory_lock_access.h). Strict, as in
// PostgreSQL: a NULL key gives NULL and takes nothing.
#include "sql/advisory_lock_access.h"
#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

Status EvaluateAdvisoryLockFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                    Value* out) {
  for (const Value& a : args) {
    if (a.is_null()) {
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
  }
  AdvisoryLockAccess* locks = ctx.advisory_locks;
  if (locks == nullptr) {
    return Status(sqlstate::kFeatureNotSupported,
                  "advisory locks outside a session (in a stored procedure or a column DEFAULT)");
  }
  if (e.function == ScalarFunction::kAdvisoryUnlockAll) {
    locks->UnlockAll();
    *out = Value::Void();
    return Status::OK();
  }
  AdvisoryLockAccess::Key key;
  key.pair = e.index == 1;
  key.id = key.pair ? static_cast<int64_t>((static_cast<uint64_t>(static_cast<uint32_t>(args[0].int_value())) << 32) |
                                           static_cast<uint32_t>(args[1].int_value()))
                    : args[0].int_value();
  bool shared = false, transaction = false, wait = true;
  switch (e.function) {
    case ScalarFunction::kAdvisoryUnlock: case ScalarFunction::kAdvisoryUnlockShared:
      *out = Value::Bool(locks->Unlock(key, e.function == ScalarFunction::kAdvisoryUnlockShared));
      return Status::OK();
    case ScalarFunction::kAdvisoryLock: break;
    case ScalarFunction::kAdvisoryLockShared: shared = true; break;
    case ScalarFunction::kAdvisoryXactLock: transaction = true; break;
    case ScalarFunction::kAdvisoryXactLockShared: shared = transaction = true; break;
    case ScalarFunction::kTryAdvisoryLock: wait = false; break;
    case ScalarFunction::kTryAdvisoryLockShared: shared = true, wait = false; break;
    case ScalarFunction::kTryAdvisoryXactLock: transaction = true, wait = false; break;
    case ScalarFunction::kTryAdvisoryXactLockShared: shared = transaction = true, wait = false; break;
    default: return InternalError("not an advisory lock function");
  }
  bool acquired = false;
  PL_RETURN_IF_ERROR(locks->Lock(key, shared, transaction, wait, &acquired));
  *out = wait ? Value::Void() : Value::Bool(acquired);
  return Status::OK();
}

}  // namespace paceline::sql::eval
