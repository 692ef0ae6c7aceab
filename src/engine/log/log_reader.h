// ReadLog: reads a redo log directory (log_segments.h) in LSN order for
// recovery, telling a torn end from damage.
//
// Every frame must be intact and carry the next LSN. A frame that is not
// (checksum or header wrong, or cut short by the end of the file) is:
//   - a torn tail when it is in the newest segment and no intact frame of
//     a later LSN starts anywhere after it: the last write before a crash
//     did not finish. It is cut off (the file truncated there and synced,
//     when asked), and reading ends normally. A damaged last record cannot
//     be told from a torn one, and is treated the same way.
//   - corruption otherwise (an intact record follows it, or it is in an
//     older segment, which the writer synced before starting the next):
//     XX001 naming the file, the offset and the LSN expected, and nothing
//     after it is read. Records are never skipped silently.
// A gap in the LSNs between segments, or a first segment that starts after
// `from_lsn`, is corruption too (a segment is missing).
//
// Thread-safety: a function; nobody may write the directory meanwhile.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/ids.h"
#include "common/status.h"

namespace paceline::engine::log {

struct LogReadResult {
  uint64_t records = 0;     // passed to the callback (LSN >= from_lsn)
  uint64_t bytes = 0;       // their frames' bytes
  bool torn_tail = false;   // a torn last record was cut off
  Lsn next_lsn{1};    // the LSN the next appended record gets
};

// Called for each intact record with LSN >= from_lsn, in order; an error
// stops the reading and is returned with the file and offset added.
using LogRecordFn = std::function<Status(Lsn lsn, uint8_t type, std::string_view payload)>;

Status ReadLog(const std::string& dir, Lsn from_lsn, bool truncate_torn_tail, const LogRecordFn& fn,
               LogReadResult* result);

}  // namespace paceline::engine::log
