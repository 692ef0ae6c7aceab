// ExplainOutput: EXPLAIN's result rows — the plan tree (explain_node.h) and
// what Paceline adds after it — as PostgreSQL writes them:
//
//   TEXT   one row per line: the root node, its properties indented by two,
//          each child on a line "->  " six further in; a SubPlan or
//          InitPlan under its label; then the trailing lines.
//   JSON   one row holding [{"Plan": {"Node Type": .., "Plans": [..]},
//          "Paceline": {..}, "Execution Time": ..}], keys in PostgreSQL's
//          names and order.
//
// The trailing part (ExplainFooter) is the scheduler's view of the
// statement: the references it would compute for it, in its own form, with
// what the policy has learned of each (blamed aborts, hot or not, home
// queues, conflict lane), and the same references in the other form; and,
// for ANALYZE, the execution time.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "sql/explain/explain_node.h"

namespace paceline::sql {

struct ExplainReference {
  std::string name;            // "w_id=5", in the scheduler's form
  bool known = false;          // the policy has evidence for it
  double blamed_aborts = 0;    // decayed
  double exposures = 0;        // decayed
  bool hot = false;
  std::vector<int> homes;      // its home queues
  bool laned = false;          // a transaction block's statement would take its lane
};

struct ExplainFooter {
  std::string scheduler;       // the policy's name
  // The form the scheduler compares references in ("canonical",
  // "literal"); "" when the policy uses none (then `references` are
  // shown in the canonical form, for information).
  std::string form;
  std::vector<ExplainReference> references;
  std::string other_form;      // "literal" or "canonical"
  std::vector<std::string> other_references;
  bool has_execution_time = false;
  double execution_ms = 0;
};

// The rows of EXPLAIN (FORMAT TEXT): one line each.
std::vector<std::string> ExplainText(const ExplainNode& root, const ExplainFooter& footer);
// The one value of EXPLAIN (FORMAT JSON).
std::string ExplainJson(const ExplainNode& root, const ExplainFooter& footer);

}  // namespace paceline::sql
