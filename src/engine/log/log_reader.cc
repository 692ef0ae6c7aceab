// Reading the redo log for recovery (see log_reader.h).
#include "engine/log/log_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "engine/log/log_frame.h"
#include "engine/log/log_segments.h"

namespace paceline::engine::log {
namespace {

Status Corrupted(const std::string& message) { return Status(sqlstate::kDataCorrupted, message + "; recovery stopped"); }

// Whether an intact frame whose LSN is at least `min_lsn` starts anywhere in
// `bytes` (a cheap look at the header first, the checksum only then).
bool IntactFrameFollows(std::string_view bytes, Lsn min_lsn) {
  for (size_t at = 0; at + kFrameHeaderBytes <= bytes.size(); ++at) {
    const char* h = bytes.data() + at;
    uint64_t lsn = 0;
    uint32_t size = 0;
    std::memcpy(&lsn, h + 8, 8);
    std::memcpy(&size, h, 4);
    if (h[5] != 0 || h[6] != 0 || h[7] != 0 || lsn < min_lsn.value() || lsn - min_lsn.value() > (1ull << 40) ||
        size > bytes.size() - at - kFrameHeaderBytes) {
      continue;
    }
    uint64_t seq;
    uint8_t type;
    std::string_view payload;
    size_t frame_bytes;
    if (DecodeFrame(bytes.substr(at), &seq, &type, &payload, &frame_bytes) == FrameResult::kOk) return true;
  }
  return false;
}

Status Truncate(const std::string& path, size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return IoError("could not open", path);
  Status s;
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) s = IoError("could not truncate", path);
  if (s.ok() && ::fsync(fd) != 0) s = IoError("could not fsync", path);
  ::close(fd);
  return s;
}

}  // namespace

Status ReadLog(const std::string& dir, Lsn from_lsn, bool truncate_torn_tail, const LogRecordFn& fn,
               LogReadResult* result) {
  *result = LogReadResult();
  if (from_lsn == Lsn()) from_lsn = Lsn(1);
  result->next_lsn = from_lsn;
  std::vector<Segment> segments;
  PL_RETURN_IF_ERROR(ListSegments(dir, &segments));
  // Start at the newest segment that begins at or before from_lsn.
  size_t first = 0;
  while (first + 1 < segments.size() && segments[first + 1].first_lsn <= from_lsn) ++first;
  if (first < segments.size() && segments[first].first_lsn > from_lsn) {
    return Corrupted("the redo log in " + dir + " starts at LSN " + std::to_string(segments[first].first_lsn.value()) +
                     " but LSN " + std::to_string(from_lsn.value()) + " is needed (a segment is missing)");
  }
  std::string bytes;
  Lsn expected = first < segments.size() ? segments[first].first_lsn : from_lsn;
  for (size_t i = first; i < segments.size(); ++i) {
    const Segment& segment = segments[i];
    if (segment.first_lsn != expected) {
      return Corrupted("redo log segment " + segment.path + " starts at LSN " + std::to_string(segment.first_lsn.value()) +
                       " where LSN " + std::to_string(expected.value()) + " was expected (a segment is missing)");
    }
    PL_RETURN_IF_ERROR(ReadWholeFile(segment.path, &bytes));
    const std::string_view view(bytes);
    size_t offset = 0;
    while (offset < view.size()) {
      uint64_t seq = 0;
      uint8_t type = 0;
      std::string_view payload;
      size_t frame_bytes = 0;
      const FrameResult r = DecodeFrame(view.substr(offset), &seq, &type, &payload, &frame_bytes);
      const std::string where = segment.path + " at offset " + std::to_string(offset);
      const Lsn lsn(seq);
      if (r == FrameResult::kOk && lsn != expected) {
        return Corrupted("redo log record in " + where + " has LSN " + std::to_string(seq) + " where LSN " +
                         std::to_string(expected.value()) + " was expected");
      }
      if (r != FrameResult::kOk) {
        const bool newest = i + 1 == segments.size();
        if (!newest || IntactFrameFollows(view.substr(offset + 1), expected)) {
          return Corrupted(std::string(r == FrameResult::kTruncated ? "truncated" : "corrupted") +
                           " redo log record in " + where + " (LSN " + std::to_string(expected.value()) + " expected)");
        }
        result->torn_tail = true;
        if (truncate_torn_tail) PL_RETURN_IF_ERROR(Truncate(segment.path, offset));
        break;
      }
      if (lsn >= from_lsn) {
        Status s = fn(lsn, type, payload);
        if (!s.ok()) return Status(s.sqlstate(), s.message() + " (redo log " + where + ")");
        ++result->records;
        result->bytes += frame_bytes;
      }
      expected = expected.Next();
      offset += frame_bytes;
    }
  }
  result->next_lsn = std::max(expected, from_lsn);
  return Status::OK();
}

}  // namespace paceline::engine::log
