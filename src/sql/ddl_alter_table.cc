// DdlExecutor: ALTER TABLE — columns added, dropped, retyped, renamed and
// their DEFAULT and NOT NULL; the table renamed; with PostgreSQL's rules
// and SQLSTATEs (see ddl_executor.h). The constraint commands are in
// ddl_alter_constraint.cc.
//
// Rows are rewritten (storage::Table::ChangeColumns; RewriteColumns when
// columns move or change type) when a column is added, dropped or changes type; every other command changes only the
// catalog. CHECK constraints and views are kept as text and bound again
// wherever they are used, so whether a change breaks one is found by
// binding it against the changed schema before anything changes
// (ViewsBrokenBy, ColumnsReadBy).
#include <algorithm>

#include "common/datetime.h"
#include "sql/binder.h"
#include "sql/ddl_executor.h"
#include "sql/expression_evaluator.h"
#include "sql/parser.h"
#include "sql/sequence_access.h"
#include "sql/sequence_ddl.h"

namespace paceline::sql {

namespace {

Status NoSuchColumn(const std::string& column, const storage::Table& table) {
  return Status(sqlstate::kUndefinedColumn,
                "column \"" + column + "\" of relation \"" + table.name() + "\" does not exist");
}

// 23502 for a column NOT NULL that a rewrite would leave NULL.
Status NotNullViolationOf(const catalog::ColumnSchema& column, const storage::Table& table) {
  return Status(sqlstate::kNotNullViolation,
                "column \"" + column.name + "\" of relation \"" + table.name() + "\" contains null values");
}

bool IsColumnChange(AlterKind kind) {
  return kind == AlterKind::kSetDefault || kind == AlterKind::kDropDefault || kind == AlterKind::kSetNotNull ||
         kind == AlterKind::kDropNotNull;
}

}  // namespace

// nextval & co. for the DEFAULT an ADD COLUMN gives each row. The records
// a sequence asks to log are kept for redo_after (the statement may have
// created the sequence, so they follow its own record); replaying, nothing
// is logged.
class DdlExecutor::Sequences : public SequenceAccess {
 public:
  Sequences(catalog::Catalog* catalog, bool logging, DdlRedo* redo)
      : catalog_(catalog), logging_(logging), redo_(redo) {}

  Status NextVal(std::string_view name, int64_t* out) override {
    std::shared_ptr<catalog::Sequence> sequence;
    PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence));
    Lsn lsn;
    PL_RETURN_IF_ERROR(sequence->Next(LoggerFor(name), out, &lsn));
    currval_[std::string(name)] = *out;
    last_ = *out;
    return Status::OK();
  }
  Status CurrVal(std::string_view name, int64_t* out) override {
    auto it = currval_.find(std::string(name));
    if (it == currval_.end()) {
      return Status(sqlstate::kObjectNotInPrerequisiteState,
                    "currval of sequence \"" + std::string(name) + "\" is not yet defined in this session");
    }
    *out = it->second;
    return Status::OK();
  }
  Status SetVal(std::string_view name, int64_t value, bool called) override {
    std::shared_ptr<catalog::Sequence> sequence;
    PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence));
    Lsn lsn;
    return sequence->Set(LoggerFor(name), value, called, &lsn);
  }
  Status LastVal(int64_t* out) override {
    if (!last_) return Status(sqlstate::kObjectNotInPrerequisiteState, "lastval is not yet defined in this session");
    *out = *last_;
    return Status::OK();
  }

 private:
  catalog::Sequence::Logger LoggerFor(std::string_view name) {
    if (!logging_) return {};
    return [this, name = std::string(name)](int64_t value, bool called) {
      redo_->sequences.push_back({name, value, called});
      return Lsn();  // logged, and made durable, with the statement
    };
  }

  catalog::Catalog* catalog_;
  const bool logging_;
  DdlRedo* redo_;
  std::map<std::string, int64_t> currval_;
  std::optional<int64_t> last_;
};

Status DdlExecutor::CheckNoNulls(const storage::Table& table, int column) {
  bool has_null = false;
  table.ForEachRow([&](storage::Row* row) {
    const storage::Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (t != nullptr && table.layout().IsNull(*t, column)) has_null = true;
    return !has_null;
  });
  return has_null ? NotNullViolationOf(table.schema().columns[column], table) : Status::OK();
}

