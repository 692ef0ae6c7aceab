// SchedulerRegistry: scheduler name → factory, so a policy is chosen at run
// time by the name it answers to (--scheduler=NAME, Scheduler::Name()).
// Built-ins are added explicitly by RegisterBuiltinSchedulers (static
// self-registration silently vanishes from static libraries); the engine
// creates a registry, registers the built-ins, and may add its own.
//
// Thread-safety: Register must not run concurrently with any other method;
// once registration is over, Create and Names may be called concurrently.
// Ownership: Create hands the new scheduler to the caller.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "scheduler/scheduler.h"

namespace paceline::scheduler {

// Builds a scheduler from options that Create has already checked
// (queues >= 1). Must not return null.
using SchedulerFactory = std::function<std::unique_ptr<Scheduler>(const SchedulerOptions&)>;

class SchedulerRegistry {
 public:
  // Adds `name`. 42710 (duplicate_object) if it is already registered.
  Status Register(std::string name, SchedulerFactory factory);

  // A new scheduler registered as `name`. 22023 (invalid_parameter_value)
  // for an unknown name (the message lists the valid ones) or for
  // options.queues == 0; XX000 if the factory misbehaves (returns null, or a
  // scheduler whose Name() is not `name`).
  Status Create(std::string_view name, const SchedulerOptions& options, std::unique_ptr<Scheduler>* out) const;

  // Every registered name, sorted.
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, SchedulerFactory, std::less<>> factories_;
};

// Registers the built-in policies: "random", "round-robin". Requires that
// none of their names is registered yet.
void RegisterBuiltinSchedulers(SchedulerRegistry* registry);

}  // namespace paceline::scheduler
