// SchedulerRegistry: scheduling policies by name (--scheduler=NAME), a
// Registry (common/registry.h) whose Create also requires at least one run
// queue (22023). RegisterBuiltinSchedulers adds the baselines "random",
// "round-robin" and "partition", and the 16 conflict-aware policies
// (SchedulingPolicy::AllNames(), e.g. "count-max-canonical") with an alias
// "<name>-single" for each of the 8 single-granularity ones; the engine
// creates a registry, registers the built-ins, and may add its own.
//
// Thread-safety and ownership: as Registry.
#pragma once

#include <memory>
#include <string_view>

#include "common/registry.h"
#include "common/status.h"
#include "scheduler/scheduler.h"

namespace paceline::scheduler {

// Builds a scheduler from options that Create has already checked
// (queues >= 1). Must not return null.
using SchedulerFactory = Registry<Scheduler, SchedulerOptions>::Factory;

class SchedulerRegistry : public Registry<Scheduler, SchedulerOptions> {
 public:
  SchedulerRegistry() : Registry("scheduler") {}
  // Registry::Create, after checking options.queues >= 1.
  Status Create(std::string_view name, const SchedulerOptions& options, std::unique_ptr<Scheduler>* out) const;
};

// Registers the built-in policies (above). Requires that none of their
// names is registered yet.
void RegisterBuiltinSchedulers(SchedulerRegistry* registry);

}  // namespace paceline::scheduler
