// PlanExplainer (see plan_explainer.h).
#include "sql/explain/plan_explainer.h"

#include <algorithm>

#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

namespace {

// `child` under a new node of `type` (its outer child).
ExplainNode Over(const char* type, ExplainNode child) {
  ExplainNode node;
  node.type = type;
  child.parent = "Outer";
  node.children.push_back(std::move(child));
  return node;
}

const char* AggregateName(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCount: case AggregateKind::kCountStar: return "count";
    case AggregateKind::kSum: return "sum";
    case AggregateKind::kMin: return "min";
    case AggregateKind::kMax: return "max";
    case AggregateKind::kAvg: return "avg";
    case AggregateKind::kStringAgg: return "string_agg";
    case AggregateKind::kBoolAnd: return "bool_and";
    case AggregateKind::kBoolOr: return "bool_or";
    case AggregateKind::kArrayAgg: return "array_agg";
  }
  return "aggregate";
}

const char* WindowName(WindowFunctionKind kind) {
  switch (kind) {
    case WindowFunctionKind::kRowNumber: return "row_number";
    case WindowFunctionKind::kRank: return "rank";
    case WindowFunctionKind::kDenseRank: return "dense_rank";
    case WindowFunctionKind::kPercentRank: return "percent_rank";
    case WindowFunctionKind::kCumeDist: return "cume_dist";
    case WindowFunctionKind::kNtile: return "ntile";
    case WindowFunctionKind::kLag: return "lag";
    case WindowFunctionKind::kLead: return "lead";
    case WindowFunctionKind::kFirstValue: return "first_value";
    case WindowFunctionKind::kLastValue: return "last_value";
    case WindowFunctionKind::kNthValue: return "nth_value";
    case WindowFunctionKind::kAggregate: return "";
  }
  return "";
}

}  // namespace

ExplainNode PlanExplainer::Explain(const PreparedStatement& statement) {
  ExplainNode root;
  if (statement.select) root = Query(*statement.select, nullptr);
  else if (statement.insert) root = Insert(*statement.insert);
  else if (statement.update) root = Modify("Update", statement.update->target, statement.update->join.get());
  else if (statement.del) root = Modify("Delete", statement.del->target, statement.del->join.get());
  // Data-modifying WITH queries run first, once each.
  for (const auto& cte : statement.modifying_ctes) {
    ExplainNode child;
    if (cte->insert) child = Insert(*cte->insert);
    else if (cte->update) child = Modify("Update", cte->update->target, cte->update->join.get());
    else if (cte->del) child = Modify("Delete", cte->del->target, cte->del->join.get());
    child.parent = "InitPlan";
    child.subplan_name = "CTE";
    root.children.push_back(std::move(child));
  }
  return root;
}

std::string PlanExplainer::Conjunction(const std::vector<std::string>& parts) {
  if (parts.size() == 1) return parts[0];
  std::string out = "(";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += " AND ";
    out += parts[i];
  }
  return out + ")";
}

std::string PlanExplainer::Expr(const BoundExpr& e, const ExprScope& scope, ExplainNode* host) {
  std::vector<std::pair<std::string, const BoundSubquery*>> found;
  ExpressionText text([&](const BoundSubquery& sub) {
    // One subquery met again (an index key is also a filter): one node.
    if (auto it = labels_.find(&sub); it != labels_.end()) return it->second;
    // Uncorrelated: run once per statement (its result cached), as
    // PostgreSQL's InitPlan; correlated: once per row, a SubPlan.
    const bool once = sub.outer_sources.empty() && !sub.plan->correlated;
    std::string label = (once ? "InitPlan " : "SubPlan ") + std::to_string(next_subplan_++);
    found.emplace_back(label, &sub);
    labels_.emplace(&sub, label);
    return label;
  });
  std::string out = text.Write(e, scope);
  for (const auto& [label, sub] : found) {
    ExplainNode child = Query(*sub->plan, &scope);
    child.parent = label.rfind("InitPlan", 0) == 0 ? "InitPlan" : "SubPlan";
    child.subplan_name = label;
    host->children.push_back(std::move(child));
  }
  return out;
}

