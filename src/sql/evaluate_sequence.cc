// ExpressionEvaluator: nextval, currval, setval and lastval (see
// sequence_access.h for what the engine does behind them).
#include "sql/evaluator_internal.h"
#include "storage/catalog/catalog.h"
#include "sql/parser.h"
#include "sql/sequence_access.h"

namespace paceline::sql {

Status SerialSequenceOf(const catalog::Catalog& catalog, std::string_view table, const std::string& column,
                        Value* out) {
  std::string table_name;
  PL_RETURN_IF_ERROR(SequenceNameFromText(table, &table_name));
  std::shared_ptr<storage::Table> found = catalog.FindTable(table_name);
  if (!found) return Status(sqlstate::kUndefinedTable, "relation \"" + table_name + "\" does not exist");
  if (found->schema().FindColumn(column) < 0) {
    return Status(sqlstate::kUndefinedColumn,
                  "column \"" + column + "\" of relation \"" + table_name + "\" does not exist");
  }
  *out = Value::Null(TypeId::kText);
  for (const std::string& sequence : catalog.OwnedSequences(table_name)) {
    std::shared_ptr<catalog::Sequence> owned = catalog.FindSequence(sequence);
    if (owned && owned->schema().owned_by_column == column) *out = Value::Text("public." + RegclassText(sequence));
  }
  return Status::OK();
}

std::string RegclassText(std::string_view name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char ch : name) {
    plain &= (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
  }
  if (plain && !IsNonUnreservedKeyword(name)) return std::string(name);
  std::string quoted = "\"";
  for (char ch : name) quoted += ch == '"' ? "\"\"" : std::string(1, ch);
  return quoted + "\"";
}

Status RegclassNameParts(std::string_view text, std::vector<std::string>* out) {
  // Dot-separated identifiers: "quoted" (with "" for a quote) kept as
  // written, unquoted ones lower-cased (ASCII, as PostgreSQL's downcasing).
  std::vector<std::string>& parts = *out;
  parts.clear();
  size_t i = 0;
  auto invalid = [&] { return Status(sqlstate::kInvalidName, "invalid name syntax"); };
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  for (;;) {
    while (i < text.size() && space(text[i])) ++i;
    std::string part;
    if (i < text.size() && text[i] == '"') {
      for (++i;; ++i) {
        if (i >= text.size()) return invalid();
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            part += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        part += text[i];
      }
      if (part.empty()) return invalid();
    } else {
      while (i < text.size() && text[i] != '.' && !space(text[i])) {
        const char c = text[i++];
        part += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      }
      if (part.empty()) return invalid();
    }
    parts.push_back(std::move(part));
    while (i < text.size() && space(text[i])) ++i;
    if (i == text.size()) break;
    if (text[i] != '.') return invalid();
    ++i;
  }
  if (parts.size() > 3) {
    std::string dotted;
    for (const auto& p : parts) dotted += (dotted.empty() ? "" : ".") + p;
    return Status(sqlstate::kSyntaxError, "improper relation name (too many dotted names): " + dotted);
  }
  return Status::OK();
}

Status SequenceNameFromText(std::string_view text, std::string* out) {
  std::vector<std::string> parts;
  PL_RETURN_IF_ERROR(RegclassNameParts(text, &parts));
  // Paceline has one schema, public: another qualifier names nothing.
  if (parts.size() >= 2 && parts[parts.size() - 2] != "public") {
    return Status(sqlstate::kInvalidSchemaName, "schema \"" + parts[parts.size() - 2] + "\" does not exist");
  }
  *out = std::move(parts.back());
  return Status::OK();
}

namespace eval {

Status EvaluateSequenceFunction(const BoundExpr& e, const std::vector<Value>& args, const EvalContext& ctx,
                                Value* out) {
  if (ctx.sequences == nullptr) return InternalError("a sequence function evaluated without a session");
  for (const Value& a : args) {
    if (a.is_null()) {  // strict, as in PostgreSQL
      *out = Value::Null(TypeId::kInt64);
      return Status::OK();
    }
  }
  std::string name;
  if (!args.empty()) {
    if (e.index == 0) name = args[0].string_value();  // resolved while binding
    else PL_RETURN_IF_ERROR(SequenceNameFromText(args[0].string_value(), &name));
  }
  int64_t value = 0;
  switch (e.function) {
    case ScalarFunction::kNextval: PL_RETURN_IF_ERROR(ctx.sequences->NextVal(name, &value)); break;
    case ScalarFunction::kCurrval: PL_RETURN_IF_ERROR(ctx.sequences->CurrVal(name, &value)); break;
    case ScalarFunction::kLastval: PL_RETURN_IF_ERROR(ctx.sequences->LastVal(&value)); break;
    case ScalarFunction::kSetval:
      value = args[1].int_value();
      PL_RETURN_IF_ERROR(ctx.sequences->SetVal(name, value, args.size() < 3 || args[2].bool_value()));
      break;
    default: return InternalError("not a sequence function");
  }
  *out = Value::Int64(value);
  return Status::OK();
}

}  // namespace eval
}  // namespace paceline::sql
