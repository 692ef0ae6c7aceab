// Binder: scalar functions and aggregates (see binder.h, binder_internal.h).
#include "sql/binder_internal.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/datetime.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "sql/access_path_planner.h"
#include "sql/expression_evaluator.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

struct FunctionInfo {
  const char* name;
  ScalarFunction function;
  int min_args;
  int max_args;
};

constexpr FunctionInfo kFunctions[] = {
    {"now", ScalarFunction::kNow, 0, 0},
    {"current_timestamp", ScalarFunction::kNow, 0, 0},
    {"localtimestamp", ScalarFunction::kNow, 0, 0},
    {"transaction_timestamp", ScalarFunction::kNow, 0, 0},
    {"statement_timestamp", ScalarFunction::kNow, 0, 0},
    {"current_date", ScalarFunction::kCurrentDate, 0, 0},
    {"coalesce", ScalarFunction::kCoalesce, 1, 100},
    {"nullif", ScalarFunction::kNullIf, 2, 2},
    {"greatest", ScalarFunction::kGreatest, 1, 100},
    {"least", ScalarFunction::kLeast, 1, 100},
    {"abs", ScalarFunction::kAbs, 1, 1},
    {"round", ScalarFunction::kRound, 1, 2},
    {"trunc", ScalarFunction::kTrunc, 1, 2},
    {"floor", ScalarFunction::kFloor, 1, 1},
    {"ceil", ScalarFunction::kCeil, 1, 1},
    {"ceiling", ScalarFunction::kCeil, 1, 1},
    {"lower", ScalarFunction::kLower, 1, 1},
    {"upper", ScalarFunction::kUpper, 1, 1},
    {"length", ScalarFunction::kLength, 1, 1},
    {"char_length", ScalarFunction::kLength, 1, 1},
    {"character_length", ScalarFunction::kLength, 1, 1},
    {"octet_length", ScalarFunction::kOctetLength, 1, 1},
    {"substr", ScalarFunction::kSubstr, 2, 3},
    {"substring", ScalarFunction::kSubstr, 2, 3},
    {"btrim", ScalarFunction::kTrim, 1, 2},
    {"ltrim", ScalarFunction::kLtrim, 1, 2},
    {"rtrim", ScalarFunction::kRtrim, 1, 2},
    {"power", ScalarFunction::kPower, 2, 2},
    {"pow", ScalarFunction::kPower, 2, 2},
    {"sqrt", ScalarFunction::kSqrt, 1, 1},
    {"mod", ScalarFunction::kMod, 2, 2},
    {"random", ScalarFunction::kRandom, 0, 0},
    {"clock_timestamp", ScalarFunction::kClockTimestamp, 0, 0},
    {"date_trunc", ScalarFunction::kDateTrunc, 2, 2},
    {"extract", ScalarFunction::kExtract, 2, 2},
    {"date_part", ScalarFunction::kDatePart, 2, 2},
    {"gen_random_uuid", ScalarFunction::kGenRandomUuid, 0, 0},
    {"jsonb_build_object", ScalarFunction::kJsonBuildObject, 0, 100},
    {"json_build_object", ScalarFunction::kJsonBuildObject, 0, 100},
    {"jsonb_build_array", ScalarFunction::kJsonBuildArray, 0, 100},
    {"json_build_array", ScalarFunction::kJsonBuildArray, 0, 100},
    {"jsonb_set", ScalarFunction::kJsonSet, 3, 4},
    {"to_jsonb", ScalarFunction::kToJson, 1, 1},
    {"to_json", ScalarFunction::kToJson, 1, 1},
    {"jsonb_typeof", ScalarFunction::kJsonTypeof, 1, 1},
    {"json_typeof", ScalarFunction::kJsonTypeof, 1, 1},
    {"jsonb_array_length", ScalarFunction::kJsonArrayLength, 1, 1},
    {"json_array_length", ScalarFunction::kJsonArrayLength, 1, 1},
    {"jsonb_pretty", ScalarFunction::kJsonPretty, 1, 1},
    {"justify_days", ScalarFunction::kJustifyDays, 1, 1},
    {"justify_hours", ScalarFunction::kJustifyHours, 1, 1},
    {"justify_interval", ScalarFunction::kJustifyInterval, 1, 1},
    {"pg_sleep", ScalarFunction::kPgSleep, 1, 1},
    {"pg_notify", ScalarFunction::kPgNotify, 2, 2},
    {"pg_sleep_for", ScalarFunction::kPgSleepFor, 1, 1},
    // Their name argument is bound as a regclass (bind_sequence.cc).
    {"nextval", ScalarFunction::kNextval, 1, 1},
    {"currval", ScalarFunction::kCurrval, 1, 1},
    {"setval", ScalarFunction::kSetval, 2, 3},
    {"lastval", ScalarFunction::kLastval, 0, 0},
    {"pg_advisory_lock", ScalarFunction::kAdvisoryLock, 1, 2},
    {"pg_advisory_lock_shared", ScalarFunction::kAdvisoryLockShared, 1, 2},
    {"pg_advisory_xact_lock", ScalarFunction::kAdvisoryXactLock, 1, 2},
    {"pg_advisory_xact_lock_shared", ScalarFunction::kAdvisoryXactLockShared, 1, 2},
    {"pg_try_advisory_lock", ScalarFunction::kTryAdvisoryLock, 1, 2},
    {"pg_try_advisory_lock_shared", ScalarFunction::kTryAdvisoryLockShared, 1, 2},
    {"pg_try_advisory_xact_lock", ScalarFunction::kTryAdvisoryXactLock, 1, 2},
    {"pg_try_advisory_xact_lock_shared", ScalarFunction::kTryAdvisoryXactLockShared, 1, 2},
    {"pg_advisory_unlock", ScalarFunction::kAdvisoryUnlock, 1, 2},
    {"pg_advisory_unlock_shared", ScalarFunction::kAdvisoryUnlockShared, 1, 2},
    {"pg_advisory_unlock_all", ScalarFunction::kAdvisoryUnlockAll, 0, 0},
};

