// Rows of the system tables that describe the catalog's objects: pg_class,
// pg_attribute, pg_index, pg_constraint, pg_attrdef, pg_sequence,
// pg_namespace, and information_schema's columns, key_column_usage and
// constraint_column_usage (see system_relation.h). Computed from the
// catalog at each scan.
#include "common/array_value.h"
#include "sql/system_catalog/builtin_functions.h"
#include "sql/system_catalog/catalog_objects.h"
#include "sql/system_catalog/system_info.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

CatalogRow& CatalogRow::IntArray(std::string_view column, const std::vector<int64_t>& v) {
  const int i = relation_.Column(column);
  const TypeId element = relation_.columns[i].type.element;
  ArrayBuilder b(element);
  for (int64_t x : v) b.Add(element == TypeId::kOid ? Value::Oid(static_cast<uint32_t>(x)) : Value::Int64(x));
  values_[i] = b.Finish();
  return *this;
}

Value PublicSchemaAcl() {
  return MakeArray(TypeId::kText, {Value::Text("pg_database_owner=UC/pg_database_owner"),
                                   Value::Text("=U/pg_database_owner")});
}

namespace system_rows {

namespace {

using Rows = std::vector<std::vector<Value>>;

// attnum of each position (1-based).
std::vector<int64_t> AttNums(const std::vector<int>& columns) {
  std::vector<int64_t> out;
  for (int c : columns) out.push_back(c + 1);
  return out;
}

// pg_attribute's physical facts of a type: typlen, typbyval, typalign,
// typstorage (shared with pg_type).
struct Physical {
  int16_t len;
  bool byval;
  const char* align;
  const char* storage;
};

Physical PhysicalOf(const Type& t) {
  const int16_t len = t.WireSize();
  if (t.IsArray()) return {-1, false, "i", "x"};
  switch (len) {
    case 1: return {1, true, "c", "p"};
    case 2: return {2, true, "s", "p"};
    case 4: return {4, true, "i", "p"};
    case 8: return {8, true, "d", "p"};
    case 16: return {16, false, t.id == TypeId::kUuid ? "c" : "d", "p"};
    default: break;
  }
  if (t.id == TypeId::kNumeric) return {-1, false, "i", "m"};
  if (t.id == TypeId::kUnknown) return {-2, false, "c", "p"};
  return {-1, false, "i", "x"};
}

bool Collatable(const Type& t) {
  const TypeId id = t.IsArray() ? t.element : t.id;
  return id == TypeId::kText || id == TypeId::kVarchar || id == TypeId::kChar;
}

void AddAttribute(const SystemRelation& rel, uint32_t relid, int attnum, const std::string& name, const Type& type,
                  uint32_t type_oid, bool not_null, bool has_default, char identity, Rows* out) {
  const Physical p = PhysicalOf(type);
  CatalogRow row(rel);
  row.Oid("attrelid", relid)
      .Text("attname", name)
      .Oid("atttypid", type_oid)
      .Int("attstattarget", -1)
      .Int("attlen", p.len)
      .Int("attnum", attnum)
      .Int("attndims", type.IsArray() ? 1 : 0)
      .Int("attcacheoff", -1)
      .Int("atttypmod", type.WireModifier())
      .Bool("attbyval", p.byval)
      .Text("attalign", p.align)
      .Text("attstorage", p.storage)
      .Text("attcompression", "")
      .Bool("attnotnull", not_null)
      .Bool("atthasdef", has_default)
      .Text("attidentity", identity ? std::string(1, identity) : "")
      .Text("attgenerated", "")
      .Bool("attislocal", true)
      .Oid("attcollation", Collatable(type) ? 100 : 0);
  out->push_back(row.Take());
}

}  // namespace

void Namespaces(const SystemInfo&, const SystemRelation& rel, Rows* out) {
  const std::pair<uint32_t, const char*> spaces[] = {{kPgToastNamespace, "pg_toast"},
                                                     {kPgCatalogNamespace, "pg_catalog"},
                                                     {kPublicNamespace, "public"},
                                                     {kInformationSchemaNamespace, "information_schema"}};
  for (const auto& [oid, name] : spaces) {
    CatalogRow row(rel);
    row.Oid("oid", oid).Text("nspname", name).Oid("nspowner", oid == kPublicNamespace ? kDatabaseOwnerRole : kOwnerRole);
    if (oid == kPublicNamespace) row.Set("nspacl", PublicSchemaAcl());
    out->push_back(row.Take());
  }
}

// PostgreSQL 15's one initial privilege that pg_dump compares with: the
// public schema's (so a dump grants and revokes nothing there).
void InitialPrivileges(const SystemInfo&, const SystemRelation& rel, Rows* out) {
  out->push_back(CatalogRow(rel)
                     .Oid("objoid", kPublicNamespace)
                     .Oid("classoid", 2615)  // pg_namespace
                     .Text("privtype", "i")
                     .Set("initprivs", PublicSchemaAcl())
                     .Take());
}

void Classes(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  const catalog::Catalog& catalog = info.catalog();
  auto base = [&](uint32_t oid, const std::string& name, uint32_t space, char kind, int natts) {
    CatalogRow row(rel);
    row.Oid("oid", oid)
        .Text("relname", name)
        .Oid("relnamespace", space)
        .Oid("relowner", kOwnerRole)
        .Oid("relfilenode", kind == 'v' ? 0 : oid)
        .Set("reltuples", Value::Float32(-1))
        .Text("relpersistence", "p")
        .Text("relkind", std::string(1, kind))
        .Int("relnatts", natts)
        .Bool("relispopulated", true)
        .Text("relreplident", kind == 'r' ? "d" : "n");
    return row;
  };
  for (const SystemRelation& system : SystemRelations()) {
    const uint32_t space = system.schema == "pg_catalog" ? kPgCatalogNamespace : kInformationSchemaNamespace;
    CatalogRow row = base(system.oid, std::string(system.name), space, system.is_view() ? 'v' : 'r',
                          static_cast<int>(system.columns.size()));
    if (!system.is_view()) row.Oid("relam", 2);
    out->push_back(row.Take());
  }
  // Tables that a foreign key names, from either end (PostgreSQL's
  // relhastriggers: the key's triggers).
  std::vector<std::string> referenced;
  for (const auto& table : catalog.Tables()) {
    for (const catalog::ForeignKey& fk : table->schema().foreign_keys) referenced.push_back(fk.ref_table);
  }
  for (const auto& table : catalog.Tables()) {
    const catalog::TableSchema& schema = table->schema();
    const bool triggers = !schema.foreign_keys.empty() ||
                          std::find(referenced.begin(), referenced.end(), schema.name) != referenced.end();
    CatalogRow row = base(schema.oid, schema.name, kPublicNamespace, 'r', static_cast<int>(schema.columns.size()));
    row.Oid("relam", 2)
        .Bool("relhasindex", !table->indexes().empty())
        .Int("relchecks", static_cast<int64_t>(schema.checks.size()))
        .Bool("relhastriggers", triggers);
    out->push_back(row.Take());
    for (const auto& index : table->indexes()) {
      const catalog::IndexSchema& is = index->schema();
      CatalogRow irow = base(is.oid, is.name, kPublicNamespace, 'i', static_cast<int>(is.columns.size()));
      irow.Oid("relam", is.method == catalog::IndexMethod::kHash ? 405 : 403);
      out->push_back(irow.Take());
    }
  }
  for (const catalog::ViewSchema* view : catalog.Views()) {
    out->push_back(base(view->oid, view->name, kPublicNamespace, 'v', static_cast<int>(view->columns.size())).Take());
  }
  for (const auto& sequence : catalog.Sequences()) {
    const catalog::SequenceSchema s = sequence->schema();
    out->push_back(base(s.oid, s.name, kPublicNamespace, 'S', 3).Take());
  }
}

void Attributes(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  const catalog::Catalog& catalog = info.catalog();
  const CatalogObjects objects(catalog);
  for (const SystemRelation& system : SystemRelations()) {
    for (size_t i = 0; i < system.columns.size(); ++i) {
      const Type& t = system.columns[i].type;
      AddAttribute(rel, system.oid, static_cast<int>(i) + 1, system.columns[i].name, t, t.Oid(), false, false, 0,
                   out);
    }
  }
  for (const auto& table : catalog.Tables()) {
    const catalog::TableSchema& schema = table->schema();
    for (size_t i = 0; i < schema.columns.size(); ++i) {
      const catalog::ColumnSchema& c = schema.columns[i];
      AddAttribute(rel, schema.oid, static_cast<int>(i) + 1, c.name, c.type, objects.ColumnTypeOid(c), c.not_null,
                   c.default_value.present(), c.identity, out);
    }
    for (const auto& index : table->indexes()) {
      const catalog::IndexSchema& is = index->schema();
      for (size_t k = 0; k < is.columns.size(); ++k) {
        const catalog::ColumnSchema& c = schema.columns[is.columns[k]];
        AddAttribute(rel, is.oid, static_cast<int>(k) + 1, c.name, c.type, objects.ColumnTypeOid(c), false, false, 0,
                     out);
      }
    }
  }
  for (const catalog::ViewSchema* view : catalog.Views()) {
    for (size_t i = 0; i < view->columns.size() && i < view->column_types.size(); ++i) {
      const Type& t = view->column_types[i];
      AddAttribute(rel, view->oid, static_cast<int>(i) + 1, view->columns[i], t, t.Oid(), false, false, 0, out);
    }
  }
  for (const auto& sequence : catalog.Sequences()) {
    const uint32_t oid = sequence->schema().oid;
    AddAttribute(rel, oid, 1, "last_value", Type(TypeId::kInt64), 20, true, false, 0, out);
    AddAttribute(rel, oid, 2, "log_cnt", Type(TypeId::kInt64), 20, true, false, 0, out);
    AddAttribute(rel, oid, 3, "is_called", Type(TypeId::kBool), 16, true, false, 0, out);
  }
}

void Indexes(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const auto& table : info.catalog().Tables()) {
    const catalog::TableSchema& schema = table->schema();
    for (const auto& index : table->indexes()) {
      const catalog::IndexSchema& is = index->schema();
      std::vector<int64_t> collations, zeros;
      for (int c : is.columns) {
        collations.push_back(Collatable(schema.columns[c].type) ? 100 : 0);
        zeros.push_back(0);
      }
      CatalogRow row(rel);
      row.Oid("indexrelid", is.oid)
          .Oid("indrelid", schema.oid)
          .Int("indnatts", static_cast<int64_t>(is.columns.size()))
          .Int("indnkeyatts", static_cast<int64_t>(is.columns.size()))
          .Bool("indisunique", is.unique)
          .Bool("indisprimary", is.primary)
          .Bool("indimmediate", is.unique)
          .Bool("indisvalid", true)
          .Bool("indisready", true)
          .Bool("indislive", true)
          .IntArray("indkey", AttNums(is.columns))
          .IntArray("indcollation", collations)
          .IntArray("indclass", zeros)
          .IntArray("indoption", zeros);
      if (!is.predicate.empty()) row.Text("indpred", is.predicate);
      out->push_back(row.Take());
    }
  }
}

