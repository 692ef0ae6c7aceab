// Durability: the data directory of a database — its redo log (group
// commit, see log/log_writer.h), its checkpoints, and recovery from them.
//
// Layout of a data directory:
//   LOCK                      held (flock) while a database has it open
//   wal/wal-<first LSN>.log   redo log segments (frames of redo_record.h)
//   checkpoint-<LSN>.ckpt     the newest complete checkpoint (older ones and
//                             the segments it makes useless are deleted)
//
// Commit protocol (early lock release, as in the CHARM lesson for a
// main-memory engine): a transaction encodes its row images, appends its
// record and only then publishes its new images and index changes, while
// its concurrency control still holds the write set (all under
// InstallGuard); then it releases everything and only afterwards waits, off
// its worker, for the record to be durable (WhenDurable / WaitDurable).
// Appending before publishing is what orders the log: whatever another
// transaction can see of this one — an image, a key it freed from an
// index, the absence of a row it deleted — is visible only after this
// record is in the log, so a transaction that depends on it (even without
// touching its rows) commits later in the log, and its durability implies
// this one's. A read-only transaction waits for the log end it saw
// (appended_lsn), so nobody is told what a crash could lose.
//
// Checkpoints are fuzzy: WriteCheckpoint notes the log end (start LSN)
// under the exclusive InstallGuard (no record below it is still
// unpublished), copies every live row while transactions go on, then notes
// the log end again under the exclusive InstallGuard (end LSN: every image
// it copied was logged at or before it) and waits for the log to be
// durable to there.
// Recovery loads it and replays the log from the start LSN; replaying an
// image over a newer copy is harmless because a later record of that row
// follows in the log (redo_record.h). DDL cannot run during a checkpoint
// (the caller holds the database's gate shared), and the catalog is
// recreated by running again every DDL statement the database has run.
//
// Thread-safety: Append*, WhenDurable, WaitDurable, InstallGuard and the
// accessors from any thread; WriteCheckpoint from one thread at a time.
// Ownership: owned by the Database; borrows the catalog it recovers into.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "common/ids.h"
#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "engine/log/log_options.h"
#include "engine/log/log_writer.h"

namespace paceline::engine::durability {

struct DurabilityOptions {
  std::string data_dir;
  log::SyncMode sync = log::SyncMode::kFsync;
  size_t segment_bytes = 64u << 20;
  std::chrono::microseconds group_commit_delay{0};  // log::LogOptions::group_commit_delay
  std::function<void()> before_sync;  // tests only: log::LogOptions::before_sync
};

// What Open found and did.
struct RecoveryStats {
  bool had_checkpoint = false;
  uint64_t checkpoint_rows = 0;
  uint64_t log_records = 0;   // replayed after the checkpoint
  uint64_t log_bytes = 0;
  uint64_t ddl_statements = 0;
  uint64_t sequence_records = 0;  // kSequence records replayed (checkpoint and log)
  bool torn_tail = false;     // an incomplete last record was cut off
  Lsn next_lsn{1};
  double seconds = 0;
};

struct CheckpointStats {
  Lsn start_lsn, end_lsn;
  uint64_t rows = 0, bytes = 0;
  size_t segments_deleted = 0;
  double seconds = 0;
};

// What a monitor shows of durability (Durability::Stats, the metrics page).
struct DurabilityStats {
  log::LogWriterStats log;
  LatencyHistogram sync_latency;      // each fsync/fdatasync of the log, ns
  uint64_t checkpoints = 0;           // written since Open
  double last_checkpoint_seconds = 0; // how long the newest of those took
  // Since the newest checkpoint this process wrote ended, or since Open
  // when it has written none yet; and the log bytes appended since then
  // (what a recovery would replay beyond a checkpoint).
  double checkpoint_age_seconds = 0;
  uint64_t log_bytes_since_checkpoint = 0;
};

class Durability {
 public:
  // Runs one DDL statement while recovering (the database's own DDL path,
  // which must not log it again).
  using DdlRunner = std::function<Status(const std::string& sql)>;

