// ExpressionText: a bound expression written the way PostgreSQL's EXPLAIN
// writes one — `(w_id = 5)`, `((c_w_id = $1) AND (c_d_id = $2))`,
// `(name ~~ 'a%'::text)`, `(x)::text`, `count(*)`, `(SubPlan 1)` — with
// columns named by the FROM items of the queries they belong to.
//
// A Scope names what an expression can read: the sources of its query (by
// FROM position: their aliases and column names), the slots of its row
// when it is evaluated above grouping or windows, and the scope of the
// enclosing query (a correlated column names `depth` scopes out). Columns
// are qualified by their source's alias when the statement has more than
// one FROM item (`qualify`), as PostgreSQL does.
//
// Subqueries: each one met calls `subplan` (may be null), which numbers
// it and returns its label ("SubPlan 1"); the expression shows the label.
//
// Thread-safety: a renderer is used by one thread; it borrows its scopes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sql/bound_expr.h"
#include "sql/plan.h"

namespace paceline::sql {

struct ExprScope {
  struct Source {
    std::string alias;
    std::vector<std::string> columns;
  };
  std::vector<Source> sources;
  std::vector<std::string> slots;  // kSlot i is slots[i] (already written)
  bool qualify = false;
  const ExprScope* outer = nullptr;

  // The sources of `plan` (aliases and column names), without slots.
  static ExprScope OfQuery(const SelectPlan& plan, const ExprScope* outer);
  // One table read under `alias` (UPDATE's and DELETE's target, INSERT's row).
  static ExprScope::Source OfTable(const storage::Table& table, const std::string& alias);
};

class ExpressionText {
 public:
  using SubplanNamer = std::function<std::string(const BoundSubquery&)>;
  explicit ExpressionText(SubplanNamer subplan) : subplan_(std::move(subplan)) {}

  std::string Write(const BoundExpr& e, const ExprScope& scope) const;
  // A column `source.column` of `scope` (qualified or not, as the scope says).
  static std::string Column(const ExprScope& scope, int source, int column);

 private:
  // Writes e: operators in parentheses of their own, as PostgreSQL does.
  void Append(const BoundExpr& e, const ExprScope& scope, std::string* out) const;
  void AppendConstant(const Value& v, const Type& type, std::string* out) const;
  SubplanNamer subplan_;
};

}  // namespace paceline::sql