void PlanExplainer::Count(ExplainNode* node, const void* key, bool removed, CountedPart part) const {
  if (counters_ == nullptr) return;
  node->has_counts = true;
  const NodeCounts* c = counters_->Find(key, part);
  node->executed = c != nullptr && c->loops > 0;
  if (!node->executed) return;
  node->loops = c->loops;
  node->rows_per_loop = static_cast<double>(c->rows) / static_cast<double>(c->loops);
  node->shows_removed = removed;
  node->rows_removed = c->removed;
  SetTime(node, c->startup_ns, c->total_ns, c->loops);
}

void PlanExplainer::SetTime(ExplainNode* node, uint64_t startup_ns, uint64_t total_ns, uint64_t loops) const {
  if (!counters_->timing() || loops == 0) return;
  node->has_time = true;
  node->startup_ms = static_cast<double>(startup_ns) / 1e6 / static_cast<double>(loops);
  node->total_ms = static_cast<double>(total_ns) / 1e6 / static_cast<double>(loops);
}

void PlanExplainer::CountJoin(ExplainNode* node, const SelectPlan& plan, size_t level) const {
  if (counters_ == nullptr) return;
  node->has_counts = true;
  const NodeCounts* first = counters_->Find(&plan.sources[0]);
  const NodeCounts* out = counters_->Find(&plan.sources[level], CountedPart::kJoinOutput);
  node->executed = first != nullptr && first->loops > 0;
  if (!node->executed) return;
  node->loops = first->loops;  // the join starts when its query does
  node->rows_per_loop = out == nullptr ? 0 : static_cast<double>(out->rows) / static_cast<double>(first->loops);
  // The join's time is that of the sources it joins (their own times summed).
  uint64_t startup_ns = 0, total_ns = 0;
  for (size_t i = 0; i <= level; ++i) {
    const NodeCounts* c = counters_->Find(&plan.sources[i]);
    if (c == nullptr) continue;
    startup_ns += c->startup_ns;
    total_ns += c->total_ns;
  }
  SetTime(node, startup_ns, total_ns, first->loops);
}

ExplainNode PlanExplainer::Scan(const SourcePlan& source, const ExprScope& scope, int level,
                                std::vector<std::string> shown, std::vector<std::string>* join_filters) {
  ExplainNode node;
  std::vector<std::string> conditions;
  if (!source.table) {
    node = Derived(*source.derived, source.alias, source.derived->correlated ? &scope : scope.outer);
  } else {
    node.relation = source.table->name();
    node.alias = source.alias.empty() ? node.relation : source.alias;
    const AccessPath& path = source.access;
    if (path.kind == AccessKind::kFullScan || path.index == nullptr) {
      node.type = "Seq Scan";
    } else {
      node.type = "Index Scan";
      node.index = path.index->schema().name;
      const std::vector<int>& columns = path.index->schema().columns;
      auto column = [&](size_t k) {
        return k < columns.size() ? ExpressionText::Column(scope, level, columns[k]) : std::string("?column?");
      };
      size_t k = 0;
      for (; k < path.equal.size(); ++k) {
        conditions.push_back("(" + column(k) + " = " + Expr(*path.equal[k], scope, &node) + ")");
      }
      if (!path.in_list.empty()) {
        std::string list;
        for (size_t i = 0; i < path.in_list.size(); ++i) list += (i ? ", " : "") + Expr(*path.in_list[i], scope, &node);
        conditions.push_back("(" + column(k) + " = ANY (ARRAY[" + list + "]))");
      } else {
        if (path.lower) {
          conditions.push_back("(" + column(k) + (path.lower_inclusive ? " >= " : " > ") +
                               Expr(*path.lower, scope, &node) + ")");
        }
        if (path.upper) {
          conditions.push_back("(" + column(k) + (path.upper_inclusive ? " <= " : " < ") +
                               Expr(*path.upper, scope, &node) + ")");
        }
      }
      if (!conditions.empty()) node.properties.emplace_back("Index Cond", Conjunction(conditions));
    }
  }
  // The conditions checked on its rows (they include the index's, which
  // are checked again: left out here, as PostgreSQL shows them once).
  shown.insert(shown.end(), conditions.begin(), conditions.end());
  std::vector<std::string> filters;
  for (size_t i = 0; i < source.filters.size(); ++i) {
    std::string text = Expr(*source.filters[i], scope, &node);
    if (std::find(shown.begin(), shown.end(), text) != shown.end()) continue;
    const bool local = std::find(source.local_filters.begin(), source.local_filters.end(), static_cast<int>(i)) !=
                       source.local_filters.end();
    (join_filters != nullptr && !local ? *join_filters : filters).push_back(std::move(text));
  }
  if (!filters.empty()) node.properties.emplace_back("Filter", Conjunction(filters));
  Count(&node, &source, !filters.empty(), join_filters != nullptr ? CountedPart::kBuildScan : CountedPart::kNode);
  return node;
}