Status DdlExecutor::ColumnsReadBy(storage::Table& table, const catalog::CheckConstraint& check, std::set<int>* out) {
  ExprPtr expr;
  PL_RETURN_IF_ERROR(ParseExpression(check.expression, &expr));
  Binder binder(catalog_);
  BoundExprPtr condition;
  PL_RETURN_IF_ERROR(binder.BindCheckCondition(*expr, &table, &condition));
  CollectColumns(*condition, out);
  return Status::OK();
}

std::vector<std::string> DdlExecutor::ViewsBrokenBy(storage::Table& table,
                                                    const std::vector<catalog::ColumnSchema>& columns) {
  std::vector<std::string> broken;
  const std::vector<std::string> views = catalog_->DependentViews(table.name());
  if (views.empty()) return broken;
  std::vector<catalog::ColumnSchema> own = table.schema().columns;
  table.mutable_schema().columns = columns;
  for (const std::string& name : views) {
    const catalog::ViewSchema* view = catalog_->FindView(name);
    std::vector<std::unique_ptr<Statement>> parsed;
    bool same = Parse(view->definition, &parsed).ok() && parsed.size() == 1 &&
                parsed[0]->kind == StatementKind::kCreateView;
    std::unique_ptr<SelectPlan> plan;
    if (same) {
      Binder binder(catalog_);
      binder.SetSource(parsed[0]->source);
      same = binder.BindSelect(*parsed[0]->create_view->query, &plan).ok() &&
             plan->columns.size() == view->columns.size();
    }
    for (size_t c = 0; same && c < plan->columns.size(); ++c) {
      const Type& type = plan->columns[c].type;
      same = (type.id == TypeId::kUnknown ? Type(TypeId::kText) : type) == view->column_types[c];
    }
    if (!same) broken.push_back(name);
  }
  table.mutable_schema().columns = std::move(own);
  return broken;
}

Status DdlExecutor::AlterColumn(storage::Table& table, const AlterTableCmd& cmd) {
  const int c = table.schema().FindColumn(cmd.column_name);
  if (c < 0) return NoSuchColumn(cmd.column_name, table);
  catalog::ColumnSchema column = table.schema().columns[c];
  const bool identity = column.identity != 0;
  auto identity_error = [&]() {
    return Status(sqlstate::kSyntaxError,
                  "column \"" + column.name + "\" of relation \"" + table.name() + "\" is an identity column");
  };
  switch (cmd.kind) {
    case AlterKind::kSetDefault: {
      if (identity) return identity_error();
      Binder binder(catalog_);
      PL_RETURN_IF_ERROR(binder.BindDefault(cmd.constraint, column, &column.default_value));
      break;
    }
    case AlterKind::kDropDefault:
      if (identity) return identity_error();
      column.default_value = catalog::ColumnDefault();
      break;
    case AlterKind::kSetNotNull:
      if (column.not_null) return Status::OK();
      PL_RETURN_IF_ERROR(CheckNoNulls(table, c));
      column.not_null = true;
      break;
    case AlterKind::kDropNotNull: {
      const storage::Index* primary = table.primary_index();
      if (primary != nullptr) {
        const auto& key = primary->schema().columns;
        if (std::find(key.begin(), key.end(), c) != key.end()) {
          return Status(sqlstate::kInvalidTableDefinition, "column \"" + column.name + "\" is in a primary key");
        }
      }
      if (identity) return identity_error();
      column.not_null = false;
      break;
    }
    default:
      return InternalError("not an ALTER COLUMN command");
  }
  catalog_->AlterColumn(&table, c, std::move(column));
  return Status::OK();
}

