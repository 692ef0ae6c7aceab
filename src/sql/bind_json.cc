// Binder: the json and jsonb operators and functions (see binder.h). Each
// binds to a kFunction node whose ScalarFunction evaluate_json.cc runs; the
// node's type is json or jsonb after its input, as PostgreSQL's operators
// are declared:
//   json|jsonb -> text|int → same type     ->> → text
//   json|jsonb #> path     → same type     #>> → text    (path: a text[] literal '{a,1}')
//   jsonb @> jsonb, jsonb <@ jsonb, jsonb ? text → boolean
//   jsonb ?| text[], jsonb ?& text[] → boolean
//   jsonb || jsonb, jsonb - text|int|text[], jsonb #- text[] → jsonb
// An untyped literal operand takes the type the operator wants; another
// mix is 42883 `operator does not exist: json @> unknown`, as in PostgreSQL.
#include "sql/binder_internal.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

bool IsTextLike(const BoundExpr& e) { return IsUnknown(e) || e.type.IsString(); }
// text[] (varchar[] and char[] read alike).
bool IsTextArray(const BoundExpr& e) { return e.type.IsArray() && e.type.ElementType().IsString(); }

}  // namespace

namespace bind {

Status RequireOperators(const Type& t, bool ordering) {
  if (t.id != TypeId::kJson) return Status::OK();
  return Status(sqlstate::kUndefinedFunction, std::string("could not identify an ") +
                                                  (ordering ? "ordering" : "equality") + " operator for type json");
}

}  // namespace bind

Status Binder::BindJsonOperator(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out) {
  auto no_operator = [&]() {
    return NoSuchOperator(left->type, OperatorText(op), right->type, location);
  };
  const bool jsonb_only = op != BinaryOp::kJsonGet && op != BinaryOp::kJsonGetText && op != BinaryOp::kJsonPath &&
                          op != BinaryOp::kJsonPathText;
  if (IsUnknown(*left)) {
    // ?| is also the geometric types' operator: unique only beside a typed right side.
    if (!jsonb_only || (op == BinaryOp::kJsonExistsAny && IsUnknown(*right))) {
      return Status(sqlstate::kAmbiguousFunction,
                    "operator is not unique: unknown " + OperatorText(op) + " " + TypeText(right->type),
                    Pos(location));
    }
    PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kJsonb), false, location));
  }
  if (!left->type.IsJson() || (jsonb_only && left->type.id != TypeId::kJsonb)) return no_operator();
  ScalarFunction function = ScalarFunction::kJsonGet;
  Type result = Type(left->type.id);
  switch (op) {
    case BinaryOp::kJsonGet: case BinaryOp::kJsonGetText:
      if (right->type.id == TypeId::kInt16 || right->type.id == TypeId::kInt32) {
        PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kInt32), false, location));
      } else if (IsTextLike(*right)) {
        PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, location));
      } else {
        return no_operator();
      }
      function = op == BinaryOp::kJsonGet ? ScalarFunction::kJsonGet : ScalarFunction::kJsonGetText;
      if (op == BinaryOp::kJsonGetText) result = Type(TypeId::kText);
      break;
    case BinaryOp::kJsonPath: case BinaryOp::kJsonPathText:
      // The path is a text[] literal; until arrays exist it stays text and
      // is read by ParsePathLiteral at run time.
      if (!IsTextLike(*right)) return no_operator();
      PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, location));
      function = op == BinaryOp::kJsonPath ? ScalarFunction::kJsonPath : ScalarFunction::kJsonPathText;
      if (op == BinaryOp::kJsonPathText) result = Type(TypeId::kText);
      break;
    case BinaryOp::kContains: case BinaryOp::kContainedBy: case BinaryOp::kConcat:
      if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kJsonb), false, location));
      if (right->type.id != TypeId::kJsonb) return no_operator();
      if (op == BinaryOp::kContainedBy) std::swap(left, right);
      function = op == BinaryOp::kConcat ? ScalarFunction::kJsonConcat : ScalarFunction::kJsonContains;
      if (op != BinaryOp::kConcat) result = Type(TypeId::kBool);
      break;
    case BinaryOp::kJsonExists:
      if (!IsTextLike(*right)) return no_operator();
      PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, location));
      function = ScalarFunction::kJsonExists;
      result = Type(TypeId::kBool);
      break;
    case BinaryOp::kJsonExistsAny: case BinaryOp::kJsonExistsAll: case BinaryOp::kJsonDeletePath:
      if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, Type::Array(Type(TypeId::kText)), false, location));
      if (!IsTextArray(*right)) return no_operator();
      function = op == BinaryOp::kJsonExistsAny   ? ScalarFunction::kJsonExistsAny
                 : op == BinaryOp::kJsonExistsAll ? ScalarFunction::kJsonExistsAll
                                                  : ScalarFunction::kJsonDeletePath;
      if (op != BinaryOp::kJsonDeletePath) result = Type(TypeId::kBool);
      break;
    case BinaryOp::kSub:
      // jsonb - text (an untyped literal is text), jsonb - int4 (int2
      // widens; int8 does not), jsonb - text[].
      if (right->type.id == TypeId::kInt16 || right->type.id == TypeId::kInt32) {
        PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kInt32), false, location));
      } else if (IsTextLike(*right)) {
        PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, location));
      } else if (!IsTextArray(*right)) {
        return no_operator();
      }
      function = ScalarFunction::kJsonDelete;
      break;
    default:
      return no_operator();
  }
  *out = MakeNode(BoundKind::kFunction, result, location);
  (*out)->function = function;
  (*out)->children.push_back(std::move(left));
  (*out)->children.push_back(std::move(right));
  return Status::OK();
}

