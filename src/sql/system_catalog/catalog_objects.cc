// CatalogObjects (see catalog_objects.h).
#include "sql/system_catalog/catalog_objects.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "sql/sequence_access.h"
#include "sql/system_catalog/builtin_functions.h"
#include "sql/system_catalog/system_info.h"
#include "sql/system_catalog/view_text.h"

namespace paceline::sql {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// PostgreSQL's names of a foreign key action in its definition.
const char* ActionText(catalog::ForeignKeyAction a) {
  switch (a) {
    case catalog::ForeignKeyAction::kRestrict: return "RESTRICT";
    case catalog::ForeignKeyAction::kCascade: return "CASCADE";
    case catalog::ForeignKeyAction::kSetNull: return "SET NULL";
    case catalog::ForeignKeyAction::kSetDefault: return "SET DEFAULT";
    case catalog::ForeignKeyAction::kNoAction: break;
  }
  return "NO ACTION";
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

const std::vector<BuiltinType>& BuiltinTypes() {
  static const auto* types = [] {
    auto* out = new std::vector<BuiltinType>;
    const TypeId ids[] = {TypeId::kBool,      TypeId::kBytea,  TypeId::kInt64,   TypeId::kInt16,     TypeId::kInt32,
                          TypeId::kText,      TypeId::kOid,    TypeId::kJson,    TypeId::kFloat32,   TypeId::kFloat64,
                          TypeId::kUnknown,   TypeId::kChar,   TypeId::kVarchar, TypeId::kDate,      TypeId::kTimestamp,
                          TypeId::kTimestampTz, TypeId::kInterval, TypeId::kNumeric, TypeId::kVoid, TypeId::kUuid,
                          TypeId::kJsonb, TypeId::kRecord};
    for (TypeId id : ids) {
      const Type t(id);
      out->push_back({t.Oid(), t});
      if (ArrayOid(id) != 0) out->push_back({ArrayOid(id), Type::Array(t)});
    }
    for (TypeId element : {TypeId::kInt16, TypeId::kOid}) {  // int2vector, oidvector
      const Type t = Type::Vector(element);
      out->push_back({t.Oid(), t});
    }
    return out;
  }();
  return *types;
}

const std::vector<PseudoType>& PseudoTypes() {
  static const std::vector<PseudoType> types = {
      {2276, "any", false},           {2277, "anyarray", true},           {2283, "anyelement", false},
      {2776, "anynonarray", false},   {5077, "anycompatible", false},     {5078, "anycompatiblearray", true},
      {5079, "anycompatiblenonarray", false}};
  return types;
}

std::string QuoteIdent(std::string_view name) { return RegclassText(name); }

std::string ColumnList(const catalog::TableSchema& schema, const std::vector<int>& columns) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += QuoteIdent(schema.columns[columns[i]].name);
  }
  return out;
}

std::optional<RelationRef> CatalogObjects::RelationByOid(uint32_t oid) const {
  if (oid == 0) return std::nullopt;
  if (oid < catalog::Catalog::kFirstUserOid) {
    const SystemRelation* system = SystemRelationByOid(oid);
    if (system == nullptr) return std::nullopt;
    RelationRef r;
    r.system = system;
    r.oid = oid;
    r.name = std::string(system->name);
    r.namespace_oid = system->schema == "pg_catalog" ? kPgCatalogNamespace : kInformationSchemaNamespace;
    r.kind = system->is_view() ? 'v' : 'r';
    return r;
  }
  for (const auto& table : catalog_.Tables()) {
    if (table->schema().oid == oid) {
      RelationRef r;
      r.table = table.get();
      r.oid = oid;
      r.name = table->name();
      r.kind = 'r';
      return r;
    }
    for (const auto& index : table->indexes()) {
      if (index->schema().oid == oid) {
        RelationRef r;
        r.table = table.get();
        r.index = index.get();
        r.oid = oid;
        r.name = index->schema().name;
        r.kind = 'i';
        return r;
      }
    }
  }
  for (const catalog::ViewSchema* view : catalog_.Views()) {
    if (view->oid == oid) {
      RelationRef r;
      r.view = view;
      r.oid = oid;
      r.name = view->name;
      r.kind = 'v';
      return r;
    }
  }
  for (auto& sequence : catalog_.Sequences()) {
    const catalog::SequenceSchema schema = sequence->schema();
    if (schema.oid == oid) {
      RelationRef r;
      r.sequence = sequence;
      r.oid = oid;
      r.name = schema.name;
      r.kind = 'S';
      return r;
    }
  }
  return std::nullopt;
}

