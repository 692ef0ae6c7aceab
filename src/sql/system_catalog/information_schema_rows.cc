// Rows of the information_schema tables that are not views over pg_catalog
// (their values take per-type rules SQL would spell at length): columns,
// key_column_usage and constraint_column_usage, for the user's tables and
// views, as PostgreSQL 15 fills them.
#include "storage/catalog/catalog.h"
#include "sql/system_catalog/catalog_objects.h"
#include "sql/system_catalog/system_info.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql::system_rows {

namespace {

using Rows = std::vector<std::vector<Value>>;

// information_schema's data_type of a (non-domain) type.
std::string DataType(const Type& t) {
  if (t.IsArray()) return "ARRAY";
  switch (t.id) {
    case TypeId::kChar: return "character";
    case TypeId::kVarchar: return "character varying";
    case TypeId::kNumeric: return "numeric";
    default: return Type(t.id).ToString();
  }
}

void AddColumn(const SystemInfo& info, const SystemRelation& rel, const std::string& table, int position,
               const catalog::ColumnSchema& c, bool updatable, Rows* out) {
  const Type& t = c.type;
  const std::string db = info.DatabaseName();
  CatalogRow row(rel);
  row.Text("table_catalog", db)
      .Text("table_schema", "public")
      .Text("table_name", table)
      .Text("column_name", c.name)
      .Int("ordinal_position", position)
      .Text("is_nullable", c.not_null ? "NO" : "YES")
      .Text("data_type", DataType(t))
      .Text("udt_catalog", db)
      .Text("udt_schema", "pg_catalog")
      .Text("udt_name", t.IsArray() ? "_" + std::string(TypeIdName(t.element)) : std::string(TypeIdName(t.id)))
      .Text("dtd_identifier", std::to_string(position))
      .Text("is_self_referencing", "NO")
      .Text("is_identity", c.identity ? "YES" : "NO")
      .Text("is_generated", "NEVER")
      .Text("is_updatable", updatable ? "YES" : "NO");
  if (c.default_value.present() && !c.identity) {
    row.Text("column_default", CatalogObjects(info.catalog(), PublicOnSearchPath(info)).ExprText(c.default_value.expression));
  }
  if (c.identity) {
    row.Text("identity_generation", c.identity == 'a' ? "ALWAYS" : "BY DEFAULT").Text("identity_cycle", "NO");
  }
  if (!c.domain.empty()) row.Text("domain_catalog", db).Text("domain_schema", "public").Text("domain_name", c.domain);
  if (!t.IsArray()) {
    if ((t.id == TypeId::kChar || t.id == TypeId::kVarchar) && t.length >= 0) {
      row.Int("character_maximum_length", t.length).Int("character_octet_length", int64_t{t.length} * 4);
    } else if (t.IsString()) {
      row.Int("character_octet_length", 1073741824);
    }
    const std::pair<TypeId, int> binary[] = {{TypeId::kInt16, 16}, {TypeId::kInt32, 32}, {TypeId::kInt64, 64},
                                             {TypeId::kFloat32, 24}, {TypeId::kFloat64, 53}};
    for (const auto& [id, bits] : binary) {
      if (t.id != id) continue;
      row.Int("numeric_precision", bits).Int("numeric_precision_radix", 2);
      if (t.IsInteger()) row.Int("numeric_scale", 0);
    }
    if (t.id == TypeId::kNumeric) {
      row.Int("numeric_precision_radix", 10);
      if (t.precision >= 0) row.Int("numeric_precision", t.precision).Int("numeric_scale", t.scale < 0 ? 0 : t.scale);
    }
    if (t.id == TypeId::kDate) row.Int("datetime_precision", 0);
    if (t.id == TypeId::kTimestamp || t.id == TypeId::kTimestampTz || t.id == TypeId::kInterval) {
      row.Int("datetime_precision", 6);
    }
  }
  out->push_back(row.Take());
}

// The constraints key_column_usage and constraint_column_usage describe:
// name, table, type, and the columns (positions in `columns_of`).
struct KeyConstraint {
  std::string name;
  const catalog::TableSchema* table;
  const catalog::TableSchema* columns_of;
  std::vector<int> columns;
  std::vector<int> referenced;  // a foreign key's columns in the referenced table
};

std::vector<KeyConstraint> KeyConstraints(const catalog::Catalog& catalog) {
  std::vector<KeyConstraint> out;
  for (const auto& table : catalog.Tables()) {
    const catalog::TableSchema& schema = table->schema();
    for (const auto& index : table->indexes()) {
      const catalog::IndexSchema& is = index->schema();
      if (is.constraint) out.push_back({is.name, &schema, &schema, is.columns, {}});
    }
    for (const catalog::ForeignKey& fk : schema.foreign_keys) {
      auto ref = catalog.FindTable(fk.ref_table);
      if (!ref) continue;
      std::vector<int> referenced;
      for (const std::string& name : fk.ref_columns) referenced.push_back(ref->schema().FindColumn(name));
      out.push_back({fk.name, &schema, &ref->schema(), fk.columns, referenced});
    }
  }
  return out;
}

}  // namespace

void InformationSchemaColumns(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const auto& table : info.catalog().Tables()) {
    const catalog::TableSchema& schema = table->schema();
    for (size_t i = 0; i < schema.columns.size(); ++i) {
      AddColumn(info, rel, schema.name, static_cast<int>(i) + 1, schema.columns[i], true, out);
    }
  }
  for (const catalog::ViewSchema* view : info.catalog().Views()) {
    for (size_t i = 0; i < view->columns.size() && i < view->column_types.size(); ++i) {
      catalog::ColumnSchema c;
      c.name = view->columns[i];
      c.type = view->column_types[i];
      AddColumn(info, rel, view->name, static_cast<int>(i) + 1, c, false, out);
    }
  }
}

void KeyColumnUsage(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  const std::string db = info.DatabaseName();
  for (const KeyConstraint& k : KeyConstraints(info.catalog())) {
    for (size_t i = 0; i < k.columns.size(); ++i) {
      CatalogRow row(rel);
      row.Text("constraint_catalog", db)
          .Text("constraint_schema", "public")
          .Text("constraint_name", k.name)
          .Text("table_catalog", db)
          .Text("table_schema", "public")
          .Text("table_name", k.table->name)
          .Text("column_name", k.table->columns[k.columns[i]].name)
          .Int("ordinal_position", static_cast<int64_t>(i) + 1);
      if (!k.referenced.empty()) row.Int("position_in_unique_constraint", static_cast<int64_t>(i) + 1);
      else row.Set("position_in_unique_constraint", Value::Null(TypeId::kInt32));
      out->push_back(row.Take());
    }
  }
}

void ConstraintColumnUsage(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  const std::string db = info.DatabaseName();
  for (const KeyConstraint& k : KeyConstraints(info.catalog())) {
    const std::vector<int>& columns = k.referenced.empty() ? k.columns : k.referenced;
    for (int c : columns) {
      out->push_back(CatalogRow(rel)
                         .Text("table_catalog", db)
                         .Text("table_schema", "public")
                         .Text("table_name", k.columns_of->name)
                         .Text("column_name", k.columns_of->columns[c].name)
                         .Text("constraint_catalog", db)
                         .Text("constraint_schema", "public")
                         .Text("constraint_name", k.name)
                         .Take());
    }
  }
}

}  // namespace paceline::sql::system_rows
