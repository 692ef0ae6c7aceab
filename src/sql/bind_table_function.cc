// Binder: set-returning functions in FROM (see binder.h, binder_internal.h).
// Each becomes a DerivedPlan whose `function` the executor runs when the
// source is scanned (execute_derived.cc): generate_series(start, stop[,
// step]), unnest(array), information_schema._pg_expandarray(array) (x
// the element, n its position), and the json ones
//   json[b]_array_elements(x)       value json[b]
//   json[b]_array_elements_text(x)  value text
//   json[b]_each(x)                 key text, value json[b]
//   json[b]_each_text(x)            key text, value text
//   json[b]_object_keys(x)          json[b]_object_keys text
// Their arguments bind as a query of their own inside this one (like a
// LATERAL subquery: they may read the items before it). A function that
// returns one unnamed value (generate_series, unnest) names its column after
// the table alias, the others by their OUT parameters, as PostgreSQL does;
// column aliases then rename them, WITH ORDINALITY's column included.
#include "sql/binder_internal.h"

#include <algorithm>

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// A json function in FROM, by its name after the json_ / jsonb_ prefix.
struct JsonSource {
  std::string_view suffix;
  TableFunctionKind kind;
};
constexpr JsonSource kJsonSources[] = {
    {"array_elements", TableFunctionKind::kJsonArrayElements},
    {"array_elements_text", TableFunctionKind::kJsonArrayElementsText},
    {"each", TableFunctionKind::kJsonEach},
    {"each_text", TableFunctionKind::kJsonEachText},
    {"object_keys", TableFunctionKind::kJsonObjectKeys},
};

// The json function in FROM that `name` names, or null.
const JsonSource* FindJsonSource(std::string_view name) {
  if (name.starts_with("jsonb_")) {
    name.remove_prefix(6);
  } else if (name.starts_with("json_")) {
    name.remove_prefix(5);
  } else {
    return nullptr;
  }
  for (const JsonSource& s : kJsonSources) {
    if (s.suffix == name) return &s;
  }
  return nullptr;
}

// The set-returning functions FROM reads, but the json ones.
constexpr std::string_view kTableFunctionNames[] = {"generate_series",     "unnest", "_pg_expandarray",
                                                    "pg_partition_ancestors", "generate_subscripts",
                                                    "pg_options_to_table"};

}  // namespace

namespace bind {

void AddTableFunctionNames(std::vector<std::string_view>* out) {
  out->insert(out->end(), std::begin(kTableFunctionNames), std::end(kTableFunctionNames));
  static const std::vector<std::string> json_names = [] {
    std::vector<std::string> names;
    for (const JsonSource& s : kJsonSources) {
      for (const char* prefix : {"json_", "jsonb_"}) names.push_back(prefix + std::string(s.suffix));
    }
    return names;
  }();
  out->insert(out->end(), json_names.begin(), json_names.end());
}

std::string ScalarFunctionColumn(const FromItem& item) {
  return !item.table.alias.empty() ? item.table.alias : item.function->function_name;
}

}  // namespace bind

bool Binder::IsTableFunctionName(const std::string& name) {
  return std::find(std::begin(kTableFunctionNames), std::end(kTableFunctionNames), name) !=
             std::end(kTableFunctionNames) ||
         FindJsonSource(name) != nullptr;
}

