// Rows of the system tables that describe the server rather than the
// catalog's objects: pg_type, pg_am, pg_database, pg_roles/pg_authid,
// pg_settings, pg_tablespace, and the relations Paceline has nothing for
// (pg_inherits, pg_trigger, pg_policy, ..., empty).
#include <cctype>

#include "storage/catalog/catalog.h"
#include "sql/system_catalog/builtin_functions.h"
#include "sql/system_catalog/catalog_objects.h"
#include "sql/system_catalog/system_info.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql::system_rows {

namespace {

using Rows = std::vector<std::vector<Value>>;

// pg_type.typtype 'p': void, unknown, record and record[] (_record).
bool IsPseudoType(const Type& t) {
  return t.id == TypeId::kVoid || t.id == TypeId::kUnknown || t.IsRecordOrRecordArray();
}

// pg_type.typcategory.
const char* Category(const Type& t) {
  if (IsPseudoType(t)) return t.id == TypeId::kUnknown ? "X" : "P";
  if (t.IsArray()) return "A";
  if (t.IsNumber()) return "N";
  if (t.IsString()) return "S";
  if (t.IsTemporal()) return "D";
  switch (t.id) {
    case TypeId::kBool: return "B";
    case TypeId::kInterval: return "T";
    default: return "U";
  }
}

}  // namespace

// pg_type's function columns (regproc: OIDs here), 0 ("-") for none.
void SetTypeFunctions(CatalogRow* row, const TypeFunctions* f) {
  const TypeFunctions none{};
  if (f == nullptr) f = &none;
  row->Oid("typinput", f->input)
      .Oid("typoutput", f->output)
      .Oid("typreceive", f->receive)
      .Oid("typsend", f->send)
      .Oid("typmodin", f->modin)
      .Oid("typmodout", f->modout)
      .Oid("typanalyze", f->analyze)
      .Oid("typsubscript", f->subscript);
}

void Types(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const BuiltinType& b : BuiltinTypes()) {
    const Type& t = b.type;
    const int16_t len = t.IsArray() ? -1 : t.WireSize();
    const char* align = len == 2 ? "s" : len == 8 ? "d" : len == 1 || len == -2 ? "c" : "i";
    CatalogRow row(rel);
    row.Oid("oid", b.oid)
        .Text("typname", t.vector     ? t.ToString()
                         : t.IsArray() ? "_" + std::string(TypeIdName(t.element))
                                       : std::string(TypeIdName(t.id)))
        .Oid("typnamespace", kPgCatalogNamespace)
        .Oid("typowner", kOwnerRole)
        .Int("typlen", len)
        .Bool("typbyval", len == 1 || len == 2 || len == 4 || len == 8)
        .Text("typtype", IsPseudoType(t) ? "p" : "b")
        .Text("typcategory", Category(t))
        .Bool("typispreferred", t.id == TypeId::kText || t.id == TypeId::kFloat64 || t.id == TypeId::kOid ||
                                    t.id == TypeId::kBool || t.id == TypeId::kTimestampTz)
        .Bool("typisdefined", true)
        .Text("typdelim", ",")
        .Oid("typelem", t.IsArray() ? Type(t.element).Oid() : 0)
        .Oid("typarray", t.IsArray() ? 0 : ArrayOid(t.id))
        .Text("typalign", align)
        .Text("typstorage", len > 0 ? "p" : t.id == TypeId::kNumeric ? "m" : "x")
        .Int("typtypmod", -1)
        .Oid("typcollation", t.IsString() || (t.IsArray() && Type(t.element).IsString()) ? 100 : 0);
    SetTypeFunctions(&row, TypeFunctionsOf(b.oid));
    out->push_back(row.Take());
  }
  for (const PseudoType& p : PseudoTypes()) {
    CatalogRow row(rel);
    row.Oid("oid", p.oid)
        .Text("typname", p.name)
        .Oid("typnamespace", kPgCatalogNamespace)
        .Oid("typowner", kOwnerRole)
        .Int("typlen", p.array ? -1 : 4)
        .Bool("typbyval", !p.array)
        .Text("typtype", "p")
        .Text("typcategory", "P")
        .Bool("typisdefined", true)
        .Text("typdelim", ",")
        .Text("typalign", p.array ? "d" : "i")
        .Text("typstorage", p.array ? "x" : "p")
        .Int("typtypmod", -1);
    SetTypeFunctions(&row, TypeFunctionsOf(p.oid));
    out->push_back(row.Take());
  }
  const CatalogObjects objects(info.catalog());
  for (const catalog::DomainSchema* d : info.catalog().Domains()) {
    CatalogRow row(rel);
    row.Oid("oid", d->oid)
        .Text("typname", d->name)
        .Oid("typnamespace", kPublicNamespace)
        .Oid("typowner", kOwnerRole)
        .Int("typlen", d->type.WireSize())
        .Text("typtype", "d")
        .Text("typcategory", Category(d->type))
        .Bool("typisdefined", true)
        .Text("typdelim", ",")
        .Text("typalign", "i")
        .Text("typstorage", "p")
        .Bool("typnotnull", d->not_null)
        .Oid("typbasetype", d->type.Oid())
        .Int("typtypmod", d->type.WireModifier())
        .Oid("typcollation", d->type.IsString() ? 100 : 0);
    // A domain reads through domain_in/domain_recv and writes as its base type.
    TypeFunctions functions{};
    if (const TypeFunctions* base = TypeFunctionsOf(d->type.Oid())) functions = *base;
    functions.input = SupportFunctionOid("domain_in");
    functions.receive = SupportFunctionOid("domain_recv");
    functions.modin = functions.modout = functions.analyze = functions.subscript = 0;
    SetTypeFunctions(&row, &functions);
    out->push_back(row.Take());
  }
}

