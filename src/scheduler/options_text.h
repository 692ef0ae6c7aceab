// Settings of SchedulerOptions written as text — the values of
// paceline-bench's flags (and of the server's, later): one place that knows
// the names, so that every binary accepts and rejects the same spellings.
//
// Each parser returns 22023 with a message that starts "must be" and lists
// the valid values, to follow the setting's name ("--state must be ...").
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "common/status.h"
#include "scheduler/scheduler.h"

namespace paceline::scheduler {

// "continuous" | "frozen".
Status ParseHistoryLearning(std::string_view text, HistoryLearning* out);
// "cumulative" | "inflight".
Status ParseStateMode(std::string_view text, StateMode* out);
// "keys" | "where" | "all".
Status ParseReferenceSources(std::string_view text, ReferenceSources* out);
// "occurrence" | "transaction".
Status ParseReferenceMultiplicity(std::string_view text, ReferenceMultiplicity* out);
// A number of transactions ("5000") or a duration ("2s", "500ms") into
// options->history_warmup_transactions or ->history_warmup_time.
Status ParseHistoryWarmup(std::string_view text, SchedulerOptions* options);

}  // namespace paceline::scheduler
