// CcRegistry: concurrency-control algorithms by name (--cc=NAME).
//
// Built-ins are registered explicitly by RegisterBuiltinConcurrencyControls
// ("occ", "2pl", "2pl-wait-die", "2pl-wound-wait"); an unknown name is an
// error (22023) that lists the valid ones.
//
// Thread-safety: Register before concurrent use; Create and Names may then
// run concurrently.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cc/concurrency_control.h"

namespace paceline::cc {

class CcRegistry {
 public:
  using Factory = std::function<std::unique_ptr<ConcurrencyControl>(const CcOptions&)>;
  void Register(std::string name, Factory factory);
  Status Create(std::string_view name, const CcOptions& options, std::unique_ptr<ConcurrencyControl>* out) const;
  // Registered names, sorted.
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, Factory, std::less<>> factories_;
};

void RegisterBuiltinConcurrencyControls(CcRegistry* registry);

}  // namespace paceline::cc
