// Binder: arrays (see binder.h, binder_internal.h): ARRAY[..], subscripts,
// x op ANY/ALL (array), the array functions and operators (@>, <@, && as
// arraycontains, arraycontained, arrayoverlap), array || array / element,
// and unnest(array) in FROM. Element types are resolved as PostgreSQL
// resolves its polymorphic anyarray/anyelement arguments: an untyped
// argument takes its type from the other one.
#include "sql/binder_internal.h"

#include "common/array_value.h"
#include "sql/expression_evaluator.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// What each array function takes: 'a' an array, 'e' its element, 'i' an
// integer, 't' text; the result: 'a' the array type, 'i' int4, 'b' bool,
// 't' text, 'T' text[].
struct ArrayFunctionInfo {
  const char* name;
  ScalarFunction function;
  const char* args;      // the longest argument list
  size_t min_args;
  char result;
};

constexpr ArrayFunctionInfo kArrayFunctions[] = {
    {"cardinality", ScalarFunction::kCardinality, "a", 1, 'i'},
    {"array_length", ScalarFunction::kArrayLength, "ai", 2, 'i'},
    {"array_upper", ScalarFunction::kArrayUpper, "ai", 2, 'i'},
    {"array_lower", ScalarFunction::kArrayLower, "ai", 2, 'i'},
    {"array_ndims", ScalarFunction::kArrayNdims, "a", 1, 'i'},
    {"array_position", ScalarFunction::kArrayPosition, "aei", 2, 'i'},
    {"array_append", ScalarFunction::kArrayAppend, "ae", 2, 'a'},
    {"array_prepend", ScalarFunction::kArrayPrepend, "ea", 2, 'a'},
    {"array_cat", ScalarFunction::kArrayCat, "aa", 2, 'a'},
    {"array_remove", ScalarFunction::kArrayRemove, "ae", 2, 'a'},
    {"array_to_string", ScalarFunction::kArrayToString, "att", 2, 't'},
    {"string_to_array", ScalarFunction::kStringToArray, "ttt", 2, 'T'},
    {"arraycontains", ScalarFunction::kArrayContains, "aa", 2, 'b'},
    {"arraycontained", ScalarFunction::kArrayContained, "aa", 2, 'b'},
    {"arrayoverlap", ScalarFunction::kArrayOverlap, "aa", 2, 'b'},
};

const char* OperatorOf(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kArrayContains: return "@>";
    case ScalarFunction::kArrayContained: return "<@";
    case ScalarFunction::kArrayOverlap: return "&&";
    default: return nullptr;
  }
}

// The array type of `element` without modifiers (as operators see it).
Type PlainArray(const Type& element) { return Type::Array(Type(element.id)); }

}  // namespace

namespace bind {

void AddArrayFunctionNames(std::vector<std::string_view>* out) {
  for (const auto& f : kArrayFunctions) out->push_back(f.name);
}

}  // namespace bind

bool Binder::IsArrayFunction(const std::string& name) {
  for (const auto& f : kArrayFunctions) {
    if (name == f.name) return true;
  }
  return false;
}

Status Binder::BindArrayConstructor(const Expr& e, Context& ctx, const Type* cast_to, BoundExprPtr* out) {
  std::vector<BoundExprPtr> items;
  std::vector<const BoundExpr*> all;
  for (const auto& item : e.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*item, ctx, &b));
    if (b->type.IsArray()) return NotSupported("multidimensional arrays");
    all.push_back(b.get());
    items.push_back(std::move(b));
  }
  Type element;
  if (cast_to != nullptr && cast_to->IsArray()) {
    element = cast_to->ElementType();
  } else if (items.empty()) {
    return Status(sqlstate::kIndeterminateDatatype, "cannot determine type of empty array", Pos(e.location))
        .WithDetail("Explicitly cast to the desired type, for example ARRAY[]::integer[].");
  } else {
    PL_RETURN_IF_ERROR(CommonType(all, "ARRAY", e.location, &element));
  }
  for (auto& item : items) {
    PL_RETURN_IF_ERROR(Coerce(&item, element, cast_to != nullptr, item->location));
  }
  auto node = MakeNode(BoundKind::kArray, Type::Array(element), e.location);
  node->children = std::move(items);
  *out = FoldConstant(std::move(node));  // ARRAY[1, 2] is one constant
  return Status::OK();
}

bool Binder::IsNameColumn(const BoundExpr& e, const Context& ctx) const {
  if (e.kind != BoundKind::kColumn && e.kind != BoundKind::kOuterColumn) return false;
  const Context* level = &ctx;
  for (int d = e.kind == BoundKind::kOuterColumn ? e.depth : 0; d > 0 && level != nullptr; --d) level = level->outer;
  if (level == nullptr) return false;
  for (const ScopeEntry& entry : level->scope) {
    if (entry.source != e.source || entry.derived == nullptr) continue;
    const SystemRelation* system = entry.derived->function.system;
    return entry.derived->function.kind == TableFunctionKind::kSystemRelation && system != nullptr &&
           e.index >= 0 && static_cast<size_t>(e.index) < system->name_columns.size() &&
           system->name_columns[e.index];
  }
  return false;
}

