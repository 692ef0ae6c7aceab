// ExpressionEvaluator: the json and jsonb operators and functions (see
// bind_json.cc for their types). jsonb arguments are parsed into a
// json::JsonNode tree, worked on, and printed back normalized; json
// arguments are navigated as text, so what they return is the input's text,
// as PostgreSQL's json operators return it. The operators that edit jsonb
// are in evaluate_json_edit.cc, the functions in FROM in evaluate_json_rows.cc.
#include <cmath>
#include <optional>

#include "common/array_value.h"
#include "common/datetime.h"
#include "common/json_value.h"
#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

using json::JsonNode;

Status ParsePathLiteral(std::string_view text, Path* out) {
  const Status malformed(sqlstate::kInvalidTextRepresentation,
                         "malformed array literal: \"" + std::string(text) + "\"");
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  size_t i = 0;
  while (i < text.size() && blank(text[i])) ++i;
  if (i >= text.size() || text[i] != '{') return malformed;
  ++i;
  out->clear();
  while (i < text.size() && blank(text[i])) ++i;
  if (i < text.size() && text[i] == '}') {
    ++i;
  } else {
    while (true) {
      while (i < text.size() && blank(text[i])) ++i;
      std::string element;
      bool quoted = false, any = false, had_quotes = false;
      size_t trailing_blanks = 0;
      while (i < text.size() && (quoted || (text[i] != ',' && text[i] != '}'))) {
        const char c = text[i++];
        if (c == '\\') {
          if (i >= text.size()) return malformed;
          element.push_back(text[i++]);
          trailing_blanks = 0;
        } else if (c == '"') {
          quoted = !quoted;
          had_quotes = true;
          trailing_blanks = 0;
        } else if (!quoted && c == '{') {
          return malformed;
        } else {
          element.push_back(c);
          trailing_blanks = !quoted && blank(c) ? trailing_blanks + 1 : 0;
        }
        any = true;
      }
      if (quoted || i >= text.size() || !any) return malformed;
      element.resize(element.size() - trailing_blanks);
      std::string lower = element;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "null" && !had_quotes) {
        out->push_back(std::nullopt);
      } else {
        out->push_back(std::move(element));
      }
      if (text[i++] == '}') break;
    }
  }
  while (i < text.size() && blank(text[i])) ++i;
  return i == text.size() ? Status::OK() : malformed;
}

bool ParseIndex(const std::string& s, int64_t* out) {
  if (s.empty() || s.size() > 11) return false;
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size()) return false;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = s[0] == '-' ? -v : v;
  return true;
}

int64_t ResolveIndex(int64_t index, size_t n) {
  const auto count = static_cast<int64_t>(n);
  if (index < 0) index += count;
  return index >= 0 && index < count ? index : -1;
}

Value JsonbResult(const JsonNode& node) { return Value::Jsonb(json::JsonbText(node)); }

Value TextResult(const JsonNode& node) {
  if (node.kind == JsonNode::Kind::kNull) return Value::Null(TypeId::kText);
  if (node.kind == JsonNode::Kind::kString) return Value::Text(node.text);
  return Value::Text(json::JsonbText(node));
}

Status JsonTextResult(std::string_view text, bool as_text, Value* out) {
  if (!as_text) {
    *out = Value::Json(std::string(text));
    return Status::OK();
  }
  if (text == "null") {
    *out = Value::Null(TypeId::kText);
  } else if (!text.empty() && text[0] == '"') {
    JsonNode node;
    PL_RETURN_IF_ERROR(json::ParseJsonb(text, &node));
    *out = Value::Text(node.text);
  } else {
    *out = Value::Text(std::string(text));
  }
  return Status::OK();
}

