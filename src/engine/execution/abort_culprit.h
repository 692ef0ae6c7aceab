// CulpritOf: what the scheduler hears about a conflict, from what the
// concurrency control reported (its reason and the culprit's table). The
// one place that maps the one onto the other, for transactions run by the
// workers and for a session's BEGIN … COMMIT blocks alike.
//
// Thread-safety: a pure function.
#pragma once

#include <cstdint>

#include "cc/abort_reason.h"
#include "scheduler/scheduler.h"

namespace paceline::engine {

inline scheduler::AbortCulprit CulpritOf(cc::AbortReason reason, TableId culprit_table) {
  scheduler::AbortCulprit culprit = scheduler::AbortCulprit::OfTable(culprit_table != cc::kNoCulpritTable, culprit_table);
  culprit.still_running = cc::ConflictStillRunning(reason);
  return culprit;
}

}  // namespace paceline::engine
