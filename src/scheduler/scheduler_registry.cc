// SchedulerRegistry: a sorted map of factories, and the table of built-ins.
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

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

Status SchedulerRegistry::Register(std::string name, SchedulerFactory factory) {
  if (factories_.contains(name)) {
    return Status(sqlstate::kDuplicateObject, "scheduler \"" + name + "\" is already registered");
  }
  factories_.emplace(std::move(name), std::move(factory));
  return Status::OK();
}

Status SchedulerRegistry::Create(std::string_view name, const SchedulerOptions& options,
                                 std::unique_ptr<Scheduler>* out) const {
  auto it = factories_.find(name);
  if (it == factories_.end()) {
    return Status(sqlstate::kInvalidParameterValue,
                  "unknown scheduler \"" + std::string(name) + "\"; valid schedulers: " + Join(Names()));
  }
  if (options.queues == 0) {
    return Status(sqlstate::kInvalidParameterValue, "scheduler \"" + std::string(name) + "\" needs at least 1 run queue");
  }
  std::unique_ptr<Scheduler> scheduler = it->second(options);
  if (scheduler == nullptr || scheduler->Name() != name) {
    std::string built = "nothing";
    if (scheduler) {
      built = "\"";
      built += scheduler->Name();
      built += "\"";
    }
    return InternalError("the factory registered as scheduler \"" + std::string(name) + "\" built " + built);
  }
  *out = std::move(scheduler);
  return Status::OK();
}

std::vector<std::string> SchedulerRegistry::Names() const {
  std::vector<std::string> names;
  names.reserve(factories_.size());
  for (const auto& [name, factory] : factories_) names.push_back(name);
  return names;
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
