// BuiltinFunctions (see builtin_functions.h): PostgreSQL 15's pg_proc rows
// for Paceline's functions, their texts, and pg_proc's rows.
#include "sql/system_catalog/builtin_functions.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>

#include "common/array_value.h"
#include "sql/system_catalog/catalog_objects.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

namespace {

// A row as the generated file writes it.
struct GeneratedRow {
  uint32_t oid;
  const char* name;
  char kind;
  bool retset;
  char volatility;
  bool strict;
  char parallel;
  uint32_t language;
  uint32_t result;
  const char* arg_types;
  uint32_t variadic;
  double cost;
  double rows;
  const char* all_arg_types;
  const char* arg_modes;
  const char* arg_names;
  const char* arg_defaults;
  const char* source;
  const char* description;
  const char* support;
  bool leakproof;
  const char* sql_body;
};

struct SupportFunctionRow {
  uint32_t oid;
  const char* name;
};

constexpr GeneratedRow kRows[] = {
#include "sql/system_catalog/builtin_function_rows.inc"
};

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      out.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

struct SubstitutedType {
  uint32_t oid;
  const char* name;
  uint32_t paceline_oid;
};
// PostgreSQL's types that Paceline holds in another form (see the header).
constexpr SubstitutedType kSubstitutedTypes[] = {
    {18, "char", 25}, {19, "name", 25}, {194, "pg_node_tree", 25}, {1003, "_name", 1009},
    {24, "regproc", 26}, {2202, "regprocedure", 26}, {2203, "regoper", 26}, {2204, "regoperator", 26},
    {2205, "regclass", 26}, {2206, "regtype", 26}, {3734, "regconfig", 26}, {4089, "regnamespace", 26},
    {4096, "regrole", 26},
};

constexpr SupportFunctionRow kSupportFunctions[] = {
#include "sql/system_catalog/support_function_rows.inc"
};

constexpr TypeFunctions kTypeFunctions[] = {
#include "sql/system_catalog/type_function_rows.inc"
};

// A type OID of PostgreSQL's as Paceline names it (see the header), or
// nullopt when Paceline has no such type.
std::optional<uint32_t> PacelineType(uint32_t oid) {
  for (const SubstitutedType& s : kSubstitutedTypes) {
    if (s.oid == oid) return s.paceline_oid;
  }
  for (const BuiltinType& b : BuiltinTypes()) {
    if (b.oid == oid) return oid;
  }
  for (const PseudoType& p : PseudoTypes()) {
    if (p.oid == oid) return oid;
  }
  return std::nullopt;
}

// The OIDs of "25 23", each as Paceline names it; false when one is not a type Paceline has.
bool PacelineTypes(std::string_view text, std::vector<uint32_t>* out) {
  for (const std::string& item : Split(text, ' ')) {
    const std::optional<uint32_t> t = PacelineType(static_cast<uint32_t>(std::stoul(item)));
    if (!t) return false;
    out->push_back(*t);
  }
  return true;
}

std::string TypeName(uint32_t oid, const CatalogObjects& objects) {
  return objects.FormatType(oid, std::nullopt).value_or("???");
}

}  // namespace

const std::vector<BuiltinFunction>& BuiltinFunctions() {
  static const auto* functions = [] {
    auto* out = new std::vector<BuiltinFunction>;
    for (const GeneratedRow& r : kRows) {
      BuiltinFunction f;
      const std::optional<uint32_t> result = PacelineType(r.result);
      if (!result || !PacelineTypes(r.arg_types, &f.arg_types) || !PacelineTypes(r.all_arg_types, &f.all_arg_types)) {
        continue;
      }
      f.oid = r.oid;
      f.name = r.name;
      f.kind = r.kind;
      f.retset = r.retset;
      f.volatility = r.volatility;
      f.strict = r.strict;
      f.parallel = r.parallel;
      f.language = r.language;
      f.result = *result;
      f.variadic = r.variadic == 0 ? 0 : PacelineType(r.variadic).value_or(r.variadic);
      f.cost = r.cost;
      f.rows = r.rows;
      for (const std::string& mode : Split(r.arg_modes, ' ')) f.arg_modes.push_back(mode[0]);
      f.arg_names = Split(r.arg_names, ',');
      f.arg_defaults = Split(r.arg_defaults, '|');
      f.source = r.source;
      f.description = r.description;
      f.support = r.support;
      f.leakproof = r.leakproof;
      f.sql_body = r.sql_body;
      f.overloaded = std::count_if(std::begin(kRows), std::end(kRows), [&](const GeneratedRow& other) {
                       return std::string_view(other.name) == r.name;
                     }) > 1;
      out->push_back(std::move(f));
    }
    return out;
  }();
  return *functions;
}

