// Database: durability (database.h): checkpoints and the checkpointer
// thread, the redo log's statistics, and a commit's wait for its log
// record to be durable. Opening and recovery are in database.cc.
#include "engine/database.h"

#include <algorithm>

namespace paceline::engine {

Status Database::Checkpoint(durability::CheckpointStats* stats) {
  if (durability_ == nullptr) {
    return Status(sqlstate::kObjectNotInPrerequisiteState, "this database has no data directory (Options::data_dir)");
  }
  StatementRunner::ScopedGate gate(statements_.get());  // shared: transactions go on, DDL waits
  PL_RETURN_IF_ERROR(gate.Enter());
  const size_t pin = epoch_.Pin();  // the images it copies stay readable
  if (pin == storage::EpochManager::kNoSlot) {
    return Status(sqlstate::kTooManyConnections,
                  "no epoch slot is free for the checkpoint (every slot is pinned by a running transaction); try again");
  }
  Status s = durability_->WriteCheckpoint(catalog_, stats);
  epoch_.Unpin(pin);
  return s;
}

log::LogWriterStats Database::LogStats() const {
  return durability_ != nullptr ? durability_->log_stats() : log::LogWriterStats{};
}

durability::DurabilityStats Database::DurabilityStats() const {
  return durability_ != nullptr ? durability_->Stats() : durability::DurabilityStats{};
}

void Database::CheckpointerLoop() {
  // Wakes every second to compare the log's growth with the threshold (no
  // work is waited for here: a checkpoint is due by time or by size).
  auto last = std::chrono::steady_clock::now();
  std::unique_lock lock(checkpointer_mu_);
  while (!checkpointer_stop_) {
    checkpointer_cv_.wait_for(lock, std::chrono::seconds(1));
    if (checkpointer_stop_) break;
    const bool by_time = options_.checkpoint_interval.count() > 0 &&
                         std::chrono::steady_clock::now() - last >= options_.checkpoint_interval;
    // A checkpoint writes the whole database, so by size it waits until
    // the log since the last one is at least as large as that checkpoint:
    // checkpoints never write more than the log does (a fixed threshold
    // below the database's size rewrote it every few seconds under load),
    // and recovery replays at most the larger of the two.
    const bool by_size =
        options_.checkpoint_log_bytes > 0 &&
        durability_->log_bytes_since_checkpoint() >=
            std::max<uint64_t>(options_.checkpoint_log_bytes, durability_->last_checkpoint_bytes());
    if (!by_time && !by_size) continue;
    lock.unlock();
    durability::CheckpointStats stats;
    Checkpoint(&stats);  // on failure the log stays; the next one tries again
    last = std::chrono::steady_clock::now();
    lock.lock();
  }
}

ResultCallback Database::AfterDurable(ResultCallback done) {
  if (durability_ == nullptr) return done;
  return [this, done = std::move(done)](TransactionResult&& result) mutable {
    if (!result.committed()) {
      done(std::move(result));
      return;
    }
    const Lsn lsn = statements_->AcknowledgedAfter(result.commit_lsn, result.sequence_lsn);
    auto shared = std::make_shared<TransactionResult>(std::move(result));
    durability_->WhenDurable(lsn, [done = std::move(done), shared](const Status& s) mutable {
      if (!s.ok()) {
        shared->status = Status(s.sqlstate(), "the transaction committed in memory but its log record is not durable: " +
                                              s.message());
      }
      done(std::move(*shared));
    });
  };
}

}  // namespace paceline::engine
