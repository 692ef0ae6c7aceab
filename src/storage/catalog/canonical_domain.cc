// CanonicalDomain: foreign-key chains to their root, then the root's domain
// (see canonical_domain.h).
#include "storage/catalog/canonical_domain.h"

#include <memory>
#include <vector>

namespace paceline::catalog {

namespace {

struct Hop {
  std::shared_ptr<storage::Table> table;
  int column;

  const TableSchema& schema() const { return table->schema(); }
  std::string QualifiedName() const { return schema().name + "." + schema().columns[column].name; }
};

// The column `hop` references through the first foreign key that contains
// it; false when it references nothing that exists.
bool Referenced(const Catalog& catalog, const Hop& hop, Hop* out) {
  const TableSchema& schema = hop.schema();
  for (const ForeignKey& fk : schema.foreign_keys) {
    for (size_t k = 0; k < fk.columns.size(); ++k) {
      if (fk.columns[k] != hop.column) continue;
      if (k >= fk.ref_columns.size()) return false;
      std::shared_ptr<storage::Table> ref = fk.ref_table == schema.name ? hop.table : catalog.FindTable(fk.ref_table);
      if (ref == nullptr) return false;
      const int column = ref->schema().FindColumn(fk.ref_columns[k]);
      if (column < 0) return false;
      *out = Hop{std::move(ref), column};
      return true;
    }
  }
  return false;
}

}  // namespace

CanonicalDomain CanonicalDomain::Resolve(const Catalog& catalog, std::string_view table, std::string_view column) {
  std::shared_ptr<storage::Table> start = catalog.FindTable(table);
  const int start_column = start ? start->schema().FindColumn(column) : -1;
  if (start_column < 0) return CanonicalDomain{std::string(table), std::string(column), ""};

  std::vector<Hop> path{Hop{std::move(start), start_column}};
  size_t root = 0;
  for (;;) {
    Hop next;
    if (!Referenced(catalog, path.back(), &next)) {
      root = path.size() - 1;
      break;
    }
    size_t seen = 0;
    while (seen < path.size() && !(path[seen].table == next.table && path[seen].column == next.column)) ++seen;
    if (seen < path.size()) {
      // A cycle path[seen..]: its smallest member is the root, whichever
      // member the chain entered it by.
      root = seen;
      std::string smallest = path[seen].QualifiedName();
      for (size_t i = seen + 1; i < path.size(); ++i) {
        std::string name = path[i].QualifiedName();
        if (name < smallest) {
          smallest = std::move(name);
          root = i;
        }
      }
      break;
    }
    path.push_back(std::move(next));
  }
  const Hop& r = path[root];
  const ColumnSchema& c = r.schema().columns[r.column];
  return CanonicalDomain{r.schema().name, c.name, c.domain};
}

}  // namespace paceline::catalog
