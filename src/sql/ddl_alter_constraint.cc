// DdlExecutor: ALTER TABLE's constraint commands — ADD (primary key,
// unique, foreign key, CHECK over the rows there are), DROP (a key's
// dependent foreign keys only with CASCADE) and RENAME CONSTRAINT — with
// PostgreSQL's rules and SQLSTATEs (see ddl_executor.h).
#include <algorithm>

#include "common/datetime.h"
#include "sql/ddl_executor.h"
#include "sql/expression_evaluator.h"

namespace paceline::sql {

Status DdlExecutor::CheckRows(const storage::Table& table, const BoundExpr& condition, const std::string& name) {
  EvalContext ctx;
  const storage::TupleLayout* layouts[1] = {&table.layout()};
  ctx.layouts = layouts;
  ctx.statement_time = CurrentTimestampMicros();
  Status status;
  bool violated = false;
  table.ForEachRow([&](storage::Row* row) {
    const storage::Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (t == nullptr) return true;
    const storage::Tuple* tuples[1] = {t};
    ctx.tuples = tuples;
    Value passed;
    status = Evaluate(condition, ctx, &passed);
    violated = status.ok() && !passed.is_null() && !passed.bool_value();
    return status.ok() && !violated;
  });
  PL_RETURN_IF_ERROR(status);
  if (!violated) return Status::OK();
  return Status(sqlstate::kCheckViolation,
                "check constraint \"" + name + "\" of relation \"" + table.name() + "\" is violated by some row");
}

Status DdlExecutor::CheckForeignKeyRows(const storage::Table& table, const catalog::ForeignKey& fk) {
  std::shared_ptr<storage::Table> referenced = catalog_->FindTable(fk.ref_table);
  if (!referenced) return InternalError("foreign key to a missing table");
  // The unique index of the referenced columns (MakeForeignKey found one),
  // and where each referencing column's value goes in its key.
  std::vector<int> ref_positions;
  for (const auto& name : fk.ref_columns) ref_positions.push_back(referenced->schema().FindColumn(name));
  const storage::Index* index = nullptr;
  std::vector<size_t> slot(fk.columns.size());
  for (const auto& candidate : referenced->indexes()) {
    const std::vector<int>& columns = candidate->schema().columns;
    if (!candidate->unique_key() || columns.size() != ref_positions.size()) continue;
    bool matches = true;
    for (size_t i = 0; i < ref_positions.size() && matches; ++i) {
      auto at = std::find(columns.begin(), columns.end(), ref_positions[i]);
      matches = at != columns.end();
      if (matches) slot[i] = static_cast<size_t>(at - columns.begin());
    }
    if (matches) {
      index = candidate.get();
      break;
    }
  }
  if (index == nullptr) return InternalError("foreign key without a unique index");
  Status status;
  std::vector<Value> missing;
  table.ForEachRow([&](storage::Row* row) {
    const storage::Tuple* t = row->tuple.load(std::memory_order_acquire);
    if (t == nullptr) return true;
    std::vector<Value> key(fk.columns.size());
    std::vector<Value> values(fk.columns.size());
    bool fits = true;
    for (size_t i = 0; i < fk.columns.size(); ++i) {
      key[i] = table.layout().Get(*t, fk.columns[i]);
      if (key[i].is_null()) return true;  // MATCH SIMPLE
      const Type& type = referenced->schema().columns[ref_positions[i]].type;
      fits = fits && CastKeyValue(key[i], type, &values[slot[i]]);
    }
    std::string encoded;
    bool exact = false;
    if (fits) status = index->KeyOfValues(values.data(), static_cast<int>(values.size()), &encoded, &exact);
    if (!status.ok()) return false;
    const storage::Row* holder = fits && exact ? index->Find(encoded) : nullptr;
    const storage::Tuple* image = holder != nullptr ? holder->tuple.load(std::memory_order_acquire) : nullptr;
    std::string held;
    bool has_null = false;
    if (image != nullptr && index->KeyOf(*image, &held, &has_null).ok() && held == encoded) return true;
    missing = std::move(key);
    return false;
  });
  PL_RETURN_IF_ERROR(status);
  if (missing.empty()) return Status::OK();
  std::string names;
  std::string values;
  for (size_t i = 0; i < missing.size(); ++i) {
    names += (i == 0 ? "" : ", ") + table.schema().columns[fk.columns[i]].name;
    values += (i == 0 ? "" : ", ") + missing[i].ToString();
  }
  return Status(sqlstate::kForeignKeyViolation,
                "insert or update on table \"" + table.name() + "\" violates foreign key constraint \"" + fk.name + "\"")
      .WithDetail("Key (" + names + ")=(" + values + ") is not present in table \"" + fk.ref_table + "\".");
}

Status DdlExecutor::AddConstraint(storage::Table& table, const ConstraintDef& def) {
  switch (def.kind) {
    case ConstraintKind::kPrimaryKey: case ConstraintKind::kUnique: {
      const bool primary = def.kind == ConstraintKind::kPrimaryKey;
      if (primary && table.primary_index() != nullptr) {
        return Status(sqlstate::kInvalidTableDefinition,
                      "multiple primary keys for table \"" + table.name() + "\" are not allowed");
      }
      if (!def.name.empty() && catalog_->FindIndexTable(def.name)) {
        return Status(sqlstate::kDuplicateTable, "relation \"" + def.name + "\" already exists");
      }
      catalog::IndexSchema index;
      PL_RETURN_IF_ERROR(MakeIndex(table.schema(), def, primary, &index));
      std::vector<bool> was_not_null;
      for (const auto& column : table.schema().columns) was_not_null.push_back(column.not_null);
      if (primary) {
        // Key columns become NOT NULL; existing NULLs make that fail.
        for (int c : index.columns) PL_RETURN_IF_ERROR(CheckNoNulls(table, c));
        for (int c : index.columns) table.mutable_schema().columns[c].not_null = true;
      }
      std::vector<int> key_columns = index.columns;
      Status created = catalog_->CreateIndex(&table, std::move(index));
      if (!created.ok() && primary) {
        // The key stays nullable when the primary key could not be made.
        for (int c : key_columns) table.mutable_schema().columns[c].not_null = was_not_null[c];
      }
      return created;
    }
    case ConstraintKind::kForeignKey: {
      catalog::ForeignKey fk;
      PL_RETURN_IF_ERROR(MakeForeignKey(table.schema(), def, nullptr, &fk));
      if (!def.not_valid) PL_RETURN_IF_ERROR(CheckForeignKeyRows(table, fk));
      return catalog_->AddForeignKey(&table, std::move(fk));
    }
    case ConstraintKind::kCheck:
      return AddChecks(&table, {&def});
    default:
      return NotSupported("ALTER TABLE ADD of this constraint");
  }
}

Status DdlExecutor::DropConstraint(storage::Table& table, const AlterTableCmd& cmd) {
  const std::string& name = cmd.column_name;
  catalog::TableSchema& schema = table.mutable_schema();
  for (auto it = schema.checks.begin(); it != schema.checks.end(); ++it) {
    if (it->name != name) continue;
    schema.checks.erase(it);
    catalog_->SchemaChanged();
    return Status::OK();
  }
  for (auto it = schema.foreign_keys.begin(); it != schema.foreign_keys.end(); ++it) {
    if (it->name != name) continue;
    schema.foreign_keys.erase(it);
    catalog_->SchemaChanged();
    return Status::OK();
  }
  const storage::Index* index = table.FindIndex(name);
  // A unique index made by CREATE UNIQUE INDEX is no constraint (DROP INDEX
  // drops it), as in PostgreSQL.
  if (index == nullptr || !index->unique_key() || !index->schema().constraint) {
    if (cmd.missing_ok) return Status::OK();  // PostgreSQL notices "does not exist, skipping"
    return Status(sqlstate::kUndefinedObject,
                  "constraint \"" + name + "\" of relation \"" + table.name() + "\" does not exist");
  }
  // A primary key or unique constraint: the foreign keys that reference
  // its columns go only with CASCADE.
  std::vector<std::string> key;
  for (int c : index->schema().columns) key.push_back(schema.columns[c].name);
  std::sort(key.begin(), key.end());
  std::vector<std::pair<std::shared_ptr<storage::Table>, std::string>> referencing;
  for (const std::string& other_name : catalog_->TableNames()) {
    std::shared_ptr<storage::Table> other = catalog_->FindTable(other_name);
    for (const auto& fk : other->schema().foreign_keys) {
      std::vector<std::string> ref = fk.ref_columns;
      std::sort(ref.begin(), ref.end());
      if (fk.ref_table != table.name() || ref != key) continue;
      if (!cmd.cascade) {
        return Status(sqlstate::kDependentObjectsStillExist, "cannot drop constraint " + name + " on table " +
                                                                 table.name() + " because other objects depend on it")
            .WithDetail("constraint " + fk.name + " on table " + other_name + " depends on index " + name);
      }
      referencing.emplace_back(other, fk.name);
    }
  }
  for (const auto& [other, fk] : referencing) {
    std::erase_if(other->mutable_schema().foreign_keys, [&](const catalog::ForeignKey& f) { return f.name == fk; });
  }
  return catalog_->DropIndex(name);
}

Status DdlExecutor::RenameConstraint(storage::Table& table, const AlterTableCmd& cmd) {
  const std::string& name = cmd.column_name;
  catalog::TableSchema& schema = table.mutable_schema();
  auto taken = [&]() {
    if (table.FindIndex(cmd.new_name) != nullptr) return true;
    for (const auto& check : schema.checks) {
      if (check.name == cmd.new_name) return true;
    }
    for (const auto& fk : schema.foreign_keys) {
      if (fk.name == cmd.new_name) return true;
    }
    return false;
  };
  if (taken()) {
    return Status(sqlstate::kDuplicateObject,
                  "constraint \"" + cmd.new_name + "\" for relation \"" + table.name() + "\" already exists");
  }
  for (auto& check : schema.checks) {
    if (check.name != name) continue;
    check.name = cmd.new_name;
    std::sort(schema.checks.begin(), schema.checks.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    catalog_->SchemaChanged();
    return Status::OK();
  }
  for (auto& fk : schema.foreign_keys) {
    if (fk.name != name) continue;
    fk.name = cmd.new_name;
    catalog_->SchemaChanged();
    return Status::OK();
  }
  const storage::Index* index = table.FindIndex(name);
  if (index == nullptr || !index->unique_key() || !index->schema().constraint) {
    return Status(sqlstate::kUndefinedObject,
                  "constraint \"" + name + "\" for table \"" + table.name() + "\" does not exist");
  }
  return catalog_->RenameIndex(name, cmd.new_name);
}

}  // namespace paceline::sql
