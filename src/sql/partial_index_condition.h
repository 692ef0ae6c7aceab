// PartialIndexCondition: a partial index's condition (CREATE INDEX .. WHERE),
// bound over its table, as the storage::IndexPredicate the index asks
// which images it covers. The catalog keeps the condition's text
// (IndexSchema::predicate); this is made from it whenever the index is
// made: at CREATE INDEX, at recovery (which replays it), and again after
// ALTER TABLE moves or retypes the table's columns.
//
// The planner and ON CONFLICT's inference read the bound condition (Of) to
// prove that a query wants only rows the index covers
// (predicate_implication.h).
//
// Thread-safety: immutable once made; Covers runs concurrently.
#pragma once

#include <memory>
#include <string>

#include "storage/catalog/catalog.h"
#include "sql/bound_expr.h"
#include "storage/index_predicate.h"

namespace paceline::sql {

struct Expr;

class PartialIndexCondition : public storage::IndexPredicate {
 public:
  // Binds `condition` (parsed) over `table`'s columns as CREATE INDEX does
  // (Binder::BindIndexPredicate, stored: its SQLSTATEs).
  static Status Make(catalog::Catalog* catalog, storage::Table* table, const Expr& condition,
                     std::shared_ptr<const PartialIndexCondition>* out);
  // The same from the text the catalog keeps.
  static Status Make(catalog::Catalog* catalog, storage::Table* table, const std::string& text,
                     std::shared_ptr<const PartialIndexCondition>* out);

  // The bound condition of `index` when it is partial, else nullptr.
  static const BoundExpr* Of(const storage::Index& index);

  explicit PartialIndexCondition(BoundExprPtr condition) : condition_(std::move(condition)) {}
  const BoundExpr& condition() const { return *condition_; }
  Status Covers(const storage::Tuple& tuple, const storage::TupleLayout& layout, bool* covered) const override;

 private:
  BoundExprPtr condition_;  // over source 0, the table
};

}  // namespace paceline::sql
