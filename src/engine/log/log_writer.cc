// The redo log's writer thread and group commit (see log_writer.h).
#include "engine/log/log_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "engine/log/log_frame.h"
#include "engine/log/log_segments.h"

namespace paceline::engine::log {

LogWriter::LogWriter(const LogOptions& options, Lsn next_lsn)
    : options_(options),
      next_lsn_(next_lsn),
      written_lsn_(next_lsn.Prev()),
      synced_lsn_(next_lsn.Prev()),
      current_first_lsn_(next_lsn) {}

Status LogWriter::Open(const LogOptions& options, Lsn next_lsn, std::unique_ptr<LogWriter>* out) {
  if (next_lsn == Lsn()) next_lsn = Lsn(1);
  std::unique_ptr<LogWriter> writer(new LogWriter(options, next_lsn));
  PL_RETURN_IF_ERROR(writer->StartSegment(next_lsn));
  writer->thread_ = std::thread([w = writer.get()] { w->Run(); });
  *out = std::move(writer);
  return Status::OK();
}

LogWriter::~LogWriter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_one();
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
}

Lsn LogWriter::Append(uint8_t type, std::string_view payload) {
  const uint64_t hash = PayloadHash(payload);  // the costly part, outside the lock
  Lsn lsn;
  bool wake;
  {
    std::lock_guard lock(mu_);
    lsn = next_lsn_;
    next_lsn_ = next_lsn_.Next();
    const size_t before = pending_.size();
    AppendFrame(lsn.value(), type, payload, hash, &pending_);
    ++stats_.appends;
    stats_.bytes += pending_.size() - before;
    // The writer is woken by the first record it waits for, or by a batch
    // that is full during its delay; not by every record (no futex call,
    // no context switch per commit).
    wake = writer_idle_ || (writer_delaying_ && pending_.size() >= kGroupBytes);
    if (writer_idle_) writer_idle_ = false;
  }
  if (wake) work_cv_.notify_one();
  return lsn;
}

Lsn LogWriter::Rotate() {
  Lsn lsn;
  {
    std::lock_guard lock(mu_);
    lsn = next_lsn_;
    rotations_.emplace_back(pending_.size(), lsn);
  }
  work_cv_.notify_one();
  return lsn;
}

Lsn LogWriter::appended_lsn() const {
  std::lock_guard lock(mu_);
  return next_lsn_.Prev();
}

Lsn LogWriter::durable_lsn() const {
  std::lock_guard lock(mu_);
  return synced_lsn_;
}

LogWriterStats LogWriter::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void LogWriter::WhenDurable(Lsn lsn, DurableFn fn) {
  std::unique_lock lock(mu_);
  if (options_.sync == SyncMode::kOff || lsn <= synced_lsn_ || !error_.ok()) {
    const Status s = lsn <= synced_lsn_ ? Status::OK() : error_;
    lock.unlock();
    fn(s);
    return;
  }
  waiters_.emplace(lsn, std::move(fn));
}

Status LogWriter::WaitDurable(Lsn lsn) {
  if (options_.sync == SyncMode::kOff) {
    std::lock_guard lock(mu_);
    return lsn <= synced_lsn_ ? Status::OK() : error_;
  }
  return SyncTo(lsn);
}

Status LogWriter::SyncTo(Lsn lsn) {
  std::unique_lock lock(mu_);
  lsn = std::min(lsn, next_lsn_.Prev());
  if (synced_lsn_ < lsn && error_.ok()) {
    sync_requested_ = std::max(sync_requested_, lsn);
    work_cv_.notify_one();
    done_cv_.wait(lock, [&] { return synced_lsn_ >= lsn || !error_.ok(); });
  }
  return synced_lsn_ >= lsn ? Status::OK() : error_;
}

Status LogWriter::DeleteSegmentsBefore(Lsn lsn, size_t* deleted) {
  *deleted = 0;
  Lsn current;
  {
    std::unique_lock lock(mu_);
    done_cv_.wait(lock, [&] { return current_first_lsn_ >= lsn || !error_.ok(); });
    if (current_first_lsn_ < lsn) return error_;
    current = current_first_lsn_;
  }
  std::vector<Segment> segments;
  PL_RETURN_IF_ERROR(ListSegments(options_.dir, &segments));
  for (size_t i = 0; i + 1 < segments.size(); ++i) {
    // Segment i holds LSNs [first_i, first_{i+1}).
    if (segments[i].first_lsn >= current || segments[i + 1].first_lsn > lsn) break;
    if (::unlink(segments[i].path.c_str()) != 0) return IoError("could not delete", segments[i].path);
    ++*deleted;
  }
  return *deleted > 0 ? SyncDirectory(options_.dir) : Status::OK();
}

