// Sequence: a sequence generator's state (CREATE SEQUENCE, serial and
// identity columns), with PostgreSQL's semantics.
//
// Algorithm. The state is PostgreSQL's (last value, is_called): the first
// Next returns `start`; each later one returns last + increment. Past max
// (ascending) or min (descending) a CYCLE sequence wraps to min (max);
// otherwise Next fails with 2200H and the state stays. Values are not
// transactional: a value handed to a transaction that rolls back is a gap,
// and two transactions never conflict over a sequence (it is no row, so
// the concurrency controls and the scheduler never see it).
//
// Durability: logged ahead, as PostgreSQL's SEQ_LOG_VALS. Next asks the
// caller's Logger to log the state after a batch of kLogAhead values, the
// highest it may hand out under that record; the batch's other values log
// nothing. The next batch's record is logged as soon as the current batch
// starts, so that it is durable before its values are handed out (a
// client waits for a sync only when a whole batch is drawn faster than
// the log syncs).
// Logging happens under the sequence's mutex, so one sequence's records are
// in the order of the states they describe. Recovery restores the last
// logged state (Restore): after a crash a sequence skips fewer than
// 2 * kLogAhead values and never repeats one, provided no value left the
// engine before the record covering it was durable (Next returns that
// record's LSN for the caller to wait on).
//
// Thread-safety: every method may be called from any thread (one mutex).
// Ownership: plain object; the catalog owns it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>

#include "common/ids.h"
#include "common/status.h"
#include "common/types.h"

namespace paceline::catalog {

// A sequence as CREATE SEQUENCE / ALTER SEQUENCE describe it. Plain data.
struct SequenceSchema {
  std::string name;
  TypeId type = TypeId::kInt64;  // kInt16, kInt32 or kInt64
  int64_t increment = 1;
  int64_t min = 1;
  int64_t max = INT64_MAX;
  int64_t start = 1;
  int64_t cache = 1;  // accepted; every value is handed out one at a time
  bool cycle = false;
  // OWNED BY table.column: dropped with the table (or the column); "" when
  // owned by nothing.
  std::string owned_by_table;
  std::string owned_by_column;
  uint32_t oid = 0;  // pg_class.oid (kept by Reset and Describe)

  // PostgreSQL's defaults for `type` and the increment's sign: ascending
  // from 1 to the type's maximum, or descending from -1 to its minimum,
  // starting at the bound it starts from.
  static SequenceSchema Defaults(std::string name, TypeId type, int64_t increment = 1);
};

class Sequence {
 public:
  // Values handed out per logged record (PostgreSQL's SEQ_LOG_VALS).
  static constexpr int64_t kLogAhead = 32;

  // Appends a record "the state is (value, called)" and returns its LSN; an
  // empty Logger logs nothing (an in-memory database).
  using Logger = std::function<Lsn(int64_t value, bool called)>;

  // A new sequence at (schema.start, not called); its logged state is the
  // same (the CREATE that made it is logged as DDL).
  explicit Sequence(SequenceSchema schema);
  Sequence(const Sequence&) = delete;
  Sequence& operator=(const Sequence&) = delete;

  // nextval: the next value into *value, and into *lsn the LSN of the
  // record that covers it (Lsn() when `log` is empty). 2200H past a bound
  // without CYCLE.
  Status Next(const Logger& log, int64_t* value, Lsn* lsn);
  // setval(v, called): 22003 outside [min, max]. Always logged.
  Status Set(const Logger& log, int64_t v, bool called, Lsn* lsn);
  // Recovery: the state a record (or a checkpoint) holds.
  void Restore(int64_t value, bool called);
  // ALTER SEQUENCE: a new description; `restart` sets the state to
  // (restart_value, not called).
  void Reset(SequenceSchema schema, bool restart, int64_t restart_value);
  // A new description whose bounds, increment and cycle are the old ones
  // (the owner renamed): the state and its logging go on unchanged.
  void Describe(SequenceSchema schema);
  // Logs the exact state instead of a bound ahead of it (and makes it the
  // logged state): before an ALTER, whose new bounds may exclude the bound
  // logged ahead, and at a clean close, so that a restart continues where
  // the sequence stopped. Returns the record's LSN (Lsn() with an empty log).
  Lsn LogState(const Logger& log);

  // Unique among the sequences of this process, never reused: a session's
  // currval belongs to this object, not to a later one of the same name.
  uint64_t id() const { return id_; }
  SequenceSchema schema() const;
  // The state as last logged (or restored), for a checkpoint.
  std::pair<int64_t, bool> LoggedState() const;
  // The state now: (last value, is_called).
  std::pair<int64_t, bool> State() const;

 private:
  // Values logged and not yet handed out: those of the current record
  // (with its LSN), and those of the record logged ahead of it, if any.
  struct Batch {
    int64_t count = 0;
    Lsn lsn;
  };

  // The value after `v`, or false past a bound without CYCLE.
  bool Step(int64_t v, int64_t* next) const;
  // Logs the batch of values from `first`; it becomes the logged state.
  Batch LogBatch(const Logger& log, int64_t first);

  const uint64_t id_;
  mutable std::mutex mu_;
  SequenceSchema schema_;
  int64_t last_;
  bool called_ = false;
  Batch current_;
  Batch ahead_;
  int64_t logged_value_;
  bool logged_called_ = false;
  Lsn logged_lsn_;
};

}  // namespace paceline::catalog
