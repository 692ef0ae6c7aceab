// CastValue's rules for uuid, json and jsonb (see value.h): input syntax from
// text, json ↔ jsonb, and jsonb's casts to boolean and the number types.
#include "common/json_value.h"
#include "common/uuid.h"
#include "common/value.h"

namespace paceline {

namespace {

bool IsText(TypeId t) {
  return t == TypeId::kChar || t == TypeId::kVarchar || t == TypeId::kText || t == TypeId::kUnknown;
}

Status CannotCastTypes(TypeId from, TypeId to) {
  return Status(sqlstate::kCannotCoerce, "cannot cast type " + std::string(from == TypeId::kChar ? "character" : Type(from).ToString()) +
                                             " to " + Type(to).ToString());
}

// jsonb → boolean or a number type, as jsonb_bool, jsonb_numeric, jsonb_int4, ...
Status CastJsonbToScalar(const Value& v, const Type& target, Value* out) {
  json::JsonNode node;
  PL_RETURN_IF_ERROR(json::ParseJsonb(v.json_text(), &node));
  const bool want_bool = target.id == TypeId::kBool;
  const json::JsonNode::Kind want = want_bool ? json::JsonNode::Kind::kBool : json::JsonNode::Kind::kNumber;
  if (node.kind != want) {
    const std::string_view kind = node.kind == json::JsonNode::Kind::kNumber ? "numeric" : json::KindName(node.kind);
    return Status(sqlstate::kInvalidParameterValue,
                  "cannot cast jsonb " + std::string(kind) + " to type " + Type(target.id).ToString());
  }
  if (want_bool) {
    *out = Value::Bool(node.boolean);
    return Status::OK();
  }
  Decimal d;
  PL_RETURN_IF_ERROR(Decimal::Parse(node.text, &d));
  return CastValue(Value::Numeric(d), target, true, out);
}

}  // namespace

Status CastUuidOrJson(const Value& v, const Type& target, Value* out) {
  const TypeId from = v.type();
  if (from == TypeId::kJsonb && (target.IsNumber() || target.id == TypeId::kBool)) {
    return CastJsonbToScalar(v, target, out);
  }
  if (from == target.id) {
    *out = v;
    return Status::OK();
  }
  switch (target.id) {
    case TypeId::kUuid: {
      if (!IsText(from)) break;
      std::string bytes;
      PL_RETURN_IF_ERROR(ParseUuid(v.string_value(), &bytes));
      *out = Value::Uuid(std::move(bytes));
      return Status::OK();
    }
    case TypeId::kJson:
      if (from == TypeId::kJsonb) {
        *out = Value::Json(v.json_text());
        return Status::OK();
      }
      if (!IsText(from)) break;
      PL_RETURN_IF_ERROR(json::ValidateJson(v.string_value()));
      *out = Value::Json(v.string_value());
      return Status::OK();
    case TypeId::kJsonb: {
      if (!IsText(from) && from != TypeId::kJson) break;
      std::string text;
      PL_RETURN_IF_ERROR(json::NormalizeJsonb(from == TypeId::kJson ? v.json_text() : v.string_value(), &text));
      *out = Value::Jsonb(std::move(text));
      return Status::OK();
    }
    default:
      break;
  }
  return CannotCastTypes(from, target.id);
}

}  // namespace paceline