ExplainNode PlanExplainer::Sources(const SelectPlan& plan, const ExprScope& scope) {
  if (plan.sources.empty()) {
    ExplainNode result;
    result.type = "Result";
    return result;
  }
  ExplainNode left = Scan(plan.sources[0], scope, 0);
  for (size_t i = 1; i < plan.sources.size(); ++i) {
    const SourcePlan& source = plan.sources[i];
    ExplainNode join;
    join.join_type = source.full_join_left >= 0 ? "Full" : source.left_join ? "Left" : "Inner";
    // The hash keys' equalities are among the source's filters too
    // (checked again per pair), written either way round: shown once, as
    // the Hash Cond.
    std::vector<std::string> keys, shown;
    for (size_t k = 0; k < source.hash_build.size() && k < source.hash_probe.size(); ++k) {
      const std::string probe = Expr(*source.hash_probe[k], scope, &join);
      const std::string build = Expr(*source.hash_build[k], scope, &join);
      keys.push_back("(" + probe + " = " + build + ")");
      shown.insert(shown.end(), {keys.back(), "(" + build + " = " + probe + ")"});
    }
    ExplainNode right;
    std::vector<std::string> join_filters;
    if (!source.hash_build.empty()) {
      // The build side shows its own filters and the build's counts; the
      // conditions checked per joined pair are the join's.
      right = Over("Hash", Scan(source, scope, static_cast<int>(i), shown, &join_filters));
      Count(&right, &source, false, CountedPart::kHashed);
      join.type = "Hash Join";
      join.properties.emplace_back("Hash Cond", Conjunction(keys));
      if (!join_filters.empty()) join.properties.emplace_back("Join Filter", Conjunction(join_filters));
    } else {
      right = Scan(source, scope, static_cast<int>(i), keys);
      join.type = "Nested Loop";
    }
    left.parent = "Outer";
    right.parent = "Inner";
    join.children.insert(join.children.begin(), {std::move(left), std::move(right)});
    CountJoin(&join, plan, i);
    if (!join_filters.empty() && join.executed) {  // the pairs the per-pair conditions rejected
      join.shows_removed = true;
      join.removed_by = "Join Filter";
      const NodeCounts* pairs = counters_->Find(&source);  // null when no outer row came
      join.rows_removed = pairs != nullptr ? pairs->removed : 0;
    }
    left = std::move(join);
  }
  return left;
}

std::string PlanExplainer::Aggregate(const AggregateSpec& a, const ExprScope& scope, ExplainNode* host) {
  std::string out = AggregateName(a.kind);
  if (a.kind == AggregateKind::kCountStar || !a.arg) return out + "(*)";
  out += "(";
  if (a.distinct) out += "DISTINCT ";
  out += Expr(*a.arg, scope, host);
  if (a.separator) out += ", " + Expr(*a.separator, scope, host);
  for (size_t i = 0; i < a.order.size(); ++i) {
    out += (i == 0 ? " ORDER BY " : ", ") + Expr(*a.order[i].expr, scope, host);
    if (a.order[i].descending) out += " DESC";
  }
  return out + ")";
}