std::optional<RelationRef> CatalogObjects::RelationByName(std::string_view schema, std::string_view name) const {
  if (schema.empty() || schema == "pg_catalog" || schema == "information_schema") {
    if (const SystemRelation* system = FindSystemRelation(schema, name)) return RelationByOid(system->oid);
    if (!schema.empty()) return std::nullopt;
  }
  if (!schema.empty() && schema != "public") return std::nullopt;
  uint32_t oid = 0;
  if (auto table = catalog_.FindTable(name)) {
    oid = table->schema().oid;
  } else if (auto owner = catalog_.FindIndexTable(name)) {
    if (const storage::Index* index = owner->FindIndex(name)) oid = index->schema().oid;
  } else if (const catalog::ViewSchema* view = catalog_.FindView(name)) {
    oid = view->oid;
  } else if (auto sequence = catalog_.FindSequence(name)) {
    oid = sequence->schema().oid;
  }
  if (oid == 0) return std::nullopt;
  return RelationByOid(oid);
}

std::optional<ConstraintRef> CatalogObjects::ConstraintByOid(uint32_t oid) const {
  for (const auto& table : catalog_.Tables()) {
    const catalog::TableSchema& schema = table->schema();
    ConstraintRef r;
    r.table = table.get();
    r.oid = oid;
    for (const auto& index : table->indexes()) {
      const catalog::IndexSchema& is = index->schema();
      if (is.constraint && is.constraint_oid == oid) {
        r.index = &is;
        r.name = is.name;
        r.type = is.primary ? 'p' : 'u';
        return r;
      }
    }
    for (const catalog::ForeignKey& fk : schema.foreign_keys) {
      if (fk.oid == oid) {
        r.foreign_key = &fk;
        r.name = fk.name;
        r.type = 'f';
        return r;
      }
    }
    for (const catalog::CheckConstraint& check : schema.checks) {
      if (check.oid == oid) {
        r.check = &check;
        r.name = check.name;
        r.type = 'c';
        return r;
      }
    }
  }
  return std::nullopt;
}

uint32_t CatalogObjects::KeyIndexOid(const storage::Table& table, const std::vector<int>& columns) const {
  for (const auto& index : table.indexes()) {
    const catalog::IndexSchema& is = index->schema();
    if (is.unique && is.predicate.empty() && is.columns == columns) return is.oid;
  }
  return 0;
}

std::optional<std::string> CatalogObjects::FormatType(uint32_t type_oid, std::optional<int32_t> typmod) const {
  for (const BuiltinType& b : BuiltinTypes()) {
    if (b.oid != type_oid) continue;
    Type t = b.type;  // an array keeps its element's modifiers on itself
    const TypeId id = t.IsArray() ? t.element : t.id;
    const int32_t m = typmod && *typmod >= 4 ? *typmod - 4 : -1;
    if (m >= 0 && (id == TypeId::kVarchar || id == TypeId::kChar)) {
      t.length = m;
    } else if (m >= 0 && id == TypeId::kNumeric) {
      t.precision = (m >> 16) & 0xffff;
      t.scale = m & 0xffff;
    }
    // format_type(bpchar, NULL) says "character", with typmod -1 "bpchar".
    if (id == TypeId::kChar && !typmod && !t.IsArray()) return std::string("character");
    return t.ToString();
  }
  for (const catalog::DomainSchema* d : catalog_.Domains()) {
    if (d->oid == type_oid) return QuoteIdent(d->name);
  }
  for (const PseudoType& p : PseudoTypes()) {
    if (p.oid == type_oid) return std::string(p.name) == "any" ? "\"any\"" : p.name;  // any is a keyword
  }
  return std::nullopt;
}

uint32_t CatalogObjects::ColumnTypeOid(const catalog::ColumnSchema& column) const {
  if (!column.domain.empty()) {
    if (const catalog::DomainSchema* d = catalog_.FindDomain(column.domain)) return d->oid;
  }
  return column.type.Oid();
}

std::optional<std::string> CatalogObjects::IndexDef(uint32_t index_oid, int column, bool pretty) const {
  std::optional<RelationRef> r = RelationByOid(index_oid);
  if (!r || r->index == nullptr) return std::nullopt;
  const catalog::IndexSchema& is = r->index->schema();
  const catalog::TableSchema& table = r->table->schema();
  if (column > 0) {
    if (column > static_cast<int>(is.columns.size())) return std::string();
    return QuoteIdent(table.columns[is.columns[column - 1]].name);
  }
  std::string out = is.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ";
  out += QuoteIdent(is.name) + (pretty ? " ON " : " ON public.") + QuoteIdent(table.name) + " USING ";
  out += is.method == catalog::IndexMethod::kHash ? "hash" : "btree";
  out += " (" + ColumnList(table, is.columns) + ")";
  if (!is.predicate.empty()) out += pretty ? " WHERE " + is.predicate : " WHERE (" + is.predicate + ")";
  return out;
}