Status Binder::BindSubscript(const Expr& e, Context& ctx, BoundExprPtr* out) {
  BoundExprPtr array, index;
  PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &array));
  PL_RETURN_IF_ERROR(BindExpr(*e.right, ctx, &index));
  if (!array->type.IsArray() && IsNameColumn(*array, ctx)) {
    // PostgreSQL's name is an array of 64 characters, subscripted from 0:
    // typname[0] is its first character ("char", text here).
    PL_RETURN_IF_ERROR(Coerce(&index, Type(TypeId::kInt32), false, e.right->location));
    *out = MakeNode(BoundKind::kSubscript, Type(TypeId::kText), e.location);
    (*out)->children.push_back(std::move(array));
    (*out)->children.push_back(std::move(index));
    return Status::OK();
  }
  if (!array->type.IsArray()) {
    return Status(sqlstate::kDatatypeMismatch,
                  "cannot subscript type " + TypeText(array->type) + " because it does not support subscripting",
                  Pos(e.location));
  }
  if (!IsUnknown(*index) && !index->type.IsInteger()) {
    return Status(sqlstate::kDatatypeMismatch, "array subscript must have type integer", Pos(e.right->location));
  }
  PL_RETURN_IF_ERROR(Coerce(&index, Type(TypeId::kInt32), false, e.right->location));
  *out = MakeNode(BoundKind::kSubscript, array->type.ElementType(), e.location);
  (*out)->children.push_back(std::move(array));
  (*out)->children.push_back(std::move(index));
  return Status::OK();
}

Status Binder::BindArrayCompare(const Expr& e, Context& ctx, BoundExprPtr* out) {
  BoundExprPtr left, array;
  PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &left));
  PL_RETURN_IF_ERROR(BindExpr(*e.right, ctx, &array));
  // An untyped array ('{1,2}', $1) is an array of the left side's type.
  if (IsUnknown(*array)) {
    if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kText), false, e.location));
    PL_RETURN_IF_ERROR(Coerce(&array, PlainArray(left->type), false, e.location));
  }
  if (!array->type.IsArray()) {
    return Status(sqlstate::kWrongObjectType,
                  std::string("op ") + (e.subquery_kind == SubqueryKind::kAll ? "ALL" : "ANY") +
                      "/ALL (array) requires array on right side",
                  Pos(e.location));
  }
  const Type element = array->type.ElementType();
  if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, OperandType(element), false, e.location));
  if (!Comparable(left->type, element)) {
    return NoSuchOperator(left->type, OperatorText(e.binary_op), element, e.location);
  }
  *out = MakeNode(BoundKind::kArrayCompare, Type(TypeId::kBool), e.location);
  (*out)->op = e.binary_op;
  (*out)->negated = e.subquery_kind == SubqueryKind::kAll;
  (*out)->children.push_back(std::move(left));
  (*out)->children.push_back(std::move(array));
  return Status::OK();
}

