// SequenceDdl: CREATE / ALTER / DROP SEQUENCE (see sequence_ddl.h).
#include "sql/sequence_ddl.h"

#include <algorithm>

#include "sql/sequence_access.h"
#include "sql/sequence_options.h"

namespace paceline::sql {

Status SequenceDdl::Create(const CreateSequenceStmt& stmt, QueryResult* result) {
  result->command_tag = "CREATE SEQUENCE";
  // IF NOT EXISTS skips when any relation has the name, as PostgreSQL does.
  if (stmt.if_not_exists && (catalog_->FindSequence(stmt.name) || catalog_->FindTable(stmt.name) ||
                             catalog_->FindView(stmt.name) || catalog_->FindIndexTable(stmt.name))) {
    return Status::OK();
  }
  SequenceChange change;
  PL_RETURN_IF_ERROR(SequenceOptions::ForCreate(*catalog_, stmt.name, stmt.options, &change));
  std::shared_ptr<catalog::Sequence> sequence;
  const catalog::SequenceSchema schema = change.schema;
  PL_RETURN_IF_ERROR(catalog_->CreateSequence(std::move(change.schema), &sequence));
  // CREATE SEQUENCE .. RESTART v starts from v instead of START.
  if (change.restart_value != schema.start) sequence->Reset(schema, /*restart=*/true, change.restart_value);
  return Status::OK();
}

Status SequenceDdl::Alter(const AlterSequenceStmt& stmt, QueryResult* result) {
  result->command_tag = "ALTER SEQUENCE";
  std::shared_ptr<catalog::Sequence> sequence;
  Status found = catalog_->SequenceNamed(stmt.name, &sequence);
  if (!found.ok()) return stmt.if_exists && found.Is(sqlstate::kUndefinedTable) ? Status::OK() : found;
  SequenceChange change;
  PL_RETURN_IF_ERROR(SequenceOptions::ForAlter(*catalog_, *sequence, stmt.options, !options_.replaying, &change));
  PL_RETURN_IF_ERROR(catalog_->AlterSequence(stmt.name, std::move(change.schema), change.restart, change.restart_value));
  LogState(stmt.name, *sequence);
  return Status::OK();
}

Status SequenceDdl::Restart(const std::string& name) {
  std::shared_ptr<catalog::Sequence> sequence;
  PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence));
  const catalog::SequenceSchema schema = sequence->schema();
  PL_RETURN_IF_ERROR(catalog_->AlterSequence(name, schema, /*restart=*/true, schema.start));
  LogState(name, *sequence);
  return Status::OK();
}

void SequenceDdl::LogState(const std::string& name, catalog::Sequence& sequence) const {
  if (!options_.log_sequence) return;
  sequence.LogState([&](int64_t value, bool called) { return options_.log_sequence(name, value, called); });
}

Status SequenceDdl::Drop(const DropStmt& stmt, QueryResult* result) {
  result->command_tag = "DROP SEQUENCE";
  std::vector<std::string> present;
  for (const auto& name : stmt.names) {
    std::shared_ptr<catalog::Sequence> sequence;
    Status found = catalog_->SequenceNamed(name, &sequence, "sequence");
    if (found.ok()) present.push_back(name);
    else if (!(stmt.if_exists && found.Is(sqlstate::kUndefinedTable))) return found;
  }
  // A view or a column DEFAULT that calls one holds the whole DROP back
  // (unless CASCADE): checked first, so that a failing DROP drops nothing.
  for (const auto& name : present) {
    if (stmt.cascade) break;
    Status held = catalog_->CheckSequenceDrop(name);
    if (held.ok()) continue;
    if (present.size() == 1) return held;
    // PostgreSQL's wording when several objects are dropped.
    return Status(held.sqlstate(), "cannot drop desired object(s) because other objects depend on them")
        .WithDetail(held.detail());
  }
  for (const auto& name : present) {
    // Named twice in one DROP: gone already.
    if (catalog_->FindSequence(name)) PL_RETURN_IF_ERROR(catalog_->DropSequence(name, stmt.cascade));
  }
  return Status::OK();
}

bool SequenceDdl::IsSerial(const TypeName& type, TypeId* integer) {
  if (type.name == "serial" || type.name == "serial4") *integer = TypeId::kInt32;
  else if (type.name == "bigserial" || type.name == "serial8") *integer = TypeId::kInt64;
  else if (type.name == "smallserial" || type.name == "serial2") *integer = TypeId::kInt16;
  else return false;
  return true;
}

void SequenceDdl::Serial(const std::string& table, const std::string& column_name, TypeId integer,
                         catalog::ColumnSchema* column, catalog::SequenceSchema* sequence) const {
  const std::string name = catalog_->MakeIndexName(table, {column_name}, "seq");
  *sequence = catalog::SequenceSchema::Defaults(name, integer);
  sequence->owned_by_table = table;
  sequence->owned_by_column = column_name;
  column->type = Type(integer);
  column->not_null = true;
  column->default_value = catalog::ColumnDefault();
  std::string literal;  // the name as a string constant: ' doubled
  for (char ch : RegclassText(name)) literal += ch == '\'' ? "''" : std::string(1, ch);
  column->default_value.expression = "nextval('" + literal + "'::regclass)";
  column->default_value.sequences = {name};
}

Status SequenceDdl::Identity(const std::string& table, const ConstraintDef& def, catalog::ColumnSchema* column,
                             catalog::SequenceSchema* sequence) const {
  const TypeId integer = column->type.id;
  if (column->type.IsArray() ||
      (integer != TypeId::kInt16 && integer != TypeId::kInt32 && integer != TypeId::kInt64)) {
    return Status(sqlstate::kInvalidParameterValue, "identity column type must be smallint, integer, or bigint");
  }
  Serial(table, column->name, integer, column, sequence);
  // The sequence is of the column's type unless the options say AS.
  std::vector<SequenceOption> options = def.sequence_options;
  const bool has_as = std::any_of(options.begin(), options.end(),
                                  [](const SequenceOption& o) { return o.kind == SequenceOption::Kind::kAs; });
  if (!has_as) {
    SequenceOption as;
    as.kind = SequenceOption::Kind::kAs;
    as.type.name = integer == TypeId::kInt16 ? "int2" : integer == TypeId::kInt32 ? "int4" : "int8";
    options.push_back(std::move(as));
  }
  SequenceChange change;
  PL_RETURN_IF_ERROR(SequenceOptions::ForCreate(*catalog_, sequence->name, options, &change));
  change.schema.owned_by_table = table;
  change.schema.owned_by_column = column->name;
  *sequence = std::move(change.schema);
  column->identity = def.identity;
  return Status::OK();
}

}  // namespace paceline::sql
