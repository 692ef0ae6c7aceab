// Log segments: the files of a redo log directory, `wal-<first LSN, 16 hex
// digits>.log`, each holding the frames (log_frame.h) of consecutive LSNs
// from its first one; the next segment starts where it ends. The writer
// (log_writer.h) fills the newest one; the reader (log_reader.h) reads them
// in order; checkpoints delete the ones they make useless.
//
// Thread-safety: stateless functions (the file system is the shared state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/ids.h"
#include "common/status.h"

namespace paceline::engine::log {

struct Segment {
  Lsn first_lsn;
  std::string path;
};

std::string SegmentPath(const std::string& dir, Lsn first_lsn);
// The segments of `dir` by first LSN (other files are ignored).
Status ListSegments(const std::string& dir, std::vector<Segment>* out);

// Small POSIX helpers of the log and the data directory; errors are 58030
// naming the path and the system's reason.
Status IoError(const std::string& what, const std::string& path);
Status WriteAll(int fd, const char* data, size_t size, const std::string& path);
Status ReadWholeFile(const std::string& path, std::string* out);
Status SyncDirectory(const std::string& path);

}  // namespace paceline::engine::log
