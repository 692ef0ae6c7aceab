// Internal to the binder: the name-resolution context shared by the
// bind_*.cc files, and the helpers more than one of them uses (defined in
// binder_helpers.cc). Nothing outside src/sql/binder*.cc and
// bind_*.cc includes it.
//
// The binder is split by what it binds, one file each:
//   binder.cc           parameters, types, coercion, table lookup
//   bind_expression.cc  the expression dispatch (BindExpr), columns,
//                       operators, CASE, predicates, DEFAULT
//   bind_function.cc    scalar functions and aggregates
//   bind_array.cc       arrays: ARRAY[..], subscripts, ANY/ALL (array), array
//                       functions and operators, unnest's argument
//   bind_select.cc      SELECT: FROM, select lists, grouping, ORDER BY, LIMIT
//   bind_modify.cc      INSERT, UPDATE, DELETE, RETURNING
//   bind_subquery.cc    subqueries, derived sources, WITH, set operations
//   bind_table_function.cc  set-returning functions in FROM (generate_series,
//                       unnest, the json ones)
//   bind_window.cc      window functions
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sql/binder.h"

namespace paceline::sql {

// A FROM item visible to expressions: a stored table or a derived source.
struct Binder::ScopeEntry {
  std::string name;  // alias, or table name
  storage::Table* table = nullptr;          // null for a derived source
  const DerivedPlan* derived = nullptr;     // its columns, when table is null
  int source = 0;
  // JOIN .. USING / NATURAL: columns an unqualified reference and `*` do not
  // see here (the right side's merged columns), and those `*` shows first
  // (the left side's).
  std::vector<std::string> merged_away;
  std::vector<std::string> merged_first;
  // The relation's pg_class.oid (a stored table or a system catalog; 0 for
  // a view, subquery or function): the value of its system column
  // `tableoid`.
  uint32_t relation_oid = 0;

  int ColumnCount() const;
  const std::string& ColumnName(int c) const;
  const Type& ColumnType(int c) const;
  int FindColumn(const std::string& name) const;  // -1 when absent
  bool MergedAway(const std::string& name) const;

  // The entry of source 0, a stored table (UPDATE, DELETE, RETURNING).
  static ScopeEntry ForTable(std::string name, storage::Table* table) {
    ScopeEntry entry;
    entry.name = std::move(name);
    entry.table = table;
    entry.relation_oid = table->schema().oid;
    return entry;
  }
};


// The names one query binds against. Subqueries bind in a Context of their
// own whose `outer` is the query containing them, so a column not found
// here is looked for there (a correlated reference).
struct Binder::Context {
  std::vector<ScopeEntry> scope;
  SelectPlan* agg_plan = nullptr;  // aggregates allowed and registered here
  bool in_aggregate = false;
  // Window functions allowed (select list, ORDER BY) and registered here;
  // `window_stmt` holds the WINDOW clause that OVER names refer to.
  SelectPlan* window_plan = nullptr;
  const SelectStmt* window_stmt = nullptr;
  bool in_window = false;  // binding a window function's arguments or window
  const char* clause = "this context";

  Context* outer = nullptr;
  // While a non-LATERAL subquery in this query's FROM binds, this query's
  // own FROM items are invisible to it (but queries further out are not).
  bool scope_hidden = false;
  // WITH queries defined at this level (visible here and in subqueries).
  std::vector<std::pair<std::string, std::shared_ptr<const DerivedPlan>>> ctes;
  // Set by references that reach out of this query: whether any did (at
  // any depth), and the sources of `outer` they read.
  bool correlated = false;
  std::vector<int> outer_sources;
  std::vector<std::pair<int, int>> outer_columns;  // (source, column) of `outer` they read
};

namespace bind {

// The names of each family of built-in functions, appended to `out`
// (Binder::BuiltinFunctionNames gathers them): bind_array.cc,
// bind_string_function.cc, bind_catalog_function.cc,
// bind_table_function.cc, bind_window.cc.
void AddArrayFunctionNames(std::vector<std::string_view>* out);
void AddStringFunctionNames(std::vector<std::string_view>* out);
void AddCatalogFunctionNames(std::vector<std::string_view>* out);
void AddTableFunctionNames(std::vector<std::string_view>* out);
void AddWindowFunctionNames(std::vector<std::string_view>* out);

// The largest left operand of BETWEEN (which is evaluated twice).
constexpr size_t kMaxBetweenOperandNodes = 1000;

bool IsUnknown(const BoundExpr& e);
Type OperandType(const Type& t);
std::string TypeText(const Type& t);
int NumericRank(TypeId id);
Type PromoteNumbers(const Type& a, const Type& b);
bool Comparable(const Type& a, const Type& b);
bool CanCast(TypeId from, TypeId to);
// json has no equality or ordering operator: 42883 `could not identify an
// equality operator for type json` (`ordering` when `ordering`); OK for
// every other type (bind_json.cc).
Status RequireOperators(const Type& t, bool ordering);
int LeftmostLocation(const Expr& e);
BoundExprPtr MakeNode(BoundKind kind, Type type, int location);
// `node` evaluated now when all its children are constants (and it
// evaluates without error), else `node` itself.
BoundExprPtr FoldConstant(BoundExprPtr node);
std::string DefaultName(const Expr& e);
int MaxSource(const BoundExpr& e);
bool UsesSource(const BoundExpr& e, const std::vector<bool>& which);
size_t CountNodes(const BoundExpr& e, size_t limit);
// The tuple layout of a derived source, after its columns.
void BuildLayout(DerivedPlan* derived);
// The column name of a function in FROM that returns one unnamed value
// (before column aliases): its table alias, else the function's name
// (bind_table_function.cc).
std::string ScalarFunctionColumn(const FromItem& item);

// Whether `pred` holds for `e` or any node below it.
template <typename Pred>
bool AnyNode(const BoundExpr& e, const Pred& pred) {
  if (pred(e)) return true;
  for (const auto& c : e.children) {
    if (AnyNode(*c, pred)) return true;
  }
  return false;
}

inline bool ContainsColumn(const BoundExpr& e) {
  return AnyNode(e, [](const BoundExpr& x) { return x.kind == BoundKind::kColumn; });
}

// Whether `e` may read a column of an enclosing query: an outer column, or
// a correlated subquery (conservatively: it may reach past this query).
inline bool ReadsEnclosingQuery(const BoundExpr& e) {
  return AnyNode(e, [](const BoundExpr& x) {
    return x.kind == BoundKind::kOuterColumn || (x.kind == BoundKind::kSubquery && x.subquery->plan->correlated);
  });
}

// Splits the AND tree of a `clause` condition into its conjuncts.
template <typename Conjunct>
void SplitConjuncts(const Expr* e, const char* clause, std::vector<Conjunct>* out, bool and_operand = false) {
  if (e == nullptr) return;
  if (e->kind == ExprKind::kBinary && e->binary_op == BinaryOp::kAnd) {
    SplitConjuncts(e->left.get(), clause, out, true);
    SplitConjuncts(e->right.get(), clause, out, true);
    return;
  }
  out->push_back({e, clause, and_operand});
}

}  // namespace bind
}  // namespace paceline::sql