  // Opens (creating) options.data_dir, locks it, and recovers its content
  // into `catalog` (which must be empty): the newest checkpoint, then the
  // log. XX001 naming the file and offset when a record before the end of
  // the log is corrupted; 55006 when another process has the directory
  // open; 58030 on I/O errors.
  static Status Open(const DurabilityOptions& options, catalog::Catalog* catalog, const DdlRunner& run_ddl,
                     RecoveryStats* stats, std::unique_ptr<Durability>* out);
  ~Durability();  // the log writer flushes and syncs what was appended
  Durability(const Durability&) = delete;
  Durability& operator=(const Durability&) = delete;

  // Held (shared) by a committing transaction from before it publishes its
  // images until its record is appended.
  std::shared_lock<std::shared_mutex> InstallGuard() { return std::shared_lock(install_mu_); }
  // A committed transaction's row images (redo_record.h): its LSN.
  Lsn AppendRowImages(std::string_view payload);
  // A DDL statement that succeeded (the caller holds the gate exclusively).
  Lsn AppendDdl(const std::string& sql);
  // "Sequence `name` is at (value, called)" (redo_record.h): its LSN.
  Lsn AppendSequence(std::string_view name, int64_t value, bool called);

  // The size of the newest checkpoint this process wrote (0: none yet).
  uint64_t last_checkpoint_bytes() const { return last_checkpoint_bytes_.load(std::memory_order_relaxed); }
  Lsn appended_lsn() const { return writer_->appended_lsn(); }
  // The LSN of the newest row-images record (a commit, a bulk load)
  // appended, Lsn() when none: all a read-only transaction may have read is at
  // or before it (a record is appended before its images are published).
  // Sequence records do not move it: what a transaction's own sequence
  // calls need, it knows (SequenceSession::TakeNeededLsn).
  Lsn commit_end_lsn() const { return commit_end_lsn_.load(std::memory_order_acquire); }
  Lsn durable_lsn() const { return writer_->durable_lsn(); }
  // See LogWriter: fn(status) once `lsn` is durable (SyncMode off: at once).
  void WhenDurable(Lsn lsn, std::function<void(const Status&)> fn) { writer_->WhenDurable(lsn, std::move(fn)); }
  Status WaitDurable(Lsn lsn) { return writer_->WaitDurable(lsn); }

  // Writes a checkpoint of every table of `catalog` (the caller holds the
  // gate shared, so no DDL runs) and deletes what it makes useless.
  Status WriteCheckpoint(const catalog::Catalog& catalog, CheckpointStats* stats);
  // Log bytes appended since the last checkpoint (or open).
  uint64_t log_bytes_since_checkpoint() const;

  const DurabilityOptions& options() const { return options_; }
  log::LogWriterStats log_stats() const { return writer_->stats(); }
  // A snapshot of the figures above and the checkpoints' (any thread).
  DurabilityStats Stats() const;

 private:
  explicit Durability(const DurabilityOptions& options) : options_(options) {}
  Status Recover(catalog::Catalog* catalog, const DdlRunner& run_ddl, RecoveryStats* stats);
  std::string WalDir() const { return options_.data_dir + "/wal"; }

  const DurabilityOptions options_;
  int lock_fd_ = -1;
  std::unique_ptr<log::LogWriter> writer_;
  std::atomic<Lsn> commit_end_lsn_{Lsn()};
  std::shared_mutex install_mu_;
  std::mutex ddl_mu_;
  std::vector<std::string> ddl_history_;  // every DDL statement run, in order
  std::mutex checkpoint_mu_;              // one checkpoint at a time
  std::atomic<uint64_t> checkpoint_log_bytes_{0};  // writer bytes at the last checkpoint (read by any thread)
  std::atomic<uint64_t> last_checkpoint_bytes_{0};  // the size of the newest checkpoint this process wrote
  std::atomic<uint64_t> checkpoints_{0};           // written since Open
  std::atomic<double> last_checkpoint_seconds_{0};
  // steady_clock time (ns since its epoch) the newest checkpoint ended, or Open.
  std::atomic<int64_t> checkpoint_end_ns_{0};
};

}  // namespace paceline::engine::durability