namespace {

// A timestamp's text as JSON writes it: ISO 8601 with a T, a zone as +00:00.
std::string IsoTimestamp(const Value& v) {
  std::string s = v.ToString();
  if (s.size() > 10 && s[10] == ' ') s[10] = 'T';
  if (v.type() == TypeId::kTimestampTz && s.size() >= 3 && (s[s.size() - 3] == '+' || s[s.size() - 3] == '-')) {
    s += ":00";
  }
  return s;
}

// to_jsonb of a SQL value (NULL → JSON null): numbers stay numbers (NaN and
// infinities become strings), booleans booleans, json/jsonb their value,
// dates and timestamps ISO strings, anything else its text as a string.
Status ToNode(const Value& v, JsonNode* out) {
  if (v.is_null()) {
    *out = JsonNode::Null();
    return Status::OK();
  }
  const Type t(v.type());
  if (t.IsNumber()) {
    if (t.IsFloat() && !std::isfinite(v.float_value())) {
      *out = JsonNode::String(v.ToString());
      return Status::OK();
    }
    std::string text;
    PL_RETURN_IF_ERROR(json::NumberText(v.ToString(), &text));
    *out = JsonNode::Number(std::move(text));
    return Status::OK();
  }
  switch (v.type()) {
    case TypeId::kBool: *out = JsonNode::Bool(v.bool_value()); return Status::OK();
    case TypeId::kJson: case TypeId::kJsonb: return json::ParseJsonb(v.json_text(), out);
    case TypeId::kTimestamp: case TypeId::kTimestampTz: *out = JsonNode::String(IsoTimestamp(v)); return Status::OK();
    default: *out = JsonNode::String(v.ToString()); return Status::OK();
  }
}

// to_json of a SQL value: as ToNode, but json keeps its text and numbers
// their output text.
Status AppendJson(const Value& v, std::string* out) {
  if (v.type() == TypeId::kJson || v.type() == TypeId::kJsonb) {
    out->append(v.json_text());
    return Status::OK();
  }
  if (!v.is_null() && Type(v.type()).IsNumber() && !(Type(v.type()).IsFloat() && !std::isfinite(v.float_value()))) {
    v.AppendTo(out);
    return Status::OK();
  }
  JsonNode node;
  PL_RETURN_IF_ERROR(ToNode(v, &node));
  json::AppendJsonb(node, out);
  return Status::OK();
}

// One step of -> / #> into a jsonb node: a member by key, an element by
// index (a top-level scalar is jsonb's one-element array); null when none.
const JsonNode* Step(const JsonNode& node, const std::string* key, int64_t index, bool top) {
  if (key != nullptr) {
    if (node.kind == JsonNode::Kind::kObject) return node.Find(*key);
    if (node.kind != JsonNode::Kind::kArray && !(top && node.IsScalar())) return nullptr;
    int64_t i = 0;
    if (!ParseIndex(*key, &i)) return nullptr;
    index = i;
  }
  if (node.kind == JsonNode::Kind::kArray) {
    const int64_t i = ResolveIndex(index, node.elements.size());
    return i < 0 ? nullptr : &node.elements[static_cast<size_t>(i)];
  }
  if (top && node.IsScalar()) return ResolveIndex(index, 1) == 0 ? &node : nullptr;
  return nullptr;
}

// The same into json text.
bool JsonStep(std::string_view json, const std::string* key, int64_t index, std::string_view* out) {
  if (key != nullptr) {
    if (json::JsonTextField(json, *key, out)) return true;
    int64_t i = 0;
    return ParseIndex(*key, &i) && json::JsonTextElement(json, i, out);
  }
  return json::JsonTextElement(json, index, out);
}

Status EvaluatePath(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  const bool as_text = e.function == ScalarFunction::kJsonPathText;
  const bool is_json = e.children[0]->type.id == TypeId::kJson;
  Path path;
  PL_RETURN_IF_ERROR(ParsePathLiteral(args[1].string_value(), &path));
  const Value null = Value::Null(e.type.id);
  for (const auto& p : path) {
    if (!p.has_value()) {
      *out = null;
      return Status::OK();
    }
  }
  if (is_json) {
    std::string_view at = args[0].json_text();
    for (const auto& p : path) {
      if (!JsonStep(at, &*p, 0, &at)) {
        *out = null;
        return Status::OK();
      }
    }
    return JsonTextResult(at, as_text, out);
  }
  JsonNode root;
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &root));
  const JsonNode* at = &root;
  for (size_t i = 0; i < path.size() && at != nullptr; ++i) at = Step(*at, &*path[i], 0, i == 0);
  if (at == nullptr) {
    *out = null;
  } else {
    *out = as_text ? TextResult(*at) : JsonbResult(*at);
  }
  return Status::OK();
}

