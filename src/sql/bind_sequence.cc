// Binder: nextval, currval, setval, lastval and pg_get_serial_sequence (see
// binder.h).
//
// The name argument is what PostgreSQL types regclass: a string constant
// ('s', or 's'::regclass as pg_dump and Django write it) is resolved while
// binding, so a missing sequence is reported at PREPARE as PostgreSQL does;
// any other text expression is resolved when the call runs. The sequence's
// name joins RelationsNamed (a view that calls nextval depends on it) but
// not TablesUsed: a sequence is no table, so no table gate or lock is taken
// for it and it is never a reference for the scheduler.
#include "sql/binder_internal.h"

#include <algorithm>

#include "sql/sequence_access.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

Status Binder::BindSequenceFunction(const Expr& e, Context& ctx, ScalarFunction function, size_t min_args,
                                    size_t max_args, BoundExprPtr* out) {
  auto node = MakeNode(BoundKind::kFunction, Type(TypeId::kInt64), e.location);
  node->function = function;
  std::vector<BoundExprPtr> args;
  std::string name_type;  // the name argument's type as an error names it
  for (size_t i = 0; i < e.list.size(); ++i) {
    const Expr* arg = e.list[i].get();
    if (i == 0 && arg->kind == ExprKind::kCast && arg->cast_type.name == "regclass" && !arg->cast_type.is_array) {
      arg = arg->left.get();
      name_type = "regclass";
    }
    if (i == 0 && arg->kind == ExprKind::kLiteral && arg->literal_kind == LiteralKind::kString) {
      std::string name;
      PL_RETURN_IF_ERROR(SequenceNameFromText(arg->text, &name).WithPosition(Pos(arg->location)));
      std::shared_ptr<catalog::Sequence> sequence;
      PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence).WithPosition(Pos(arg->location)));
      relations_named_.push_back(name);
      if (name_type.empty()) name_type = "unknown";
      args.push_back(BoundExpr::Constant(Value::Text(name), Type(TypeId::kText)));
      node->index = 0;
      continue;
    }
    BoundExprPtr bound;
    PL_RETURN_IF_ERROR(BindExpr(*arg, ctx, &bound));
    args.push_back(std::move(bound));
    if (i == 0) node->index = -1;
  }
  auto no_such_function = [&] {
    std::string sig;
    for (size_t i = 0; i < args.size(); ++i) {
      sig += (i == 0 ? "" : ", ") + (i == 0 && !name_type.empty() ? name_type : TypeText(args[i]->type));
    }
    return Status(sqlstate::kUndefinedFunction, "function " + e.function_name + "(" + sig + ") does not exist",
                  Pos(e.location));
  };
  if (args.size() < min_args || args.size() > max_args) return no_such_function();
  // The name is text; setval's value bigint and its is_called boolean.
  const Type wanted[] = {Type(TypeId::kText), Type(TypeId::kInt64), Type(TypeId::kBool)};
  for (size_t i = 0; i < args.size(); ++i) {
    BoundExprPtr& a = args[i];
    const bool fits = IsUnknown(*a) || (i == 0 ? a->type.IsString() : i == 1 ? a->type.IsInteger()
                                                                              : a->type.id == TypeId::kBool);
    if (!fits) return no_such_function();
    PL_RETURN_IF_ERROR(Coerce(&a, wanted[i], false, e.location));
  }
  if (sequence_write_ == nullptr && function == ScalarFunction::kNextval) sequence_write_ = "nextval()";
  if (sequence_write_ == nullptr && function == ScalarFunction::kSetval) sequence_write_ = "setval()";
  node->children = std::move(args);
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindSerialSequence(const Expr& e, Context& ctx, BoundExprPtr* out) {
  if (e.list.size() != 2) {
    std::string sig;
    for (size_t i = 0; i < e.list.size(); ++i) sig += i == 0 ? "unknown" : ", unknown";
    return Status(sqlstate::kUndefinedFunction, "function pg_get_serial_sequence(" + sig + ") does not exist",
                  Pos(e.location));
  }
  const bool constant = std::all_of(e.list.begin(), e.list.end(), [](const ExprPtr& arg) {
    return arg->kind == ExprKind::kLiteral && arg->literal_kind == LiteralKind::kString;
  });
  if (!constant) {
    // Names known only at run time (SQLAlchemy's reflection passes a
    // catalog column): evaluated per row against the session's catalog.
    std::vector<BoundExprPtr> args;
    for (const auto& a : e.list) {
      BoundExprPtr b;
      PL_RETURN_IF_ERROR(BindExpr(*a, ctx, &b));
      if (IsUnknown(*b)) PL_RETURN_IF_ERROR(Coerce(&b, Type(TypeId::kText), false, e.location));
      if (!b->type.IsString()) {
        return Status(sqlstate::kUndefinedFunction, "function pg_get_serial_sequence(" + TypeText(b->type) +
                                                        ") does not exist", Pos(e.location));
      }
      args.push_back(std::move(b));
    }
    auto node = MakeNode(BoundKind::kFunction, Type(TypeId::kText), e.location);
    node->function = ScalarFunction::kSerialSequence;
    node->children = std::move(args);
    *out = std::move(node);
    return Status::OK();
  }
  // Constant names: resolved now, the plan names the table (it is bound
  // again when the table changes).
  std::string table_name;
  PL_RETURN_IF_ERROR(SequenceNameFromText(e.list[0]->text, &table_name).WithPosition(Pos(e.list[0]->location)));
  Value name;
  PL_RETURN_IF_ERROR(SerialSequenceOf(*catalog_, e.list[0]->text, e.list[1]->text, &name));
  relations_named_.push_back(table_name);
  *out = BoundExpr::Constant(std::move(name), Type(TypeId::kText));
  (*out)->location = e.location;
  return Status::OK();
}

}  // namespace paceline::sql
