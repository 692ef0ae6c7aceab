// DdlExecutor: partial indexes under ALTER TABLE. A partial index's
// condition is bound once, to its columns' positions and types
// (PartialIndexCondition); a rewrite that moves or retypes columns makes
// it again from the text the catalog keeps (see ddl_executor.h).
#include "engine/sql/ddl_executor.h"
#include "engine/sql/partial_index_condition.h"

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
  auto make_again = [&](const catalog::IndexSchema& index) {
    std::shared_ptr<const PartialIndexCondition> condition;
    PL_RETURN_IF_ERROR(PartialIndexCondition::Make(catalog_, &table, index.predicate, &condition));
    return catalog_->CreateIndex(&table, index, std::move(condition));
  };
  if (partial.empty()) return catalog_->ChangeColumns(&table, std::move(schema), position, values_of);
  // Each condition must bind over the new columns (a retyped column may
  // break one); tried with the table's columns changed and put back.
  {
    std::vector<catalog::ColumnSchema> own = table.schema().columns;
    table.mutable_schema().columns = schema.columns;
    Status bound;
    for (const auto& index : partial) {
      std::shared_ptr<const PartialIndexCondition> condition;
      if (bound.ok()) bound = PartialIndexCondition::Make(catalog_, &table, index.predicate, &condition);
    }
    table.mutable_schema().columns = std::move(own);
    PL_RETURN_IF_ERROR(bound);
  }
  for (const auto& index : partial) PL_RETURN_IF_ERROR(catalog_->DropIndex(index.name));
  Status status = catalog_->ChangeColumns(&table, std::move(schema), position, values_of);
  if (!status.ok()) {
    for (const auto& index : partial) (void)make_again(index);  // as they were
    return status;
  }
  for (catalog::IndexSchema index : partial) {
    for (int& column : index.columns) column = position[column];
    PL_RETURN_IF_ERROR(make_again(index));
  }
  return Status::OK();
}

}  // namespace paceline::sql
