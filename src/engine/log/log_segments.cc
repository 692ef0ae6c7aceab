// Segment names and file helpers (see log_segments.h).
#include "engine/log/log_segments.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace paceline::engine::log {

std::string SegmentPath(const std::string& dir, Lsn first_lsn) {
  char name[40];
  std::snprintf(name, sizeof(name), "wal-%016" PRIx64 ".log", first_lsn.value());
  return dir + "/" + name;
}

Status ListSegments(const std::string& dir, std::vector<Segment>* out) {
  out->clear();
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return IoError("could not open directory", dir);
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() != 24 || name.rfind("wal-", 0) != 0 || name.substr(20) != ".log") continue;
    const std::string hex = name.substr(4, 16);
    if (hex.find_first_not_of("0123456789abcdef") != std::string::npos) continue;
    out->push_back({Lsn(std::stoull(hex, nullptr, 16)), dir + "/" + name});
  }
  ::closedir(d);
  std::sort(out->begin(), out->end(), [](const Segment& a, const Segment& b) { return a.first_lsn < b.first_lsn; });
  return Status::OK();
}

Status IoError(const std::string& what, const std::string& path) {
  return Status(sqlstate::kIoError, what + " \"" + path + "\": " + std::strerror(errno));
}

Status WriteAll(int fd, const char* data, size_t size, const std::string& path) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("could not write", path);
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::OK();
}

Status ReadWholeFile(const std::string& path, std::string* out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("could not open", path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const Status s = IoError("could not stat", path);
    ::close(fd);
    return s;
  }
  out->resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out->size()) {
    const ssize_t n = ::read(fd, out->data() + done, out->size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // shorter than fstat said
      const Status s = IoError("could not read", path);
      ::close(fd);
      return s;
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return Status::OK();
}

Status SyncDirectory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("could not open directory", path);
  const int rc = ::fsync(fd);
  const Status s = rc == 0 ? Status::OK() : IoError("could not fsync directory", path);
  ::close(fd);
  return s;
}

}  // namespace paceline::engine::log