bool IsSequenceFunction(ScalarFunction f) {
  return f == ScalarFunction::kNextval || f == ScalarFunction::kCurrval || f == ScalarFunction::kSetval ||
         f == ScalarFunction::kLastval;
}

}  // namespace

constexpr std::string_view kAggregateNames[] = {"count",   "sum",     "min",   "max",      "avg",
                                                "string_agg", "bool_and", "bool_or", "every", "array_agg"};

bool Binder::IsAggregateName(const std::string& name) {
  return std::find(std::begin(kAggregateNames), std::end(kAggregateNames), name) != std::end(kAggregateNames);
}

std::vector<std::string_view> Binder::BuiltinFunctionNames() {
  std::vector<std::string_view> out(std::begin(kAggregateNames), std::end(kAggregateNames));
  for (const FunctionInfo& f : kFunctions) out.push_back(f.name);
  out.push_back("pg_get_serial_sequence");
  AddArrayFunctionNames(&out);
  AddStringFunctionNames(&out);
  AddCatalogFunctionNames(&out);
  AddTableFunctionNames(&out);
  AddWindowFunctionNames(&out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string_view Binder::FunctionName(ScalarFunction function) {
  for (const FunctionInfo& f : kFunctions) {
    if (f.function == function) return f.name;
  }
  std::string_view name = ArrayFunctionName(function);
  return name.empty() ? CatalogFunctionName(function) : name;
}

bool Binder::IsScalarFunctionName(const std::string& name) {
  return std::any_of(std::begin(kFunctions), std::end(kFunctions), [&](const FunctionInfo& f) { return name == f.name; });
}

Status Binder::BindAggregate(const Expr& e, Context& ctx, BoundExprPtr* out) {
  if (ctx.agg_plan == nullptr) {
    return Status(sqlstate::kGroupingError, std::string("aggregate functions are not allowed in ") + ctx.clause,
                  Pos(e.location));
  }
  if (ctx.in_aggregate) {
    return Status(sqlstate::kGroupingError, "aggregate function calls cannot be nested", Pos(e.location));
  }
  AggregateSpec spec;
  PL_RETURN_IF_ERROR(BindAggregateSpec(e, ctx, false, &spec));
  int slot = static_cast<int>(ctx.agg_plan->group_by.size() + ctx.agg_plan->aggregates.size());
  // Reuse an identical aggregate (SELECT sum(x) ... HAVING sum(x) > 0).
  for (size_t i = 0; i < ctx.agg_plan->aggregates.size(); ++i) {
    const AggregateSpec& other = ctx.agg_plan->aggregates[i];
    auto same = [](const BoundExprPtr& a, const BoundExprPtr& b) { return (!a && !b) || (a && b && a->Equals(*b)); };
    if (other.kind == spec.kind && other.distinct == spec.distinct && same(other.arg, spec.arg) &&
        same(other.separator, spec.separator) && spec.order.empty() && other.order.empty()) {
      slot = static_cast<int>(ctx.agg_plan->group_by.size() + i);
      *out = BoundExpr::Slot(slot, other.type);
      return Status::OK();
    }
  }
  *out = BoundExpr::Slot(slot, spec.type);
  (*out)->location = e.location;
  ctx.agg_plan->aggregates.push_back(std::move(spec));
  ctx.agg_plan->aggregate = true;
  return Status::OK();
}

Status Binder::BindAggregateSpec(const Expr& e, Context& ctx, bool over, AggregateSpec* out) {
  AggregateSpec& spec = *out;
  spec.distinct = e.distinct;
  // An aggregate's arguments hold no aggregate; a window aggregate's may
  // (they are computed over the groups).
  bool& nested = over ? ctx.in_window : ctx.in_aggregate;
  const std::string& name = e.function_name;
  if (e.star) {
    if (name != "count") return SyntaxError(name + "(*) is not allowed; only count(*)", Pos(e.location));
    spec.kind = AggregateKind::kCountStar;
    spec.type = Type(TypeId::kInt64);
  } else {
    const size_t arity = name == "string_agg" ? 2 : 1;
    if (e.list.size() != arity) {
      return Status(sqlstate::kUndefinedFunction,
                    "function " + name + " with " + std::to_string(e.list.size()) + " arguments does not exist",
                    Pos(e.location));
    }
    nested = true;
    Status s = BindExpr(*e.list[0], ctx, &spec.arg);
    nested = false;
    PL_RETURN_IF_ERROR(s);
    const Type& t = spec.arg->type;
    if (name == "string_agg") {
      // string_agg(text, text): NULLs skipped, the row's separator before
      // every value but the first.
      spec.kind = AggregateKind::kStringAgg;
      spec.type = Type(TypeId::kText);
      nested = true;
      Status sep = BindExpr(*e.list[1], ctx, &spec.separator);
      nested = false;
      PL_RETURN_IF_ERROR(sep);
      auto text_like = [](const BoundExpr& a) { return IsUnknown(a) || a.type.IsString(); };
      if (!text_like(*spec.arg) || !text_like(*spec.separator)) {
        return Status(sqlstate::kUndefinedFunction,
                      "function string_agg(" + TypeText(spec.arg->type) + ", " + TypeText(spec.separator->type) +
                          ") does not exist",
                      Pos(e.location));
      }
      PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kText), false, e.location));
      PL_RETURN_IF_ERROR(Coerce(&spec.separator, Type(TypeId::kText), false, e.location));
    } else if (name == "array_agg") {
      // array_agg(x): every value, NULLs included; NULL over no rows.
      spec.kind = AggregateKind::kArrayAgg;
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kText), false, e.location));
      if (spec.arg->type.IsArray()) return NotSupported("array_agg of arrays (multidimensional arrays)");
      spec.type = Type::Array(Type(spec.arg->type.id));
    } else if (name == "bool_and" || name == "bool_or" || name == "every") {
      spec.kind = name == "bool_or" ? AggregateKind::kBoolOr : AggregateKind::kBoolAnd;
      spec.type = Type(TypeId::kBool);
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kBool), false, e.location));
      if (spec.arg->type.id != TypeId::kBool) {
        return Status(sqlstate::kUndefinedFunction,
                      "function " + name + "(" + TypeText(spec.arg->type) + ") does not exist", Pos(e.location));
      }
    } else if (name == "count") {
      spec.kind = AggregateKind::kCount;
      spec.type = Type(TypeId::kInt64);
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kText), false, e.location));
    } else if (name == "min" || name == "max") {
      spec.kind = name == "min" ? AggregateKind::kMin : AggregateKind::kMax;
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kText), false, e.location));
      // PostgreSQL has bool_and/bool_or instead; uuid and json[b] have no min/max in 15.
      const TypeId a = spec.arg->type.id;
      if (a == TypeId::kBool || a == TypeId::kUuid || a == TypeId::kJson || a == TypeId::kJsonb) {
        return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + TypeText(spec.arg->type) + ") does not exist",
                      Pos(e.location));
      }
      spec.type = spec.arg->type;
    } else {
      spec.kind = name == "sum" ? AggregateKind::kSum : AggregateKind::kAvg;
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kNumeric), false, e.location));
      if (spec.arg->type.id == TypeId::kInterval) {  // interval sums field by field; avg divides the sum
        spec.type = spec.arg->type;
      } else if (!spec.arg->type.IsNumber()) {
        return Status(sqlstate::kUndefinedFunction,
                      "function " + name + "(" + TypeText(spec.arg->type) + ") does not exist", Pos(e.location));
      } else if (spec.kind == AggregateKind::kSum) {
        if (t.id == TypeId::kInt16 || t.id == TypeId::kInt32) spec.type = Type(TypeId::kInt64);
        else if (t.id == TypeId::kInt64 || t.id == TypeId::kNumeric) spec.type = Type(TypeId::kNumeric);
        else spec.type = Type(spec.arg->type.id);
      } else {
        spec.type = spec.arg->type.IsFloat() ? Type(TypeId::kFloat64) : Type(TypeId::kNumeric);
      }
    }
  }
  for (const OrderItem& o : e.agg_order) {
    SortKey key;
    nested = true;
    Status s = BindExpr(*o.expr, ctx, &key.expr);
    nested = false;
    PL_RETURN_IF_ERROR(s);
    if (IsUnknown(*key.expr)) PL_RETURN_IF_ERROR(Coerce(&key.expr, Type(TypeId::kText), false, e.location));
    if (spec.distinct && !key.expr->Equals(*spec.arg)) {
      return Status(sqlstate::kInvalidColumnReference,
                    "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
                    Pos(o.expr->location));
    }
    key.descending = o.descending;
    key.nulls_first = o.nulls_first.value_or(o.descending);
    spec.order.push_back(std::move(key));
  }
  return Status::OK();
}

