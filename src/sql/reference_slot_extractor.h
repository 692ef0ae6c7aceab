// ReferenceSlotExtractor: finds the reference slots of a bound DML statement
// (what they are: reference_slot.h), once, when it is prepared.
//
// It walks the plan, not the SQL: the WHERE conjuncts the binder spread over
// a SELECT's sources (each source's filters, by the last source they read,
// and post_filters) are gathered back into one condition and put in written
// order by their position in the text; a LEFT JOIN source's filters are its
// ON condition, a clause of its own. Only a comparison of one column with a
// parameter or a constant makes a slot; joins (`s_i_id = ol_i_id`),
// expressions of columns, OR, IN, LIKE, IS [NOT] DISTINCT FROM, NOT, CASE and
// functions make none, nor do NULL constants (nothing equals NULL; an
// inserted NULL is not a value). Canonical domains are resolved through the
// catalog (catalog/canonical_domain.h), once per column.
//
// Key equalities (ReferenceSlot::by_key) are judged per condition and
// source: `c_w_id = $1 AND c_d_id = $2 AND c_last = $3` with an index on
// (c_w_id, c_d_id, c_last) marks all three; `c_last = $3` alone marks none.
//
// Clause order within a statement: UPDATE's SET list before its WHERE;
// INSERT .. SELECT's select list before the SELECT's conditions; a SELECT's
// LEFT JOIN ON conditions (in FROM order) before its WHERE; a query's own
// conditions before those of its derived sources (subqueries and WITH
// queries in FROM, set operation arms), then those of its subqueries. A
// comparison with a derived source's column makes no slot.
//
// Thread-safety: one extractor per preparation; it reads the catalog, which
// the caller keeps stable.
#pragma once

#include <span>
#include <vector>

#include "storage/catalog/catalog.h"
#include "sql/plan.h"
#include "sql/reference_slot.h"

namespace paceline::sql {

struct PreparedStatement;

class ReferenceSlotExtractor {
 public:
  explicit ReferenceSlotExtractor(const catalog::Catalog* catalog) : catalog_(catalog) {}

  // Appends the slots of `statement`'s plan (none for non-DML) to `out`.
  void Extract(const PreparedStatement& statement, std::vector<ReferenceSlot>* out);

 private:
  // The literal and canonical subject of one column (filled in a slot).
  struct Subject {
    const storage::Table* table;
    int column;
    ReferenceSlot fields;  // subject fields and column_type only
  };

  // A slot of the condition being extracted: its index in *out_, and the
  // source and column it compares.
  struct ConditionSlot {
    size_t slot;
    int source;
    int column;
  };

  // A SELECT's conditions, then those of the queries inside it (derived
  // sources, subqueries: their key equalities count like any other).
  void ExtractSelect(const SelectPlan& plan);
  // The INSERT, UPDATE or DELETE given (one is set).
  void ExtractModify(const InsertPlan* insert, const UpdatePlan* update, const DeletePlan* del);
  void ExtractDerived(const DerivedPlan& derived);
  void ExtractSubqueries(const BoundExpr& e);
  // One condition of `sources`' columns, conjuncts in any order.
  void AddCondition(std::span<const SourcePlan> sources, std::vector<const BoundExpr*> conjuncts);
  void AddComparison(std::span<const SourcePlan> sources, const BoundExpr& conjunct,
                     std::vector<ConditionSlot>* added);
  // Sets ReferenceSlot::by_key on the equalities of one condition that,
  // with the condition's other equalities on the same source, form a prefix
  // of one of its table's indexes (every column of a hash index).
  void MarkKeyEqualities(std::span<const SourcePlan> sources, const std::vector<ConditionSlot>& added);
  // `column = value` of `table` (SET, VALUES, INSERT .. SELECT outputs);
  // `inserted`: an inserted value (by_key on a primary-key column).
  void AddAssignment(const storage::Table& table, int column, const BoundExpr* value, bool inserted);
  // A slot for `column op value` when value is a parameter or a constant
  // (false: none made).
  bool AddSlot(const storage::Table& table, int column, ReferenceOp op, const BoundExpr& value, bool from_where);
  // Closes the current clause: the next slot starts a new one.
  void EndClause();
  const Subject& SubjectOf(const storage::Table& table, int column);
  // Whether more than one table has a column named `column` (its references
  // are then shown qualified).
  bool ColumnNameShared(const std::string& column) const;

  const catalog::Catalog* catalog_;
  std::vector<ReferenceSlot>* out_ = nullptr;
  uint32_t clause_ = 0;
  size_t clause_start_ = 0;  // out_->size() when the current clause began
  std::vector<Subject> subjects_;
};

}  // namespace paceline::sql