void AccessMethods(const SystemInfo&, const SystemRelation& rel, Rows* out) {
  // PostgreSQL's, with their handler functions (support functions).
  const std::tuple<uint32_t, const char*, const char*, const char*> methods[] = {
      {2, "heap", "heap_tableam_handler", "t"}, {403, "btree", "bthandler", "i"}, {405, "hash", "hashhandler", "i"}};
  for (const auto& [oid, name, handler, type] : methods) {
    out->push_back(CatalogRow(rel)
                       .Oid("oid", oid)
                       .Text("amname", name)
                       .Oid("amhandler", SupportFunctionOid(handler))
                       .Text("amtype", type)
                       .Take());
  }
}

// PostgreSQL's built-in languages (plpgsql is an extension there, and
// Paceline runs no procedural language).
void Languages(const SystemInfo&, const SystemRelation& rel, Rows* out) {
  const std::tuple<uint32_t, const char*, bool, uint32_t> languages[] = {
      {12, "internal", false, 2246}, {13, "c", false, 2247}, {14, "sql", true, 2248}};
  for (const auto& [oid, name, trusted, validator] : languages) {
    out->push_back(CatalogRow(rel)
                       .Oid("oid", oid)
                       .Text("lanname", name)
                       .Oid("lanowner", kOwnerRole)
                       .Bool("lanpltrusted", trusted)
                       .Oid("lanvalidator", validator)
                       .Take());
  }
}

void Databases(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  out->push_back(CatalogRow(rel)
                     .Oid("oid", kDatabaseOid)
                     .Text("datname", info.DatabaseName())
                     .Oid("datdba", kOwnerRole)
                     .Int("encoding", 6)
                     .Text("datlocprovider", "c")
                     .Bool("datallowconn", true)
                     .Int("datconnlimit", -1)
                     .Oid("dattablespace", 1663)
                     .Text("datcollate", "C.UTF-8")
                     .Text("datctype", "C.UTF-8")
                     .Take());
}

void Roles(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  CatalogRow row(rel);
  row.Oid("oid", kOwnerRole)
      .Text("rolname", info.UserName())
      .Bool("rolsuper", true)
      .Bool("rolinherit", true)
      .Bool("rolcreaterole", true)
      .Bool("rolcreatedb", true)
      .Bool("rolcanlogin", true)
      .Bool("rolreplication", true)
      .Bool("rolbypassrls", true)
      .Int("rolconnlimit", -1);
  // pg_roles masks the password; pg_authid shows none (no secrets here).
  if (rel.name == "pg_roles") row.Text("rolpassword", "********");
  out->push_back(row.Take());
  // PostgreSQL 15's role that owns the public schema (no login).
  CatalogRow owner(rel);
  owner.Oid("oid", kDatabaseOwnerRole).Text("rolname", "pg_database_owner").Bool("rolinherit", true).Int("rolconnlimit", -1);
  if (rel.name == "pg_roles") owner.Text("rolpassword", "********");
  out->push_back(owner.Take());
}

void Settings(const SystemInfo& info, const SystemRelation& rel, Rows* out) {
  for (const auto& [name, value] : info.Settings()) {
    const bool boolean = value == "on" || value == "off";
    bool integer = !value.empty();
    for (char c : value) integer = integer && (std::isdigit(static_cast<unsigned char>(c)) || c == '-');
    out->push_back(CatalogRow(rel)
                       .Text("name", name)
                       .Text("setting", value)
                       .Text("category", "Client Connection Defaults")
                       .Text("context", "user")
                       .Text("vartype", boolean ? "bool" : integer ? "integer" : "string")
                       .Text("source", "default")
                       .Text("boot_val", value)
                       .Text("reset_val", value)
                       .Take());
  }
}

void Tablespaces(const SystemInfo&, const SystemRelation& rel, Rows* out) {
  out->push_back(CatalogRow(rel).Oid("oid", 1663).Text("spcname", "pg_default").Oid("spcowner", kOwnerRole).Take());
  out->push_back(CatalogRow(rel).Oid("oid", 1664).Text("spcname", "pg_global").Oid("spcowner", kOwnerRole).Take());
}

void None(const SystemInfo&, const SystemRelation&, Rows*) {}

}  // namespace paceline::sql::system_rows
