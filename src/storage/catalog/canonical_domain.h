// CanonicalDomain: the underlying domain of a column, what the scheduler's
// canonical references name (stock.s_w_id=5 → w_id=5).
//
// Resolution of table.column:
//   1. Follow its foreign key to the referenced column, and that column's,
//      and so on, to a root: a column that references nothing. A composite
//      foreign key maps column by column (its k-th referencing column to its
//      k-th referenced column); a column in several foreign keys follows the
//      first one declared. A foreign key that names a missing table or
//      column ends the chain where it is (that column is the root). A cycle
//      (a → b → a, or a column referencing itself) ends the chain too; its
//      root is the member of the cycle with the smallest "table.column", so
//      every column of the cycle, and every column leading into it, gets the
//      same root.
//   2. If the root column was declared with a CREATE DOMAIN type, the
//      canonical domain is that domain; otherwise it is the root column.
// So a column with both a foreign key and a domain takes its root's domain
// (or its root) — the foreign key wins: every column of one foreign-key tree
// must map to one canonical domain, whatever domains the referencing columns
// were declared with. A column with neither is its own canonical domain.
//
// A missing table or column resolves to itself (no catalog lookup fails).
//
// Thread-safety: Resolve only reads the catalog; the caller keeps it stable
// (statement preparation runs with the catalog unchanged). The result is a
// plain value.
#pragma once

#include <string>
#include <string_view>

#include "storage/catalog/catalog.h"

namespace paceline::catalog {

struct CanonicalDomain {
  std::string table;   // the root column's table
  std::string column;  // the root column
  std::string domain;  // the root column's CREATE DOMAIN name, "" when none

  bool is_domain() const { return !domain.empty(); }
  // The display name: the domain name, else the root column's name ("w_id").
  const std::string& Name() const { return is_domain() ? domain : column; }
  // The domain name, else "table.column" of the root ("warehouse.w_id").
  std::string QualifiedName() const { return is_domain() ? domain : table + "." + column; }

  static CanonicalDomain Resolve(const Catalog& catalog, std::string_view table, std::string_view column);
};

}  // namespace paceline::catalog
