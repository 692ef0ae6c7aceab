// Lsn: a log sequence number, the position of a record in the redo log.
// The log hands them out in order from 1; Lsn() (0) means "none": nothing
// was logged, so there is nothing to wait for or to replay from.
//
// Thread-safety: a plain value (std::atomic<Lsn> where shared).
#pragma once

#include <cstdint>

#include "common/strong_id.h"

namespace paceline {

struct LsnTag {};
using Lsn = StrongId<LsnTag, uint64_t>;

}  // namespace paceline
