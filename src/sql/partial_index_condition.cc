// PartialIndexCondition: a partial index's bound condition (see
// partial_index_condition.h).
#include "sql/partial_index_condition.h"

#include "sql/binder.h"
#include "sql/expression_evaluator.h"
#include "sql/parser.h"

namespace paceline::sql {

Status PartialIndexCondition::Make(catalog::Catalog* catalog, storage::Table* table, const Expr& condition,
                                   std::shared_ptr<const PartialIndexCondition>* out) {
  Binder binder(catalog);
  BoundExprPtr bound;
  PL_RETURN_IF_ERROR(binder.BindIndexPredicate(condition, table, table->name(), /*stored=*/true, &bound));
  *out = std::make_shared<const PartialIndexCondition>(std::move(bound));
  return Status::OK();
}

Status PartialIndexCondition::Make(catalog::Catalog* catalog, storage::Table* table, const std::string& text,
                                   std::shared_ptr<const PartialIndexCondition>* out) {
  ExprPtr condition;
  PL_RETURN_IF_ERROR(ParseExpression(text, &condition));
  return Make(catalog, table, *condition, out);
}

const BoundExpr* PartialIndexCondition::Of(const storage::Index& index) {
  const auto* condition = dynamic_cast<const PartialIndexCondition*>(index.predicate().get());
  return condition != nullptr ? &condition->condition() : nullptr;
}

Status PartialIndexCondition::Covers(const storage::Tuple& tuple, const storage::TupleLayout& layout,
                                     bool* covered) const {
  const storage::Tuple* tuples[] = {&tuple};
  const storage::TupleLayout* layouts[] = {&layout};
  EvalContext ctx;
  ctx.tuples = tuples;
  ctx.layouts = layouts;
  return EvaluatePredicate(*condition_, ctx, covered);
}

}  // namespace paceline::sql
