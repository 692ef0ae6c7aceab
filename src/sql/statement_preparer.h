// StatementPreparer: what the executor needs to run SQL of its own (the
// statements that check foreign keys and carry out their referential
// actions, execute_foreign_keys.cc): a statement prepared from its text,
// against the catalog the running statement was bound to. The SQL layer
// declares it; the engine implements it over its statement cache, so SQL
// never reaches up into the database.
//
// Thread-safety: Prepare may be called from any thread that holds the
// database's execution gate (the catalog stays as it is meanwhile).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"

namespace paceline::sql {

struct PreparedStatement;

class StatementPreparer {
 public:
  virtual ~StatementPreparer() = default;
  // `declared`: the types of $1..$n.
  virtual Status Prepare(std::string_view sql, const std::vector<Type>& declared,
                         std::shared_ptr<const PreparedStatement>* out) = 0;
  // The catalog's version now (a statement prepared at another one is stale).
  virtual uint64_t CatalogVersion() const = 0;
};

}  // namespace paceline::sql
