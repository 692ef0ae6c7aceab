// ExpressionEvaluator: the regular expression operators ~ ~* !~ !~* on
// RE2, whose matching takes time linear in the text whatever the pattern
// (a client's pattern cannot make a statement run away). RE2's syntax is
// PostgreSQL's advanced regular expressions for what catalog queries and
// applications write (anchors, classes, alternation, repetition); a
// construct RE2 lacks (back references, lookahead) is 2201B. Each thread
// keeps the patterns it compiled last.
#include <re2/re2.h>

#include <memory>
#include <unordered_map>

#include "sql/evaluator_internal.h"

namespace paceline::sql::eval {

namespace {

// The compiled pattern, from this thread's cache (null with the error).
const RE2* Compiled(const std::string& pattern, bool case_insensitive, std::string* error) {
  constexpr size_t kCached = 64;
  thread_local std::unordered_map<std::string, std::unique_ptr<RE2>> cache[2];
  auto& patterns = cache[case_insensitive ? 1 : 0];
  auto it = patterns.find(pattern);
  if (it != patterns.end()) return it->second.get();
  RE2::Options options;
  options.set_case_sensitive(!case_insensitive);
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, options);
  if (!re->ok()) {
    *error = re->error();
    return nullptr;
  }
  if (patterns.size() >= kCached) patterns.clear();
  return patterns.emplace(pattern, std::move(re)).first->second.get();
}

}  // namespace

Status EvaluateRegexMatch(const BoundExpr& e, const std::vector<Value>& args, Value* out) {
  if (args[0].is_null() || args[1].is_null()) {
    *out = Value::Null(TypeId::kBool);
    return Status::OK();
  }
  std::string error;
  const RE2* re = Compiled(args[1].string_value(), e.function == ScalarFunction::kRegexMatchCi, &error);
  if (re == nullptr) {
    return Status(sqlstate::kInvalidRegularExpression, "invalid regular expression: " + error);
  }
  const bool match = RE2::PartialMatch(args[0].string_value(), *re);
  *out = Value::Bool(match != e.negated);
  return Status::OK();
}

Status EvaluateRegexpReplace(const std::vector<Value>& args, Value* out) {
  // Flags: g (every match, not only the first), i (case-insensitive), c
  // (case-sensitive, the default); others are 22023 as in PostgreSQL.
  bool global = false, case_insensitive = false;
  if (args.size() > 3) {
    for (char flag : args[3].string_value()) {
      if (flag == 'g') global = true;
      else if (flag == 'i') case_insensitive = true;
      else if (flag == 'c') case_insensitive = false;
      else return Status(sqlstate::kInvalidParameterValue, std::string("invalid regular expression option: \"") + flag + "\"");
    }
  }
  std::string error;
  const RE2* re = Compiled(args[1].string_value(), case_insensitive, &error);
  if (re == nullptr) return Status(sqlstate::kInvalidRegularExpression, "invalid regular expression: " + error);
  // PostgreSQL's replacement: \1..\9 a group, \& the whole match, \\ a
  // backslash; RE2's: \1..\9, \0 and \\.
  std::string rewrite;
  const std::string& replacement = args[2].string_value();
  for (size_t i = 0; i < replacement.size(); ++i) {
    if (replacement[i] == '\\' && i + 1 < replacement.size()) {
      const char next = replacement[++i];
      if (next == '&') rewrite += "\\0";
      else if (next >= '1' && next <= '9' && next - '0' <= re->NumberOfCapturingGroups()) rewrite += std::string("\\") + next;
      else if (next == '\\') rewrite += "\\\\";
      else rewrite += next;  // an unknown escape (or a group the pattern lacks) stands for the character
    } else if (replacement[i] == '\\') {
      rewrite += "\\\\";  // a backslash at the end stands for itself
    } else {
      rewrite += replacement[i];
    }
  }
  std::string text = args[0].string_value();
  if (global) RE2::GlobalReplace(&text, *re, rewrite);
  else RE2::Replace(&text, *re, rewrite);
  *out = Value::Text(std::move(text));
  return Status::OK();
}

}  // namespace paceline::sql::eval
