// ExplainNode: one node of the plan EXPLAIN shows, in PostgreSQL's
// vocabulary (Seq Scan, Index Scan, Nested Loop, Hash Join, Hash, Sort,
// Limit, Aggregate, SubPlan ...), built from a bound plan by PlanExplainer
// and written as text or JSON by ExplainOutput. Fields left empty are not
// shown.
//
// Plain value type.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace paceline::sql {

struct ExplainNode {
  std::string type;          // "Seq Scan", "Hash Join", "ModifyTable", ...
  std::string operation;     // ModifyTable: "Insert", "Update", "Delete"
  std::string strategy;      // Aggregate: "Plain", "Hashed"; SetOp: "Hashed"
  std::string command;       // SetOp: "Intersect", "Except"...
  std::string join_type;     // joins: "Inner", "Left", "Full"
  std::string relation;      // scans and ModifyTable: the table
  std::string function;      // Function Scan: the function
  std::string alias;         // scans: the name it has in the query
  std::string index;         // Index Scan: the index
  std::string parent;        // "Outer", "Inner", "Subquery", "SubPlan", "InitPlan", "Member"
  std::string subplan_name;  // "SubPlan 1" (shown as a label above it in text)
  // Conditions and other single values, in the order shown ("Index Cond",
  // "Filter", "Hash Cond", "Conflict Resolution" ...).
  std::vector<std::pair<std::string, std::string>> properties;
  // Lists ("Sort Key", "Group Key", "Output", "Conflict Arbiter Indexes").
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
  // EXPLAIN ANALYZE: what PlanCounters counted for it (has_counts false:
  // not counted for this kind of node; executed false: never started).
  bool has_counts = false;
  bool executed = false;
  double rows_per_loop = 0;
  uint64_t loops = 0;
  // With timing: milliseconds per loop until the first row and in all
  // (see NodeCounts for what a node's time covers).
  bool has_time = false;
  double startup_ms = 0;
  double total_ms = 0;
  uint64_t rows_removed = 0;
  bool shows_removed = false;
  std::string removed_by = "Filter";  // "Rows Removed by <removed_by>": Filter, Join Filter
  std::vector<ExplainNode> children;
};

}  // namespace paceline::sql
