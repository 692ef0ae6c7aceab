// IndexPredicate: which rows a partial index covers (CREATE INDEX ... WHERE
// condition). Storage evaluates no SQL: the SQL layer implements this over
// the bound condition (sql::PartialIndexCondition) and hands it to the index
// when the index is made; an index without one covers every row.
//
// Contract: Covers is deterministic (the condition calls only immutable
// functions), so an image covered once stays covered. Thread-safety: called
// concurrently by every transaction that writes or reads the index;
// implementations are immutable.
#pragma once

#include "common/status.h"
#include "storage/tuple.h"

namespace paceline::storage {

class IndexPredicate {
 public:
  virtual ~IndexPredicate() = default;
  // Whether `tuple` (of `layout`) satisfies the condition (NULL: it does
  // not). A non-OK status is an error evaluating it (22012 for 1/0), which
  // fails the write that asked.
  virtual Status Covers(const Tuple& tuple, const TupleLayout& layout, bool* covered) const = 0;
};

}  // namespace paceline::storage