Status DdlExecutor::AddColumn(storage::Table& table, const AlterTableCmd& cmd) {
  const ColumnDef& col = cmd.column;
  if (table.schema().FindColumn(col.name) >= 0) {
    if (cmd.missing_ok) return Status::OK();  // PostgreSQL notices "already exists, skipping"
    return Status(sqlstate::kDuplicateColumn,
                  "column \"" + col.name + "\" of relation \"" + table.name() + "\" already exists");
  }
  Binder binder(catalog_);
  binder.SetSource(source_);
  ColumnDefinition defined;
  PL_RETURN_IF_ERROR(DefineColumn(table.name(), col, &binder, &defined));
  for (const ConstraintDef& def : defined.constraints) {
    if (def.kind != ConstraintKind::kPrimaryKey) continue;
    if (table.primary_index() != nullptr) {
      return Status(sqlstate::kInvalidTableDefinition,
                    "multiple primary keys for table \"" + table.name() + "\" are not allowed");
    }
    defined.column.not_null = true;
  }
  // A serial or identity column's sequence first, as in CREATE TABLE.
  std::string sequence;
  if (defined.sequence) {
    sequence = defined.sequence->name;
    PL_RETURN_IF_ERROR(catalog_->CreateSequence(std::move(*defined.sequence), nullptr));
  }
  const std::vector<catalog::ColumnSchema> columns_before = table.schema().columns;
  const int added = static_cast<int>(columns_before.size());
  catalog::TableSchema schema = table.schema();
  schema.columns.push_back(defined.column);
  // Each row's value: the DEFAULT, evaluated for each row unless it is a
  // constant (nextval gives each row its own), else NULL.
  const catalog::ColumnSchema column = defined.column;
  BoundExprPtr fill;
  Status status = binder.DefaultValue(column, &fill);
  Sequences sequences(catalog_, !options_.replaying && options_.log_sequence != nullptr, &redo_after_);
  EvalContext ctx;
  ctx.statement_time = CurrentTimestampMicros();
  ctx.sequences = &sequences;
  const storage::TupleLayout& old_layout = table.layout();
  std::vector<int> position(columns_before.size());
  for (size_t c = 0; c < position.size(); ++c) position[c] = static_cast<int>(c);
  auto values_of = [&](const storage::Tuple& old, std::vector<Value>* out) -> Status {
    for (int c = 0; c < added; ++c) out->push_back(old_layout.Get(old, c));
    Value v;
    PL_RETURN_IF_ERROR(Evaluate(*fill, ctx, &v));
    if (v.is_null() && column.not_null) return NotNullViolationOf(column, table);
    out->push_back(std::move(v));
    return Status::OK();
  };
  if (status.ok()) status = catalog_->ChangeColumns(&table, std::move(schema), position, values_of);
  const bool rewritten = status.ok();
  // Then its constraints, over the rows as they now are.
  for (const ConstraintDef& def : defined.constraints) {
    if (status.ok()) status = AddConstraint(table, def);
  }
  if (status.ok() && !defined.checks.empty()) status = AddChecks(&table, defined.checks);
  if (!status.ok()) {
    // All or nothing: the column goes again (with what was added for it).
    if (rewritten) {
      std::vector<std::string> indexes;
      for (const auto& index : table.indexes()) {
        const auto& key = index->schema().columns;
        if (std::find(key.begin(), key.end(), added) != key.end()) indexes.push_back(index->schema().name);
      }
      for (const auto& index : indexes) (void)catalog_->DropIndex(index);
      std::erase_if(table.mutable_schema().foreign_keys, [&](const catalog::ForeignKey& fk) {
        return std::find(fk.columns.begin(), fk.columns.end(), added) != fk.columns.end();
      });
      catalog::TableSchema back = table.schema();
      back.columns = columns_before;
      std::vector<int> keep(columns_before.size() + 1);
      for (size_t c = 0; c < keep.size(); ++c) keep[c] = static_cast<int>(c);
      keep.back() = -1;
      const storage::TupleLayout& layout = table.layout();
      (void)catalog_->ChangeColumns(&table, std::move(back), keep, [&](const storage::Tuple& t, std::vector<Value>* out) {
        for (int c = 0; c < added; ++c) out->push_back(layout.Get(t, c));
        return Status::OK();
      });
    }
    if (!sequence.empty()) (void)catalog_->DropSequence(sequence, /*cascade=*/true);
    return status;
  }
  // Replay evaluates the DEFAULT again: one that is no constant gave values
  // replay would not repeat, so the rows are logged after the statement.
  if (column.default_value.present() && !column.default_value.constant && table.LiveRowCount() > 0) {
    redo_after_.tables.push_back(catalog_->FindTable(table.name()));
  }
  return Status::OK();
}

