// The ids that cross layers, each a StrongId (strong_id.h) of its own so
// that one is never passed for another or for a plain count:
//
//   Lsn       a log sequence number, the position of a record in the redo
//             log. The log hands them out in order from 1; Lsn() (0) means
//             "none": nothing was logged, nothing to wait for.
//   TableId   a table of this process (storage::Table::id(), Row::table_id),
//             from 1, never reused; it names a conflict's table to the
//             scheduler (footprint.h's TableBit). Lost at restart, unlike an
//             OID. TableId() (0) means "no table" (kNoCulpritTable: the
//             CC could not name one).
//   TxnTimestamp  a transaction's age, from 1 in order of first attempt
//             (smaller is older); a retried transaction keeps its first, so
//             the 2PL rules (wait-die, wound-wait) never starve it.
//             TxnTimestamp() (0) means "not yet given one".
//
// Thread-safety: plain values (std::atomic<Lsn> where shared).
#pragma once

#include <atomic>
#include <cstdint>

#include "common/strong_id.h"

namespace paceline {

struct LsnTag {};
using Lsn = StrongId<LsnTag, uint64_t>;

struct TableIdTag {};
using TableId = StrongId<TableIdTag, uint32_t>;

struct TxnTimestampTag {};
using TxnTimestamp = StrongId<TxnTimestampTag, uint64_t>;

static_assert(std::atomic<Lsn>::is_always_lock_free);  // durability's commit end is one

}  // namespace paceline
