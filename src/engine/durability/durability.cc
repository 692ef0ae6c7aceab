// The data directory: locking, recovery, appends and checkpoints (see
// durability.h).
#include "engine/durability/durability.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/steady_clock.h"
#include "engine/durability/recovery_applier.h"
#include "engine/durability/redo_record.h"
#include "engine/log/log_frame.h"
#include "engine/log/log_reader.h"
#include "engine/log/log_segments.h"

namespace paceline::engine::durability {
namespace {

constexpr size_t kCheckpointBatchBytes = 1u << 20;   // row images per kRowImages record of a checkpoint
constexpr size_t kCheckpointWriteBytes = 8u << 20;   // buffered before each write(2)

using log::IoError;
using log::ReadWholeFile;

Status MakeDir(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return Status::OK();
    errno = ENOTDIR;
  }
  return IoError("could not create directory", path);
}

std::string CheckpointName(Lsn lsn) {
  char name[64];
  std::snprintf(name, sizeof(name), "checkpoint-%016" PRIx64 ".ckpt", lsn.value());
  return name;
}

// The checkpoint files of `dir` by start LSN, newest first; leftovers of an
// interrupted checkpoint (".tmp") are removed.
std::vector<std::pair<Lsn, std::string>> ListCheckpoints(const std::string& dir) {
  std::vector<std::pair<Lsn, std::string>> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    // checkpoint-<16 hex digits>.ckpt, as CheckpointName writes it.
    const bool shaped = name.size() == 32 && name.rfind("checkpoint-", 0) == 0 && name.substr(27) == ".ckpt";
    const std::string hex = shaped ? name.substr(11, 16) : "";
    if (shaped && hex.find_first_not_of("0123456789abcdef") == std::string::npos) {
      out.emplace_back(Lsn(std::stoull(hex, nullptr, 16)), dir + "/" + name);
    } else if (name.rfind("checkpoint-", 0) == 0 && name.size() > 4 && name.substr(name.size() - 4) == ".tmp") {
      ::unlink((dir + "/" + name).c_str());
    }
  }
  ::closedir(d);
  std::sort(out.rbegin(), out.rend());
  return out;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}


}  // namespace