std::optional<std::string> CatalogObjects::ConstraintDef(uint32_t constraint_oid, bool pretty) const {
  std::optional<ConstraintRef> c = ConstraintByOid(constraint_oid);
  if (!c) return std::nullopt;
  const catalog::TableSchema& schema = c->table->schema();
  if (c->index != nullptr) {
    return std::string(c->type == 'p' ? "PRIMARY KEY (" : "UNIQUE (") + ColumnList(schema, c->index->columns) + ")";
  }
  if (c->check != nullptr) {
    return pretty ? "CHECK (" + c->check->expression + ")" : "CHECK ((" + c->check->expression + "))";
  }
  const catalog::ForeignKey& fk = *c->foreign_key;
  std::string out =
      "FOREIGN KEY (" + ColumnList(schema, fk.columns) + ") REFERENCES " + UserRelationText(fk.ref_table) + "(";
  for (size_t i = 0; i < fk.ref_columns.size(); ++i) out += (i ? ", " : "") + QuoteIdent(fk.ref_columns[i]);
  out += ")";
  if (fk.on_update != catalog::ForeignKeyAction::kNoAction) out += std::string(" ON UPDATE ") + ActionText(fk.on_update);
  if (fk.on_delete != catalog::ForeignKeyAction::kNoAction) {
    out += std::string(" ON DELETE ") + ActionText(fk.on_delete);
    if (!fk.delete_set_columns.empty()) out += " (" + ColumnList(schema, fk.delete_set_columns) + ")";
  }
  if (fk.deferrable) out += fk.initially_deferred ? " DEFERRABLE INITIALLY DEFERRED" : " DEFERRABLE";
  return out;
}

std::string CatalogObjects::ExprText(std::string expression) const {
  // A nextval's sequence, qualified exactly when public is off the search
  // path (the text keeps what was written: either form may be stored).
  static constexpr std::string_view kNextval = "nextval('", kPublic = "public.";
  for (size_t at = expression.find(kNextval); at != std::string::npos; at = expression.find(kNextval, at + 1)) {
    const size_t name = at + kNextval.size();
    const size_t end = expression.find('\'', name);
    if (end == std::string::npos) break;
    const bool qualified = expression.compare(name, kPublic.size(), kPublic) == 0;
    const size_t bare = qualified ? name + kPublic.size() : name;
    const std::string sequence = expression.substr(bare, end - bare);
    if (sequence.find('.') != std::string::npos || catalog_.FindSequence(sequence) == nullptr) continue;
    if (qualified && public_on_path_) expression.erase(name, kPublic.size());
    if (!qualified && !public_on_path_) expression.insert(name, kPublic);
  }
  return expression;
}

std::optional<std::string> CatalogObjects::ViewDef(uint32_t view_oid) const {
  std::optional<RelationRef> r = RelationByOid(view_oid);
  if (!r) return std::nullopt;
  if (r->system != nullptr && r->system->is_view()) return " " + std::string(r->system->query) + ";";
  if (r->view == nullptr) return std::nullopt;
  // The query after the view's name, column list and AS (its relations
  // qualified when public is off the search path).
  const std::string text =
      QualifyRelations(r->view->definition, !public_on_path_, [&](const std::string& name) {
        return catalog_.FindTable(name) || catalog_.FindView(name) || catalog_.FindSequence(name);
      });
  const std::string lower = Lower(text);
  size_t at = lower.find(" view ");
  while (at != std::string::npos) {
    at = lower.find("as", at + 1);
    if (at == std::string::npos) break;
    const bool before = std::isspace(static_cast<unsigned char>(lower[at - 1])) || lower[at - 1] == ')';
    const bool after = at + 2 < lower.size() && (std::isspace(static_cast<unsigned char>(lower[at + 2])) || lower[at + 2] == '(');
    if (before && after) {
      size_t start = at + 2;
      while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
      return " " + text.substr(start) + ";";
    }
  }
  return text;
}

namespace {

// Digits as an OID; 22003 past 2^32 - 1, as PostgreSQL's oidin.
Status DigitsOid(std::string_view text, uint32_t* oid) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > UINT32_MAX) {
    return Status(sqlstate::kNumericValueOutOfRange, "value \"" + std::string(text) + "\" is out of range for type oid");
  }
  *oid = static_cast<uint32_t>(value);
  return Status::OK();
}

}  // namespace

