// PlanCounters: what EXPLAIN ANALYZE counts while a plan runs. Per plan node
// (a FROM source's SourcePlan, a query's SelectPlan, a modifying statement's
// plan), keyed by the node's address: how many times it started (loops),
// the rows it produced over all of them, and, for a FROM source, the rows
// its filters removed. The executor counts only when its Transaction holds
// counters (engine::Transaction::SetPlanCounters), so a statement that is
// not being explained pays one null test per scan row.
//
// Thread-safety: one statement on one thread (an Executor and the child
// executors of its subqueries) fills it; read after the statement ends.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace paceline::sql {

struct NodeCounts {
  uint64_t loops = 0;
  uint64_t rows = 0;
  uint64_t removed = 0;  // FROM sources: rows read that a filter rejected
};

class PlanCounters {
 public:
  NodeCounts& Of(const void* node) { return counts_[node]; }
  // Null when the node never started.
  const NodeCounts* Find(const void* node) const {
    auto it = counts_.find(node);
    return it == counts_.end() ? nullptr : &it->second;
  }
  void Clear() { counts_.clear(); }

 private:
  std::unordered_map<const void*, NodeCounts> counts_;
};

}  // namespace paceline::sql