Status EvaluateGet(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  const bool as_text = e.function == ScalarFunction::kJsonGetText;
  const bool by_key = args[1].type() != TypeId::kInt32;
  const std::string* key = by_key ? &args[1].string_value() : nullptr;
  const int64_t index = by_key ? 0 : args[1].int_value();
  if (e.children[0]->type.id == TypeId::kJson) {
    std::string_view at;
    const bool found = by_key ? json::JsonTextField(args[0].json_text(), *key, &at)
                              : json::JsonTextElement(args[0].json_text(), index, &at);
    if (!found) {
      *out = Value::Null(e.type.id);
      return Status::OK();
    }
    return JsonTextResult(at, as_text, out);
  }
  JsonNode root;
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &root));
  const JsonNode* at = nullptr;
  if (by_key) {
    at = root.kind == JsonNode::Kind::kObject ? root.Find(*key) : nullptr;
  } else {
    at = Step(root, nullptr, index, true);
  }
  if (at == nullptr) {
    *out = Value::Null(e.type.id);
  } else {
    *out = as_text ? TextResult(*at) : JsonbResult(*at);
  }
  return Status::OK();
}

Status EvaluateBuild(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  const bool jsonb = e.type.id == TypeId::kJsonb;
  const bool object = e.function == ScalarFunction::kJsonBuildObject;
  if (object && args.size() % 2 != 0) {
    return Status(sqlstate::kInvalidParameterValue, "argument list must have even number of elements");
  }
  JsonNode node = object ? JsonNode::Object() : JsonNode::Array();
  std::string text(object ? "{" : "[");
  for (size_t i = 0; i < args.size(); i += object ? 2 : 1) {
    const Value& v = args[object ? i + 1 : i];
    if (i > 0) text.append(", ");
    if (object) {
      if (args[i].is_null()) {
        return Status(sqlstate::kInvalidParameterValue,
                      "argument " + std::to_string(i + 1) + (jsonb ? ": key must not be null" : " cannot be null"));
      }
      JsonNode key;
      PL_RETURN_IF_ERROR(ToNode(args[i], &key));
      if (!key.IsScalar() || args[i].type() == TypeId::kJson || args[i].type() == TypeId::kJsonb) {
        return Status(sqlstate::kInvalidParameterValue, "key value must be scalar, not array, composite, or json");
      }
      std::string name = key.kind == JsonNode::Kind::kBool ? (key.boolean ? "true" : "false") : key.text;
      if (jsonb) {
        JsonNode value;
        PL_RETURN_IF_ERROR(ToNode(v, &value));
        node.members.emplace_back(std::move(name), std::move(value));
      } else {
        json::AppendJsonString(name, &text);
        text.append(" : ");
        PL_RETURN_IF_ERROR(AppendJson(v, &text));
      }
    } else if (jsonb) {
      node.elements.emplace_back();
      PL_RETURN_IF_ERROR(ToNode(v, &node.elements.back()));
    } else {
      PL_RETURN_IF_ERROR(AppendJson(v, &text));
    }
  }
  if (jsonb) {
    if (object) node.SortMembers();
    *out = JsonbResult(node);
  } else {
    text.push_back(object ? '}' : ']');
    *out = Value::Json(std::move(text));
  }
  return Status::OK();
}

// jsonb's ? on a parsed value: an object's key, a string element of an
// array, or a top-level string (jsonb's one-element array).
bool HasKey(const JsonNode& a, const std::string& key) {
  if (a.kind == JsonNode::Kind::kObject) return a.Find(key) != nullptr;
  if (a.kind == JsonNode::Kind::kArray) {
    for (const JsonNode& x : a.elements) {
      if (x.kind == JsonNode::Kind::kString && x.text == key) return true;
    }
    return false;
  }
  return a.kind == JsonNode::Kind::kString && a.text == key;
}

