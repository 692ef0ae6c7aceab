// Binder: the system catalogs in FROM (see system_catalog/system_relation.h
// and binder.h). A table becomes a DerivedPlan whose rows the executor asks
// the relation for when the scan starts (execute_derived.cc); a view binds
// its query as a user's view binds.
#include "sql/binder_internal.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

Status Binder::FindSystemRelationFor(const TableRef& ref, const SystemRelation** out) const {
  *out = nullptr;
  const std::string& schema = ref.schema;
  if (!schema.empty() && !IsKnownSchema(schema)) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + schema + "." + ref.name + "\" does not exist",
                  Pos(ref.location));
  }
  if (schema == "public") return Status::OK();
  *out = FindSystemRelation(schema, ref.name);
  if (*out == nullptr && !schema.empty()) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + schema + "." + ref.name + "\" does not exist",
                  Pos(ref.location));
  }
  return Status::OK();
}

Status Binder::BindSystemRelation(const SystemRelation& relation, const std::vector<std::string>& aliases,
                                  std::shared_ptr<const DerivedPlan>* out) {
  if (relation.is_view()) {
    catalog::ViewSchema view;
    view.name = std::string(relation.name);
    view.definition = "CREATE VIEW " + view.name + " AS " + std::string(relation.query);
    return BindView(view, aliases, out);
  }
  auto derived = std::make_shared<DerivedPlan>();
  derived->function.kind = TableFunctionKind::kSystemRelation;
  derived->function.name = std::string(relation.name);
  derived->function.system = &relation;
  derived->columns = relation.columns;
  if (aliases.size() > derived->columns.size()) {
    return Status(sqlstate::kInvalidColumnReference,
                  "table \"" + std::string(relation.name) + "\" has " + std::to_string(derived->columns.size()) +
                      " columns available but " + std::to_string(aliases.size()) + " columns specified");
  }
  for (size_t c = 0; c < aliases.size(); ++c) derived->columns[c].name = aliases[c];
  BuildLayout(derived.get());
  *out = std::move(derived);
  return Status::OK();
}

}  // namespace paceline::sql
