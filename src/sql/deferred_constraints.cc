// DeferredConstraints (see deferred_constraints.h).
#include "sql/deferred_constraints.h"

#include <algorithm>

namespace paceline::sql {

bool DeferredConstraints::IsDeferred(const ForeignKeyRule& rule) const {
  if (!rule.deferrable) return false;
  auto it = modes_.named.find(rule.constraint);
  if (it != modes_.named.end()) return it->second;
  return modes_.all.has_value() ? *modes_.all : rule.initially_deferred;
}

void DeferredConstraints::SetAll(bool deferred) {
  modes_.all = deferred;
  modes_.named.clear();
}

void DeferredConstraints::Set(const std::string& constraint, bool deferred) { modes_.named[constraint] = deferred; }

void DeferredConstraints::RollbackTo(size_t mark) {
  std::erase_if(events_, [&](const ForeignKeyEvent& e) { return e.mark > mark; });
}

std::vector<ForeignKeyEvent> DeferredConstraints::Due(bool all) const {
  std::vector<ForeignKeyEvent> due;
  for (const auto& e : events_) {
    if (all || !IsDeferred(*e.rule)) due.push_back(e);
  }
  return due;
}

void DeferredConstraints::RemoveDue(bool all) {
  std::erase_if(events_, [&](const ForeignKeyEvent& e) { return all || !IsDeferred(*e.rule); });
}

}  // namespace paceline::sql
