// JSON values: PostgreSQL's json and jsonb, parsed by nlohmann-json.
//
// A json Value holds its input text verbatim (validated); a jsonb Value holds
// its normalized text, exactly what jsonb_out prints: keys of an object
// sorted by length, then bytes (jsonb's storage order), the last of duplicate
// keys kept, ", " between items and ": " after keys, strings re-escaped
// (\", \\, \b, \f, \n, \r, \t, \u00XX for other controls; everything else as
// UTF-8), numbers as PostgreSQL's numeric prints them (1.50 stays 1.50, 1e2
// is 100, -0 is 0, big integers keep every digit). Operators and functions
// parse that text into a JsonNode tree, work on it and print it back.
//
// Numbers are read as numeric is: the digits of the input text, never through
// a double, within numeric's limits (131072 digits before the point, 16383
// after: 22003 `value overflows numeric format` beyond them).
//
// Errors: text that is not JSON → 22P02 `invalid input syntax for type
// json` (DETAIL "The input string ended unexpectedly." when it stops
// early); \u0000 in jsonb → 22P05 `unsupported Unicode escape sequence`;
// nesting deeper than the thread's stack allows → 54001.
//
// Order (jsonb's btree order, jsonb_cmp): Object > Array > Boolean > Number >
// String > Null; objects with more pairs are greater, then pair by pair (key,
// then value); arrays with more elements are greater, then element by
// element; a top-level scalar sorts before a one-element array; numbers
// compare numerically (1.0 = 1), strings byte-wise, false < true. SortKey
// encodes that order for memcmp, so Compare, Hash and index keys are one
// rule.
//
// Thread-safety: stateless functions; JsonNode is a plain value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace paceline::json {

struct JsonNode {
  // jsonb's type order (jbvType): a later kind sorts higher.
  enum class Kind : uint8_t { kNull, kString, kNumber, kBool, kArray, kObject };

  Kind kind = Kind::kNull;
  bool boolean = false;  // kBool
  // kString: the string itself (UTF-8, unescaped); kNumber: the number as
  // numeric prints it ("1.50", "-3", "100").
  std::string text;
  std::vector<JsonNode> elements;                          // kArray
  std::vector<std::pair<std::string, JsonNode>> members;   // kObject, in key order, keys unique

  static JsonNode Null() { return JsonNode(); }
  static JsonNode Bool(bool b);
  static JsonNode String(std::string s);
  // `numeric_text` must be numeric output ("-1.50"): see NumberText.
  static JsonNode Number(std::string numeric_text);
  static JsonNode Array() { return Of(Kind::kArray); }
  static JsonNode Object() { return Of(Kind::kObject); }
  static JsonNode Of(Kind kind);

  bool IsScalar() const { return kind != Kind::kArray && kind != Kind::kObject; }
  // The member named `key` of an object, or null.
  const JsonNode* Find(std::string_view key) const;
  // Sets `key` (replacing an existing member), keeping the key order.
  void Set(std::string key, JsonNode value);
  // Restores the key order after members were appended in any order: the
  // last of duplicate keys is kept, as jsonb does.
  void SortMembers();
};

// jsonb_in: parses `text` into a tree.
Status ParseJsonb(std::string_view text, JsonNode* out);
// json_in: checks that `text` is JSON (kept verbatim by the caller).
Status ValidateJson(std::string_view text);
// jsonb_in then jsonb_out: the normalized text of `text`.
Status NormalizeJsonb(std::string_view text, std::string* out);

// jsonb_out of a tree.
void AppendJsonb(const JsonNode& node, std::string* out);
std::string JsonbText(const JsonNode& node);
// A JSON string literal of `s`, escaped as escape_json does.
void AppendJsonString(std::string_view s, std::string* out);
// The numeric text of a number literal (JSON syntax, any magnitude), as
// numeric_in then numeric_out give it; 22003 beyond numeric's limits.
Status NumberText(std::string_view literal, std::string* out);
// jsonb_typeof's names: "object", "array", "string", "number", "boolean", "null".
std::string_view KindName(JsonNode::Kind kind);

// The memcmp-ordered encoding of jsonb's order (see above); equal values
// (1.0 and 1) encode alike.
void AppendSortKey(const JsonNode& node, std::string* out);
// jsonb_cmp and a hash consistent with it, on normalized jsonb text.
int CompareJsonbText(std::string_view a, std::string_view b);
uint64_t HashJsonbText(std::string_view text);
// Scalars equal as jsonb compares them (numbers numerically).
bool ScalarsEqual(const JsonNode& a, const JsonNode& b);
// jsonb's @>: whether `a` contains `b` (PostgreSQL's JsonbDeepContains: an
// object contains the pairs it has with contained values; an array contains
// the elements it has, in any order, a nested container matching one of
// its containers; a top-level array contains a scalar it has as element).
bool Contains(const JsonNode& a, const JsonNode& b);

// json (text) navigation without re-printing: the verbatim text of the
// member `key` of an object (the last one when keys repeat, as PostgreSQL's
// json -> does) or of element `index` of an array (negative: from the end).
// False when `json` is not an object/array or has no such member/element.
// `json` must be valid JSON.
bool JsonTextField(std::string_view json, std::string_view key, std::string_view* value);
bool JsonTextElement(std::string_view json, int64_t index, std::string_view* value);
// Every element of a top-level array (false when `json` is not one); every
// member of a top-level object, in written order, duplicates kept, keys
// unescaped (*is_object false when `json` is not one; 22P05 for a key with
// \u0000). Whether `json` is a scalar. `json` must be valid JSON.
bool JsonTextElements(std::string_view json, std::vector<std::string_view>* out);
Status JsonTextMembers(std::string_view json, std::vector<std::pair<std::string, std::string_view>>* out,
                       bool* is_object);
bool JsonTextIsScalar(std::string_view json);

}  // namespace paceline::json
