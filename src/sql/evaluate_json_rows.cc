// The rows of the json functions in FROM (see expression_evaluator.h,
// bind_table_function.cc for their columns):
//   json[b]_array_elements[_text]  one row per element of an array
//   json[b]_each[_text]            one row (key, value) per member of an object
//   json[b]_object_keys            one row per key of an object
// jsonb's members come in jsonb's key order, json's as written, duplicate
// keys included; a json value is the element's own text. The _text
// variants give a string's text, SQL NULL for null, any other value's text.
// Errors (22023) are PostgreSQL's, whose wording differs between the twins:
// `cannot extract elements from an object`, `cannot call json_array_elements
// on a non-array`, `cannot call jsonb_each on a non-object`, `cannot
// deconstruct a scalar`, ...
#include "common/json_value.h"
#include "sql/evaluator_internal.h"

namespace paceline::sql {

namespace {

using json::JsonNode;

Status Invalid(std::string message) { return Status(sqlstate::kInvalidParameterValue, std::move(message)); }

Status JsonbRows(TableFunctionKind kind, const std::string& name, const Value& arg,
                 std::vector<std::vector<Value>>* out) {
  JsonNode root;
  PL_RETURN_IF_ERROR(json::ParseJsonb(arg.json_text(), &root));
  switch (kind) {
    case TableFunctionKind::kJsonArrayElements: case TableFunctionKind::kJsonArrayElementsText: {
      if (root.kind != JsonNode::Kind::kArray) {
        return Invalid(root.IsScalar() ? "cannot extract elements from a scalar"
                                       : "cannot extract elements from an object");
      }
      const bool as_text = kind == TableFunctionKind::kJsonArrayElementsText;
      for (const JsonNode& e : root.elements) out->push_back({as_text ? eval::TextResult(e) : eval::JsonbResult(e)});
      return Status::OK();
    }
    case TableFunctionKind::kJsonEach: case TableFunctionKind::kJsonEachText: {
      if (root.kind != JsonNode::Kind::kObject) return Invalid("cannot call " + name + " on a non-object");
      const bool as_text = kind == TableFunctionKind::kJsonEachText;
      for (const auto& [key, value] : root.members) {
        out->push_back({Value::Text(key), as_text ? eval::TextResult(value) : eval::JsonbResult(value)});
      }
      return Status::OK();
    }
    case TableFunctionKind::kJsonObjectKeys:
      if (root.kind != JsonNode::Kind::kObject) {
        return Invalid("cannot call " + name + (root.IsScalar() ? " on a scalar" : " on an array"));
      }
      for (const auto& member : root.members) out->push_back({Value::Text(member.first)});
      return Status::OK();
    default:
      return InternalError("not a json function in FROM: " + name);
  }
}

Status JsonRows(TableFunctionKind kind, const std::string& name, const Value& arg,
                std::vector<std::vector<Value>>* out) {
  const std::string_view text = arg.json_text();
  const bool scalar = json::JsonTextIsScalar(text);
  switch (kind) {
    case TableFunctionKind::kJsonArrayElements: case TableFunctionKind::kJsonArrayElementsText: {
      std::vector<std::string_view> elements;
      if (!json::JsonTextElements(text, &elements)) {
        return Invalid("cannot call " + name + (scalar ? " on a scalar" : " on a non-array"));
      }
      const bool as_text = kind == TableFunctionKind::kJsonArrayElementsText;
      for (std::string_view e : elements) {
        out->emplace_back(1);
        PL_RETURN_IF_ERROR(eval::JsonTextResult(e, as_text, &out->back()[0]));
      }
      return Status::OK();
    }
    case TableFunctionKind::kJsonEach: case TableFunctionKind::kJsonEachText: case TableFunctionKind::kJsonObjectKeys: {
      std::vector<std::pair<std::string, std::string_view>> members;
      bool is_object = false;
      PL_RETURN_IF_ERROR(json::JsonTextMembers(text, &members, &is_object));
      if (!is_object && kind == TableFunctionKind::kJsonObjectKeys) {
        return Invalid("cannot call " + name + (scalar ? " on a scalar" : " on an array"));
      }
      if (!is_object) return Invalid(scalar ? "cannot deconstruct a scalar" : "cannot deconstruct an array as an object");
      for (auto& [key, value] : members) {
        out->push_back({Value::Text(std::move(key))});
        if (kind == TableFunctionKind::kJsonObjectKeys) continue;
        out->back().emplace_back();
        PL_RETURN_IF_ERROR(eval::JsonTextResult(value, kind == TableFunctionKind::kJsonEachText, &out->back()[1]));
      }
      return Status::OK();
    }
    default:
      return InternalError("not a json function in FROM: " + name);
  }
}

}  // namespace

Status JsonFunctionRows(TableFunctionKind kind, const std::string& name, const Value& arg,
                        std::vector<std::vector<Value>>* out) {
  return arg.type() == TypeId::kJsonb ? JsonbRows(kind, name, arg, out) : JsonRows(kind, name, arg, out);
}

}  // namespace paceline::sql