// jsonb_pretty: four blanks a level, one item a line.
void AppendPretty(const JsonNode& node, int level, std::string* out) {
  const bool array = node.kind == JsonNode::Kind::kArray;
  if (!array && node.kind != JsonNode::Kind::kObject) {
    json::AppendJsonb(node, out);
    return;
  }
  auto indent = [&](int n) {
    out->push_back('\n');
    out->append(static_cast<size_t>(4 * n), ' ');
  };
  out->push_back(array ? '[' : '{');
  const size_t n = array ? node.elements.size() : node.members.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) out->push_back(',');
    indent(level + 1);
    if (array) {
      AppendPretty(node.elements[i], level + 1, out);
    } else {
      json::AppendJsonString(node.members[i].first, out);
      out->append(": ");
      AppendPretty(node.members[i].second, level + 1, out);
    }
  }
  indent(level);
  out->push_back(array ? ']' : '}');
}

}  // namespace

Status EvaluateJsonFunction(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  switch (e.function) {
    case ScalarFunction::kJsonGet: case ScalarFunction::kJsonGetText:
      return EvaluateGet(e, args, out);
    case ScalarFunction::kJsonPath: case ScalarFunction::kJsonPathText:
      return EvaluatePath(e, args, out);
    case ScalarFunction::kJsonBuildObject: case ScalarFunction::kJsonBuildArray:
      return EvaluateBuild(e, args, out);
    case ScalarFunction::kJsonSet: case ScalarFunction::kJsonConcat: case ScalarFunction::kJsonDelete:
    case ScalarFunction::kJsonDeletePath:
      return EvaluateJsonEdit(e, args, out);
    case ScalarFunction::kToJson: {
      if (e.type.id == TypeId::kJson) {
        std::string text;
        PL_RETURN_IF_ERROR(AppendJson(args[0], &text));
        *out = Value::Json(std::move(text));
        return Status::OK();
      }
      JsonNode node;
      PL_RETURN_IF_ERROR(ToNode(args[0], &node));
      *out = JsonbResult(node);
      return Status::OK();
    }
    default:
      break;
  }
  // The rest read their first argument as a tree.
  JsonNode a;
  PL_RETURN_IF_ERROR(json::ParseJsonb(args[0].json_text(), &a));
  switch (e.function) {
    case ScalarFunction::kJsonContains: {
      JsonNode b;
      PL_RETURN_IF_ERROR(json::ParseJsonb(args[1].json_text(), &b));
      *out = Value::Bool(json::Contains(a, b));
      return Status::OK();
    }
    case ScalarFunction::kJsonExists:
      *out = Value::Bool(HasKey(a, args[1].string_value()));
      return Status::OK();
    case ScalarFunction::kJsonExistsAny: case ScalarFunction::kJsonExistsAll: {
      // Whether any (all) of the keys exist; NULL keys are left out, so no
      // key at all is false (true).
      const bool all = e.function == ScalarFunction::kJsonExistsAll;
      bool result = all;
      for (const Value& key : ArrayElements(args[1])) {
        if (!key.is_null() && HasKey(a, key.string_value()) != all) {
          result = !all;
          break;
        }
      }
      *out = Value::Bool(result);
      return Status::OK();
    }
    case ScalarFunction::kJsonTypeof:
      *out = Value::Text(std::string(json::KindName(a.kind)));
      return Status::OK();
    case ScalarFunction::kJsonArrayLength:
      if (a.kind != JsonNode::Kind::kArray) {
        return Status(sqlstate::kInvalidParameterValue,
                      a.IsScalar() ? "cannot get array length of a scalar" : "cannot get array length of a non-array");
      }
      *out = Value::Int32(static_cast<int32_t>(a.elements.size()));
      return Status::OK();
    case ScalarFunction::kJsonPretty: {
      std::string text;
      AppendPretty(a, 0, &text);
      *out = Value::Text(std::move(text));
      return Status::OK();
    }
    default:
      return InternalError("not a json function");
  }
}

}  // namespace paceline::sql::eval
