// Registry: pluggable things by name — a scheduling policy
// (--scheduler=NAME), a concurrency control (--cc=NAME) — so that the name
// on the command line, the class's Name() and the factory agree.
//
// Built-ins are registered explicitly by the layer that owns them (static
// self-registration silently vanishes from static libraries). Register
// refuses a name twice (42710); Create names the valid choices for an
// unknown name (22023), and checks that the factory built something that
// answers to the name (XX000 otherwise).
//
// Thread-safety: Register must not run concurrently with any other method;
// after registration, Create and Names may run concurrently. Ownership:
// Create hands the new object to the caller.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace paceline {

// Product must have `std::string_view Name() const`.
template <typename Product, typename ProductOptions>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const ProductOptions&)>;

  // `kind` names what is registered in messages ("scheduler").
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  Status Register(std::string name, Factory factory) {
    if (factories_.contains(name)) {
      return Status(sqlstate::kDuplicateObject, kind_ + " \"" + name + "\" is already registered");
    }
    factories_.emplace(std::move(name), std::move(factory));
    return Status::OK();
  }

  Status Create(std::string_view name, const ProductOptions& options, std::unique_ptr<Product>* out) const {
    auto it = factories_.find(name);
    if (it == factories_.end()) {
      std::string valid;
      for (const auto& [known, factory] : factories_) valid += (valid.empty() ? "" : ", ") + known;
      return Status(sqlstate::kInvalidParameterValue,
                    "unknown " + kind_ + " \"" + std::string(name) + "\" (valid: " + valid + ")");
    }
    std::unique_ptr<Product> product = it->second(options);
    if (product == nullptr || product->Name() != name) {
      std::string built = "nothing";
      if (product) {
        built = "\"";
        built += product->Name();
        built += "\"";
      }
      return InternalError("the factory registered as " + kind_ + " \"" + std::string(name) + "\" built " + built);
    }
    *out = std::move(product);
    return Status::OK();
  }

  // Every registered name, sorted.
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& [name, factory] : factories_) names.push_back(name);
    return names;
  }

 private:
  const std::string kind_;
  std::map<std::string, Factory, std::less<>> factories_;
};

}  // namespace paceline