Status Binder::BindFunctionSource(const FromItem& item, Context& ctx, std::shared_ptr<const DerivedPlan>* out) {
  if (!item.rows_from.empty()) {
    // ROWS FROM: each function bound as a source of its own, their columns in order.
    auto derived = std::make_shared<DerivedPlan>();
    for (const auto& member : item.rows_from) {
      std::shared_ptr<const DerivedPlan> one;
      PL_RETURN_IF_ERROR(BindFunctionSource(*member, ctx, &one));
      derived->columns.insert(derived->columns.end(), one->columns.begin(), one->columns.end());
      derived->correlated = derived->correlated || one->correlated;
      derived->rows_from.push_back(std::move(one));
    }
    return FinishFunctionSource(item, std::move(derived), out);
  }
  const Expr& call = *item.function;
  if (call.kind != ExprKind::kFunction) return NotSupported("this expression in FROM");
  const std::string& name = call.function_name;
  auto derived = std::make_shared<DerivedPlan>();
  derived->function.name = name;
  Context inner;
  inner.outer = &ctx;
  if (name == "generate_series") {
    derived->function.kind = TableFunctionKind::kGenerateSeries;
    PL_RETURN_IF_ERROR(BindSeriesSource(item, inner, derived.get()));
  } else if (name == "unnest") {
    derived->function.kind = TableFunctionKind::kUnnest;
    PL_RETURN_IF_ERROR(BindUnnestSource(item, inner, derived.get()));
  } else if (name == "_pg_expandarray") {
    // information_schema._pg_expandarray(anyarray): unnest with the position,
    // as columns x and n (pgjdbc's getPrimaryKeys and getIndexInfo use it).
    derived->function.kind = TableFunctionKind::kExpandArray;
    PL_RETURN_IF_ERROR(BindUnnestSource(item, inner, derived.get()));
    derived->columns[0].name = "x";
    derived->columns.push_back({"n", Type(TypeId::kInt32)});
  } else if (name == "generate_subscripts") {
    derived->function.kind = TableFunctionKind::kGenerateSubscripts;
    PL_RETURN_IF_ERROR(BindSubscriptsSource(item, inner, derived.get()));
  } else if (name == "pg_options_to_table") {
    // pg_options_to_table(text[]): reloptions and the like, split at '='.
    derived->function.kind = TableFunctionKind::kOptionsToTable;
    BoundExprPtr arg;
    if (call.list.size() == 1) PL_RETURN_IF_ERROR(BindExpr(*call.list[0], inner, &arg));
    if (arg && IsUnknown(*arg)) PL_RETURN_IF_ERROR(Coerce(&arg, Type::Array(Type(TypeId::kText)), false, call.location));
    if (!arg || !arg->type.IsArray() || !arg->type.ElementType().IsString()) {
      return Status(sqlstate::kUndefinedFunction,
                    "function pg_options_to_table(" + (arg ? TypeText(arg->type) : std::string()) + ") does not exist",
                    Pos(call.location));
    }
    derived->function.args.push_back(std::move(arg));
    derived->columns.push_back({"option_name", Type(TypeId::kText)});
    derived->columns.push_back({"option_value", Type(TypeId::kText)});
  } else if (name == "pg_partition_ancestors") {
    derived->function.kind = TableFunctionKind::kPartitionAncestors;
    if (call.list.size() != 1) return NotSupported("pg_partition_ancestors with " + std::to_string(call.list.size()) + " arguments");
    BoundExprPtr arg;
    PL_RETURN_IF_ERROR(BindExpr(*call.list[0], inner, &arg));
    PL_RETURN_IF_ERROR(Coerce(&arg, Type(TypeId::kOid), false, call.location));
    derived->function.args.push_back(std::move(arg));
    derived->columns.push_back({ScalarFunctionColumn(item), Type(TypeId::kOid)});
  } else if (const JsonSource* json = FindJsonSource(name)) {
    derived->function.kind = json->kind;
    PL_RETURN_IF_ERROR(BindJsonSource(item, inner, derived.get()));
  } else {
    return NotSupported("function " + name + " in FROM");
  }
  derived->correlated = inner.correlated;
  return FinishFunctionSource(item, std::move(derived), out);
}

Status Binder::FinishFunctionSource(const FromItem& item, std::shared_ptr<DerivedPlan> derived,
                                    std::shared_ptr<const DerivedPlan>* out) {
  // WITH ORDINALITY adds a bigint column; column aliases rename the columns in order.
  derived->ordinality = item.ordinality;
  if (item.ordinality) derived->columns.push_back({"ordinality", Type(TypeId::kInt64)});
  if (item.column_aliases.size() > derived->columns.size()) {
    return Status(sqlstate::kInvalidColumnReference,
                  "table \"" + item.table.alias + "\" has " + std::to_string(derived->columns.size()) +
                      " columns available but " + std::to_string(item.column_aliases.size()) + " columns specified");
  }
  for (size_t c = 0; c < item.column_aliases.size(); ++c) derived->columns[c].name = item.column_aliases[c];
  BuildLayout(derived.get());
  *out = std::move(derived);
  return Status::OK();
}

