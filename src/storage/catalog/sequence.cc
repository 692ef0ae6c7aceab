#include "storage/catalog/sequence.h"

namespace paceline::catalog {

namespace {

std::pair<int64_t, int64_t> RangeOf(TypeId type) {
  switch (type) {
    case TypeId::kInt16: return {INT16_MIN, INT16_MAX};
    case TypeId::kInt32: return {INT32_MIN, INT32_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

uint64_t NextSequenceId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

SequenceSchema SequenceSchema::Defaults(std::string name, TypeId type, int64_t increment) {
  SequenceSchema s;
  s.name = std::move(name);
  s.type = type;
  s.increment = increment;
  const auto [lowest, highest] = RangeOf(type);
  if (increment > 0) {
    s.min = 1;
    s.max = highest;
    s.start = s.min;
  } else {
    s.min = lowest;
    s.max = -1;
    s.start = s.max;
  }
  return s;
}

Sequence::Sequence(SequenceSchema schema)
    : id_(NextSequenceId()), schema_(std::move(schema)), last_(schema_.start), logged_value_(schema_.start) {}

bool Sequence::Step(int64_t v, int64_t* next) const {
  if (!__builtin_add_overflow(v, schema_.increment, next) && *next >= schema_.min && *next <= schema_.max) {
    return true;
  }
  if (!schema_.cycle) return false;
  *next = schema_.increment > 0 ? schema_.min : schema_.max;
  return true;
}

Status Sequence::Next(const Logger& log, int64_t* value, Lsn* lsn) {
  std::lock_guard lock(mu_);
  int64_t next = last_;
  if (called_ && !Step(last_, &next)) {
    const bool up = schema_.increment > 0;
    return Status(sqlstate::kSequenceGeneratorLimitExceeded,
                  std::string("nextval: reached ") + (up ? "maximum" : "minimum") + " value of sequence \"" +
                      schema_.name + "\" (" + std::to_string(up ? schema_.max : schema_.min) + ")");
  }
  if (current_.count == 0) {
    if (ahead_.count > 0) {
      current_ = ahead_;
      ahead_ = Batch();
    } else {
      current_ = LogBatch(log, next);
    }
  }
  --current_.count;
  // The next batch's record goes out a whole batch ahead, so that it is
  // durable by the time its first value is handed out: a client then
  // rarely waits for a sync.
  int64_t after_bound;
  if (ahead_.count == 0 && Step(logged_value_, &after_bound)) {
    ahead_ = LogBatch(log, after_bound);
  }
  last_ = next;
  called_ = true;
  *value = next;
  *lsn = current_.lsn;
  return Status::OK();
}

Sequence::Batch Sequence::LogBatch(const Logger& log, int64_t first) {
  // Up to kLogAhead values from `first`, fewer when a bound without CYCLE
  // comes first; the record states the highest.
  int64_t bound = first;
  int64_t covered = 1;
  for (int64_t stepped; covered < kLogAhead && Step(bound, &stepped); ++covered) bound = stepped;
  if (log) logged_lsn_ = log(bound, true);
  logged_value_ = bound;
  logged_called_ = true;
  return Batch{covered, logged_lsn_};
}

Status Sequence::Set(const Logger& log, int64_t v, bool called, Lsn* lsn) {
  std::lock_guard lock(mu_);
  if (v < schema_.min || v > schema_.max) {
    return Status(sqlstate::kNumericValueOutOfRange,
                  "setval: value " + std::to_string(v) + " is out of bounds for sequence \"" + schema_.name + "\" (" +
                      std::to_string(schema_.min) + ".." + std::to_string(schema_.max) + ")");
  }
  if (log) logged_lsn_ = log(v, called);
  logged_value_ = v;
  logged_called_ = called;
  current_ = ahead_ = Batch();
  last_ = v;
  called_ = called;
  *lsn = logged_lsn_;
  return Status::OK();
}

void Sequence::Restore(int64_t value, bool called) {
  std::lock_guard lock(mu_);
  last_ = logged_value_ = value;
  called_ = logged_called_ = called;
  current_ = ahead_ = Batch();
}

void Sequence::Reset(SequenceSchema schema, bool restart, int64_t restart_value) {
  std::lock_guard lock(mu_);
  if (schema.oid == 0) schema.oid = schema_.oid;
  schema_ = std::move(schema);
  if (restart) {
    // The ALTER is logged as DDL and replayed before any later record: its
    // state is the logged one from here on (a checkpoint copies it).
    last_ = logged_value_ = restart_value;
    called_ = logged_called_ = false;
  }
  current_ = ahead_ = Batch();
}

void Sequence::Describe(SequenceSchema schema) {
  std::lock_guard lock(mu_);
  if (schema.oid == 0) schema.oid = schema_.oid;
  schema_ = std::move(schema);
}

Lsn Sequence::LogState(const Logger& log) {
  std::lock_guard lock(mu_);
  // Every value handed out is at most last_ (at least, descending): the
  // exact state repeats none.
  logged_value_ = last_;
  logged_called_ = called_;
  current_ = ahead_ = Batch();
  logged_lsn_ = log ? log(last_, called_) : Lsn();
  return logged_lsn_;
}

SequenceSchema Sequence::schema() const {
  std::lock_guard lock(mu_);
  return schema_;
}

std::pair<int64_t, bool> Sequence::LoggedState() const {
  std::lock_guard lock(mu_);
  return {logged_value_, logged_called_};
}

std::pair<int64_t, bool> Sequence::State() const {
  std::lock_guard lock(mu_);
  return {last_, called_};
}

}  // namespace paceline::catalog
