// SchedulerRegistry: the run-queue check, and the table of built-ins.
#include "scheduler/scheduler_registry.h"

#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/adaptive_scheduler.h"
#include "scheduler/conflict_aware_scheduler.h"
#include "scheduler/partition_scheduler.h"
#include "scheduler/random_scheduler.h"
#include "scheduler/round_robin_scheduler.h"
#include "scheduler/scheduling_policy.h"

namespace paceline::scheduler {

namespace {

template <typename Policy>
SchedulerFactory FactoryOf() {
  return [](const SchedulerOptions& options) -> std::unique_ptr<Scheduler> {
    return std::make_unique<Policy>(options);
  };
}

// A conflict-aware policy that answers to `name` (its own or an alias).
SchedulerFactory ConflictAwareFactory(const SchedulingPolicy& policy, std::string name) {
  return [policy, name = std::move(name)](const SchedulerOptions& options) -> std::unique_ptr<Scheduler> {
    return std::make_unique<ConflictAwareScheduler>(policy, options, name);
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
    std::string name;
    SchedulerFactory factory;
  };
  std::vector<Builtin> builtins = {
      {std::string(RandomScheduler::kName), FactoryOf<RandomScheduler>()},
      {std::string(RoundRobinScheduler::kName), FactoryOf<RoundRobinScheduler>()},
      {std::string(PartitionScheduler::kName), FactoryOf<PartitionScheduler>()},
      {std::string(AdaptiveScheduler::kName), FactoryOf<AdaptiveScheduler>()},
  };
  for (const SchedulingPolicy& policy : SchedulingPolicy::All()) {
    const std::string name = policy.Name();
    builtins.push_back({name, ConflictAwareFactory(policy, name)});
    if (policy.granularity == ReferenceGranularity::kSingle) {
      builtins.push_back({name + "-single", ConflictAwareFactory(policy, name + "-single")});
    }
  }
  for (Builtin& builtin : builtins) {
    [[maybe_unused]] Status status = registry->Register(builtin.name, std::move(builtin.factory));
    assert(status.ok());
  }
}

}  // namespace paceline::scheduler
