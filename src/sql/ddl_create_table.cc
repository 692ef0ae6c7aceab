// DdlExecutor: CREATE TABLE — columns and PostgreSQL's rules for their
// constraints, serial and identity sequences, primary and unique keys,
// foreign keys and CHECK constraints (see ddl_executor.h).
#include <algorithm>
#include <set>

#include "sql/binder.h"
#include "sql/ddl_executor.h"
#include "sql/sequence_ddl.h"

namespace paceline::sql {

namespace {

// A copy of key constraint `c` (primary key, unique, foreign key) on
// `columns`; the expressions a ConstraintDef may own are no part of one.
ConstraintDef KeyConstraint(const ConstraintDef& c, std::vector<std::string> columns) {
  ConstraintDef def;
  def.kind = c.kind;
  def.name = c.name;
  def.columns = std::move(columns);
  def.ref_table = c.ref_table;
  def.ref_columns = c.ref_columns;
  def.on_delete = c.on_delete;
  def.on_update = c.on_update;
  def.delete_set_columns = c.delete_set_columns;
  def.deferrable = c.deferrable;
  def.initially_deferred = c.initially_deferred;
  def.not_valid = c.not_valid;
  def.location = c.location;
  return def;
}

}  // namespace

void DdlExecutor::CollectColumns(const BoundExpr& e, std::set<int>* out) {
  if (e.kind == BoundKind::kColumn) out->insert(e.index);
  for (const auto& child : e.children) CollectColumns(*child, out);
}

Status DdlExecutor::CreateTable(const CreateTableStmt& stmt, QueryResult* result) {
  if (catalog_->FindTable(stmt.name)) {
    if (stmt.if_not_exists) {
      result->command_tag = "CREATE TABLE";
      return Status::OK();
    }
    return Status(sqlstate::kDuplicateTable, "relation \"" + stmt.name + "\" already exists");
  }
  Binder binder(catalog_);
  binder.SetSource(source_);
  catalog::TableSchema schema;
  schema.name = stmt.name;
  std::vector<ConstraintDef> table_constraints;
  // The sequences of serial and identity columns: created before the table,
  // as PostgreSQL does.
  std::vector<catalog::SequenceSchema> serial_sequences;
  std::vector<const ConstraintDef*> checks;  // column and table CHECK constraints, in order written
  for (const auto& col : stmt.columns) {
    if (schema.FindColumn(col.name) >= 0) {
      return Status(sqlstate::kDuplicateColumn, "column \"" + col.name + "\" specified more than once",
                    Pos(col.location));
    }
    ColumnDefinition defined;
    PL_RETURN_IF_ERROR(DefineColumn(stmt.name, col, &binder, &defined));
    if (defined.sequence) serial_sequences.push_back(std::move(*defined.sequence));
    for (auto& def : defined.constraints) table_constraints.push_back(std::move(def));
    checks.insert(checks.end(), defined.checks.begin(), defined.checks.end());
    schema.columns.push_back(std::move(defined.column));
  }
  for (const auto& c : stmt.constraints) {
    if (c.kind == ConstraintKind::kCheck) {
      checks.push_back(&c);
      continue;
    }
    table_constraints.push_back(KeyConstraint(c, c.columns));
  }

  std::vector<catalog::IndexSchema> indexes;
  std::vector<ConstraintDef> fks;
  bool has_primary = false;
  for (auto& def : table_constraints) {
    if (def.kind == ConstraintKind::kForeignKey) {
      fks.push_back(std::move(def));
      continue;
    }
    bool primary = def.kind == ConstraintKind::kPrimaryKey;
    if (primary && has_primary) {
      return Status(sqlstate::kInvalidTableDefinition,
                    "multiple primary keys for table \"" + stmt.name + "\" are not allowed", Pos(def.location));
    }
    has_primary |= primary;
    catalog::IndexSchema index;
    PL_RETURN_IF_ERROR(MakeIndex(schema, def, primary, &index));
    for (const auto& other : indexes) {
      if (other.name == index.name) {
        return Status(sqlstate::kDuplicateTable, "relation \"" + index.name + "\" already exists");
      }
    }
    if (primary) {
      for (int c : index.columns) schema.columns[c].not_null = true;
      indexes.insert(indexes.begin(), std::move(index));
    } else {
      indexes.push_back(std::move(index));
    }
  }
  for (const auto& def : fks) {
    catalog::ForeignKey fk;
    PL_RETURN_IF_ERROR(MakeForeignKey(schema, def, &indexes, &fk));
    schema.foreign_keys.push_back(std::move(fk));
  }
  // The serial and identity columns' sequences first, dropped again if the
  // table fails.
  std::vector<std::string> created;
  Status status;
  for (auto& sequence : serial_sequences) {
    std::string name = sequence.name;
    status = catalog_->CreateSequence(std::move(sequence), nullptr);
    if (!status.ok()) break;
    created.push_back(std::move(name));
  }
  if (status.ok()) status = catalog_->CreateTable(std::move(schema), std::move(indexes), nullptr);
  if (status.ok() && !checks.empty()) {
    // Bound over the new table's columns; a bad one takes the table back.
    status = AddChecks(catalog_->FindTable(stmt.name).get(), checks);
    if (!status.ok()) (void)catalog_->DropTable(stmt.name, /*cascade=*/false);
  }
  if (!status.ok()) {
    for (const auto& name : created) (void)catalog_->DropSequence(name);
    return status;
  }
  result->command_tag = "CREATE TABLE";
  return Status::OK();
}

Status DdlExecutor::DefineColumn(const std::string& table_name, const ColumnDef& col, Binder* binder,
                                 ColumnDefinition* out) {
  catalog::ColumnSchema column;
  column.name = col.name;
  // PostgreSQL's column rules: NULL and NOT NULL may not disagree, and
  // there is one DEFAULT; serial counts as NOT NULL and a DEFAULT.
  bool is_not_null = false, saw_nullable = false, saw_default = false, saw_identity = false;
  TypeId serial_type;
  if (SequenceDdl::IsSerial(col.type, &serial_type)) {
    if (col.type.is_array) {
      return Status(sqlstate::kFeatureNotSupported, "array of serial is not implemented", Pos(col.type.location));
    }
    out->sequence.emplace();
    SequenceDdl(catalog_, options_).Serial(table_name, col.name, serial_type, &column, &*out->sequence);
    is_not_null = saw_nullable = saw_default = true;
  } else {
    PL_RETURN_IF_ERROR(binder->ResolveType(col.type, &column.type, &column.domain));
    PL_RETURN_IF_ERROR(CheckColumnType(col.name, column.type, col.type.location));
  }
  if (!column.domain.empty()) {
    column.domain_not_null = catalog_->FindDomain(column.domain)->not_null;
    column.not_null = column.domain_not_null;
  }
  auto both_default_and_identity = [&](const ConstraintDef& c) {
    return Status(sqlstate::kSyntaxError, "both default and identity specified for column \"" + col.name +
                                              "\" of table \"" + table_name + "\"", Pos(c.location));
  };
  auto conflicting_null = [&](const ConstraintDef& c) {
    return Status(sqlstate::kSyntaxError, "conflicting NULL/NOT NULL declarations for column \"" + col.name +
                                              "\" of table \"" + table_name + "\"", Pos(c.location));
  };
  for (const auto& c : col.constraints) {
    switch (c.kind) {
      case ConstraintKind::kNotNull:
        if (saw_nullable && !is_not_null) return conflicting_null(c);
        is_not_null = saw_nullable = column.not_null = true;
        break;
      case ConstraintKind::kNull:
        if (saw_nullable && is_not_null) return conflicting_null(c);
        saw_nullable = true;
        break;
      case ConstraintKind::kDefault:
        if (saw_default) {
          return Status(sqlstate::kSyntaxError, "multiple default values specified for column \"" + col.name +
                                                    "\" of table \"" + table_name + "\"", Pos(c.location));
        }
        if (saw_identity) return both_default_and_identity(c);
        saw_default = true;
        PL_RETURN_IF_ERROR(binder->BindDefault(c, column, &column.default_value));
        break;
      case ConstraintKind::kIdentity: {
        if (saw_identity) {
          return Status(sqlstate::kSyntaxError, "multiple identity specifications for column \"" + col.name +
                                                    "\" of table \"" + table_name + "\"", Pos(c.location));
        }
        if (saw_default) return both_default_and_identity(c);
        if (saw_nullable && !is_not_null) return conflicting_null(c);
        saw_identity = is_not_null = saw_nullable = true;
        out->sequence.emplace();
        PL_RETURN_IF_ERROR(SequenceDdl(catalog_, options_)
                               .Identity(table_name, c, &column, &*out->sequence)
                               .WithPosition(Pos(c.location)));
        break;
      }
      case ConstraintKind::kPrimaryKey: case ConstraintKind::kUnique: case ConstraintKind::kForeignKey: {
        out->constraints.push_back(KeyConstraint(c, {col.name}));  // as a table constraint on this column
        break;
      }
      case ConstraintKind::kCheck:
        out->checks.push_back(&c);  // bound once the table exists
        break;
    }
  }
  out->column = std::move(column);
  return Status::OK();
}

Status DdlExecutor::AddChecks(storage::Table* table, const std::vector<const ConstraintDef*>& defs) {
  Binder binder(catalog_);
  binder.SetSource(source_);
  const catalog::TableSchema& schema = table->schema();
  // Names are unique among the table's constraints (PostgreSQL: among the
  // schema's); a chosen one gets a number when taken.
  std::set<std::string> taken;
  for (const auto& index : table->indexes()) taken.insert(index->schema().name);
  for (const auto& fk : schema.foreign_keys) taken.insert(fk.name);
  for (const auto& check : schema.checks) taken.insert(check.name);
  const std::set<std::string> existing = taken;
  std::vector<catalog::CheckConstraint> checks = schema.checks;
  for (const ConstraintDef* def : defs) {
    BoundExprPtr condition;
    PL_RETURN_IF_ERROR(binder.BindCheckCondition(*def->check, table, &condition));
    catalog::CheckConstraint check;
    check.expression = def->check_text;
    if (check.expression.empty()) return InternalError("a CHECK condition without its text");
    if (!def->name.empty()) {
      if (existing.count(def->name) > 0) {
        return Status(sqlstate::kDuplicateObject,
                      "constraint \"" + def->name + "\" for relation \"" + schema.name + "\" already exists");
      }
      if (taken.count(def->name) > 0) {  // given twice in one statement
        return Status(sqlstate::kDuplicateObject, "check constraint \"" + def->name + "\" already exists");
      }
      check.name = def->name;
    } else {
      // PostgreSQL's name: <table>_<column>_check when the condition reads
      // one column, <table>_check otherwise.
      std::set<int> columns;
      CollectColumns(*condition, &columns);
      const std::string base =
          schema.name + (columns.size() == 1 ? "_" + schema.columns[*columns.begin()].name : "") + "_check";
      check.name = base;
      for (int n = 1; taken.count(check.name) > 0; ++n) check.name = base + std::to_string(n);
    }
    taken.insert(check.name);
    PL_RETURN_IF_ERROR(CheckRows(*table, *condition, check.name));  // ALTER TABLE ADD CHECK: the rows it has
    checks.push_back(std::move(check));
  }
  std::sort(checks.begin(), checks.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  table->mutable_schema().checks = std::move(checks);
  catalog_->SchemaChanged();
  return Status::OK();
}

}  // namespace paceline::sql
