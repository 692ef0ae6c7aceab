// CcRegistry and the built-in algorithms (cc_registry.h).
#include "cc/cc_registry.h"

#include "cc/occ.h"
#include "cc/two_phase_locking.h"

namespace paceline::cc {

void CcRegistry::Register(std::string name, Factory factory) { factories_[std::move(name)] = std::move(factory); }

Status CcRegistry::Create(std::string_view name, const CcOptions& options,
                          std::unique_ptr<ConcurrencyControl>* out) const {
  auto it = factories_.find(name);
  if (it == factories_.end()) {
    std::string valid;
    for (const auto& n : Names()) valid += (valid.empty() ? "" : ", ") + n;
    return Status(sqlstate::kInvalidParameterValue,
                  "unknown concurrency control \"" + std::string(name) + "\" (valid: " + valid + ")");
  }
  *out = it->second(options);
  return Status::OK();
}

std::vector<std::string> CcRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories_) names.push_back(name);
  return names;
}

void RegisterBuiltinConcurrencyControls(CcRegistry* registry) {
  registry->Register("occ", [](const CcOptions& o) { return std::make_unique<Occ>(o); });
  registry->Register("2pl", [](const CcOptions& o) {
    return std::make_unique<TwoPhaseLocking>(DeadlockRule::kNoWait, o);
  });
  registry->Register("2pl-wait-die", [](const CcOptions& o) {
    return std::make_unique<TwoPhaseLocking>(DeadlockRule::kWaitDie, o);
  });
  registry->Register("2pl-wound-wait", [](const CcOptions& o) {
    return std::make_unique<TwoPhaseLocking>(DeadlockRule::kWoundWait, o);
  });
}

}  // namespace paceline::cc
