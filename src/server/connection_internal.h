// What the files Connection is split into (connection*.cc) share: the
// rules for the errors of a scheduled request, and decoding a Parse.
// Private to src/server.
#pragma once

#include <cstddef>
#include <string_view>

#include "common/status.h"
#include "engine/client/client_request.h"
#include "engine/transaction_request.h"

namespace paceline::server::connection_internal {

// The same error with its position moved by `offset` characters (a
// statement's position within the whole Query text).
Status Shift(const Status& s, int offset);

// The index of the statement that failed in a scheduled request with
// `calls` statements, or `calls` when they all ran and the commit failed.
size_t FailedCall(const engine::TransactionResult& r, size_t calls);

// Clients query the system catalogs on their own (psql's \d, pgbench's
// partition check); Paceline has none: say so rather than "relation
// pg_class does not exist" or an unsupported construct of the query.
Status CatalogError(const Status& s, std::string_view text);

// A Parse message's body: its name, text and declared parameter types
// (OIDs, through TypeFromOid; 0 or a type Paceline lacks is kUnknown).
// The views borrow `body`.
Status DecodeParse(std::string_view body, engine::ParseMessage* out);

}  // namespace paceline::server::connection_internal
