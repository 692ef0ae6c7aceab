// PlanExplainer: the plan of a prepared SELECT, INSERT, UPDATE or DELETE as
// EXPLAIN shows it, in PostgreSQL's node vocabulary, built from the plan
// the executor runs (plan.h), so what it shows is what runs:
//
//   a FROM source   Seq Scan on t | Index Scan using idx on t (Index Cond:
//                   the access path's keys; Filter: the conditions checked
//                   on its rows, those the index applies left out) |
//                   Subquery Scan | Function Scan | Values Scan
//   the join        left-deep, in FROM order: Nested Loop [Left|Full]
//                   Join, or Hash Join with a Hash of the inner source when
//                   the source is hash-joined (SourcePlan::hash_build)
//   above it        Aggregate (Plain or Hashed, Group Key, HAVING as
//                   Filter), WindowAgg, HashAggregate for DISTINCT, Sort
//                   (Sort Key; none when an index gives the order),
//                   LockRows (FOR UPDATE/SHARE), Limit
//   subqueries      SubPlan N (correlated: run per row) or InitPlan N (run
//                   once per statement), beside the node whose expression
//                   holds them
//   writes          ModifyTable (Insert/Update/Delete on t), ON CONFLICT's
//                   resolution, arbiter indexes and filter
//
// Paceline has no cost model, so no node shows costs. With counters (EXPLAIN
// ANALYZE), the FROM sources, the joins and each query's top node show the
// rows they produced per loop and their loops; other nodes are not counted.
//
// Thread-safety: one explainer per EXPLAIN; it borrows the statement and
// the counters.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sql/explain/explain_node.h"
#include "sql/explain/expression_text.h"
#include "sql/explain/plan_counters.h"
#include "sql/prepared_statement.h"

namespace paceline::sql {

class PlanExplainer {
 public:
  // counters: null for EXPLAIN without ANALYZE. verbose: each query's
  // top node lists its output expressions.
  PlanExplainer(const PlanCounters* counters, bool verbose) : counters_(counters), verbose_(verbose) {}

  // The statement must be DML (a SelectPlan, InsertPlan, UpdatePlan or
  // DeletePlan set).
  ExplainNode Explain(const PreparedStatement& statement);

 private:
  ExplainNode Query(const SelectPlan& plan, const ExprScope* outer);
  // The text of an aggregate call and of a window function (their
  // arguments read `scope`).
  std::string Aggregate(const AggregateSpec& a, const ExprScope& scope, ExplainNode* host);
  std::string Window(const WindowSpec& w, const ExprScope& scope, ExplainNode* host);
  ExplainNode Sources(const SelectPlan& plan, const ExprScope& scope);
  // `shown`: conditions shown elsewhere (a hash join's keys), left out of its
  // Filter. `join_filters` (a hash join's build side): the conditions it
  // checks per joined pair go there, and its counts are the build's.
  ExplainNode Scan(const SourcePlan& source, const ExprScope& scope, int level, std::vector<std::string> shown = {},
                   std::vector<std::string>* join_filters = nullptr);
  ExplainNode Derived(const DerivedPlan& derived, const std::string& alias, const ExprScope* outer);
  ExplainNode Insert(const InsertPlan& plan);
  ExplainNode Modify(const char* operation, const SourcePlan& target, const SelectPlan* join);
  // The expression's text in `scope`; its subqueries become children of
  // `host` (SubPlan N / InitPlan N).
  std::string Expr(const BoundExpr& e, const ExprScope& scope, ExplainNode* host);
  // Conjuncts as one condition: "(a = 1)", "((a = 1) AND (b = 2))".
  static std::string Conjunction(const std::vector<std::string>& parts);
  // Sets the node's counts from counters_ (when analyzing).
  void Count(ExplainNode* node, const void* key, bool removed, CountedPart part = CountedPart::kNode) const;
  // The rows produced at join level `level` (those of its inner source).
  void CountJoin(ExplainNode* node, const SelectPlan& plan, size_t level) const;
  // Sets the node's times per loop from nanoseconds summed over `loops` (with timing on).
  void SetTime(ExplainNode* node, uint64_t startup_ns, uint64_t total_ns, uint64_t loops) const;

  const PlanCounters* counters_;
  bool verbose_;
  int next_subplan_ = 1;
  std::unordered_map<const BoundSubquery*, std::string> labels_;  // subqueries shown so far
};

}  // namespace paceline::sql
