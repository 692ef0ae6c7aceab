// SchedulerRegistry: the run-queue check, and the table of built-ins.
#include "scheduler/scheduler_registry.h"

#include <cassert>

#include "scheduler/random_scheduler.h"
#include "scheduler/round_robin_scheduler.h"

namespace paceline::scheduler {

namespace {

template <typename Policy>
SchedulerFactory FactoryOf() {
  return [](const SchedulerOptions& options) -> std::unique_ptr<Scheduler> {
    return std::make_unique<Policy>(options);
  };
}

}  // namespace

Status SchedulerRegistry::Create(std::string_view name, const SchedulerOptions& options,
                                 std::unique_ptr<Scheduler>* out) const {
  if (options.queues == 0) {
    return Status(sqlstate::kInvalidParameterValue, "scheduler \"" + std::string(name) + "\" needs at least 1 run queue");
  }
  return Registry::Create(name, options, out);
}

void RegisterBuiltinSchedulers(SchedulerRegistry* registry) {
  struct Builtin {
    std::string_view name;
    SchedulerFactory factory;
  };
  const Builtin builtins[] = {
      {RandomScheduler::kName, FactoryOf<RandomScheduler>()},
      {RoundRobinScheduler::kName, FactoryOf<RoundRobinScheduler>()},
  };
  for (const Builtin& builtin : builtins) {
    [[maybe_unused]] Status status = registry->Register(std::string(builtin.name), builtin.factory);
    assert(status.ok());
  }
}

}  // namespace paceline::scheduler
