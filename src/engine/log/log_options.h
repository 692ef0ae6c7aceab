// LogOptions: how the redo log (log_writer.h) is laid out and when a commit
// counts as durable.
//
// SyncMode decides when WhenDurable/WaitDurable report a record durable:
//   kFsync      after write(2) and fsync(2) of the segment holding it;
//   kFdatasync  after write(2) and fdatasync(2) (no file-metadata flush
//               beyond what reading the data back needs);
//   kOff        at once, before the write: the writer still writes every
//               record in order and syncs at least every kOffSyncInterval,
//               so a process crash loses nothing written, an OS crash or
//               power loss at most the last few milliseconds of commits
//               (never part of one: recovery cuts a torn record).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline::engine::log {

enum class SyncMode { kFsync, kFdatasync, kOff };

// "fsync" | "fdatasync" | "off"; 22023 naming the valid values otherwise.
Status ParseSyncMode(std::string_view text, SyncMode* out);
std::string_view SyncModeName(SyncMode mode);

// With SyncMode::kOff, the writer syncs at least this often while it has
// written something not yet synced.
inline constexpr std::chrono::milliseconds kOffSyncInterval{10};
// A batch this large is written without waiting out the group commit delay.
inline constexpr size_t kGroupBytes = 1u << 20;

struct LogOptions {
  std::string dir;                  // the segments' directory (created by the caller)
  SyncMode sync = SyncMode::kFsync;
  size_t segment_bytes = 64u << 20; // a new segment once the current one is this large
  // Group commit delay (as PostgreSQL's commit_delay): when the previous
  // batch held more than one record (others are committing too), the
  // writer waits this long after a batch's first record for more before it
  // writes and syncs: fewer, larger syncs (each costs CPU and, on a virtual
  // machine, exits to the host) for that much more commit latency. A lone
  // committer (the previous batch held one record) is never delayed;
  // neither is a batch that reaches kGroupBytes, nor a sync a thread
  // blocks on (SyncTo, WaitDurable). 0: write as soon as there is something.
  std::chrono::microseconds group_commit_delay{0};
  // Tests only: run on the writer thread before each sync of a batch (to
  // hold the log back and watch what waits for it).
  std::function<void()> before_sync;
};

}  // namespace paceline::engine::log