const BuiltinFunction* BuiltinFunctionByOid(uint32_t oid) {
  const std::vector<BuiltinFunction>& all = BuiltinFunctions();
  auto it = std::lower_bound(all.begin(), all.end(), oid, [](const BuiltinFunction& f, uint32_t o) { return f.oid < o; });
  return it != all.end() && it->oid == oid ? &*it : nullptr;
}

const char* SupportFunctionName(uint32_t oid) {
  auto it = std::lower_bound(std::begin(kSupportFunctions), std::end(kSupportFunctions), oid,
                             [](const SupportFunctionRow& f, uint32_t o) { return f.oid < o; });
  return it != std::end(kSupportFunctions) && it->oid == oid ? it->name : nullptr;
}

uint32_t SupportFunctionOid(std::string_view name) {
  for (const SupportFunctionRow& f : kSupportFunctions) {
    if (f.name == name) return f.oid;
  }
  return 0;
}

const TypeFunctions* TypeFunctionsOf(uint32_t type_oid) {
  auto it = std::lower_bound(std::begin(kTypeFunctions), std::end(kTypeFunctions), type_oid,
                             [](const TypeFunctions& f, uint32_t o) { return f.type < o; });
  return it != std::end(kTypeFunctions) && it->type == type_oid ? &*it : nullptr;
}

uint32_t BuiltinArgumentTypeOid(std::string_view name) {
  for (const SubstitutedType& s : kSubstitutedTypes) {
    if (s.name == name) return s.paceline_oid;
  }
  for (const PseudoType& p : PseudoTypes()) {
    if (p.name == name) return p.oid;
  }
  return 0;
}

std::string FunctionArgumentsText(const BuiltinFunction& f, const CatalogObjects& objects, bool with_defaults) {
  const std::vector<uint32_t>& types = f.all_arg_types.empty() ? f.arg_types : f.all_arg_types;
  // The defaults belong to the last inputs: count the inputs from the end.
  size_t inputs_left = f.arg_types.size();
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    const char mode = i < f.arg_modes.size() ? f.arg_modes[i] : 'i';
    if (mode == 't') continue;  // a TABLE column: part of the result
    if (!out.empty()) out += ", ";
    out += mode == 'o' ? "OUT " : mode == 'b' ? "INOUT " : mode == 'v' ? "VARIADIC " : "";
    if (i < f.arg_names.size() && !f.arg_names[i].empty()) out += QuoteIdent(f.arg_names[i]) + " ";
    out += TypeName(types[i], objects);
    if (mode == 'o') continue;
    if (with_defaults && inputs_left <= f.arg_defaults.size()) {
      out += " DEFAULT " + f.arg_defaults[f.arg_defaults.size() - inputs_left];
    }
    --inputs_left;
  }
  return out;
}

std::string FunctionResultText(const BuiltinFunction& f, const CatalogObjects& objects) {
  std::string table;
  for (size_t i = 0; i < f.arg_modes.size(); ++i) {
    if (f.arg_modes[i] != 't') continue;
    if (!table.empty()) table += ", ";
    if (i < f.arg_names.size() && !f.arg_names[i].empty()) table += QuoteIdent(f.arg_names[i]) + " ";
    table += TypeName(f.all_arg_types[i], objects);
  }
  if (!table.empty()) return "TABLE(" + table + ")";
  return (f.retset ? "SETOF " : "") + TypeName(f.result, objects);
}

