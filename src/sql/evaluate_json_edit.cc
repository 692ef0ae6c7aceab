// ExpressionEvaluator: the jsonb operators and functions that return an
// edited copy of their first argument (see bind_json.cc for their types):
//   a || b                 objects merge; otherwise both become arrays, joined
//   jsonb_set(a, path, v[, create_missing])
//   a - text, a - text[]   an object's keys, an array's string elements, gone
//   a - int                an array's element (negative: from the end)
//   a #- path              the value at the path, gone
// Each parses `a` into a json::JsonNode tree, edits it and prints it back.
// Errors are PostgreSQL's: 22023 `cannot delete from scalar`, `cannot
// delete from object using integer index`, `cannot delete path in scalar`,
// `cannot set path in scalar`; 22004 `path element at position N is null`;
// 22P02 `path element at position N is not an integer: "x"`.
#include <algorithm>

#include "common/array_value.h"
#include "common/json_value.h"
#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

namespace {

using json::JsonNode;

Status NullPathElement(size_t level) {
  return Status(sqlstate::kNullValueNotAllowed, "path element at position " + std::to_string(level + 1) + " is null");
}

// An array step of a path, as setPathArray reads it.
Status PathIndex(const std::string& step, size_t level, int64_t* index) {
  if (ParseIndex(step, index)) return Status::OK();
  return Status(sqlstate::kInvalidTextRepresentation,
                "path element at position " + std::to_string(level + 1) + " is not an integer: \"" + step + "\"");
}

// jsonb || jsonb: two objects merge (the right one's keys win); otherwise
// both sides become arrays (a scalar or object one element) and are joined.
JsonNode Concat(JsonNode a, JsonNode b) {
  if (a.kind == JsonNode::Kind::kObject && b.kind == JsonNode::Kind::kObject) {
    for (auto& [k, v] : b.members) a.Set(std::move(k), std::move(v));
    return a;
  }
  JsonNode result = JsonNode::Array();
  for (JsonNode* side : {&a, &b}) {
    if (side->kind == JsonNode::Kind::kArray) {
      for (auto& x : side->elements) result.elements.push_back(std::move(x));
    } else {
      result.elements.push_back(std::move(*side));
    }
  }
  return result;
}

// jsonb_set's setPath: replaces (or, with create_missing, adds as the last
// step) the value at path[level..] inside `node`.
Status SetPath(JsonNode* node, const Path& path, size_t level, const JsonNode& value, bool create) {
  const std::string& step = *path[level];
  const bool last = level + 1 == path.size();
  if (node->kind == JsonNode::Kind::kObject) {
    for (auto& [k, v] : node->members) {
      if (k != step) continue;
      if (last) {
        v = value;
        return Status::OK();
      }
      return SetPath(&v, path, level + 1, value, create);
    }
    if (last && create) node->Set(step, value);
    return Status::OK();
  }
  if (node->kind != JsonNode::Kind::kArray) return Status::OK();  // a nested scalar: nothing to set
  int64_t index = 0;
  PL_RETURN_IF_ERROR(PathIndex(step, level, &index));
  const int64_t i = ResolveIndex(index, node->elements.size());
  if (i >= 0) {
    if (last) {
      node->elements[static_cast<size_t>(i)] = value;
      return Status::OK();
    }
    return SetPath(&node->elements[static_cast<size_t>(i)], path, level + 1, value, create);
  }
  if (last && create) {
    if (index < 0) {
      node->elements.insert(node->elements.begin(), value);
    } else {
      node->elements.push_back(value);
    }
  }
  return Status::OK();
}

Status EvaluateSet(const std::vector<Value>& args, Value* out) {
  JsonNode target, value;
  Path path;
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &target));
  PL_RETURN_IF_ERROR(ParsePathLiteral(args[1].string_value(), &path));
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[2].json_text(), &value));
  for (size_t i = 0; i < path.size(); ++i) {
    if (!path[i].has_value()) return NullPathElement(i);
  }
  if (target.IsScalar()) {
    return Status(sqlstate::kInvalidParameterValue, "cannot set path in scalar");
  }
  const bool create = args.size() < 4 || args[3].bool_value();
  if (!path.empty()) PL_RETURN_IF_ERROR(SetPath(&target, path, 0, value, create));
  *out = JsonbResult(target);
  return Status::OK();
}