Status DdlExecutor::DropColumn(storage::Table& table, const AlterTableCmd& cmd) {
  const int dropped = table.schema().FindColumn(cmd.column_name);
  if (dropped < 0) return cmd.missing_ok ? Status::OK() : NoSuchColumn(cmd.column_name, table);
  const std::string& name = cmd.column_name;
  auto depends = [&](const std::string& what) {
    return Status(sqlstate::kDependentObjectsStillExist, "cannot drop column " + name + " of table " + table.name() +
                                                             " because other objects depend on it")
        .WithDetail(what + " depends on column " + name + " of table " + table.name());
  };
  // What depends on the column from outside the table goes only with
  // CASCADE: foreign keys that reference it, views that read it.
  struct Referencing {
    std::shared_ptr<storage::Table> table;
    std::string fk;
  };
  std::vector<Referencing> referencing;
  for (const std::string& other_name : catalog_->TableNames()) {
    std::shared_ptr<storage::Table> other = catalog_->FindTable(other_name);
    for (const auto& fk : other->schema().foreign_keys) {
      if (fk.ref_table != table.name() || other.get() == &table) continue;
      if (std::find(fk.ref_columns.begin(), fk.ref_columns.end(), name) == fk.ref_columns.end()) continue;
      if (!cmd.cascade) return depends("constraint " + fk.name + " on table " + other_name);
      referencing.push_back({other, fk.name});
    }
  }
  std::vector<catalog::ColumnSchema> remaining = table.schema().columns;
  remaining.erase(remaining.begin() + dropped);
  const std::vector<std::string> views = ViewsBrokenBy(table, remaining);
  if (!views.empty() && !cmd.cascade) return depends("view " + views[0]);
  // What belongs to the column goes with it: the indexes, foreign keys and
  // CHECK constraints on it, and the sequence it owns.
  std::vector<std::string> checks;
  for (const auto& check : table.schema().checks) {
    std::set<int> read;
    if (!ColumnsReadBy(table, check, &read).ok() || read.count(dropped) > 0) checks.push_back(check.name);
  }
  for (const auto& view : views) {
    if (catalog_->FindView(view)) PL_RETURN_IF_ERROR(catalog_->DropView(view, /*cascade=*/true));
  }
  for (const auto& [other, fk] : referencing) {
    std::erase_if(other->mutable_schema().foreign_keys, [&](const catalog::ForeignKey& f) { return f.name == fk; });
  }
  std::vector<std::string> indexes = PartialIndexesReading(table, dropped);
  for (const auto& index : table.indexes()) {
    const auto& key = index->schema().columns;
    if (std::find(key.begin(), key.end(), dropped) != key.end()) indexes.push_back(index->schema().name);
  }
  std::sort(indexes.begin(), indexes.end());
  indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
  for (const auto& index : indexes) PL_RETURN_IF_ERROR(catalog_->DropIndex(index));
  catalog::TableSchema schema = table.schema();
  std::erase_if(schema.checks, [&](const catalog::CheckConstraint& check) {
    return std::find(checks.begin(), checks.end(), check.name) != checks.end();
  });
  std::erase_if(schema.foreign_keys, [&](const catalog::ForeignKey& fk) {
    // A foreign key of the table onto its own column goes too.
    const bool self = fk.ref_table == table.name() &&
                      std::find(fk.ref_columns.begin(), fk.ref_columns.end(), name) != fk.ref_columns.end();
    return self || std::find(fk.columns.begin(), fk.columns.end(), dropped) != fk.columns.end();
  });
  std::vector<int> position(schema.columns.size());
  for (int c = 0; c < static_cast<int>(position.size()); ++c) position[c] = c < dropped ? c : c - 1;
  position[dropped] = -1;
  for (auto& fk : schema.foreign_keys) {
    for (int& c : fk.columns) c = position[c];
  }
  schema.columns = std::move(remaining);
  const storage::TupleLayout& layout = table.layout();
  const int width = static_cast<int>(position.size());
  PL_RETURN_IF_ERROR(RewriteColumns(table, std::move(schema), position,
                                    [&](const storage::Tuple& old, std::vector<Value>* out) {
                                      for (int c = 0; c < width; ++c) {
                                        if (c != dropped) out->push_back(layout.Get(old, c));
                                      }
                                      return Status::OK();
                                    }));
  for (const std::string& sequence : catalog_->OwnedSequences(table.name())) {
    const std::shared_ptr<catalog::Sequence> owned = catalog_->FindSequence(sequence);
    if (owned->schema().owned_by_column == name) PL_RETURN_IF_ERROR(catalog_->DropSequence(sequence, true));
  }
  return Status::OK();
}