std::string PlanExplainer::Window(const WindowSpec& w, const ExprScope& scope, ExplainNode* host) {
  std::string out;
  if (w.kind == WindowFunctionKind::kAggregate) {
    out = Aggregate(w.aggregate, scope, host);
  } else {
    out = std::string(WindowName(w.kind)) + "(";
    for (size_t i = 0; i < w.args.size(); ++i) out += (i ? ", " : "") + Expr(*w.args[i], scope, host);
    out += ")";
  }
  out += " OVER (";
  std::string clause;
  for (size_t i = 0; i < w.partition_by.size(); ++i) {
    clause += (i == 0 ? "PARTITION BY " : ", ") + Expr(*w.partition_by[i], scope, host);
  }
  for (size_t i = 0; i < w.order_by.size(); ++i) {
    clause += std::string(i == 0 ? (clause.empty() ? "ORDER BY " : " ORDER BY ") : ", ") +
              Expr(*w.order_by[i].expr, scope, host) + (w.order_by[i].descending ? " DESC" : "");
  }
  return out + clause + ")";
}

ExplainNode PlanExplainer::Query(const SelectPlan& plan, const ExprScope* outer) {
  ExprScope scope = ExprScope::OfQuery(plan, outer);
  ExplainNode node = Sources(plan, scope);
  if (!plan.post_filters.empty()) {
    std::vector<std::string> filters;
    for (const auto& f : plan.post_filters) filters.push_back(Expr(*f, scope, &node));
    node.properties.emplace_back("Filter", Conjunction(filters));
  }
  // Above grouping, expressions read slots: the group keys, then the
  // aggregates (then the windows); without grouping, windows read
  // window_inputs' slots.
  if (plan.aggregate) {
    ExplainNode agg = Over("Aggregate", std::move(node));
    std::vector<std::string> keys;
    for (const auto& g : plan.group_by) keys.push_back(Expr(*g, scope, &agg));
    std::vector<std::string> slots = keys;
    for (const auto& a : plan.aggregates) slots.push_back(Aggregate(a, scope, &agg));
    agg.strategy = keys.empty() ? "Plain" : "Hashed";
    if (!keys.empty()) agg.lists.emplace_back("Group Key", keys);
    scope.slots = std::move(slots);
    if (plan.having) agg.properties.emplace_back("Filter", Expr(*plan.having, scope, &agg));
    node = std::move(agg);
  }
  if (!plan.windows.empty()) {
    ExplainNode window = Over("WindowAgg", std::move(node));
    if (!plan.aggregate) {
      std::vector<std::string> inputs;
      for (const auto& in : plan.window_inputs) inputs.push_back(Expr(*in, scope, &window));
      scope.slots = std::move(inputs);
    }
    std::vector<std::string> windows;
    for (const auto& w : plan.windows) windows.push_back(Window(w, scope, &window));
    for (auto& w : windows) scope.slots.push_back(std::move(w));
    node = std::move(window);
  }
  std::vector<std::string> outputs;
  for (const auto& o : plan.outputs) outputs.push_back(Expr(*o, scope, &node));
  if (plan.distinct) {
    node = Over("Aggregate", std::move(node));
    node.strategy = "Hashed";
    node.lists.emplace_back("Group Key", outputs);
  }
  if (!plan.order_by.empty() && !plan.ordered_by_index) {
    ExplainNode sort = Over("Sort", std::move(node));
    std::vector<std::string> keys;
    for (const SortKey& k : plan.order_by) {
      std::string key = Expr(*k.expr, scope, &sort);
      if (k.descending) key += " DESC";
      if (k.nulls_first != k.descending) key += k.nulls_first ? " NULLS FIRST" : " NULLS LAST";
      keys.push_back(std::move(key));
    }
    sort.lists.emplace_back("Sort Key", std::move(keys));
    node = std::move(sort);
  }
  if (plan.for_update()) node = Over("LockRows", std::move(node));
  if (plan.limit || plan.offset) node = Over("Limit", std::move(node));
  if (verbose_) node.lists.emplace_back("Output", std::move(outputs));
  // The query's top node, unless it is its scan or join (counted already):
  // the rows the query returned, per run.
  if (!node.has_counts) Count(&node, &plan, false);
  return node;
}

