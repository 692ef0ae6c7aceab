// SchedulerOptions settings from text: a table of names per enum.
#include "scheduler/options_text.h"

#include <charconv>
#include <string>
#include <utility>

namespace paceline::scheduler {

namespace {

template <typename Enum, size_t N>
Status ParseChoice(std::string_view text, const std::pair<std::string_view, Enum> (&choices)[N], Enum* out) {
  std::string valid;
  for (const auto& [name, value] : choices) {
    if (text == name) {
      *out = value;
      return Status::OK();
    }
    valid += (valid.empty() ? "" : " or ") + std::string(name);
  }
  return Status(sqlstate::kInvalidParameterValue, "must be " + valid + ": \"" + std::string(text) + "\"");
}

}  // namespace

Status ParseHistoryLearning(std::string_view text, HistoryLearning* out) {
  static constexpr std::pair<std::string_view, HistoryLearning> kChoices[] = {
      {"continuous", HistoryLearning::kContinuous}, {"frozen", HistoryLearning::kFrozen}};
  return ParseChoice(text, kChoices, out);
}

Status ParseStateMode(std::string_view text, StateMode* out) {
  static constexpr std::pair<std::string_view, StateMode> kChoices[] = {{"inflight", StateMode::kInflight},
                                                                         {"cumulative", StateMode::kCumulative}};
  return ParseChoice(text, kChoices, out);
}

Status ParseReferenceSources(std::string_view text, ReferenceSources* out) {
  static constexpr std::pair<std::string_view, ReferenceSources> kChoices[] = {
      {"keys", ReferenceSources::kKeys}, {"where", ReferenceSources::kWhere}, {"all", ReferenceSources::kAll}};
  return ParseChoice(text, kChoices, out);
}

Status ParseReferenceMultiplicity(std::string_view text, ReferenceMultiplicity* out) {
  static constexpr std::pair<std::string_view, ReferenceMultiplicity> kChoices[] = {
      {"occurrence", ReferenceMultiplicity::kOccurrence}, {"transaction", ReferenceMultiplicity::kTransaction}};
  return ParseChoice(text, kChoices, out);
}

Status ParseHistoryWarmup(std::string_view text, SchedulerOptions* options) {
  const auto bad = [&] {
    return Status(sqlstate::kInvalidParameterValue, "\"" + std::string(text) +
                                                        "\" is neither a number of transactions (5000) nor a "
                                                        "duration (2s, 500ms)");
  };
  double number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data() || !(number >= 0) || number > 1e15) return bad();
  const std::string_view unit(end, static_cast<size_t>(text.data() + text.size() - end));
  if (unit.empty()) {
    if (number != static_cast<double>(static_cast<uint64_t>(number))) return bad();  // whole transactions
    options->history_warmup_transactions = static_cast<uint64_t>(number);
  } else if (unit == "s" || unit == "ms") {
    options->history_warmup_time = std::chrono::milliseconds(static_cast<int64_t>(unit == "s" ? number * 1000 : number));
  } else {
    return bad();
  }
  return Status::OK();
}

}  // namespace paceline::scheduler
