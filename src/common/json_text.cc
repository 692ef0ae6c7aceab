// json text navigation (see json_value.h): the members and elements of a
// valid json text found by scanning it, so what json's -> and #> and
// json_each and json_array_elements return is the input's own text, blanks
// and duplicate keys included.
#include <string>
#include <utility>
#include <vector>

#include "common/json_value.h"

namespace paceline::json {

namespace {

size_t SkipBlanks(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  return i;
}

// The end of the value starting at s[i].
size_t SkipValue(std::string_view s, size_t i) {
  int depth = 0;
  do {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      ++i;
    } else if (c == '{' || c == '[') {
      ++depth;
      ++i;
    } else if (c == '}' || c == ']') {
      --depth;
      ++i;
    } else if (depth > 0) {
      ++i;
    } else {
      while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\t' &&
             s[i] != '\n' && s[i] != '\r') {
        ++i;
      }
    }
  } while (depth > 0 && i < s.size());
  return i;
}

// Calls visit(key_token, value) for each member/element of the top-level
// object or array (key_token "" for elements); false when `json` is neither.
template <typename Visit>
bool ForEachChild(std::string_view json, char open, Visit visit) {
  size_t i = SkipBlanks(json, 0);
  if (i >= json.size() || json[i] != open) return false;
  const char close = open == '{' ? '}' : ']';
  i = SkipBlanks(json, i + 1);
  while (i < json.size() && json[i] != close) {
    std::string_view key;
    if (open == '{') {
      const size_t end = SkipValue(json, i);
      key = json.substr(i, end - i);
      i = SkipBlanks(json, SkipBlanks(json, end) + 1);  // past ':'
    }
    const size_t end = SkipValue(json, i);
    visit(key, json.substr(i, end - i));
    i = SkipBlanks(json, end);
    if (i < json.size() && json[i] == ',') i = SkipBlanks(json, i + 1);
  }
  return true;
}

// A member's key token ("a\u0062") as the string it spells (22P05 for \u0000).
Status KeyOf(std::string_view token, std::string* key) {
  std::string_view inner = token.substr(1, token.size() - 2);
  if (inner.find('\\') == std::string_view::npos) {
    key->assign(inner);
    return Status::OK();
  }
  JsonNode k;
  PL_RETURN_IF_ERROR(ParseJsonb(token, &k));
  *key = std::move(k.text);
  return Status::OK();
}

}  // namespace

bool JsonTextField(std::string_view json, std::string_view key, std::string_view* value) {
  bool found = false;
  std::string k;
  ForEachChild(json, '{', [&](std::string_view token, std::string_view v) {
    if (KeyOf(token, &k).ok() && k == key) {
      *value = v;
      found = true;
    }
  });
  return found;
}

bool JsonTextElement(std::string_view json, int64_t index, std::string_view* value) {
  std::vector<std::string_view> elements;
  if (!JsonTextElements(json, &elements)) return false;
  const auto n = static_cast<int64_t>(elements.size());
  if (index < 0) index += n;
  if (index < 0 || index >= n) return false;
  *value = elements[static_cast<size_t>(index)];
  return true;
}

bool JsonTextElements(std::string_view json, std::vector<std::string_view>* out) {
  out->clear();
  return ForEachChild(json, '[', [&](std::string_view, std::string_view v) { out->push_back(v); });
}

Status JsonTextMembers(std::string_view json, std::vector<std::pair<std::string, std::string_view>>* out,
                       bool* is_object) {
  out->clear();
  Status status;
  *is_object = ForEachChild(json, '{', [&](std::string_view token, std::string_view v) {
    std::string key;
    if (status.ok()) status = KeyOf(token, &key);
    out->emplace_back(std::move(key), v);
  });
  return status;
}

bool JsonTextIsScalar(std::string_view json) {
  const size_t i = SkipBlanks(json, 0);
  return i >= json.size() || (json[i] != '{' && json[i] != '[');
}

}  // namespace paceline::json
