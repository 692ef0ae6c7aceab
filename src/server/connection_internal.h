// What the files Connection is split into (connection*.cc) share: decoding
// a Parse message. Private to src/server.
#pragma once

#include <string_view>

#include "common/status.h"
#include "engine/client/client_request.h"

namespace paceline::server::connection_internal {

// A Parse message's body: its name, text and declared parameter types
// (OIDs, through TypeFromOid; 0 or a type Paceline lacks is kUnknown).
// The views borrow `body`.
Status DecodeParse(std::string_view body, engine::ParseMessage* out);

}  // namespace paceline::server::connection_internal