ExplainNode PlanExplainer::Derived(const DerivedPlan& derived, const std::string& alias, const ExprScope* outer) {
  ExplainNode node;
  node.alias = alias;
  if (derived.Modifies()) {
    node.type = "CTE Scan";
    return node;
  }
  if (derived.function.kind == TableFunctionKind::kSystemRelation && derived.function.system != nullptr) {
    node.type = "Seq Scan";  // a system catalog reads as a table
    node.relation = std::string(derived.function.system->name);
    return node;
  }
  if (derived.function.kind != TableFunctionKind::kNone || !derived.rows_from.empty()) {
    node.type = "Function Scan";
    node.function = derived.function.name;
    for (const auto& member : derived.rows_from) {
      node.function += (node.function.empty() ? "" : ", ") + member->function.name;
    }
    return node;
  }
  if (derived.set_op != SetOpKind::kNone) {
    ExplainNode append;
    append.type = "Append";
    for (const auto* arm : {derived.left.get(), derived.right.get()}) {
      if (arm == nullptr) continue;
      ExplainNode child = arm->query && arm->set_op == SetOpKind::kNone ? Query(*arm->query, outer)
                                                                         : Derived(*arm, "*SELECT*", outer);
      child.parent = "Member";
      append.children.push_back(std::move(child));
    }
    ExplainNode top;
    if (derived.set_op == SetOpKind::kUnion && derived.all) {
      top = std::move(append);
    } else if (derived.set_op == SetOpKind::kUnion) {
      top = Over("Aggregate", std::move(append));
      top.strategy = "Hashed";
    } else {
      top = Over("SetOp", std::move(append));
      top.strategy = "Hashed";
      top.command = std::string(derived.set_op == SetOpKind::kIntersect ? "Intersect" : "Except") +
                    (derived.all ? " All" : "");
    }
    if (alias.empty()) return top;  // the query itself is the set operation
    node.type = "Subquery Scan";
    top.parent = "Subquery";
    node.children.push_back(std::move(top));
    return node;
  }
  if (derived.query) {
    node.type = "Subquery Scan";
    ExplainNode child = Query(*derived.query, outer);
    child.parent = "Subquery";
    node.children.push_back(std::move(child));
    return node;
  }
  node.type = "Values Scan";
  if (node.alias.empty()) node.alias = "*VALUES*";
  return node;
}

ExplainNode PlanExplainer::Insert(const InsertPlan& plan) {
  ExplainNode node;
  node.type = "ModifyTable";
  node.operation = "Insert";
  node.relation = plan.table->name();
  node.alias = node.relation;
  ExplainNode input;
  if (plan.query) {
    input = Query(*plan.query, nullptr);
  } else if (plan.rows.size() > 1) {
    input.type = "Values Scan";
    input.alias = "*VALUES*";
  } else {
    input.type = "Result";
  }
  input.parent = "Outer";
  node.children.push_back(std::move(input));
  if (plan.on_conflict) {
    const OnConflictPlan& conflict = *plan.on_conflict;
    node.properties.emplace_back("Conflict Resolution", conflict.update ? "UPDATE" : "NOTHING");
    std::vector<std::string> arbiters;
    for (const auto& index : plan.table->indexes()) {
      if (std::find(conflict.arbiters.begin(), conflict.arbiters.end(), index.get()) != conflict.arbiters.end()) {
        arbiters.push_back(index->schema().name);
      }
    }
    node.lists.emplace_back("Conflict Arbiter Indexes", std::move(arbiters));
    if (conflict.where) {
      ExprScope scope;
      scope.qualify = true;
      scope.sources.push_back(ExprScope::OfTable(*plan.table, ""));
      scope.sources.push_back(ExprScope::OfTable(*plan.table, "excluded"));
      node.properties.emplace_back("Conflict Filter", Expr(*conflict.where, scope, &node));
    }
  }
  return node;
}

ExplainNode PlanExplainer::Modify(const char* operation, const SourcePlan& target, const SelectPlan* join) {
  ExplainNode node;
  node.type = "ModifyTable";
  node.operation = operation;
  ExplainNode input;
  if (join != nullptr) {
    input = Query(*join, nullptr);
    if (!join->sources.empty() && join->sources[0].table) {
      node.relation = join->sources[0].table->name();
      node.alias = join->sources[0].alias;
    }
  } else {
    ExprScope scope;
    scope.sources.push_back(ExprScope::OfTable(*target.table, target.alias));
    input = Scan(target, scope, 0);
    node.relation = target.table->name();
    node.alias = target.alias.empty() ? node.relation : target.alias;
  }
  input.parent = "Outer";
  node.children.insert(node.children.begin(), std::move(input));
  return node;
}

}  // namespace paceline::sql