Status DdlExecutor::AlterType(storage::Table& table, const AlterTableCmd& cmd) {
  const int c = table.schema().FindColumn(cmd.column_name);
  if (c < 0) return NoSuchColumn(cmd.column_name, table);
  if (cmd.using_expression) return NotSupported("ALTER COLUMN TYPE with USING");
  catalog::ColumnSchema column = table.schema().columns[c];
  Binder binder(catalog_);
  binder.SetSource(source_);
  Type type;
  std::string domain;
  PL_RETURN_IF_ERROR(binder.ResolveType(cmd.column.type, &type, &domain));
  PL_RETURN_IF_ERROR(CheckColumnType(column.name, type, cmd.column.type.location));
  if (type == column.type && domain == column.domain) return Status::OK();
  const std::string type_text = type.ToString();
  if (!CanAssign(column.type.id, type.id) || type.IsArray() != column.type.IsArray()) {
    return Status(sqlstate::kDatatypeMismatch,
                  "column \"" + column.name + "\" cannot be cast automatically to type " + type_text)
        .WithDetail("You might need to specify \"USING " + column.name + "::" + type_text + "\".");
  }
  if (column.identity != 0 && type.id != TypeId::kInt16 && type.id != TypeId::kInt32 && type.id != TypeId::kInt64) {
    return Status(sqlstate::kInvalidParameterValue, "identity column type must be smallint, integer, or bigint");
  }
  column.type = type;
  column.domain = domain;
  column.domain_not_null = !domain.empty() && catalog_->FindDomain(domain)->not_null;
  if (column.domain_not_null) column.not_null = true;
  if (column.default_value.present()) {
    // The DEFAULT, bound again for the new type.
    ConstraintDef def;
    def.kind = ConstraintKind::kDefault;
    def.default_text = column.default_value.expression;
    Status bound = ParseExpression(def.default_text, &def.default_value);
    if (bound.ok()) bound = binder.BindDefault(def, column, &column.default_value);
    if (!bound.ok()) {
      return Status(sqlstate::kDatatypeMismatch,
                    "default for column \"" + column.name + "\" cannot be cast automatically to type " + type_text);
    }
  }
  std::vector<catalog::ColumnSchema> columns = table.schema().columns;
  columns[c] = column;
  const std::vector<std::string> views = ViewsBrokenBy(table, columns);
  if (!views.empty()) {
    return Status(sqlstate::kFeatureNotSupported, "cannot alter type of a column used by a view or rule")
        .WithDetail("rule _RETURN on view " + views[0] + " depends on column \"" + column.name + "\"");
  }
  catalog::TableSchema schema = table.schema();
  schema.columns = std::move(columns);
  std::vector<int> position(schema.columns.size());
  for (size_t p = 0; p < position.size(); ++p) position[p] = static_cast<int>(p);
  const storage::TupleLayout& layout = table.layout();
  const int width = static_cast<int>(position.size());
  PL_RETURN_IF_ERROR(RewriteColumns(
      table, std::move(schema), position, [&](const storage::Tuple& old, std::vector<Value>* out) -> Status {
        for (int p = 0; p < width; ++p) out->push_back(layout.Get(old, p));
        Value& v = (*out)[c];
        if (v.is_null()) {
          if (column.not_null) return NotNullViolationOf(column, table);
          return Status::OK();
        }
        Value cast;
        PL_RETURN_IF_ERROR(CastValue(v, type, false, &cast));
        v = std::move(cast);
        return Status::OK();
      }));
  // The CHECKs still bind (a condition may need the old type).
  std::vector<CheckPlan> checks;
  return binder.BindChecks(&table, &checks);
}

Status DdlExecutor::RenameColumn(storage::Table& table, const AlterTableCmd& cmd) {
  const int c = table.schema().FindColumn(cmd.column_name);
  if (c < 0) return Status(sqlstate::kUndefinedColumn, "column \"" + cmd.column_name + "\" does not exist");
  if (table.schema().FindColumn(cmd.new_name) >= 0) {
    return Status(sqlstate::kDuplicateColumn,
                  "column \"" + cmd.new_name + "\" of relation \"" + table.name() + "\" already exists");
  }
  // Views and CHECKs are kept as text: one that names the column would
  // have to be rewritten.
  for (const auto& check : table.schema().checks) {
    std::set<int> read;
    if (!ColumnsReadBy(table, check, &read).ok() || read.count(c) > 0) {
      return NotSupported("renaming column \"" + cmd.column_name + "\", which check constraint \"" + check.name +
                          "\" reads (drop the constraint, rename, and add it again)");
    }
  }
  const std::vector<std::string> partial = PartialIndexesReading(table, c);
  if (!partial.empty()) {
    return NotSupported("renaming column \"" + cmd.column_name + "\", which the condition of partial index \"" +
                        partial[0] + "\" reads (drop the index, rename, and create it again)");
  }
  std::vector<catalog::ColumnSchema> columns = table.schema().columns;
  columns[c].name = cmd.new_name;
  const std::vector<std::string> views = ViewsBrokenBy(table, columns);
  if (!views.empty()) {
    return NotSupported("renaming column \"" + cmd.column_name + "\", which view " + views[0] +
                        " reads (drop the view, rename, and create it again)");
  }
  catalog_->RenameColumn(&table, c, cmd.new_name);
  return Status::OK();
}

