// SchedulingPolicy: the name is the four choices' words joined by '-'.
#include "scheduler/scheduling_policy.h"

namespace paceline::scheduler {

namespace {

constexpr std::string_view kWeightNames[] = {"count", "fraction"};
constexpr std::string_view kAggregationNames[] = {"sum", "max"};
constexpr std::string_view kFormNames[] = {"literal", "canonical"};
constexpr std::string_view kGranularityNames[] = {"single", "all"};

// The index of `word` in `names`, or -1.
template <size_t N>
int IndexOf(const std::string_view (&names)[N], std::string_view word) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == word) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::string SchedulingPolicy::Name() const {
  std::string name;
  name += kWeightNames[static_cast<int>(weight)];
  name += '-';
  name += kAggregationNames[static_cast<int>(aggregation)];
  name += '-';
  name += kFormNames[static_cast<int>(form)];
  if (granularity == ReferenceGranularity::kAll) {
    name += '-';
    name += kGranularityNames[static_cast<int>(granularity)];
  }
  return name;
}

std::optional<SchedulingPolicy> SchedulingPolicy::Parse(std::string_view name) {
  std::vector<std::string_view> words;
  size_t start = 0;
  while (true) {
    const size_t dash = name.find('-', start);
    words.push_back(name.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start));
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  if (words.size() != 3 && words.size() != 4) return std::nullopt;
  const int weight = IndexOf(kWeightNames, words[0]);
  const int aggregation = IndexOf(kAggregationNames, words[1]);
  const int form = IndexOf(kFormNames, words[2]);
  const int granularity = words.size() == 4 ? IndexOf(kGranularityNames, words[3]) : 0;
  if (weight < 0 || aggregation < 0 || form < 0 || granularity < 0) return std::nullopt;
  return SchedulingPolicy{
      .weight = static_cast<ReferenceWeight>(weight),
      .aggregation = static_cast<ScoreAggregation>(aggregation),
      .form = static_cast<ReferenceForm>(form),
      .granularity = static_cast<ReferenceGranularity>(granularity),
  };
}

std::vector<SchedulingPolicy> SchedulingPolicy::All() {
  std::vector<SchedulingPolicy> all;
  for (ReferenceWeight weight : {ReferenceWeight::kCount, ReferenceWeight::kFraction}) {
    for (ScoreAggregation aggregation : {ScoreAggregation::kSum, ScoreAggregation::kMax}) {
      for (ReferenceForm form : {ReferenceForm::kLiteral, ReferenceForm::kCanonical}) {
        for (ReferenceGranularity granularity : {ReferenceGranularity::kSingle, ReferenceGranularity::kAll}) {
          all.push_back(SchedulingPolicy{
              .weight = weight, .aggregation = aggregation, .form = form, .granularity = granularity});
        }
      }
    }
  }
  return all;
}

std::vector<std::string> SchedulingPolicy::AllNames() {
  std::vector<std::string> names;
  for (const SchedulingPolicy& policy : All()) names.push_back(policy.Name());
  return names;
}

}  // namespace paceline::scheduler
