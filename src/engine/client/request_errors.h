// The errors of a client's request as the client must see them: a
// statement's error positioned in the whole text it sent.
//
// Pure functions; thread-safe.
#pragma once

#include <string_view>

#include "common/status.h"

namespace paceline::engine {

// The same error with its position moved by `offset` characters (a
// statement's position within the whole Query text).
Status Shift(const Status& s, int offset);

}  // namespace paceline::engine