void LogWriter::Run() {
  using Clock = std::chrono::steady_clock;
  const bool off = options_.sync == SyncMode::kOff;
  std::string batch;
  std::vector<std::pair<size_t, Lsn>> rotations;
  std::vector<DurableFn> ready;
  auto last_sync = Clock::now();
  uint64_t last_batch_records = 0;  // records in the last batch written
  std::unique_lock lock(mu_);
  while (true) {
    // After an error only appends (dropped) and the stop are work: a sync
    // requested in vain must not spin.
    auto has_work = [&] {
      return stop_ || !pending_.empty() || !rotations_.empty() || (error_.ok() && sync_requested_ > synced_lsn_);
    };
    writer_idle_ = true;
    if (off && error_.ok() && written_lsn_ > synced_lsn_) {
      work_cv_.wait_for(lock, kOffSyncInterval, has_work);  // kOff: sync what was written within the interval
    } else {
      work_cv_.wait(lock, has_work);
    }
    writer_idle_ = false;
    if (options_.group_commit_delay.count() > 0 && last_batch_records > 1 && error_.ok() && !stop_ &&
        !pending_.empty() && rotations_.empty() && sync_requested_ <= synced_lsn_ && pending_.size() < kGroupBytes) {
      writer_delaying_ = true;
      work_cv_.wait_for(lock, options_.group_commit_delay, [&] {
        return stop_ || pending_.size() >= kGroupBytes || !rotations_.empty() || sync_requested_ > synced_lsn_;
      });
      writer_delaying_ = false;
    }
    const bool stopping = stop_;
    batch.clear();
    batch.swap(pending_);
    rotations.clear();
    rotations.swap(rotations_);
    const Lsn first = written_lsn_.Next(), last = next_lsn_.Prev();
    if (!batch.empty()) last_batch_records = last.value() - first.value() + 1;
    const bool sync = !off || stopping || sync_requested_ > synced_lsn_ || Clock::now() - last_sync >= kOffSyncInterval;
    const bool unsynced = last > synced_lsn_;
    if (error_.ok() && (!batch.empty() || !rotations.empty() || (sync && unsynced))) {
      lock.unlock();
      Status s = WriteBatch(batch, rotations, first, sync && unsynced);
      lock.lock();
      if (!batch.empty()) ++stats_.writes;
      if (s.ok()) {
        written_lsn_ = last;
        if (sync && unsynced) {
          synced_lsn_ = last;
          ++stats_.syncs;
          last_sync = Clock::now();
        }
      } else if (error_.ok()) {
        error_ = Status(s.sqlstate(), "the redo log failed, nothing more is durable: " + s.message());
      }
      current_first_lsn_ = current_first_written_;
    }
    // Everyone whose record is durable now hears so; on an error, everyone
    // still waiting hears the error.
    const Status report = error_;
    auto end = report.ok() ? waiters_.upper_bound(synced_lsn_) : waiters_.end();
    for (auto it = waiters_.begin(); it != end; ++it) ready.push_back(std::move(it->second));
    waiters_.erase(waiters_.begin(), end);
    done_cv_.notify_all();
    if (!ready.empty()) {
      lock.unlock();
      for (DurableFn& fn : ready) fn(report);
      ready.clear();
      lock.lock();
    }
    if (stopping && pending_.empty() && rotations_.empty()) break;
  }
}

Status LogWriter::WriteBatch(const std::string& batch, const std::vector<std::pair<size_t, Lsn>>& rotations,
                             Lsn first_lsn, bool sync) {
  // A full segment is left between batches (at a record boundary).
  if (!batch.empty() && segment_bytes_written_ >= options_.segment_bytes &&
      (rotations.empty() || rotations.front().first > 0)) {
    PL_RETURN_IF_ERROR(StartSegment(first_lsn));
  }
  size_t at = 0;
  for (const auto& [offset, lsn] : rotations) {
    PL_RETURN_IF_ERROR(WriteAll(fd_, batch.data() + at, offset - at, path_));
    segment_bytes_written_ += offset - at;
    at = offset;
    if (lsn != current_first_written_ || segment_bytes_written_ > 0) PL_RETURN_IF_ERROR(StartSegment(lsn));
  }
  PL_RETURN_IF_ERROR(WriteAll(fd_, batch.data() + at, batch.size() - at, path_));
  segment_bytes_written_ += batch.size() - at;
  if (!sync) return Status::OK();
  if (options_.before_sync) options_.before_sync();
  return SyncCurrent();
}

Status LogWriter::StartSegment(Lsn first_lsn) {
  if (fd_ >= 0) {
    // Only the newest segment may end torn: the one left is synced first.
    PL_RETURN_IF_ERROR(SyncCurrent());
    ::close(fd_);
    fd_ = -1;
  }
  path_ = SegmentPath(options_.dir, first_lsn);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd_ < 0) return IoError("could not create", path_);
  struct stat st;
  if (::fstat(fd_, &st) != 0) return IoError("could not stat", path_);
  if (st.st_size != 0) {
    return Status(sqlstate::kInternalError, "redo log segment \"" + path_ + "\" already holds records");
  }
  PL_RETURN_IF_ERROR(SyncDirectory(options_.dir));
  segment_bytes_written_ = 0;
  current_first_written_ = first_lsn;
  std::lock_guard lock(mu_);
  ++stats_.segments;
  return Status::OK();
}

Status LogWriter::SyncCurrent() {
  const auto start = std::chrono::steady_clock::now();
  const int rc = options_.sync == SyncMode::kFsync ? ::fsync(fd_) : ::fdatasync(fd_);
  sync_latency_.Record(static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count()));
  return rc == 0 ? Status::OK() : IoError(options_.sync == SyncMode::kFsync ? "could not fsync" : "could not fdatasync", path_);
}

}  // namespace paceline::engine::log
