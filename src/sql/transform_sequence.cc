// Transformer: CREATE SEQUENCE, ALTER SEQUENCE and their option lists (see
// transformer.h). The options are kept as written; SequenceOptions
// (sequence_options.h) checks them against PostgreSQL's rules.
#include "sql/transformer.h"

#include <utility>

namespace paceline::sql::transform {

Status Transformer::TransformCreateSequence(const PgQuery__CreateSeqStmt& s,
                                            std::unique_ptr<CreateSequenceStmt>* out) {
  if (s.sequence == nullptr) return InternalError("CREATE SEQUENCE without a name");
  auto create = std::make_unique<CreateSequenceStmt>();
  create->name = Str(s.sequence->relname);
  create->if_not_exists = s.if_not_exists;
  create->location = s.sequence->location;
  PL_RETURN_IF_ERROR(TransformSequenceOptions(s.options, s.n_options, &create->options));
  *out = std::move(create);
  return Status::OK();
}

Status Transformer::TransformAlterSequence(const PgQuery__AlterSeqStmt& s, std::unique_ptr<AlterSequenceStmt>* out) {
  if (s.sequence == nullptr) return InternalError("ALTER SEQUENCE without a name");
  auto alter = std::make_unique<AlterSequenceStmt>();
  alter->name = Str(s.sequence->relname);
  alter->if_exists = s.missing_ok;
  alter->location = s.sequence->location;
  PL_RETURN_IF_ERROR(TransformSequenceOptions(s.options, s.n_options, &alter->options));
  *out = std::move(alter);
  return Status::OK();
}

Status Transformer::TransformSequenceOptions(Node* const* items, size_t n, std::vector<SequenceOption>* out) {
  using Kind = SequenceOption::Kind;
  static const std::pair<std::string_view, Kind> kNames[] = {
      {"as", Kind::kAs},           {"increment", Kind::kIncrement}, {"start", Kind::kStart},
      {"restart", Kind::kRestart}, {"minvalue", Kind::kMinValue},   {"maxvalue", Kind::kMaxValue},
      {"cache", Kind::kCache},     {"cycle", Kind::kCycle},         {"owned_by", Kind::kOwnedBy},
  };
  for (size_t i = 0; i < n; ++i) {
    if (!Is(items[i], PG_QUERY__NODE__NODE_DEF_ELEM)) return Unsupported("sequence option " + NodeFieldName(items[i]), -1);
    const PgQuery__DefElem& d = *items[i]->def_elem;
    const std::string name = Str(d.defname);
    SequenceOption option;
    option.location = d.location;
    bool known = false;
    for (const auto& [text, kind] : kNames) {
      if (text == name) {
        option.kind = kind;
        known = true;
      }
    }
    // SEQUENCE NAME (identity columns only), LOGGED / UNLOGGED.
    if (!known) return Unsupported("sequence option " + name, d.location);
    const Node* arg = d.arg;
    if (arg == nullptr) {
      option.has_value = false;
    } else if (Is(arg, PG_QUERY__NODE__NODE_INTEGER)) {
      option.has_value = true;
      option.value = arg->integer->ival;
    } else if (Is(arg, PG_QUERY__NODE__NODE_FLOAT)) {
      // Past int32 (or -9223372036854775808) the grammar keeps the digits;
      // PostgreSQL reads them as bigint input.
      const std::string digits = Str(arg->float_->fval);
      if (!ParseInt64(digits, &option.value)) {
        const bool integral = digits.find_first_not_of("-0123456789") == std::string::npos;
        return Status(integral ? sqlstate::kNumericValueOutOfRange : sqlstate::kInvalidTextRepresentation,
                      integral ? "value \"" + digits + "\" is out of range for type bigint"
                               : "invalid input syntax for type bigint: \"" + digits + "\"");
      }
      option.has_value = true;
    } else if (Is(arg, PG_QUERY__NODE__NODE_BOOLEAN)) {
      option.has_value = true;
      option.flag = arg->boolean->boolval;
    } else if (Is(arg, PG_QUERY__NODE__NODE_TYPE_NAME)) {
      option.has_value = true;
      PL_RETURN_IF_ERROR(TransformTypeName(*arg->type_name, &option.type));
    } else if (Is(arg, PG_QUERY__NODE__NODE_LIST)) {
      option.has_value = true;
      for (size_t k = 0; k < arg->list->n_items; ++k) {
        const char* part = StringOf(arg->list->items[k]);
        if (part == nullptr) return Unsupported("OWNED BY " + NodeFieldName(arg->list->items[k]), d.location);
        option.names.push_back(part);
      }
    } else {
      return Unsupported("sequence option " + name + " of " + NodeFieldName(arg), d.location);
    }
    out->push_back(std::move(option));
  }
  return Status::OK();
}

}  // namespace paceline::sql::transform