Status Binder::BindJsonFunction(const std::string& name, std::vector<BoundExprPtr>& args, BoundExpr* node,
                                int location) {
  const bool jsonb = name.starts_with("jsonb") || name == "to_jsonb";
  const TypeId json_type = jsonb ? TypeId::kJsonb : TypeId::kJson;
  auto no_function = [&]() {
    std::string sig;
    for (const auto& a : args) sig += (sig.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist", Pos(location));
  };
  // An argument of type `t` (an untyped literal becomes one).
  auto require = [&](BoundExprPtr& a, TypeId t) -> Status {
    if (IsUnknown(*a) || (t == TypeId::kText && a->type.IsString())) return Coerce(&a, Type(t), false, location);
    return a->type.id == t ? Status::OK() : no_function();
  };
  switch (node->function) {
    case ScalarFunction::kJsonBuildObject: case ScalarFunction::kJsonBuildArray: case ScalarFunction::kToJson:
      // Any argument type; untyped literals are text.
      for (auto& a : args) {
        if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kText), false, location));
        // PostgreSQL makes an object of a record's named fields; a record
        // Value knows no names, so it is refused rather than shown as text.
        if (a->type.IsRecordOrRecordArray()) {
          return NotSupported("a record as an argument of " + name);
        }
      }
      node->type = Type(json_type);
      return Status::OK();
    case ScalarFunction::kJsonSet:
      PL_RETURN_IF_ERROR(require(args[0], TypeId::kJsonb));
      PL_RETURN_IF_ERROR(require(args[1], TypeId::kText));
      PL_RETURN_IF_ERROR(require(args[2], TypeId::kJsonb));
      if (args.size() > 3) PL_RETURN_IF_ERROR(require(args[3], TypeId::kBool));
      node->type = Type(TypeId::kJsonb);
      return Status::OK();
    case ScalarFunction::kJsonTypeof: case ScalarFunction::kJsonPretty:
      if (node->function == ScalarFunction::kJsonPretty && !jsonb) return no_function();
      PL_RETURN_IF_ERROR(require(args[0], json_type));
      node->type = Type(TypeId::kText);
      return Status::OK();
    case ScalarFunction::kJsonArrayLength:
      PL_RETURN_IF_ERROR(require(args[0], json_type));
      node->type = Type(TypeId::kInt32);
      return Status::OK();
    default:
      return InternalError("not a json function: " + name);
  }
}

}  // namespace paceline::sql