Status Binder::BindArrayFunction(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::string& name = e.function_name;
  std::vector<BoundExprPtr> args;
  for (const auto& a : e.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, ctx, &b));
    args.push_back(std::move(b));
  }
  auto signature = [&] {
    std::string sig;
    for (const auto& a : args) sig += (sig.empty() ? "" : ", ") + TypeText(a->type);
    return sig;
  };
  auto no_such = [&] {
    const ArrayFunctionInfo* f = nullptr;
    for (const auto& g : kArrayFunctions) {
      if (name == g.name) f = &g;
    }
    if (f != nullptr && args.size() == 2 && OperatorOf(f->function) != nullptr) {
      return NoSuchOperator(args[0]->type, OperatorOf(f->function), args[1]->type, e.location);
    }
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + signature() + ") does not exist",
                  Pos(e.location));
  };
  // `@>` and `<@` arrive here (the parser names them as array functions);
  // between jsonb values they are jsonb containment.
  if ((name == "arraycontains" || name == "arraycontained") && args.size() == 2) {
    auto jsonb = [](const BoundExpr& a) { return a.type.id == TypeId::kJsonb; };
    auto jsonb_or_unknown = [&](const BoundExpr& a) { return jsonb(a) || IsUnknown(a); };
    if ((jsonb(*args[0]) || jsonb(*args[1])) && jsonb_or_unknown(*args[0]) && jsonb_or_unknown(*args[1])) {
      const BinaryOp op = name == "arraycontains" ? BinaryOp::kContains : BinaryOp::kContainedBy;
      return BindJsonOperator(op, std::move(args[0]), std::move(args[1]), e.location, out);
    }
  }
  const ArrayFunctionInfo* info = nullptr;
  for (const auto& f : kArrayFunctions) {
    if (name == f.name && args.size() >= f.min_args && args.size() <= std::string_view(f.args).size()) info = &f;
  }
  if (info == nullptr) return no_such();
  // The array type: from a typed array argument, else from a typed element.
  Type array_type;
  for (size_t i = 0; i < args.size(); ++i) {
    if (info->args[i] == 'a' && args[i]->type.IsArray() && array_type.id == TypeId::kUnknown) {
      array_type = PlainArray(args[i]->type.ElementType());
    }
  }
  for (size_t i = 0; i < args.size() && array_type.id == TypeId::kUnknown; ++i) {
    if (info->args[i] == 'e' && !IsUnknown(*args[i])) {
      if (args[i]->type.IsArray()) return NotSupported("multidimensional arrays");
      array_type = PlainArray(args[i]->type);
    }
  }
  const bool polymorphic = std::string_view(info->args).find_first_of("ae") != std::string_view::npos;
  if (polymorphic && array_type.id == TypeId::kUnknown) {
    for (const auto& a : args) {
      if (!IsUnknown(*a)) return no_such();  // an argument that is no array where one is needed
    }
    return Status(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown",
                  Pos(e.location));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    BoundExprPtr& a = args[i];
    switch (info->args[i]) {
      case 'a':
        if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, array_type, false, e.location));
        if (!a->type.IsArray() || !Comparable(a->type.ElementType(), array_type.ElementType())) return no_such();
        break;
      case 'e':
        if (IsUnknown(*a) || Comparable(a->type, array_type.ElementType())) {
          PL_RETURN_IF_ERROR(Coerce(&a, array_type.ElementType(), false, e.location));
        } else {
          return no_such();
        }
        break;
      case 'i':
        if (!IsUnknown(*a) && !a->type.IsInteger()) return no_such();
        PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kInt32), false, e.location));
        break;
      default:  // 't'
        if (!IsUnknown(*a) && !a->type.IsString()) return no_such();
        PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kText), false, e.location));
        break;
    }
  }
  Type result;
  switch (info->result) {
    case 'a': result = array_type; break;
    case 'i': result = Type(TypeId::kInt32); break;
    case 'b': result = Type(TypeId::kBool); break;
    case 't': result = Type(TypeId::kText); break;
    default: result = Type::Array(Type(TypeId::kText)); break;
  }
  auto node = MakeNode(BoundKind::kFunction, result, e.location);
  node->function = info->function;
  node->children = std::move(args);
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindArrayConcat(BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out) {
  // array || array, array || element, element || array; an untyped side
  // beside an array is an array of its type ('{3}'), as PostgreSQL takes it.
  if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, OperandType(right->type), false, location));
  if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, OperandType(left->type), false, location));
  const bool la = left->type.IsArray(), ra = right->type.IsArray();
  const Type element = la ? left->type.ElementType() : right->type.ElementType();
  auto mismatch = [&] {
    return NoSuchOperator(left->type, "||", right->type, location);
  };
  ScalarFunction f;
  if (la && ra) {
    if (!Comparable(element, right->type.ElementType())) return mismatch();
    f = ScalarFunction::kArrayCat;
  } else if (la) {
    if (!Comparable(element, right->type)) return mismatch();
    PL_RETURN_IF_ERROR(Coerce(&right, OperandType(element), false, location));
    f = ScalarFunction::kArrayAppend;
  } else {
    if (!Comparable(element, left->type)) return mismatch();
    PL_RETURN_IF_ERROR(Coerce(&left, OperandType(element), false, location));
    f = ScalarFunction::kArrayPrepend;
  }
  auto node = MakeNode(BoundKind::kFunction, PlainArray(element), location);
  node->function = f;
  node->children.push_back(std::move(left));
  node->children.push_back(std::move(right));
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindUnnestSource(const FromItem& item, Context& inner, DerivedPlan* derived) {
  const Expr& call = *item.function;
  if (call.star || call.distinct || call.list.empty()) {
    return Status(sqlstate::kUndefinedFunction, "function " + call.function_name + "() does not exist",
                  Pos(call.location));
  }
  if (call.list.size() > 1) return NotSupported(call.function_name + " with more than one argument");
  BoundExprPtr array;
  PL_RETURN_IF_ERROR(BindExpr(*call.list[0], inner, &array));
  if (IsUnknown(*array)) {
    return Status(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown",
                  Pos(call.location));
  }
  if (!array->type.IsArray()) {
    return Status(sqlstate::kUndefinedFunction,
                  "function " + call.function_name + "(" + TypeText(array->type) + ") does not exist",
                  Pos(call.location));
  }
  derived->columns.push_back({ScalarFunctionColumn(item), array->type.ElementType()});
  derived->function.args.push_back(std::move(array));
  return Status::OK();
}

std::string_view Binder::ArrayFunctionName(ScalarFunction function) {
  for (const auto& f : kArrayFunctions) {
    if (f.function == function) return f.name;
  }
  return "";
}

}  // namespace paceline::sql
