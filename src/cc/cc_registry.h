// CcRegistry: concurrency-control algorithms by name (--cc=NAME), a
// Registry (common/registry.h). RegisterBuiltinConcurrencyControls adds
// "occ", "2pl", "2pl-wait-die" and "2pl-wound-wait".
#pragma once

#include "cc/concurrency_control.h"
#include "common/registry.h"

namespace paceline::cc {

class CcRegistry : public Registry<ConcurrencyControl, CcOptions> {
 public:
  CcRegistry() : Registry("concurrency control") {}
};

void RegisterBuiltinConcurrencyControls(CcRegistry* registry);

}  // namespace paceline::cc