std::string FunctionDefinitionText(const BuiltinFunction& f, const CatalogObjects& objects) {
  std::string out = "CREATE OR REPLACE FUNCTION pg_catalog." + QuoteIdent(f.name) + "(" +
                    FunctionArgumentsText(f, objects, true) + ")\n RETURNS " + FunctionResultText(f, objects) + "\n";
  out += f.language == 14 ? " LANGUAGE sql\n" : " LANGUAGE internal\n";  // the only languages of built-in rows
  std::string options;
  if (f.kind == 'w') options += " WINDOW";
  options += f.volatility == 'i' ? " IMMUTABLE" : f.volatility == 's' ? " STABLE" : "";
  options += f.parallel == 's' ? " PARALLEL SAFE" : f.parallel == 'r' ? " PARALLEL RESTRICTED" : "";
  if (f.strict) options += " STRICT";
  if (f.leakproof) options += " LEAKPROOF";
  auto number = [](double v) {  // as %g prints it
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  // CREATE FUNCTION's default cost: 1 for internal code, 100 for SQL.
  if (f.cost != (f.language == 14 ? 100 : 1)) options += " COST " + number(f.cost);
  if (f.rows > 0 && f.rows != 1000) options += " ROWS " + number(f.rows);
  if (!f.support.empty()) options += " SUPPORT " + f.support;
  if (!options.empty()) out += options + "\n";
  if (!f.sql_body.empty()) return out + f.sql_body + "\n";
  return out + "AS $function$" + f.source + "$function$\n";
}

namespace system_rows {

void Functions(const SystemInfo&, const SystemRelation& rel, std::vector<std::vector<Value>>* out) {
  auto text_array = [](const std::vector<std::string>& items) {
    std::vector<Value> values;
    for (const std::string& item : items) values.push_back(Value::Text(item));
    return MakeArray(TypeId::kText, values);
  };
  for (const BuiltinFunction& f : BuiltinFunctions()) {
    CatalogRow row(rel);
    row.Oid("oid", f.oid)
        .Text("proname", f.name)
        .Oid("pronamespace", kPgCatalogNamespace)
        .Oid("proowner", kOwnerRole)
        .Oid("prolang", f.language)
        .Set("procost", Value::Float32(static_cast<float>(f.cost)))
        .Set("prorows", Value::Float32(static_cast<float>(f.rows)))
        .Oid("provariadic", f.variadic)
        .Oid("prosupport", f.support.empty() ? 0 : SupportFunctionOid(f.support))
        .Text("prokind", std::string(1, f.kind))
        .Bool("prosecdef", false)
        .Bool("proleakproof", f.leakproof)
        .Bool("proisstrict", f.strict)
        .Bool("proretset", f.retset)
        .Text("provolatile", std::string(1, f.volatility))
        .Text("proparallel", std::string(1, f.parallel))
        .Int("pronargs", static_cast<int64_t>(f.arg_types.size()))
        .Int("pronargdefaults", static_cast<int64_t>(f.arg_defaults.size()))
        .Oid("prorettype", f.result)
        .IntArray("proargtypes", std::vector<int64_t>(f.arg_types.begin(), f.arg_types.end()))
        .Text("prosrc", f.source);
    if (!f.all_arg_types.empty()) {
      row.IntArray("proallargtypes", std::vector<int64_t>(f.all_arg_types.begin(), f.all_arg_types.end()));
    }
    if (!f.arg_modes.empty()) {
      std::vector<std::string> modes;
      for (char m : f.arg_modes) modes.emplace_back(1, m);
      row.Set("proargmodes", text_array(modes));
    }
    if (!f.arg_names.empty()) row.Set("proargnames", text_array(f.arg_names));
    if (!f.arg_defaults.empty()) {
      std::string defaults;
      for (const std::string& d : f.arg_defaults) defaults += (defaults.empty() ? "" : ", ") + d;
      row.Text("proargdefaults", defaults);
    }
    out->push_back(row.Take());
  }
}

}  // namespace system_rows

}  // namespace paceline::sql
