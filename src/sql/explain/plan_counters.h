// PlanCounters: what EXPLAIN ANALYZE counts while a plan runs. Per plan node
// (a FROM source's SourcePlan, a query's SelectPlan, a modifying statement's
// plan), keyed by the node's address: how many times it started (loops),
// the rows it produced over all of them, and, for a FROM source, the rows
// its filters removed; with timing on, also the time it took. The executor
// counts only when its transaction holds counters
// (TransactionAccess::plan_counters), so a statement that is not being
// explained pays one null test per scan row.
//
// Thread-safety: one statement on one thread (an Executor and the child
// executors of its subqueries) fills it; read after the statement ends.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

namespace paceline::sql {

struct NodeCounts {
  uint64_t loops = 0;
  uint64_t rows = 0;
  uint64_t removed = 0;  // FROM sources: rows read that a filter rejected
  // Timing, nanoseconds summed over loops. A FROM source's is its own:
  // reading and filtering its rows, not the sources joined after it (the
  // executor pushes each row down the join before reading the next);
  // startup is until its first row passed. A query's total is the whole
  // query's; its startup equals it (its rows are handed over at its end).
  uint64_t startup_ns = 0;
  uint64_t total_ns = 0;
};

// Which of a FROM source's nodes a count is for: the source's scan (its
// rows per loop, after its filters; for a hashed source, the joined pairs
// and those its per-pair conditions removed), the scan under a hash
// join's Hash (rows that passed the source's own filters), the Hash (rows
// put in the table: not those with a NULL key), or the join that ends
// with the source (the rows that come out of it, NULL-extended ones
// included).
enum class CountedPart { kNode, kBuildScan, kHashed, kJoinOutput };

class PlanCounters {
 public:
  // EXPLAIN (ANALYZE, TIMING off) counts rows only.
  explicit PlanCounters(bool timing = true) : timing_(timing) {}
  bool timing() const { return timing_; }
  NodeCounts& Of(const void* node, CountedPart part = CountedPart::kNode) { return counts_[{node, part}]; }
  // Null when the node never started.
  const NodeCounts* Find(const void* node, CountedPart part = CountedPart::kNode) const {
    auto it = counts_.find({node, part});
    return it == counts_.end() ? nullptr : &it->second;
  }
  void Clear() { counts_.clear(); }

 private:
  bool timing_;
  std::map<std::pair<const void*, CountedPart>, NodeCounts> counts_;  // only while explaining
};

}  // namespace paceline::sql