Status Durability::Open(const DurabilityOptions& options, catalog::Catalog* catalog, const DdlRunner& run_ddl,
                        RecoveryStats* stats, std::unique_ptr<Durability>* out) {
  if (options.data_dir.empty()) return Status(sqlstate::kInvalidParameterValue, "no data directory given");
  std::unique_ptr<Durability> d(new Durability(options));
  PL_RETURN_IF_ERROR(MakeDir(options.data_dir));
  PL_RETURN_IF_ERROR(MakeDir(d->WalDir()));
  const std::string lock_path = options.data_dir + "/LOCK";
  d->lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (d->lock_fd_ < 0) return IoError("could not open", lock_path);
  if (::flock(d->lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    return Status(sqlstate::kObjectInUse,
                  "data directory \"" + options.data_dir + "\" is in use by another process (" + lock_path + ")");
  }
  const auto start = std::chrono::steady_clock::now();
  *stats = RecoveryStats();
  PL_RETURN_IF_ERROR(d->Recover(catalog, run_ddl, stats));
  stats->seconds = SecondsSince(start);
  d->checkpoint_end_ns_.store(SteadyNowNs(), std::memory_order_relaxed);
  *out = std::move(d);
  return Status::OK();
}

Durability::~Durability() {
  writer_.reset();  // flushes and syncs
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

Status Durability::Recover(catalog::Catalog* catalog, const DdlRunner& run_ddl, RecoveryStats* stats) {
  RecoveryApplier applier(catalog);
  auto run = [&](std::string_view sql, const std::string& where) -> Status {
    PL_RETURN_IF_ERROR(applier.Flush(false));
    std::string text(sql);
    Status s = run_ddl(text);
    if (!s.ok()) {
      return Status(sqlstate::kDataCorrupted, "DDL at " + where + " failed on replay (" + s.ToString() +
                                                  "): " + text + "; recovery stopped");
    }
    ddl_history_.push_back(std::move(text));
    ++stats->ddl_statements;
    return Status::OK();
  };
  auto restore = [&](std::string_view payload, const std::string& where) -> Status {
    SequenceState state;
    if (!DecodeSequenceState(payload, &state)) {
      return Status(sqlstate::kDataCorrupted, "malformed sequence record at " + where + "; recovery stopped");
    }
    std::shared_ptr<catalog::Sequence> sequence = catalog->FindSequence(state.name);
    if (sequence == nullptr) {
      return Status(sqlstate::kDataCorrupted, "the record at " + where + " names sequence \"" +
                                                  std::string(state.name) +
                                                  "\" which does not exist at this point; recovery stopped");
    }
    sequence->Restore(state.value, state.called);
    ++stats->sequence_records;
    return Status::OK();
  };

  // The newest checkpoint. Only a complete one is ever renamed into place,
  // so a damaged one is corruption, not an interrupted write.
  Lsn from_lsn(1), need_lsn;
  const auto checkpoints = ListCheckpoints(options_.data_dir);
  if (!checkpoints.empty()) {
    const std::string& path = checkpoints.front().second;
    std::string bytes;
    PL_RETURN_IF_ERROR(ReadWholeFile(path, &bytes));
    size_t offset = 0;
    uint64_t expected = 0;
    bool ended = false;
    while (offset < bytes.size() && !ended) {
      uint64_t seq = 0;
      uint8_t type = 0;
      std::string_view payload;
      size_t frame_bytes = 0;
      const log::FrameResult r =
          log::DecodeFrame(std::string_view(bytes).substr(offset), &seq, &type, &payload, &frame_bytes);
      const std::string where = path + " at offset " + std::to_string(offset);
      if (r != log::FrameResult::kOk || seq != expected) {
        return Status(sqlstate::kDataCorrupted, "corrupted checkpoint record in " + where + "; recovery stopped");
      }
      switch (static_cast<RecordType>(type)) {
        case RecordType::kDdl:
          PL_RETURN_IF_ERROR(run(payload, where));
          break;
        case RecordType::kSequence:
          PL_RETURN_IF_ERROR(restore(payload, where));
          break;
        case RecordType::kRowImages:
          PL_RETURN_IF_ERROR(applier.Apply(payload, where, /*over_fuzzy_copy=*/false));
          break;
        case RecordType::kCheckpointEnd: {
          CheckpointEnd end;
          if (!DecodeCheckpointEnd(payload, &end)) {
            return Status(sqlstate::kDataCorrupted, "malformed checkpoint end in " + where + "; recovery stopped");
          }
          from_lsn = end.start_lsn;
          need_lsn = end.end_lsn;
          stats->checkpoint_rows = end.rows;
          ended = true;
          break;
        }
        default:
          return Status(sqlstate::kDataCorrupted, "unknown record type in " + where + "; recovery stopped");
      }
      offset += frame_bytes;
      ++expected;
    }
    if (!ended || offset != bytes.size()) {
      return Status(sqlstate::kDataCorrupted, "checkpoint " + path + " is incomplete; recovery stopped");
    }
    stats->had_checkpoint = true;
  }

  // The log after it.
  log::LogReadResult read;
  Status s = log::ReadLog(
      WalDir(), from_lsn, /*truncate_torn_tail=*/true,
      [&](Lsn lsn, uint8_t type, std::string_view payload) -> Status {
        const std::string where = "LSN " + std::to_string(lsn.value());
        switch (static_cast<RecordType>(type)) {
          case RecordType::kDdl:
            return run(payload, where);
          case RecordType::kSequence:
            return restore(payload, where);
          case RecordType::kRowImages:
            // Up to the checkpoint's end the records overlap its fuzzy copy.
            return applier.Apply(payload, where, /*over_fuzzy_copy=*/lsn <= need_lsn);
          default:
            return Status(sqlstate::kDataCorrupted, "unknown record type at " + where + "; recovery stopped");
        }
      },
      &read);
  PL_RETURN_IF_ERROR(s);
  PL_RETURN_IF_ERROR(applier.Flush(true));
  const Lsn next_lsn = std::max(read.next_lsn, from_lsn);
  if (need_lsn != Lsn() && next_lsn <= need_lsn) {
    return Status(sqlstate::kDataCorrupted, "the log in " + WalDir() + " ends before LSN " +
                                                std::to_string(need_lsn.value()) + ", which checkpoint " +
                                                checkpoints.front().second + " needs; recovery stopped");
  }
  stats->log_records = read.records;
  stats->log_bytes = read.bytes;
  stats->torn_tail = read.torn_tail;
  stats->next_lsn = next_lsn;

  log::LogOptions log_options;
  log_options.dir = WalDir();
  log_options.sync = options_.sync;
  log_options.segment_bytes = options_.segment_bytes;
  log_options.before_sync = options_.before_sync;
  log_options.group_commit_delay = options_.group_commit_delay;
  return log::LogWriter::Open(log_options, next_lsn, &writer_);
}

Lsn Durability::AppendRowImages(std::string_view payload) {
  const Lsn lsn = writer_->Append(static_cast<uint8_t>(RecordType::kRowImages), payload);
  // Raised before the caller publishes the images, so that whoever reads
  // them sees an end at or after this record.
  Lsn seen = commit_end_lsn_.load(std::memory_order_relaxed);
  while (seen < lsn && !commit_end_lsn_.compare_exchange_weak(seen, lsn, std::memory_order_acq_rel)) {
  }
  return lsn;
}

Lsn Durability::AppendDdl(const std::string& sql) {
  {
    std::lock_guard lock(ddl_mu_);
    ddl_history_.push_back(sql);
  }
  return writer_->Append(static_cast<uint8_t>(RecordType::kDdl), sql);
}

Lsn Durability::AppendSequence(std::string_view name, int64_t value, bool called) {
  return writer_->Append(static_cast<uint8_t>(RecordType::kSequence), EncodeSequenceState({name, value, called}));
}

uint64_t Durability::log_bytes_since_checkpoint() const {
  const uint64_t bytes = writer_->stats().bytes;
  const uint64_t at_checkpoint = checkpoint_log_bytes_.load(std::memory_order_relaxed);
  return bytes > at_checkpoint ? bytes - at_checkpoint : 0;
}

Status Durability::WriteCheckpoint(const catalog::Catalog& catalog, CheckpointStats* stats) {
  std::lock_guard one_at_a_time(checkpoint_mu_);
  const auto started = std::chrono::steady_clock::now();
  *stats = CheckpointStats();
  const uint64_t bytes_at_start = writer_->stats().bytes;
  // With no transaction between its append and its publish, every record
  // below start_lsn is published: the copy below sees it (or newer images).
  Lsn start_lsn;
  {
    std::unique_lock exclusive(install_mu_);
    start_lsn = writer_->Rotate();
  }
  stats->start_lsn = start_lsn;
  const std::string final_path = options_.data_dir + "/" + CheckpointName(start_lsn);
  const std::string tmp_path = final_path + ".tmp";
  int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return IoError("could not create", tmp_path);
  Status status;
  std::string buffer, batch;
  uint64_t seq = 0;
  // Each write's pages are handed to the disk at once (sync_file_range's
  // WRITE, as PostgreSQL's checkpoint_flush_after): left dirty, a whole
  // database's worth would be flushed in one burst that the log's next
  // fsync waits behind, stalling every commit meanwhile.
  auto frame = [&](RecordType type, std::string_view payload) {
    log::AppendFrame(seq++, static_cast<uint8_t>(type), payload, &buffer);
    if (buffer.size() >= kCheckpointWriteBytes && status.ok()) {
      status = log::WriteAll(fd, buffer.data(), buffer.size(), tmp_path);
      if (status.ok()) ::sync_file_range(fd, static_cast<off_t>(stats->bytes), static_cast<off_t>(buffer.size()),
                                         SYNC_FILE_RANGE_WRITE);
      stats->bytes += buffer.size();
      buffer.clear();
    }
  };
  {
    std::lock_guard lock(ddl_mu_);
    for (const std::string& sql : ddl_history_) frame(RecordType::kDdl, sql);
  }
  // Each sequence's logged state (the caller's shared gate keeps the set of
  // sequences fixed). A record appended before start_lsn was appended
  // under the sequence's mutex before this copy takes it, so the copy holds
  // that state or a later one; a later record is replayed after these
  // frames. Recovery never lands below a bound handed out.
  for (const std::string& name : catalog.SequenceNames()) {
    std::shared_ptr<catalog::Sequence> sequence = catalog.FindSequence(name);
    const auto [value, called] = sequence->LoggedState();
    frame(RecordType::kSequence, EncodeSequenceState({name, value, called}));
  }
  for (const std::string& name : catalog.TableNames()) {
    std::shared_ptr<storage::Table> table = catalog.FindTable(name);
    if (table == nullptr) continue;
    table->ForEachRow([&](storage::Row* row) {
      // Images stay readable while this runs: retired ones are freed only
      // after the epochs of the readers; the caller pins one.
      const storage::Tuple* tuple = row->tuple.load(std::memory_order_acquire);
      if (tuple == nullptr) return true;
      AppendRowImage(table->name(), row->row_id, tuple, &batch);
      ++stats->rows;
      if (batch.size() >= kCheckpointBatchBytes) {
        frame(RecordType::kRowImages, batch);
        batch.clear();
      }
      return status.ok();
    });
    if (!batch.empty()) {
      frame(RecordType::kRowImages, batch);
      batch.clear();
    }
  }
  {
    // No transaction is between publishing and appending now: every image
    // copied above is in a record at or before end_lsn.
    std::unique_lock exclusive(install_mu_);
    stats->end_lsn = writer_->appended_lsn();
  }
  CheckpointEnd end{start_lsn, stats->end_lsn, stats->rows};
  frame(RecordType::kCheckpointEnd, EncodeCheckpointEnd(end));
  if (status.ok() && !buffer.empty()) {
    status = log::WriteAll(fd, buffer.data(), buffer.size(), tmp_path);
    stats->bytes += buffer.size();
  }
  if (status.ok() && ::fsync(fd) != 0) status = IoError("could not fsync", tmp_path);
  ::close(fd);
  if (status.ok() && stats->end_lsn >= start_lsn) status = writer_->SyncTo(stats->end_lsn);
  if (status.ok() && ::rename(tmp_path.c_str(), final_path.c_str()) != 0) {
    status = IoError("could not rename", tmp_path);
  }
  if (status.ok()) status = log::SyncDirectory(options_.data_dir);
  if (!status.ok()) {
    ::unlink(tmp_path.c_str());
    return status;
  }
  // The new checkpoint is in place: older ones and the log before it go.
  for (const auto& [lsn, path] : ListCheckpoints(options_.data_dir)) {
    if (lsn < start_lsn) ::unlink(path.c_str());
  }
  PL_RETURN_IF_ERROR(writer_->DeleteSegmentsBefore(start_lsn, &stats->segments_deleted));
  checkpoint_log_bytes_.store(bytes_at_start, std::memory_order_relaxed);
  last_checkpoint_bytes_.store(stats->bytes, std::memory_order_relaxed);
  stats->seconds = SecondsSince(started);
  checkpoints_.fetch_add(1, std::memory_order_relaxed);
  last_checkpoint_seconds_.store(stats->seconds, std::memory_order_relaxed);
  checkpoint_end_ns_.store(SteadyNowNs(), std::memory_order_relaxed);
  return Status::OK();
}

DurabilityStats Durability::Stats() const {
  DurabilityStats stats;
  stats.log = writer_->stats();
  stats.sync_latency = writer_->sync_latency();
  stats.checkpoints = checkpoints_.load(std::memory_order_relaxed);
  stats.last_checkpoint_seconds = last_checkpoint_seconds_.load(std::memory_order_relaxed);
  stats.checkpoint_age_seconds =
      static_cast<double>(SteadyNowNs() - checkpoint_end_ns_.load(std::memory_order_relaxed)) / 1e9;
  stats.log_bytes_since_checkpoint = log_bytes_since_checkpoint();
  return stats;
}

}  // namespace paceline::engine::durability
