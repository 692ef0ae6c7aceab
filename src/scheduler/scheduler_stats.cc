// SchedulerStats::Fields: the stats by name, for every report (scheduler.h).
#include "scheduler/scheduler.h"

namespace paceline::scheduler {

std::vector<SchedulerStats::Field> SchedulerStats::Fields() const {
  return {{"picks", picks, false},
          {"warmup_picks", warmup_picks, false},
          {"default_picks", default_picks, false},
          {"warming_up", warming_up ? 1u : 0u, true},
          {"history_references", history_references, false},
          {"history_forgotten", history_forgotten, false},
          {"state_references", state_references, false},
          {"named_references", named_references, false},
          {"bytes", bytes, false},
          {"homed", homed, false},
          {"explored", explored, false},
          {"spilled", spilled, false},
          {"home_moves", home_moves, false},
          {"moved", moved, false},
          {"sent_home", sent_home, false},
          {"ran_here", ran_here, false},
          {"spread", spread, false},
          {"spill", spill ? 1u : 0u, true},
          {"spread_probes", spread_probes, false},
          {"spread_adopted", spread_adopted, false},
          {"spread_reverted", spread_reverted, false}};
}

}  // namespace paceline::scheduler
