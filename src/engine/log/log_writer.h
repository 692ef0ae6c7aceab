// LogWriter: the redo log's single writer thread, with group commit.
//
// Committing threads Append records (an LSN each, in append order) to an
// in-memory buffer and go on; they never touch the disk. The writer thread
// takes everything appended since its last write, writes it to the newest
// segment (log_segments.h) in one write(2), syncs it once (SyncMode), and
// then reports every LSN up to the batch's last one durable: the commits of
// many workers share one write and one sync, and the batch grows by itself
// while a sync is in progress. Waiting for durability is separate from
// appending: WhenDurable calls back (on the writer thread) so that a worker
// never blocks on the disk; WaitDurable blocks the calling thread (sessions,
// DDL). With SyncMode::kOff both report at once (see log_options.h).
//
// Segments: a new one starts when the current one has reached
// segment_bytes (between batches, so it may exceed that by one batch), on
// Rotate (a checkpoint's start), and at Open. Before starting a segment the
// writer syncs the one it leaves, whatever the mode, so only the newest
// segment can end in a torn record (log_reader.h relies on it).
//
// An I/O error is sticky: every waiter, now and later, gets it (58030), and
// nothing more is written; the database must be restarted (recovery keeps
// what was durable).
//
// Thread-safety: every method from any thread. Ownership: owns its thread
// and its open segment; callbacks are run on its thread (keep them short).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/ids.h"
#include "common/status.h"
#include "engine/execution/latency_histogram.h"
#include "engine/log/log_options.h"

namespace paceline::engine::log {

struct LogWriterStats {
  uint64_t appends = 0;   // records appended
  uint64_t bytes = 0;     // their frames' bytes
  uint64_t writes = 0;    // batches written (write(2) calls, one per batch and segment)
  uint64_t syncs = 0;     // fsync/fdatasync calls
  uint64_t segments = 0;  // segments started
};

class LogWriter {
 public:
  using DurableFn = std::function<void(const Status&)>;

  // Starts a new segment whose first record will have `next_lsn` (recovery
  // says which) in options.dir, which must exist.
  static Status Open(const LogOptions& options, Lsn next_lsn, std::unique_ptr<LogWriter>* out);
  // Writes and syncs everything appended, runs the last callbacks, stops.
  ~LogWriter();
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Queues one record; returns its LSN. Never blocks on I/O.
  Lsn Append(uint8_t type, std::string_view payload);
  // Records appended from now on go to a new segment; returns the LSN the
  // next record gets.
  Lsn Rotate();

  // Each fsync/fdatasync's duration in ns so far (a snapshot; any thread).
  LatencyHistogram sync_latency() const { return sync_latency_; }

  Lsn appended_lsn() const;  // the last LSN handed out (next - 1)
  Lsn durable_lsn() const;   // the last LSN written and synced

  // fn(OK) once `lsn` is durable (at once if it is, or with kOff); fn(the
  // I/O error) if the log failed.
  void WhenDurable(Lsn lsn, DurableFn fn);
  // Blocks until `lsn` is durable (kOff: returns at once); the I/O error if
  // the log failed.
  Status WaitDurable(Lsn lsn);
  // Blocks until `lsn` is written and synced, whatever the mode
  // (checkpoints need it even with kOff).
  Status SyncTo(Lsn lsn);

  // Deletes the segments all of whose records have LSNs below `lsn` (the
  // current segment never); waits first until the writer has started the
  // segment a Rotate that returned `lsn` asked for.
  Status DeleteSegmentsBefore(Lsn lsn, size_t* deleted);

  LogWriterStats stats() const;

 private:
  LogWriter(const LogOptions& options, Lsn next_lsn);
  void Run();
  // Writer thread, without mu_: writes `batch` (cut at `rotations`), then
  // syncs when `sync`.
  Status WriteBatch(const std::string& batch, const std::vector<std::pair<size_t, Lsn>>& rotations,
                    Lsn next_lsn, bool sync);
  Status StartSegment(Lsn first_lsn);
  Status SyncCurrent();

  const LogOptions options_;

  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // the writer waits for appends
  std::condition_variable done_cv_;  // waiters wait for the writer
  Lsn next_lsn_;                // next LSN to hand out
  std::string pending_;              // frames appended, not yet taken by the writer
  std::vector<std::pair<size_t, Lsn>> rotations_;  // (offset in pending_, first LSN) of Rotate calls
  Lsn written_lsn_;             // written by write(2)
  Lsn synced_lsn_;              // and synced
  Lsn sync_requested_;      // SyncTo's target (kOff)
  Lsn current_first_lsn_;       // first LSN of the segment being written
  std::multimap<Lsn, DurableFn> waiters_;
  bool writer_idle_ = false;      // the writer waits for a first record: Append wakes it
  bool writer_delaying_ = false;  // the writer waits out the group commit delay
  Status error_;
  bool stop_ = false;
  LogWriterStats stats_;

  // The writer thread's own (no lock; Open's before the thread starts).
  int fd_ = -1;
  std::string path_;
  uint64_t segment_bytes_written_ = 0;
  Lsn current_first_written_;  // published as current_first_lsn_
  LatencyHistogram sync_latency_;        // written by the writer thread only; read by sync_latency()
  std::thread thread_;
};

}  // namespace paceline::engine::log
