// The built-in concurrency controls (cc_registry.h).
#include "cc/cc_registry.h"

#include <cassert>

#include "cc/occ.h"
#include "cc/two_phase_locking.h"

namespace paceline::cc {

void RegisterBuiltinConcurrencyControls(CcRegistry* registry) {
  auto two_phase = [](DeadlockRule rule) {
    return [rule](const CcOptions& o) -> std::unique_ptr<ConcurrencyControl> {
      return std::make_unique<TwoPhaseLocking>(rule, o);
    };
  };
  Status status = registry->Register(
      "occ", [](const CcOptions& o) -> std::unique_ptr<ConcurrencyControl> { return std::make_unique<Occ>(o); });
  if (status.ok()) status = registry->Register("2pl", two_phase(DeadlockRule::kNoWait));
  if (status.ok()) status = registry->Register("2pl-wait-die", two_phase(DeadlockRule::kWaitDie));
  if (status.ok()) status = registry->Register("2pl-wound-wait", two_phase(DeadlockRule::kWoundWait));
  assert(status.ok());
  (void)status;
}

}  // namespace paceline::cc