Status Binder::BindFunction(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::string& name = e.function_name;
  if (e.over) return BindWindowFunction(e, ctx, out);
  if (IsAggregateName(name)) return BindAggregate(e, ctx, out);
  if (!e.agg_order.empty()) {
    return Status(sqlstate::kWrongObjectType,
                  "ORDER BY specified, but " + name + " is not an aggregate function", Pos(e.location));
  }
  if (IsArrayFunction(name) && !e.distinct && !e.star) return BindArrayFunction(e, ctx, out);
  if (IsStringFunction(name) && !e.distinct && !e.star) return BindStringFunction(e, ctx, out);
  if (!e.distinct && !e.star) {
    for (const auto& f : kFunctions) {
      if (name == f.name && IsSequenceFunction(f.function)) {
        return BindSequenceFunction(e, ctx, f.function, static_cast<size_t>(f.min_args), static_cast<size_t>(f.max_args),
                                    out);
      }
    }
  }
  if (name == "pg_get_serial_sequence" && !e.distinct && !e.star) return BindSerialSequence(e, ctx, out);
  if (IsCatalogFunctionName(name) && !e.distinct && !e.star) return BindCatalogFunction(e, ctx, out);
  if (IsTableFunctionName(name)) return NotSupported(name + " in the select list (use FROM " + name + "(...))");
  if (e.distinct || e.star) {
    return SyntaxError("DISTINCT or * specified, but " + name + " is not an aggregate function", Pos(e.location));
  }
  std::vector<BoundExprPtr> args;
  for (const auto& a : e.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, ctx, &b));
    args.push_back(std::move(b));
  }
  const FunctionInfo* info = nullptr;
  for (const auto& f : kFunctions) {
    if (name == f.name && static_cast<int>(args.size()) >= f.min_args && static_cast<int>(args.size()) <= f.max_args) {
      info = &f;
    }
  }
  if (info == nullptr) {
    std::string sig;
    for (const auto& a : args) sig += (sig.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist", Pos(e.location));
  }
  auto node = MakeNode(BoundKind::kFunction, Type(), e.location);
  node->function = info->function;
  auto require_number = [&](BoundExprPtr& a) -> Status {
    if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kNumeric), false, e.location));
    if (!a->type.IsNumber()) {
      return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + TypeText(a->type) + ") does not exist",
                    Pos(e.location));
    }
    return Status::OK();
  };
  auto require_text = [&](BoundExprPtr& a) -> Status {
    if (IsUnknown(*a)) return Coerce(&a, Type(TypeId::kText), false, e.location);
    if (!a->type.IsString()) {
      std::string sig;
      for (const auto& x : args) sig += (sig.empty() ? "" : ", ") + TypeText(x->type);
      return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist", Pos(e.location));
    }
    return Status::OK();
  };
  switch (info->function) {
    case ScalarFunction::kNow:
      node->type = Type(name == "localtimestamp" ? TypeId::kTimestamp : TypeId::kTimestampTz);
      break;
    case ScalarFunction::kCurrentDate:
      node->type = Type(TypeId::kDate);
      break;
    case ScalarFunction::kRandom:
      node->type = Type(TypeId::kFloat64);
      break;
    case ScalarFunction::kClockTimestamp:
      node->type = Type(TypeId::kTimestampTz);
      break;
    case ScalarFunction::kDateTrunc: case ScalarFunction::kExtract: case ScalarFunction::kDatePart: {
      // (field text, date | timestamp | timestamptz | interval); an untyped
      // value is timestamptz; date_trunc and date_part read a date as its
      // midnight.
      BoundExprPtr& value = args[1];
      if (!value->type.IsTemporal() && value->type.id != TypeId::kInterval && !IsUnknown(*value)) {
        return Status(sqlstate::kUndefinedFunction,
                      "function " + name + "(" + TypeText(args[0]->type) + ", " + TypeText(value->type) +
                          ") does not exist",
                      Pos(e.location));
      }
      PL_RETURN_IF_ERROR(require_text(args[0]));
      if (IsUnknown(*value)) PL_RETURN_IF_ERROR(Coerce(&value, Type(TypeId::kTimestampTz), false, e.location));
      if (value->type.id == TypeId::kDate && info->function != ScalarFunction::kExtract) {
        Type as = Type(info->function == ScalarFunction::kDateTrunc ? TypeId::kTimestampTz : TypeId::kTimestamp);
        PL_RETURN_IF_ERROR(Coerce(&value, as, false, e.location));
      }
      node->type = info->function == ScalarFunction::kDateTrunc ? Type(value->type.id)
                   : info->function == ScalarFunction::kExtract ? Type(TypeId::kNumeric)
                                                                 : Type(TypeId::kFloat64);
      break;
    }
    case ScalarFunction::kGenRandomUuid:
      node->type = Type(TypeId::kUuid);
      break;
    case ScalarFunction::kPgNotify:  // pg_notify(text, text)
      for (auto& a : args) PL_RETURN_IF_ERROR(require_text(a));
      node->type = Type(TypeId::kVoid);
      break;
    case ScalarFunction::kJustifyDays: case ScalarFunction::kJustifyHours: case ScalarFunction::kJustifyInterval:
    case ScalarFunction::kPgSleep: case ScalarFunction::kPgSleepFor:
      PL_RETURN_IF_ERROR(BindIntervalFunction(name, args, node.get(), e.location));
      break;
    case ScalarFunction::kJsonGet: case ScalarFunction::kJsonGetText: case ScalarFunction::kJsonPath:
    case ScalarFunction::kJsonPathText: case ScalarFunction::kJsonContains: case ScalarFunction::kJsonExists:
    case ScalarFunction::kJsonConcat: case ScalarFunction::kJsonBuildObject: case ScalarFunction::kJsonBuildArray:
    case ScalarFunction::kJsonSet: case ScalarFunction::kToJson: case ScalarFunction::kJsonTypeof:
    case ScalarFunction::kJsonArrayLength: case ScalarFunction::kJsonPretty:
      PL_RETURN_IF_ERROR(BindJsonFunction(name, args, node.get(), e.location));
      break;
    case ScalarFunction::kCoalesce: case ScalarFunction::kGreatest: case ScalarFunction::kLeast:
    case ScalarFunction::kNullIf: {
      std::vector<const BoundExpr*> all;
      for (const auto& a : args) all.push_back(a.get());
      if (info->function == ScalarFunction::kNullIf) all.resize(1);
      const char* context = info->function == ScalarFunction::kCoalesce ? "COALESCE"
                            : info->function == ScalarFunction::kGreatest ? "GREATEST"
                            : info->function == ScalarFunction::kLeast    ? "LEAST"
                                                                          : "NULLIF";
      PL_RETURN_IF_ERROR(CommonType(all, context, e.location, &node->type));
      for (auto& a : args) PL_RETURN_IF_ERROR(Coerce(&a, node->type, false, e.location));
      break;
    }
    case ScalarFunction::kAbs: case ScalarFunction::kFloor: case ScalarFunction::kCeil:
      PL_RETURN_IF_ERROR(require_number(args[0]));
      node->type = info->function == ScalarFunction::kAbs ? Type(args[0]->type.id)
                   : args[0]->type.IsFloat()              ? Type(TypeId::kFloat64)
                                                          : Type(TypeId::kNumeric);
      break;
    case ScalarFunction::kRound: case ScalarFunction::kTrunc:
      PL_RETURN_IF_ERROR(require_number(args[0]));
      if (args.size() > 1) PL_RETURN_IF_ERROR(Coerce(&args[1], Type(TypeId::kInt32), false, e.location));
      node->type = (args[0]->type.IsFloat() && args.size() == 1) ? Type(TypeId::kFloat64) : Type(TypeId::kNumeric);
      if (args[0]->type.IsFloat() && args.size() > 1) PL_RETURN_IF_ERROR(Coerce(&args[0], Type(TypeId::kNumeric), false, e.location));
      break;
    case ScalarFunction::kLower: case ScalarFunction::kUpper: case ScalarFunction::kTrim: case ScalarFunction::kLtrim:
    case ScalarFunction::kRtrim:
      for (auto& a : args) PL_RETURN_IF_ERROR(require_text(a));
      node->type = Type(TypeId::kText);
      break;
    case ScalarFunction::kLength: case ScalarFunction::kOctetLength:
      // length(bytea) counts bytes, as octet_length of either does;
      // char_length is for text only.
      if (args[0]->type.id == TypeId::kBytea && name != "char_length" && name != "character_length") {
        node->function = ScalarFunction::kOctetLength;
      } else {
        PL_RETURN_IF_ERROR(require_text(args[0]));
      }
      node->type = Type(TypeId::kInt32);
      break;
    case ScalarFunction::kSubstr:
      PL_RETURN_IF_ERROR(require_text(args[0]));
      for (size_t i = 1; i < args.size(); ++i) PL_RETURN_IF_ERROR(Coerce(&args[i], Type(TypeId::kInt32), false, e.location));
      node->type = Type(TypeId::kText);
      break;
    case ScalarFunction::kPower: case ScalarFunction::kSqrt:
      for (auto& a : args) PL_RETURN_IF_ERROR(require_number(a));
      node->type = Type(TypeId::kFloat64);
      break;
    case ScalarFunction::kMod:
      for (auto& a : args) PL_RETURN_IF_ERROR(require_number(a));
      node->type = PromoteNumbers(args[0]->type, args[1]->type);
      break;
    default:  // the advisory lock functions (one run of the enum); the array functions: BindArrayFunction
      if (!IsAdvisoryLockFunction(info->function)) return InternalError("array function bound as a scalar function");
      PL_RETURN_IF_ERROR(BindAdvisoryLockFunction(name, args, node.get(), e.location));
      break;
  }
  node->children = std::move(args);
  *out = std::move(node);
  return Status::OK();
}

}  // namespace paceline::sql
