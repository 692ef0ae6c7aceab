// DeferredConstraints: one transaction's deferrable foreign keys — what SET
// CONSTRAINTS made deferred or immediate, and the checks put off until
// commit (or until SET CONSTRAINTS .. IMMEDIATE), as PostgreSQL defers
// them: a referencing row's key must then be present, a deleted or changed
// referenced key (NO ACTION) must then be unreferenced or present again.
// Referential actions (CASCADE, SET NULL, SET DEFAULT) and RESTRICT are
// never deferred.
//
// Each event remembers the transaction's undo mark (Transaction::Mark)
// after the write it checks, so a rollback to an earlier mark (a failed
// statement, ROLLBACK TO SAVEPOINT) drops it with the write.
//
// Thread-safety: belongs to one transaction, used by one thread at a time.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/value.h"
#include "sql/plan.h"

namespace paceline::sql {

// A foreign key to enforce for one row a statement wrote (queued by the
// executor, run at the end of the statement or deferred).
struct ForeignKeyEvent {
  std::shared_ptr<const ForeignKeyRule> rule;
  std::shared_ptr<storage::Table> table;  // the table the statement wrote
  storage::Row* row = nullptr;            // kReferencing: the row written
  std::vector<Value> old_key;             // kReferenced: the key deleted or changed
  std::vector<Value> new_key;             // kReferencing: the key written; kReferenced: an update's new key
  size_t mark = 0;                        // deferred: the undo mark after the write
};

class DeferredConstraints {
 public:
  // What SET CONSTRAINTS set (a savepoint keeps it; ROLLBACK TO puts it back).
  struct Modes {
    std::optional<bool> all;            // SET CONSTRAINTS ALL
    std::map<std::string, bool> named;  // SET CONSTRAINTS name, since
  };

  // Whether `rule` is checked at commit now: a deferrable foreign key
  // that SET CONSTRAINTS deferred, or left INITIALLY DEFERRED.
  bool IsDeferred(const ForeignKeyRule& rule) const;
  // SET CONSTRAINTS ALL (forgets what named ones set) / SET CONSTRAINTS name.
  void SetAll(bool deferred);
  void Set(const std::string& constraint, bool deferred);

  void Add(ForeignKeyEvent event) { events_.push_back(std::move(event)); }
  // Drops the events added after undo mark `mark`.
  void RollbackTo(size_t mark);
  // The events whose constraint is no longer deferred (every event with
  // `all`, at commit), in the order they were added; RemoveDue drops them
  // once they all passed (a failed check keeps them for a later commit).
  std::vector<ForeignKeyEvent> Due(bool all) const;
  void RemoveDue(bool all);
  bool empty() const { return events_.empty(); }
  const Modes& modes() const { return modes_; }
  void set_modes(Modes modes) { modes_ = std::move(modes); }

 private:
  Modes modes_;
  std::vector<ForeignKeyEvent> events_;
};

}  // namespace paceline::sql
