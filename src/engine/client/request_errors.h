// The errors of a client's request as the client must see them: a
// statement's error positioned in the whole text it sent, and queries on
// catalogs Paceline does not have.
//
// Pure functions; thread-safe.
#pragma once

#include <string_view>

#include "common/status.h"

namespace paceline::engine {

// The same error with its position moved by `offset` characters (a
// statement's position within the whole Query text).
Status Shift(const Status& s, int offset);

// Clients query the system catalogs on their own (psql's \d, pgbench's
// partition check); Paceline has none: say so rather than "relation
// pg_class does not exist" or an unsupported construct of the query.
Status CatalogError(const Status& s, std::string_view text);

}  // namespace paceline::engine