Status DdlExecutor::RenameTable(storage::Table& table, const AlterTableCmd& cmd) {
  const std::vector<std::string> views = catalog_->DependentViews(table.name());
  if (!views.empty()) {
    return NotSupported("renaming table \"" + table.name() + "\", which view " + views[0] +
                        " reads (drop the view, rename, and create it again)");
  }
  return catalog_->RenameTable(table.name(), cmd.new_name);
}

Status DdlExecutor::AlterTable(const AlterTableStmt& stmt, QueryResult* result) {
  // OWNER TO alone (pg_dump's output says it for every table, view and
  // sequence): Paceline keeps no owners (every object shows as owned by
  // the connected user), so it checks the relation and changes nothing.
  if (!stmt.commands.empty() && std::all_of(stmt.commands.begin(), stmt.commands.end(), [](const AlterTableCmd& c) {
        return c.kind == AlterKind::kOwnerTo;
      })) {
    const bool exists = catalog_->FindTable(stmt.table) || catalog_->FindSequence(stmt.table) ||
                        catalog_->FindView(stmt.table) != nullptr;
    if (!exists && !stmt.if_exists) {
      return Status(sqlstate::kUndefinedTable, "relation \"" + stmt.table + "\" does not exist");
    }
    result->command_tag = "ALTER TABLE";
    return Status::OK();
  }
  auto table = catalog_->FindTable(stmt.table);
  if (!table && stmt.if_exists) {  // PostgreSQL only notices
    result->command_tag = "ALTER TABLE";
    return Status::OK();
  }
  if (!table) return Status(sqlstate::kUndefinedTable, "relation \"" + stmt.table + "\" does not exist");
  // The ALTER COLUMN commands change column definitions as they run; when
  // a later one of them fails they are put back (the statement changes all
  // or nothing), unless another kind of command ran in between.
  const std::vector<catalog::ColumnSchema> columns_before = table->schema().columns;
  bool altered_columns = false, other_commands = false;
  for (const auto& cmd : stmt.commands) {
    if (IsColumnChange(cmd.kind)) {
      Status altered = AlterColumn(*table, cmd);
      if (!altered.ok()) {
        if (altered_columns && !other_commands) {
          for (size_t c = 0; c < columns_before.size(); ++c) catalog_->AlterColumn(table.get(), c, columns_before[c]);
        }
        return altered;
      }
      altered_columns = true;
      continue;
    }
    other_commands = true;
    switch (cmd.kind) {
      case AlterKind::kAddConstraint: PL_RETURN_IF_ERROR(AddConstraint(*table, cmd.constraint)); break;
      case AlterKind::kAddColumn: PL_RETURN_IF_ERROR(AddColumn(*table, cmd)); break;
      case AlterKind::kDropColumn: PL_RETURN_IF_ERROR(DropColumn(*table, cmd)); break;
      case AlterKind::kAlterType: PL_RETURN_IF_ERROR(AlterType(*table, cmd)); break;
      case AlterKind::kDropConstraint: PL_RETURN_IF_ERROR(DropConstraint(*table, cmd)); break;
      case AlterKind::kRenameColumn: PL_RETURN_IF_ERROR(RenameColumn(*table, cmd)); break;
      case AlterKind::kRenameTable: PL_RETURN_IF_ERROR(RenameTable(*table, cmd)); break;
      case AlterKind::kRenameConstraint: PL_RETURN_IF_ERROR(RenameConstraint(*table, cmd)); break;
      case AlterKind::kOwnerTo: break;  // no owners (above)
      default: return NotSupported("ALTER TABLE " + cmd.description);
    }
  }
  result->command_tag = "ALTER TABLE";
  return Status::OK();
}

}  // namespace paceline::sql
