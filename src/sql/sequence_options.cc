// SequenceOptions: option lists → checked sequence descriptions (see
// sequence_options.h). The order of the checks is PostgreSQL's, so that a
// list with two faults reports the same one.
#include "sql/sequence_options.h"

#include <utility>

namespace paceline::sql {

namespace {

using Kind = SequenceOption::Kind;

// The range of a sequence's type, and the name PostgreSQL reports it by.
struct TypeRange {
  int64_t min;
  int64_t max;
  const char* name;
};

TypeRange RangeOf(TypeId type) {
  switch (type) {
    case TypeId::kInt16: return {INT16_MIN, INT16_MAX, "smallint"};
    case TypeId::kInt32: return {INT32_MIN, INT32_MAX, "integer"};
    default: return {INT64_MIN, INT64_MAX, "bigint"};
  }
}

Status Invalid(std::string message) { return Status(sqlstate::kInvalidParameterValue, std::move(message)); }

std::string Text(int64_t v) { return std::to_string(v); }

// The type AS names: smallint, integer or bigint.
Status SequenceType(const TypeName& name, TypeId* out) {
  Type type;
  PL_RETURN_IF_ERROR(ResolveBuiltinType(name.name, name.modifiers, &type));
  if (name.is_array || (type.id != TypeId::kInt16 && type.id != TypeId::kInt32 && type.id != TypeId::kInt64)) {
    return Invalid("sequence type must be smallint, integer, or bigint");
  }
  *out = type.id;
  return Status::OK();
}

// OWNED BY table.column, or NONE: the owner fields of *schema.
Status OwnedBy(const catalog::Catalog& catalog, const std::vector<std::string>& names,
               catalog::SequenceSchema* schema) {
  if (names.size() == 1 && names[0] == "none") {
    schema->owned_by_table.clear();
    schema->owned_by_column.clear();
    return Status::OK();
  }
  if (names.size() < 2) {
    return Status(sqlstate::kSyntaxError, "invalid OWNED BY option");
  }
  // [schema.]table.column: the schema is dropped, as everywhere.
  const std::string& table_name = names[names.size() - 2];
  const std::string& column = names.back();
  auto table = catalog.FindTable(table_name);
  if (!table) {
    if (catalog.FindView(table_name) || catalog.FindSequence(table_name) || catalog.FindIndexTable(table_name)) {
      return Status(sqlstate::kWrongObjectType,
                    "sequence cannot be owned by relation \"" + table_name + "\"");
    }
    return Status(sqlstate::kUndefinedTable, "relation \"" + table_name + "\" does not exist");
  }
  if (table->schema().FindColumn(column) < 0) {
    return Status(sqlstate::kUndefinedColumn,
                  "column \"" + column + "\" of relation \"" + table_name + "\" does not exist");
  }
  schema->owned_by_table = table_name;
  schema->owned_by_column = column;
  return Status::OK();
}

}  // namespace

Status SequenceOptions::ForCreate(const catalog::Catalog& catalog, const std::string& name,
                                  const std::vector<SequenceOption>& options, SequenceChange* out) {
  out->schema.name = name;
  return Apply(catalog, nullptr, std::nullopt, options, out);
}

Status SequenceOptions::ForAlter(const catalog::Catalog& catalog, const catalog::Sequence& current,
                                 const std::vector<SequenceOption>& options, bool check_current,
                                 SequenceChange* out) {
  const catalog::SequenceSchema old = current.schema();
  out->schema = old;
  std::optional<int64_t> last;
  if (check_current) last = current.State().first;
  return Apply(catalog, &old, last, options, out);
}

Status SequenceOptions::Apply(const catalog::Catalog& catalog, const catalog::SequenceSchema* old,
                              std::optional<int64_t> last, const std::vector<SequenceOption>& options,
                              SequenceChange* out) {
  // Each option at most once.
  const SequenceOption* given[static_cast<int>(Kind::kOwnedBy) + 1] = {};
  for (const SequenceOption& option : options) {
    const SequenceOption*& slot = given[static_cast<int>(option.kind)];
    if (slot != nullptr) return Status(sqlstate::kSyntaxError, "conflicting or redundant options");
    slot = &option;
  }
  auto option = [&](Kind kind) { return given[static_cast<int>(kind)]; };
  const bool init = old == nullptr;
  catalog::SequenceSchema& s = out->schema;

  // AS: on ALTER, a bound that was the old type's limit follows the type.
  bool reset_max = false;
  bool reset_min = false;
  if (const SequenceOption* as = option(Kind::kAs)) {
    TypeId type = TypeId::kInt64;
    PL_RETURN_IF_ERROR(SequenceType(as->type, &type));
    if (!init) {
      const TypeRange before = RangeOf(old->type);
      reset_max = old->max == before.max;
      reset_min = old->min == before.min;
    }
    s.type = type;
  } else if (init) {
    s.type = TypeId::kInt64;
  }
  const TypeRange range = RangeOf(s.type);

  if (const SequenceOption* increment = option(Kind::kIncrement)) {
    s.increment = increment->value;
    if (s.increment == 0) return Invalid("INCREMENT must not be zero");
  } else if (init) {
    s.increment = 1;
  }

  if (const SequenceOption* cycle = option(Kind::kCycle)) s.cycle = cycle->flag;
  else if (init) s.cycle = false;

  const SequenceOption* max = option(Kind::kMaxValue);
  if (max != nullptr && max->has_value) {
    s.max = max->value;
  } else if (init || max != nullptr || reset_max) {
    s.max = s.increment > 0 || reset_max ? range.max : -1;
  }
  if (s.max < range.min || s.max > range.max) {
    return Invalid("MAXVALUE (" + Text(s.max) + ") is out of range for sequence data type " + range.name);
  }

  const SequenceOption* min = option(Kind::kMinValue);
  if (min != nullptr && min->has_value) {
    s.min = min->value;
  } else if (init || min != nullptr || reset_min) {
    s.min = s.increment < 0 || reset_min ? range.min : 1;
  }
  if (s.min < range.min || s.min > range.max) {
    return Invalid("MINVALUE (" + Text(s.min) + ") is out of range for sequence data type " + range.name);
  }
  if (s.min >= s.max) return Invalid("MINVALUE (" + Text(s.min) + ") must be less than MAXVALUE (" + Text(s.max) + ")");

  if (const SequenceOption* start = option(Kind::kStart)) {
    s.start = start->value;
  } else if (init) {
    s.start = s.increment > 0 ? s.min : s.max;
  }
  if (s.start < s.min) {
    return Invalid("START value (" + Text(s.start) + ") cannot be less than MINVALUE (" + Text(s.min) + ")");
  }
  if (s.start > s.max) {
    return Invalid("START value (" + Text(s.start) + ") cannot be greater than MAXVALUE (" + Text(s.max) + ")");
  }

  // RESTART [WITH v]; on CREATE the state starts at START.
  if (const SequenceOption* restart = option(Kind::kRestart)) {
    out->restart = true;
    out->restart_value = restart->has_value ? restart->value : s.start;
  } else if (init) {
    out->restart = true;
    out->restart_value = s.start;
  }
  // The value the sequence continues from must lie within the new bounds.
  const std::optional<int64_t> current = out->restart ? std::optional<int64_t>(out->restart_value) : last;
  if (current && *current < s.min) {
    return Invalid("RESTART value (" + Text(*current) + ") cannot be less than MINVALUE (" + Text(s.min) + ")");
  }
  if (current && *current > s.max) {
    return Invalid("RESTART value (" + Text(*current) + ") cannot be greater than MAXVALUE (" + Text(s.max) + ")");
  }

  if (const SequenceOption* cache = option(Kind::kCache)) {
    s.cache = cache->value;
    if (s.cache <= 0) return Invalid("CACHE (" + Text(s.cache) + ") must be greater than zero");
  } else if (init) {
    s.cache = 1;
  }

  if (const SequenceOption* owned = option(Kind::kOwnedBy)) PL_RETURN_IF_ERROR(OwnedBy(catalog, owned->names, &s));
  return Status::OK();
}

}  // namespace paceline::sql
