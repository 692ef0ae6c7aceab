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

#include "engine/sql/evaluator_internal.h"

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

}  // namespace paceline::sql::eval
