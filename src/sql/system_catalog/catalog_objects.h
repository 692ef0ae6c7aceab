// CatalogObjects: the catalog's objects as the system catalogs name them —
// by OID and by (schema, name) — and the texts PostgreSQL's catalog
// functions print for them: format_type, pg_get_indexdef,
// pg_get_constraintdef, pg_get_viewdef, regclass and regtype output.
// Shared by the catalog tables' rows (pg_catalog_*.cc) and the catalog
// functions (evaluate_catalog_function.cc), so both say the same.
//
// Thread-safety: reads the catalog; valid while it is not changed (a
// statement holds the database's execution gate). Ownership: borrows it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "storage/catalog/catalog.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

class SystemInfo;

// A relation pg_class shows: exactly one of the pointers is set.
struct RelationRef {
  const storage::Table* table = nullptr;        // a table ('r')
  const storage::Index* index = nullptr;        // an index ('i'); `table` is its table
  const catalog::ViewSchema* view = nullptr;    // a view ('v')
  std::shared_ptr<catalog::Sequence> sequence;  // a sequence ('S')
  const SystemRelation* system = nullptr;       // a system relation ('r' or 'v')
  uint32_t oid = 0;
  std::string name;
  uint32_t namespace_oid = kPublicNamespace;
  char kind = 0;  // pg_class.relkind
};

// PostgreSQL's constraint kinds in pg_constraint: one per PRIMARY KEY,
// UNIQUE, FOREIGN KEY and CHECK of a table.
struct ConstraintRef {
  const storage::Table* table = nullptr;
  const catalog::IndexSchema* index = nullptr;      // 'p' or 'u'
  const catalog::ForeignKey* foreign_key = nullptr;  // 'f'
  const catalog::CheckConstraint* check = nullptr;   // 'c'
  uint32_t oid = 0;
  std::string name;
  char type = 0;  // pg_constraint.contype
};

class CatalogObjects {
 public:
  // `public_on_path`: whether the session's search_path names public (as
  // it does by default); when it does not, the texts below qualify the
  // user's relations ("public.t"), as PostgreSQL's do.
  explicit CatalogObjects(const catalog::Catalog& catalog, bool public_on_path = true)
      : catalog_(catalog), public_on_path_(public_on_path) {}

  std::optional<RelationRef> RelationByOid(uint32_t oid) const;
  // `schema` empty: the search path (pg_catalog, then public).
  std::optional<RelationRef> RelationByName(std::string_view schema, std::string_view name) const;
  std::optional<ConstraintRef> ConstraintByOid(uint32_t oid) const;
  // The OID of a table's unique index on exactly `columns` (a foreign key's
  // referenced key), or 0.
  uint32_t KeyIndexOid(const storage::Table& table, const std::vector<int>& columns) const;

  // format_type(type_oid, typmod): "integer", "character varying(20)", a
  // domain's name; nullopt for an OID that is no type (format_type prints
  // "???"). `typmod` nullopt: SQL's NULL.
  std::optional<std::string> FormatType(uint32_t type_oid, std::optional<int32_t> typmod) const;
  // The pg_type OID of a column's type (its domain's when it has one).
  uint32_t ColumnTypeOid(const catalog::ColumnSchema& column) const;
  // pg_get_indexdef(oid): "CREATE UNIQUE INDEX t_pkey ON public.t USING
  // btree (id)" ("ON t" when `pretty`); with `column` > 0 that key
  // column's name only.
  std::optional<std::string> IndexDef(uint32_t index_oid, int column = 0, bool pretty = false) const;
  // pg_get_constraintdef(oid, pretty): "PRIMARY KEY (id)", "FOREIGN KEY (a)
  // REFERENCES t(id) ON DELETE CASCADE", "CHECK (n > 0)" (not pretty:
  // "CHECK ((n > 0))").
  std::optional<std::string> ConstraintDef(uint32_t constraint_oid, bool pretty) const;
  // pg_get_expr(text): the expression's text, a nextval's sequence
  // qualified ('public.s') when public is not on the search path.
  std::string ExprText(std::string expression) const;
  // pg_get_viewdef(oid): the view's query.
  std::optional<std::string> ViewDef(uint32_t view_oid) const;
  // regclass output: the relation's name (qualified when not visible), or
  // the OID's digits when none has it, as PostgreSQL prints it.
  std::string RegclassText(uint32_t oid) const;
  // regclass input: digits are an OID; else a relation's name (42P01 when
  // none has it).
  Status RegclassOid(std::string_view text, uint32_t* oid) const;
  // regtype output / input (input: a type name as SQL writes it).
  std::string RegtypeText(uint32_t oid) const;
  Status RegtypeOid(std::string_view text, uint32_t* oid) const;
  // regproc input ("-" is 0, digits an OID, else a function's name,
  // pg_catalog-qualified or not: 42883 when no function has it, 42725 when
  // more than one does) and, `with_arguments`, regprocedure input
  // ("name(type, ...)", matched on the input argument types).
  Status RegprocOid(std::string_view text, bool with_arguments, uint32_t* oid) const;
  // regoper and (`with_arguments`) regoperator input: digits are an OID;
  // pg_operator lists no operator, so a name is 42883.
  Status RegoperOid(std::string_view text, bool with_arguments, uint32_t* oid) const;
  // regnamespace output and input (3F000 for a schema Paceline has not).
  std::string NamespaceText(uint32_t oid) const;
  Status NamespaceOid(std::string_view text, uint32_t* oid) const;

  const catalog::Catalog& catalog() const { return catalog_; }

 private:
  // A user relation's name as these texts print it (qualified when public
  // is not on the search path).
  std::string UserRelationText(std::string_view name) const;

  const catalog::Catalog& catalog_;
  const bool public_on_path_;
};

// The schemas the session's search_path names that exist (SearchPathSchemas
// of its setting), and whether public is one (see CatalogObjects).
std::vector<std::string> SessionSearchPath(const SystemInfo& info);
bool PublicOnSearchPath(const SystemInfo& info);

// The schemas a search_path setting names that exist ("public"; "$user"
// names none here), in order: current_schemas(false).
std::vector<std::string> SearchPathSchemas(std::string_view search_path);

// The built-in types pg_type shows, with PostgreSQL's OIDs (arrays too).
struct BuiltinType {
  uint32_t oid;
  Type type;  // an array type for an array
};
const std::vector<BuiltinType>& BuiltinTypes();

// The polymorphic pseudo-types built-in functions are declared with
// ("any", anyelement, anyarray, ...; pg_type typtype 'p'): no value has
// one, so they have no Type; pg_type and format_type know them by OID.
struct PseudoType {
  uint32_t oid;
  const char* name;
  bool array;  // anyarray, anycompatiblearray
};
const std::vector<PseudoType>& PseudoTypes();

// The column names of `columns` (positions in `schema`), comma-separated
// and quoted where SQL needs it: "a, b".
std::string ColumnList(const catalog::TableSchema& schema, const std::vector<int>& columns);
// An identifier as quote_ident() writes it: bare when it needs no quotes.
std::string QuoteIdent(std::string_view name);

}  // namespace paceline::sql
