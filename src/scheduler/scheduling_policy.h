// SchedulingPolicy: which of the paper's 16 conflict-aware policies a
// scheduler follows — four independent choices (Section V):
//   weight       count     a reference weighs its History abort count
//                fraction  ... its abort rate aborts / (aborts + commits)
//   aggregation  sum       a queue scores the weighted State counts of all
//                          the transaction's references
//                max       ... of its single heaviest reference only
//   form         literal   references name the column as written
//                canonical ... the column's domain (ReferenceForm)
//   granularity  single    each conjunct is a reference
//                all       a whole condition is one (ReferenceGranularity)
// Its name is "{count|fraction}-{sum|max}-{literal|canonical}", with "-all"
// appended for the all granularity ("-single" is implied, and accepted by
// Parse as an explicit suffix).
//
// A plain value type.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scheduler/footprint.h"

namespace paceline::scheduler {

enum class ReferenceWeight { kCount, kFraction };
enum class ScoreAggregation { kSum, kMax };

struct SchedulingPolicy {
  ReferenceWeight weight = ReferenceWeight::kCount;
  ScoreAggregation aggregation = ScoreAggregation::kSum;
  ReferenceForm form = ReferenceForm::kLiteral;
  ReferenceGranularity granularity = ReferenceGranularity::kSingle;

  // "count-max-canonical", "fraction-sum-literal-all", ...
  std::string Name() const;
  // The policy named `name` (Name()'s spelling, or with an explicit
  // "-single" suffix); nullopt for anything else.
  static std::optional<SchedulingPolicy> Parse(std::string_view name);
  // The 16 policies, in the order weight, aggregation, form, granularity
  // (each in its enum's order).
  static std::vector<SchedulingPolicy> All();
  // Name() of each of All().
  static std::vector<std::string> AllNames();

  bool operator==(const SchedulingPolicy&) const = default;
};

}  // namespace paceline::scheduler
