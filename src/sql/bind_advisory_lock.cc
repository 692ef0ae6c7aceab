// Binder: pg_advisory_lock and its relatives (see advisory_lock_access.h).
// Each takes one bigint key or two integer keys, as PostgreSQL's
// signatures do (another argument type is 42883); the lock functions
// return void, the try and unlock functions boolean.
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

Status Binder::BindAdvisoryLockFunction(const std::string& name, std::vector<BoundExprPtr>& args, BoundExpr* node,
                                        int location) {
  const bool pair = args.size() == 2;
  auto no_such_function = [&] {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) sig += (i == 0 ? "" : ", ") + TypeText(args[i]->type);
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist", Pos(location));
  };
  const Type key_type(pair ? TypeId::kInt32 : TypeId::kInt64);
  for (BoundExprPtr& arg : args) {
    if (!IsUnknown(*arg) && !arg->type.IsInteger()) return no_such_function();
    if (pair && arg->type.id == TypeId::kInt64) return no_such_function();  // (integer, integer) only
    PL_RETURN_IF_ERROR(Coerce(&arg, key_type, false, location));
  }
  node->index = pair ? 1 : 0;
  switch (node->function) {
    case ScalarFunction::kAdvisoryLock: case ScalarFunction::kAdvisoryLockShared:
    case ScalarFunction::kAdvisoryXactLock: case ScalarFunction::kAdvisoryXactLockShared:
    case ScalarFunction::kAdvisoryUnlockAll:
      node->type = Type(TypeId::kVoid);
      break;
    default:
      node->type = Type(TypeId::kBool);
      break;
  }
  return Status::OK();
}

}  // namespace paceline::sql