void Constraints(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  const catalog::Catalog& catalog = info.catalog();
  const CatalogObjects objects(catalog);
  for (const auto& table : catalog.Tables()) {
    const catalog::TableSchema& schema = table->schema();
    auto base = [&](uint32_t oid, const std::string& name, char type) {
      CatalogRow row(rel);
      row.Oid("oid", oid)
          .Text("conname", name)
          .Oid("connamespace", kPublicNamespace)
          .Text("contype", std::string(1, type))
          .Bool("convalidated", true)
          .Oid("conrelid", schema.oid)
          .Text("confupdtype", " ")
          .Text("confdeltype", " ")
          .Text("confmatchtype", " ")
          .Bool("conislocal", true)
          .Bool("connoinherit", type != 'c');
      return row;
    };
    for (const auto& index : table->indexes()) {
      const catalog::IndexSchema& is = index->schema();
      if (!is.constraint) continue;
      CatalogRow row = base(is.constraint_oid, is.name, is.primary ? 'p' : 'u');
      row.Oid("conindid", is.oid).IntArray("conkey", AttNums(is.columns));
      out->push_back(row.Take());
    }
    for (const catalog::ForeignKey& fk : schema.foreign_keys) {
      CatalogRow row = base(fk.oid, fk.name, 'f');
      row.Bool("condeferrable", fk.deferrable)
          .Bool("condeferred", fk.initially_deferred)
          .Text("confupdtype", std::string(1, static_cast<char>(fk.on_update)))
          .Text("confdeltype", std::string(1, static_cast<char>(fk.on_delete)))
          .Text("confmatchtype", "s")
          .IntArray("conkey", AttNums(fk.columns));
      if (auto ref = catalog.FindTable(fk.ref_table)) {
        std::vector<int> ref_columns;
        for (const std::string& name : fk.ref_columns) ref_columns.push_back(ref->schema().FindColumn(name));
        row.Oid("confrelid", ref->schema().oid)
            .Oid("conindid", objects.KeyIndexOid(*ref, ref_columns))
            .IntArray("confkey", AttNums(ref_columns));
      }
      if (!fk.delete_set_columns.empty()) row.IntArray("confdelsetcols", AttNums(fk.delete_set_columns));
      out->push_back(row.Take());
    }
    for (const catalog::CheckConstraint& check : schema.checks) {
      CatalogRow row = base(check.oid, check.name, 'c');
      row.Text("conbin", check.expression);
      out->push_back(row.Take());
    }
  }
}