// jsonb - text, jsonb - text[], jsonb - int (jsonb_delete, jsonb_delete_array,
// jsonb_delete_idx): NULL keys of the array are left out.
Status EvaluateDelete(const std::vector<Value>& args, Value* out) {
  JsonNode a;
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &a));
  if (a.IsScalar()) return Status(sqlstate::kInvalidParameterValue, "cannot delete from scalar");
  if (args[1].type() == TypeId::kInt32) {
    if (a.kind == JsonNode::Kind::kObject) {
      return Status(sqlstate::kInvalidParameterValue, "cannot delete from object using integer index");
    }
    const int64_t i = ResolveIndex(args[1].int_value(), a.elements.size());
    if (i >= 0) a.elements.erase(a.elements.begin() + i);
    *out = JsonbResult(a);
    return Status::OK();
  }
  std::vector<std::string> keys;
  if (args[1].type() == TypeId::kArray) {
    for (const Value& k : ArrayElements(args[1])) {
      if (!k.is_null()) keys.push_back(k.string_value());
    }
  } else {
    keys.push_back(args[1].string_value());
  }
  auto is_key = [&](const std::string& s) { return std::find(keys.begin(), keys.end(), s) != keys.end(); };
  if (a.kind == JsonNode::Kind::kObject) {
    std::erase_if(a.members, [&](const auto& member) { return is_key(member.first); });
  } else {
    std::erase_if(a.elements, [&](const JsonNode& x) { return x.kind == JsonNode::Kind::kString && is_key(x.text); });
  }
  *out = JsonbResult(a);
  return Status::OK();
}

// #-'s setPath with JB_PATH_DELETE: removes the value at path[level..]
// inside `node`. A step is checked when it is reached: a NULL one fails, an
// array step that is not an integer fails; a scalar on the way ends it.
Status DeletePath(JsonNode* node, const Path& path, size_t level) {
  if (!path[level].has_value()) return NullPathElement(level);
  const std::string& step = *path[level];
  const bool last = level + 1 == path.size();
  if (node->kind == JsonNode::Kind::kObject) {
    for (auto it = node->members.begin(); it != node->members.end(); ++it) {
      if (it->first != step) continue;
      if (last) {
        node->members.erase(it);
        return Status::OK();
      }
      return DeletePath(&it->second, path, level + 1);
    }
    return Status::OK();
  }
  if (node->kind != JsonNode::Kind::kArray) return Status::OK();
  int64_t index = 0;
  PL_RETURN_IF_ERROR(PathIndex(step, level, &index));
  const int64_t i = ResolveIndex(index, node->elements.size());
  if (i < 0) return Status::OK();
  if (last) {
    node->elements.erase(node->elements.begin() + i);
    return Status::OK();
  }
  return DeletePath(&node->elements[static_cast<size_t>(i)], path, level + 1);
}

Status EvaluateDeletePath(const std::vector<Value>& args, Value* out) {
  JsonNode a;
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &a));
  if (a.IsScalar()) return Status(sqlstate::kInvalidParameterValue, "cannot delete path in scalar");
  Path path;
  for (const Value& step : ArrayElements(args[1])) {
    path.push_back(step.is_null() ? std::nullopt : std::optional<std::string>(step.string_value()));
  }
  // An empty object or array comes back as it is, whatever the path holds.
  const bool empty = a.kind == JsonNode::Kind::kObject ? a.members.empty() : a.elements.empty();
  if (!path.empty() && !empty) PL_RETURN_IF_ERROR(DeletePath(&a, path, 0));
  *out = JsonbResult(a);
  return Status::OK();
}

}  // namespace

Status EvaluateJsonEdit(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  switch (e.function) {
    case ScalarFunction::kJsonConcat: {
      JsonNode a, b;
      PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &a));
      PL_RETURN_IF_ERROR(json::ParseJsonb(args[1].json_text(), &b));
      *out = JsonbResult(Concat(std::move(a), std::move(b)));
      return Status::OK();
    }
    case ScalarFunction::kJsonSet: return EvaluateSet(args, out);
    case ScalarFunction::kJsonDelete: return EvaluateDelete(args, out);
    case ScalarFunction::kJsonDeletePath: return EvaluateDeletePath(args, out);
    default: return InternalError("not a jsonb edit");
  }
}

}  // namespace paceline::sql::eval
