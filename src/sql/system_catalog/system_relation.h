// SystemRelation: one relation of the system catalogs, pg_catalog.pg_class
// or information_schema.tables. Their rows are never stored: a table's are
// computed from the catalog (and the session, SystemInfo) each time a
// statement scans it, so they cannot fall out of step with what they
// describe; a view is a query over the tables, bound where it is named as a
// user's view is.
//
// Names resolve as PostgreSQL's search_path does: pg_catalog first, then
// public, for an unqualified name (a user's table cannot hide pg_class);
// information_schema's only when qualified.
//
// The registry is built once and never changes; every function here is
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.h"
#include "common/query_result.h"

namespace paceline::sql {

class SystemInfo;

// PostgreSQL's OIDs of the namespaces the catalogs show.
inline constexpr uint32_t kPgCatalogNamespace = 11;
inline constexpr uint32_t kPublicNamespace = 2200;
inline constexpr uint32_t kInformationSchemaNamespace = 13207;
inline constexpr uint32_t kPgToastNamespace = 99;
// The role every object belongs to (PostgreSQL's bootstrap superuser): the
// session's own (pg_get_userbyid names it after the session's user).
inline constexpr uint32_t kOwnerRole = 10;
// PostgreSQL 15's owner of the public schema: whoever owns the database.
inline constexpr uint32_t kDatabaseOwnerRole = 6171;
// The public schema's comment (pg_description), as PostgreSQL 15's.
inline constexpr std::string_view kPublicSchemaComment = "standard public schema";
// The one database's pg_database.oid.
inline constexpr uint32_t kDatabaseOid = 16383;

struct SystemRelation {
  std::string_view schema;  // "pg_catalog" or "information_schema"
  std::string_view name;
  uint32_t oid;             // its pg_class.oid (PostgreSQL's own)
  // A table: its columns, and its rows now (in the columns' order and types).
  std::vector<ResultColumn> columns;
  // The columns PostgreSQL types `name` (text here, but subscripted as
  // name is: typname[0] is its first character).
  std::vector<bool> name_columns;
  void (*rows)(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*) = nullptr;
  // A view: its query, over the tables above and the user's.
  std::string_view query;

  bool is_view() const { return !query.empty(); }
  // Position of column `name` (it must exist).
  int Column(std::string_view name) const;
};

// The system relation `schema`.`name`, or null. `schema` empty: the name as
// unqualified in the search path (pg_catalog only; "public" has none).
const SystemRelation* FindSystemRelation(std::string_view schema, std::string_view name);
// Every system relation, pg_catalog's first.
const std::vector<SystemRelation>& SystemRelations();
// A system relation by OID, or null.
const SystemRelation* SystemRelationByOid(uint32_t oid);
// Whether `schema` is a schema Paceline has (pg_catalog, public,
// information_schema).
bool IsKnownSchema(std::string_view schema);

// A row of `relation` under construction: every column starts as its
// type's "nothing" (false, 0, NULL for text and arrays), the way most
// pg_catalog columns are for Paceline (NULL in information_schema); Set
// names the others.
class CatalogRow {
 public:
  explicit CatalogRow(const SystemRelation& relation);
  CatalogRow& Set(std::string_view column, Value v);
  CatalogRow& Oid(std::string_view column, uint32_t v) { return Set(column, Value::Oid(v)); }
  CatalogRow& Text(std::string_view column, std::string v) { return Set(column, Value::Text(std::move(v))); }
  CatalogRow& Bool(std::string_view column, bool v) { return Set(column, Value::Bool(v)); }
  // Any integer column (int2, int4, int8), converted to its type.
  CatalogRow& Int(std::string_view column, int64_t v);
  // An int2[] or oid[] column.
  CatalogRow& IntArray(std::string_view column, const std::vector<int64_t>& v);
  std::vector<Value> Take() { return std::move(values_); }

 private:
  const SystemRelation& relation_;
  std::vector<Value> values_;
};

// Builders of the tables' rows (pg_catalog_objects.cc, pg_catalog_server.cc,
// pg_catalog_activity.cc).
namespace system_rows {
void Namespaces(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Classes(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Attributes(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Types(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Indexes(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Constraints(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void AttributeDefaults(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void SequenceRows(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void AccessMethods(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Databases(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Roles(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Settings(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Tablespaces(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Languages(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void InformationSchemaColumns(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void KeyColumnUsage(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void ConstraintColumnUsage(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Activity(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Locks(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void TableStatistics(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void InitialPrivileges(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Dependencies(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Descriptions(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
void Functions(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);  // builtin_functions.cc
void None(const SystemInfo&, const SystemRelation&, std::vector<std::vector<Value>>*);
}  // namespace system_rows

// The public schema's privileges (pg_namespace.nspacl, pg_init_privs), as
// PostgreSQL 15 creates them: its owner all, everyone USAGE.
Value PublicSchemaAcl();

}  // namespace paceline::sql