void AttributeDefaults(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const auto& table : info.catalog().Tables()) {
    const catalog::TableSchema& schema = table->schema();
    for (size_t i = 0; i < schema.columns.size(); ++i) {
      const catalog::ColumnDefault& d = schema.columns[i].default_value;
      if (!d.present()) continue;
      out->push_back(CatalogRow(rel)
                         .Oid("oid", d.oid)
                         .Oid("adrelid", schema.oid)
                         .Int("adnum", static_cast<int64_t>(i) + 1)
                         .Text("adbin", d.expression)
                         .Take());
    }
  }
}

void SequenceRows(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const auto& sequence : info.catalog().Sequences()) {
    const catalog::SequenceSchema s = sequence->schema();
    out->push_back(CatalogRow(rel)
                       .Oid("seqrelid", s.oid)
                       .Oid("seqtypid", Type(s.type).Oid())
                       .Int("seqstart", s.start)
                       .Int("seqincrement", s.increment)
                       .Int("seqmax", s.max)
                       .Int("seqmin", s.min)
                       .Int("seqcache", s.cache)
                       .Bool("seqcycle", s.cycle)
                       .Take());
  }
}

// What pg_dump reads of the dependencies: a sequence owned by a column
// depends on it, automatically for serial and OWNED BY ('a'), internally
// for an identity column ('i'); a column default on the sequences it
// calls nextval of ('n').
void Dependencies(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  constexpr uint32_t kPgClass = 1259, kPgAttrdef = 2604;
  for (const std::string& name : info.catalog().TableNames()) {
    const std::shared_ptr<storage::Table> table = info.catalog().FindTable(name);
    for (const catalog::ColumnSchema& column : table->schema().columns) {
      for (const std::string& called : column.default_value.sequences) {
        const std::shared_ptr<catalog::Sequence> sequence = info.catalog().FindSequence(called);
        if (sequence == nullptr) continue;
        out->push_back(CatalogRow(rel)
                           .Oid("classid", kPgAttrdef)
                           .Oid("objid", column.default_value.oid)
                           .Oid("refclassid", kPgClass)
                           .Oid("refobjid", sequence->schema().oid)
                           .Text("deptype", "n")
                           .Take());
      }
    }
  }
  for (const auto& sequence : info.catalog().Sequences()) {
    const catalog::SequenceSchema s = sequence->schema();
    if (s.owned_by_table.empty()) continue;
    const std::shared_ptr<storage::Table> table = info.catalog().FindTable(s.owned_by_table);
    if (table == nullptr) continue;
    const int column = table->schema().FindColumn(s.owned_by_column);
    if (column < 0) continue;
    const bool identity = table->schema().columns[column].identity != 0;
    out->push_back(CatalogRow(rel)
                       .Oid("classid", kPgClass)
                       .Oid("objid", s.oid)
                       .Oid("refclassid", kPgClass)
                       .Oid("refobjid", table->schema().oid)
                       .Int("refobjsubid", column + 1)
                       .Text("deptype", identity ? "i" : "a")
                       .Take());
  }
}

// The one comment PostgreSQL's catalog starts with: the public schema's.
void Descriptions(const SystemInfo&, const SystemRelation& rel, Rows* out) {
  out->push_back(CatalogRow(rel)
                     .Oid("objoid", kPublicNamespace)
                     .Oid("classoid", 2615)  // pg_namespace
                     .Text("description", std::string(kPublicSchemaComment))
                     .Take());
  for (const BuiltinFunction& f : BuiltinFunctions()) {
    if (f.description.empty()) continue;
    out->push_back(
        CatalogRow(rel).Oid("objoid", f.oid).Oid("classoid", 1255).Text("description", f.description).Take());
  }
}

}  // namespace system_rows

}  // namespace paceline::sql
