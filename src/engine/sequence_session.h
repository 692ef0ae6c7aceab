// SequenceSession: one session's side of the sequences (sql::SequenceAccess):
// nextval, currval, setval and lastval against the catalog's sequences, the
// session's currval and lastval values, and the redo records they append.
//
// A value reaches a client only once the record covering it is durable
// (catalog/sequence.h): a transaction's commit covers every record appended
// before it (its commit record, or for a read-only transaction the log end,
// comes later in the log), and in an open block the session waits for
// TakeNeededLsn() after each statement that handed out a value.
//
// Thread-safety: used by one thread at a time (the session's, or the worker
// running the session's scheduled request). Ownership: borrows the catalog
// and the durability object (null: in memory), which outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/ids.h"
#include "storage/catalog/catalog.h"
#include "sql/sequence_access.h"

namespace paceline::engine {

namespace durability {
class Durability;
}

class SequenceSession : public sql::SequenceAccess {
 public:
  SequenceSession(const catalog::Catalog* catalog, durability::Durability* durability);
  SequenceSession(const SequenceSession&) = delete;  // its logger holds `this`
  SequenceSession& operator=(const SequenceSession&) = delete;

  Status NextVal(std::string_view name, int64_t* out) override;
  Status CurrVal(std::string_view name, int64_t* out) override;
  Status SetVal(std::string_view name, int64_t value, bool called) override;
  Status LastVal(int64_t* out) override;

  // The highest LSN of a record appended by this session's calls since the
  // last TakeNeededLsn (Lsn(): none).
  Lsn TakeNeededLsn();
  // DISCARD SEQUENCES (and DISCARD ALL): currval and lastval forget.
  void Discard();

 private:
  void Remember(const catalog::Sequence& sequence, std::string_view name, int64_t value);

  const catalog::Catalog* catalog_;
  durability::Durability* durability_;
  // Logs for the sequence named logging_ (set before each call): built
  // once, so that a nextval whose batch is already logged allocates
  // nothing. Empty in memory.
  std::string_view logging_;
  catalog::Sequence::Logger logger_;
  std::unordered_map<uint64_t, int64_t> currval_;  // by Sequence::id()
  uint64_t last_id_ = 0;                           // lastval's sequence (0: none yet)
  std::string last_name_;
  int64_t last_value_ = 0;
  Lsn needed_lsn_;
};

}  // namespace paceline::engine