std::string CatalogObjects::RegclassText(uint32_t oid) const {
  std::optional<RelationRef> r = RelationByOid(oid);
  if (!r) return std::to_string(oid);
  if (r->namespace_oid == kInformationSchemaNamespace) return "information_schema." + QuoteIdent(r->name);
  if (r->namespace_oid == kPublicNamespace) return UserRelationText(r->name);
  return QuoteIdent(r->name);
}

std::string CatalogObjects::UserRelationText(std::string_view name) const {
  return public_on_path_ ? QuoteIdent(name) : "public." + QuoteIdent(name);
}

std::vector<std::string> SessionSearchPath(const SystemInfo& info) {
  for (const auto& [name, value] : info.Settings()) {
    if (name == "search_path") return SearchPathSchemas(value);
  }
  return {"public"};  // PostgreSQL's default path, "$user", public
}

bool PublicOnSearchPath(const SystemInfo& info) {
  const std::vector<std::string> path = SessionSearchPath(info);
  return std::find(path.begin(), path.end(), "public") != path.end();
}

std::vector<std::string> SearchPathSchemas(std::string_view search_path) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= search_path.size()) {
    size_t comma = search_path.find(',', at);
    if (comma == std::string_view::npos) comma = search_path.size();
    std::string item(search_path.substr(at, comma - at));
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.size() >= 2 && item.front() == '"' && item.back() == '"') {
      item = item.substr(1, item.size() - 2);
    } else {
      item = Lower(item);
    }
    if (IsKnownSchema(item) && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    at = comma + 1;
  }
  return out;
}

Status CatalogObjects::RegclassOid(std::string_view text, uint32_t* oid) const {
  if (AllDigits(text)) return DigitsOid(text, oid);
  std::vector<std::string> parts;
  PL_RETURN_IF_ERROR(RegclassNameParts(text, &parts));
  std::optional<RelationRef> r;
  if (parts.size() == 1) r = RelationByName("", parts[0]);
  if (parts.size() == 2) r = RelationByName(parts[0], parts[1]);
  if (!r) return Status(sqlstate::kUndefinedTable, "relation \"" + std::string(text) + "\" does not exist");
  *oid = r->oid;
  return Status::OK();
}

std::string CatalogObjects::RegtypeText(uint32_t oid) const {
  std::optional<std::string> name = FormatType(oid, std::nullopt);
  return name ? *name : std::to_string(oid);
}

Status CatalogObjects::RegtypeOid(std::string_view text, uint32_t* oid) const {
  if (AllDigits(text)) return DigitsOid(text, oid);
  std::string name = Lower(text);
  if (name.starts_with("pg_catalog.")) name.erase(0, 11);
  bool array = false;
  if (name.ends_with("[]")) {
    array = true;
    name.resize(name.size() - 2);
  } else if (name.starts_with("_")) {  // pg_type's name of an array type: _int4
    array = true;
    name.erase(0, 1);
  }
  for (const catalog::DomainSchema* d : catalog_.Domains()) {
    if (d->name == name && !array) {
      *oid = d->oid;
      return Status::OK();
    }
  }
  static const std::pair<const char*, const char*> kSpellings[] = {
      {"character varying", "varchar"}, {"character", "bpchar"}, {"char", "bpchar"}, {"decimal", "numeric"},
      {"float", "float8"},
  };
  for (const auto& [spelled, canonical] : kSpellings) {
    if (name == spelled) name = canonical;
  }
  Type t;
  Status s = ResolveBuiltinType(name, {}, &t);
  if (!s.ok()) return Status(sqlstate::kUndefinedObject, "type \"" + std::string(text) + "\" does not exist");
  *oid = array ? ArrayOid(t.id) : t.Oid();
  return Status::OK();
}

