// DdlExecutor: partial indexes under ALTER TABLE. A partial index's
// condition is bound once, to its columns' positions and types
// (PartialIndexCondition); a rewrite that moves or retypes columns makes
// it again from the text the catalog keeps (see ddl_executor.h).
#include "sql/ddl_executor.h"
#include "sql/partial_index_condition.h"

namespace paceline::sql {

std::vector<std::string> DdlExecutor::PartialIndexesReading(const storage::Table& table, int column) {
  std::vector<std::string> names;
  for (const auto& index : table.indexes()) {
    const BoundExpr* condition = PartialIndexCondition::Of(*index);
    if (condition == nullptr) continue;
    std::set<int> read;
    CollectColumns(*condition, &read);
    if (read.count(column) > 0) names.push_back(index->schema().name);
  }
  return names;
}

Status DdlExecutor::RewriteColumns(storage::Table& table, catalog::TableSchema schema, const std::vector<int>& position,
                                   const storage::Table::RowValues& values_of) {
  std::vector<catalog::IndexSchema> partial;
  for (const auto& index : table.indexes()) {
    if (index->partial()) partial.push_back(index->schema());
  }
  if (partial.empty()) return catalog_->ChangeColumns(&table, std::move(schema), position, values_of);
  // Each condition is bound over the new columns first (a retyped column
  // may break one: then nothing changes), with the table's columns changed
  // and put back; those bindings serve the indexes made after the rewrite.
  std::vector<std::shared_ptr<const PartialIndexCondition>> rebound(partial.size());
  {
    std::vector<catalog::ColumnSchema> own = table.schema().columns;
    table.mutable_schema().columns = schema.columns;
    Status bound;
    for (size_t i = 0; i < partial.size() && bound.ok(); ++i) {
      bound = PartialIndexCondition::Make(catalog_, &table, partial[i].predicate, &rebound[i]);
    }
    table.mutable_schema().columns = std::move(own);
    PL_RETURN_IF_ERROR(bound);
  }
  for (const auto& index : partial) PL_RETURN_IF_ERROR(catalog_->DropIndex(index.name));
  Status status = catalog_->ChangeColumns(&table, std::move(schema), position, values_of);
  if (!status.ok()) {
    for (const auto& index : partial) {  // as they were, bound over the old columns again
      std::shared_ptr<const PartialIndexCondition> condition;
      if (PartialIndexCondition::Make(catalog_, &table, index.predicate, &condition).ok()) {
        (void)catalog_->CreateIndex(&table, index, std::move(condition));
      }
    }
    return status;
  }
  for (size_t i = 0; i < partial.size(); ++i) {
    catalog::IndexSchema index = partial[i];
    for (int& column : index.columns) column = position[column];
    PL_RETURN_IF_ERROR(catalog_->CreateIndex(&table, std::move(index), std::move(rebound[i])));
  }
  return Status::OK();
}

}  // namespace paceline::sql