Status Binder::BindSeriesSource(const FromItem& item, Context& inner, DerivedPlan* derived) {
  const Expr& call = *item.function;
  if (call.star || call.distinct || call.list.size() < 2 || call.list.size() > 3) {
    return Status(sqlstate::kUndefinedFunction,
                  "function generate_series with " + std::to_string(call.list.size()) + " arguments does not exist",
                  Pos(call.location));
  }
  std::vector<BoundExprPtr>& series = derived->function.args;
  std::vector<const BoundExpr*> args;
  for (const auto& a : call.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, inner, &b));
    series.push_back(std::move(b));
    args.push_back(series.back().get());
  }
  Type type;
  PL_RETURN_IF_ERROR(CommonType(args, "generate_series", call.location, &type));
  if (std::all_of(args.begin(), args.end(), [](const BoundExpr* a) { return IsUnknown(*a); })) type = Type(TypeId::kInt32);
  if (!type.IsNumber() || type.IsFloat()) {
    std::string types;
    for (const BoundExpr* a : args) types += (types.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function generate_series(" + types + ") does not exist",
                  Pos(call.location));
  }
  for (auto& a : series) PL_RETURN_IF_ERROR(Coerce(&a, type, false, call.location));
  derived->columns.push_back({ScalarFunctionColumn(item), type});
  return Status::OK();
}

Status Binder::BindSubscriptsSource(const FromItem& item, Context& inner, DerivedPlan* derived) {
  // generate_subscripts(array, dim [, reverse]): int4 subscripts.
  const Expr& call = *item.function;
  std::vector<BoundExprPtr>& args = derived->function.args;
  for (const auto& a : call.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, inner, &b));
    args.push_back(std::move(b));
  }
  bool fits = !call.star && !call.distinct && (args.size() == 2 || args.size() == 3) && args[0]->type.IsArray();
  if (fits) {
    if (IsUnknown(*args[1]) || args[1]->type.IsInteger()) PL_RETURN_IF_ERROR(Coerce(&args[1], Type(TypeId::kInt32), false, call.location));
    if (args.size() == 3 && IsUnknown(*args[2])) PL_RETURN_IF_ERROR(Coerce(&args[2], Type(TypeId::kBool), false, call.location));
    fits = args[1]->type.id == TypeId::kInt32 && (args.size() == 2 || args[2]->type.id == TypeId::kBool);
  }
  if (!fits) {
    std::string types;
    for (const auto& a : args) types += (types.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function generate_subscripts(" + types + ") does not exist",
                  Pos(call.location));
  }
  derived->columns.push_back({ScalarFunctionColumn(item), Type(TypeId::kInt32)});
  return Status::OK();
}

Status Binder::BindJsonSource(const FromItem& item, Context& inner, DerivedPlan* derived) {
  const Expr& call = *item.function;
  const std::string& name = call.function_name;
  const Type json_type(name.starts_with("jsonb_") ? TypeId::kJsonb : TypeId::kJson);
  std::vector<BoundExprPtr>& args = derived->function.args;
  for (const auto& a : call.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, inner, &b));
    args.push_back(std::move(b));
  }
  if (args.size() == 1 && IsUnknown(*args[0])) PL_RETURN_IF_ERROR(Coerce(&args[0], json_type, false, call.location));
  if (call.star || call.distinct || args.size() != 1 || args[0]->type.id != json_type.id) {
    std::string types;
    for (const auto& a : args) types += (types.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + types + ") does not exist",
                  Pos(call.location));
  }
  const Type text(TypeId::kText);
  switch (derived->function.kind) {
    case TableFunctionKind::kJsonArrayElements: derived->columns = {{"value", json_type}}; break;
    case TableFunctionKind::kJsonArrayElementsText: derived->columns = {{"value", text}}; break;
    case TableFunctionKind::kJsonEach: derived->columns = {{"key", text}, {"value", json_type}}; break;
    case TableFunctionKind::kJsonEachText: derived->columns = {{"key", text}, {"value", text}}; break;
    case TableFunctionKind::kJsonObjectKeys: derived->columns = {{name, text}}; break;
    default: return InternalError("not a json function in FROM: " + name);
  }
  return Status::OK();
}

}  // namespace paceline::sql