Status CatalogObjects::RegprocOid(std::string_view text, bool with_arguments, uint32_t* oid) const {
  if (text == "-") {
    *oid = 0;
    return Status::OK();
  }
  if (AllDigits(text)) return DigitsOid(text, oid);
  // name(type, ...): the name ends at the first parenthesis outside quotes.
  std::string_view name_text = text;
  std::vector<uint32_t> arg_types;
  if (with_arguments) {
    size_t open = 0;
    for (bool quoted = false; open < text.size() && (quoted || text[open] != '('); ++open) {
      if (text[open] == '"') quoted = !quoted;
    }
    if (open == text.size()) return Status(sqlstate::kInvalidTextRepresentation, "expected a left parenthesis");
    size_t close = text.find_last_not_of(" \t\n\r\f\v");
    if (text[close] != ')') return Status(sqlstate::kInvalidTextRepresentation, "expected a right parenthesis");
    name_text = text.substr(0, open);
    const std::string_view list = text.substr(open + 1, close - open - 1);
    // Types split at commas outside quotes and parentheses (numeric(10,2)).
    if (list.find_first_not_of(" \t\n\r\f\v") != std::string_view::npos) {
      size_t start = 0;
      int depth = 0;
      bool quoted = false;
      for (size_t i = 0; i <= list.size(); ++i) {
        if (i < list.size() && (quoted || depth > 0 || list[i] != ',')) {
          if (list[i] == '"') quoted = !quoted;
          if (!quoted) depth += list[i] == '(' ? 1 : list[i] == ')' ? -1 : 0;
          continue;
        }
        std::string_view item = list.substr(start, i - start);
        const size_t first = item.find_first_not_of(" \t\n\r\f\v");
        if (first == std::string_view::npos) return Status(sqlstate::kInvalidTextRepresentation, "expected a type name");
        item = item.substr(first, item.find_last_not_of(" \t\n\r\f\v") - first + 1);
        // The types the rows hold in another form, and the pseudo-types,
        // first ("name", "regclass", anyarray, "any"); then any type.
        std::vector<std::string> type_parts;
        uint32_t type = RegclassNameParts(item, &type_parts).ok() && type_parts.size() == 1
                            ? BuiltinArgumentTypeOid(type_parts[0])
                            : 0;
        if (type == 0) PL_RETURN_IF_ERROR(RegtypeOid(item, &type));
        arg_types.push_back(type);
        start = i + 1;
      }
    }
  }
  std::vector<std::string> parts;
  PL_RETURN_IF_ERROR(RegclassNameParts(name_text, &parts));
  if (parts.size() == 3) {
    return Status(sqlstate::kFeatureNotSupported, "cross-database references are not implemented: " + std::string(text));
  }
  const std::string& name = parts.back();
  auto not_found = [&] { return Status(sqlstate::kUndefinedFunction, "function \"" + std::string(text) + "\" does not exist"); };
  if (parts.size() == 2 && parts[0] != "pg_catalog") {
    uint32_t space = 0;
    PL_RETURN_IF_ERROR(NamespaceOid(QuoteIdent(parts[0]), &space));  // 3F000 for an unknown schema
    return not_found();  // built-in functions live in pg_catalog
  }
  size_t found = 0;
  for (const BuiltinFunction& f : BuiltinFunctions()) {
    if (f.name != name || (with_arguments && f.arg_types != arg_types)) continue;
    *oid = f.oid;
    // PostgreSQL has more functions of the name (the overloads Paceline
    // does not list included): a name alone names none of them there.
    found += with_arguments || !f.overloaded ? 1 : 2;
  }
  if (!with_arguments && found == 0) {
    *oid = SupportFunctionOid(name);
    found = *oid != 0 ? 1 : 0;
  }
  if (found == 0) return not_found();
  if (found > 1) return Status(sqlstate::kAmbiguousFunction, "more than one function named \"" + std::string(text) + "\"");
  return Status::OK();
}

Status CatalogObjects::RegoperOid(std::string_view text, bool with_arguments, uint32_t* oid) const {
  if (AllDigits(text)) return DigitsOid(text, oid);
  if (with_arguments && text.find('(') == std::string_view::npos) {
    return Status(sqlstate::kInvalidTextRepresentation, "expected a left parenthesis");
  }
  return Status(sqlstate::kUndefinedFunction, "operator does not exist: " + std::string(text));
}

Status CatalogObjects::NamespaceOid(std::string_view text, uint32_t* oid) const {
  if (AllDigits(text)) return DigitsOid(text, oid);
  std::vector<std::string> parts;
  PL_RETURN_IF_ERROR(RegclassNameParts(text, &parts));
  for (uint32_t space : {kPgCatalogNamespace, kPublicNamespace, kInformationSchemaNamespace, kPgToastNamespace}) {
    if (parts.size() == 1 && NamespaceText(space) == parts[0]) {
      *oid = space;
      return Status::OK();
    }
  }
  return Status(sqlstate::kInvalidSchemaName,
                "schema \"" + (parts.size() == 1 ? parts[0] : std::string(text)) + "\" does not exist");
}

std::string CatalogObjects::NamespaceText(uint32_t oid) const {
  switch (oid) {
    case kPgCatalogNamespace: return "pg_catalog";
    case kPublicNamespace: return "public";
    case kInformationSchemaNamespace: return "information_schema";
    case kPgToastNamespace: return "pg_toast";
    default: return std::to_string(oid);
  }
}

}  // namespace paceline::sql
