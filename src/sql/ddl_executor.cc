// DdlExecutor: schema changes (see ddl_executor.h); CREATE TABLE is in
// ddl_create_table.cc.
#include "sql/ddl_executor.h"

#include <algorithm>

#include "common/utf8.h"
#include "sql/binder.h"
#include "sql/partial_index_condition.h"
#include "sql/sequence_ddl.h"

namespace paceline::sql {

namespace {

void Tag(QueryResult* result, std::string tag) { result->command_tag = std::move(tag); }


}  // namespace

int DdlExecutor::Pos(int location) const {
  if (location < 0) return 0;
  return source_ ? Utf8CharPosition(*source_, location) : location + 1;
}

Status DdlExecutor::Execute(const Statement& s, QueryResult* result) {
  source_ = s.source;
  switch (s.kind) {
    case StatementKind::kCreateTable: return CreateTable(*s.create_table, result);
    case StatementKind::kCreateDomain: return CreateDomain(*s.create_domain, result);
    case StatementKind::kCreateIndex: return CreateIndex(*s.create_index, result);
    case StatementKind::kCreateView: return CreateView(*s.create_view, s.text, result);
    case StatementKind::kDrop: return Drop(*s.drop, result);
    case StatementKind::kTruncate: return Truncate(*s.truncate, result);
    case StatementKind::kAlterTable: return AlterTable(*s.alter_table, result);
    case StatementKind::kCreateSequence: return SequenceDdl(catalog_, options_).Create(*s.create_sequence, result);
    case StatementKind::kAlterSequence: return SequenceDdl(catalog_, options_).Alter(*s.alter_sequence, result);
    default: return InternalError("not a DDL statement");
  }
}

Status DdlExecutor::CheckColumnType(const std::string& column, const Type& type, int location) const {
  if (type.IsRecordOrRecordArray()) {
    return Status(sqlstate::kInvalidTableDefinition,
                  "column \"" + column + "\" has pseudo-type " + type.ToString(), Pos(location));
  }
  return Status::OK();
}

Status DdlExecutor::ColumnPositions(const catalog::TableSchema& schema, const std::vector<std::string>& names,
                                    std::vector<int>* out) const {
  out->clear();
  for (const auto& name : names) {
    int c = schema.FindColumn(name);
    if (c < 0) {
      return Status(sqlstate::kUndefinedColumn, "column \"" + name + "\" named in key does not exist");
    }
    if (std::find(out->begin(), out->end(), c) != out->end()) {
      return Status(sqlstate::kDuplicateColumn, "column \"" + name + "\" appears twice in key");
    }
    out->push_back(c);
  }
  return Status::OK();
}

Status DdlExecutor::MakeIndex(const catalog::TableSchema& schema, const ConstraintDef& def, bool primary,
                              catalog::IndexSchema* out) const {
  PL_RETURN_IF_ERROR(ColumnPositions(schema, def.columns, &out->columns));
  for (int c : out->columns) {
    const Type& t = schema.columns[c].type;
    if (t.id == TypeId::kNumeric && t.scale < 0) {
      return NotSupported("a key on unconstrained NUMERIC column \"" + schema.columns[c].name +
                          "\" (declare NUMERIC(p,s))");
    }
    if (t.IsArray()) return NotSupported("a key or index on array column \"" + schema.columns[c].name + "\"");
    if (t.id == TypeId::kJson) {
      return Status(sqlstate::kUndefinedObject, "data type json has no default operator class for access method \"btree\"");
    }
  }
  out->unique = true;
  out->primary = primary;
  out->constraint = true;
  out->name = !def.name.empty() ? def.name
                                : catalog_->MakeIndexName(schema.name, def.columns, primary ? "pkey" : "key");
  return Status::OK();
}

namespace {

// Whether PostgreSQL finds an equality operator for a referencing column
// of type `fk` and a referenced one of type `pk`: the same type, two of one
// operator family (integers, floats, strings, dates and timestamps), or a
// referencing type that converts implicitly to the referenced one (an
// integer to numeric or a float, numeric to a float) — not the other way
// (numeric referencing an integer key is 42804).
bool ForeignKeyComparable(const Type& fk, const Type& pk) {
  if (fk.id == TypeId::kArray || pk.id == TypeId::kArray) return fk == pk;
  if (fk.id == pk.id) return true;
  if ((fk.IsInteger() && pk.IsInteger()) || (fk.IsFloat() && pk.IsFloat())) return true;
  if (fk.IsString() && pk.IsString()) return true;
  if (fk.IsTemporal() && pk.IsTemporal()) return true;
  if (fk.IsInteger()) return pk.id == TypeId::kNumeric || pk.IsFloat();
  return fk.id == TypeId::kNumeric && pk.IsFloat();
}

}  // namespace

Status DdlExecutor::MakeForeignKey(const catalog::TableSchema& schema, const ConstraintDef& def,
                                   const std::vector<catalog::IndexSchema>* new_indexes,
                                   catalog::ForeignKey* out) const {
  PL_RETURN_IF_ERROR(ColumnPositions(schema, def.columns, &out->columns));
  out->name = def.name;
  if (out->name.empty()) {  // PostgreSQL's name: <table>_<columns>_fkey, numbered when taken
    std::string base = schema.name;
    for (const auto& column : def.columns) base += "_" + column;
    base += "_fkey";
    out->name = base;
    const auto taken = [&](const std::string& name) {  // by another foreign key of the table
      for (const auto& fk : schema.foreign_keys) {
        if (fk.name == name) return true;
      }
      return false;
    };
    for (int n = 1; taken(out->name); ++n) out->name = base + std::to_string(n);
  }
  out->ref_table = def.ref_table;
  out->ref_columns = def.ref_columns;
  out->on_delete = static_cast<catalog::ForeignKeyAction>(def.on_delete);
  out->on_update = static_cast<catalog::ForeignKeyAction>(def.on_update);
  out->deferrable = def.deferrable;
  out->initially_deferred = def.initially_deferred;
  // A table may reference itself, also while it is being created.
  const bool self = def.ref_table == schema.name;
  std::shared_ptr<storage::Table> ref_table = catalog_->FindTable(def.ref_table);
  if (!ref_table && !self) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + def.ref_table + "\" does not exist", Pos(def.location));
  }
  const catalog::TableSchema* ref = self && new_indexes != nullptr ? &schema : &ref_table->schema();
  // The referenced table's unique keys: the new table's own while it is
  // being created, else its indexes'.
  std::vector<const catalog::IndexSchema*> keys;
  if (self && new_indexes != nullptr) {
    for (const auto& index : *new_indexes) keys.push_back(&index);
  } else {
    for (const auto& index : ref_table->indexes()) {
      if (!index->partial()) keys.push_back(&index->schema());
    }
  }
  if (out->ref_columns.empty()) {
    const catalog::IndexSchema* pk = nullptr;
    for (const catalog::IndexSchema* key : keys) {
      if (key->primary) pk = key;
    }
    if (pk == nullptr) {
      return Status(sqlstate::kInvalidForeignKey,
                    "there is no primary key for referenced table \"" + def.ref_table + "\"");
    }
    for (int c : pk->columns) out->ref_columns.push_back(ref->columns[c].name);
  }
  std::vector<int> ref_positions;
  for (const auto& name : out->ref_columns) {
    const int c = ref->FindColumn(name);
    if (c < 0) {
      return Status(sqlstate::kUndefinedColumn,
                    "column \"" + name + "\" referenced in foreign key constraint does not exist");
    }
    ref_positions.push_back(c);
  }
  if (out->ref_columns.size() != out->columns.size()) {
    return Status(sqlstate::kInvalidForeignKey, "number of referencing and referenced columns for foreign key disagree");
  }
  // The referenced columns must be exactly a unique key's (in any order).
  std::vector<int> wanted = ref_positions;
  std::sort(wanted.begin(), wanted.end());
  const bool unique_key = std::any_of(keys.begin(), keys.end(), [&](const catalog::IndexSchema* key) {
    std::vector<int> columns = key->columns;
    std::sort(columns.begin(), columns.end());
    return key->unique && columns == wanted;
  });
  if (!unique_key || std::adjacent_find(wanted.begin(), wanted.end()) != wanted.end()) {
    return Status(sqlstate::kInvalidForeignKey,
                  "there is no unique constraint matching given keys for referenced table \"" + def.ref_table + "\"");
  }
  for (size_t i = 0; i < out->columns.size(); ++i) {
    const catalog::ColumnSchema& column = schema.columns[out->columns[i]];
    const catalog::ColumnSchema& referenced = ref->columns[ref_positions[i]];
    if (!ForeignKeyComparable(column.type, referenced.type)) {
      return Status(sqlstate::kDatatypeMismatch, "foreign key constraint \"" + out->name + "\" cannot be implemented")
          .WithDetail("Key columns \"" + column.name + "\" and \"" + referenced.name +
                      "\" are of incompatible types: " + column.type.ToString() + " and " +
                      referenced.type.ToString() + ".");
    }
  }
  if (!def.delete_set_columns.empty()) {
    if (out->on_delete != catalog::ForeignKeyAction::kSetNull &&
        out->on_delete != catalog::ForeignKeyAction::kSetDefault) {
      return Status(sqlstate::kSyntaxError,
                    "a column list with ON DELETE is only supported for SET NULL and SET DEFAULT actions");
    }
    PL_RETURN_IF_ERROR(ColumnPositions(schema, def.delete_set_columns, &out->delete_set_columns));
    for (size_t i = 0; i < out->delete_set_columns.size(); ++i) {
      if (std::find(out->columns.begin(), out->columns.end(), out->delete_set_columns[i]) == out->columns.end()) {
        return Status(sqlstate::kInvalidColumnReference, "column \"" + def.delete_set_columns[i] +
                                                        "\" referenced in ON DELETE SET action must be part of "
                                                        "foreign key");
      }
    }
  }
  return Status::OK();
}

Status DdlExecutor::CreateDomain(const CreateDomainStmt& stmt, QueryResult* result) {
  if (stmt.has_check) return NotSupported("CHECK constraint on a domain");
  Binder binder(catalog_);
  binder.SetSource(source_);
  catalog::DomainSchema domain;
  domain.name = stmt.name;
  std::string base_domain;
  PL_RETURN_IF_ERROR(binder.ResolveType(stmt.type, &domain.type, &base_domain));
  domain.not_null = stmt.not_null;
  if (!base_domain.empty()) domain.not_null |= catalog_->FindDomain(base_domain)->not_null;
  PL_RETURN_IF_ERROR(catalog_->CreateDomain(std::move(domain)));
  Tag(result, "CREATE DOMAIN");
  return Status::OK();
}

Status DdlExecutor::CreateIndex(const CreateIndexStmt& stmt, QueryResult* result) {
  if (stmt.has_expressions) return NotSupported("an index on an expression");
  if (!stmt.method.empty() && stmt.method != "btree" && stmt.method != "hash") {
    return NotSupported("index method \"" + stmt.method + "\"");
  }
  auto table = catalog_->FindTable(stmt.table.name);
  if (!table) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + stmt.table.name + "\" does not exist",
                  Pos(stmt.table.location));
  }
  if (!stmt.name.empty() && catalog_->FindIndexTable(stmt.name)) {
    if (stmt.if_not_exists) {
      Tag(result, "CREATE INDEX");
      return Status::OK();
    }
    return Status(sqlstate::kDuplicateTable, "relation \"" + stmt.name + "\" already exists");
  }
  for (const auto& name : stmt.columns) {
    if (table->schema().FindColumn(name) < 0) {
      return Status(sqlstate::kUndefinedColumn, "column \"" + name + "\" does not exist");
    }
  }
  catalog::IndexSchema index;
  ConstraintDef def;
  def.columns = stmt.columns;
  def.name = stmt.name;
  PL_RETURN_IF_ERROR(MakeIndex(table->schema(), def, false, &index));
  index.unique = stmt.unique;
  index.constraint = false;  // CREATE [UNIQUE] INDEX makes no constraint
  if (stmt.name.empty()) index.name = catalog_->MakeIndexName(table->name(), stmt.columns, "idx");
  // A hash index serves only point lookups of a unique key; a non-unique
  // hash index is kept ordered (it must find every row with a key).
  index.method = (stmt.method == "hash" && stmt.unique) ? catalog::IndexMethod::kHash : catalog::IndexMethod::kOrdered;
  std::shared_ptr<const PartialIndexCondition> condition;
  if (stmt.where) {
    PL_RETURN_IF_ERROR(PartialIndexCondition::Make(catalog_, table.get(), *stmt.where, &condition));
    index.predicate = stmt.where_text;
  }
  PL_RETURN_IF_ERROR(catalog_->CreateIndex(table.get(), std::move(index), std::move(condition)));
  Tag(result, "CREATE INDEX");
  return Status::OK();
}

Status DdlExecutor::Drop(const DropStmt& stmt, QueryResult* result) {
  switch (stmt.kind) {
    case ObjectKind::kTable: {
      std::vector<std::string> present;
      for (const auto& name : stmt.names) {
        if (!catalog_->FindTable(name)) {
          if (catalog_->FindView(name)) {
            return Status(sqlstate::kWrongObjectType, "\"" + name + "\" is not a table")
                .WithDetail("Use DROP VIEW to remove a view.");
          }
          if (catalog_->FindSequence(name)) {
            return Status(sqlstate::kWrongObjectType, "\"" + name + "\" is not a table")
                .WithDetail("Use DROP SEQUENCE to remove a sequence.");
          }
          if (stmt.if_exists) continue;
          return Status(sqlstate::kUndefinedTable, "table \"" + name + "\" does not exist");
        }
        present.push_back(name);
      }
      // The tables go together: a foreign key between two of them does not
      // hold the drop back; one from a table that stays does (unless
      // CASCADE). Checked first, so that a failing DROP drops nothing.
      auto dropped = [&](const std::string& name) {
        return std::find(present.begin(), present.end(), name) != present.end();
      };
      if (!stmt.cascade) {
        for (const auto& other : catalog_->TableNames()) {
          if (dropped(other)) continue;
          for (const auto& fk : catalog_->FindTable(other)->schema().foreign_keys) {
            if (!dropped(fk.ref_table)) continue;
            // PostgreSQL's wording differs for one object and for several.
            return Status(sqlstate::kDependentObjectsStillExist,
                          present.size() == 1 ? "cannot drop table " + fk.ref_table +
                                                    " because other objects depend on it"
                                              : std::string("cannot drop desired object(s) because other "
                                                            "objects depend on them"))
                .WithDetail("constraint " + fk.name + " on table " + other + " depends on table " + fk.ref_table);
          }
        }
      }
      for (const auto& name : present) {
        if (stmt.cascade) break;
        std::vector<std::string> views = catalog_->DependentViews(name);
        if (!views.empty()) {
          return Status(sqlstate::kDependentObjectsStillExist,
                        "cannot drop table " + name + " because other objects depend on it")
              .WithDetail("view " + views[0] + " depends on table " + name);
        }
        // Another table's DEFAULT that calls a sequence the table owns.
        for (const auto& sequence : catalog_->OwnedSequences(name)) {
          PL_RETURN_IF_ERROR(catalog_->CheckDefaultsCalling(sequence, present, "table " + name));
        }
      }
      for (const auto& name : present) {
        if (catalog_->FindTable(name)) PL_RETURN_IF_ERROR(catalog_->DropTable(name, /*cascade=*/true));
      }
      Tag(result, "DROP TABLE");
      return Status::OK();
    }
    case ObjectKind::kIndex:
      for (const auto& name : stmt.names) {
        auto table = catalog_->FindIndexTable(name);
        if (!table) {
          if (stmt.if_exists) continue;
          return Status(sqlstate::kUndefinedObject, "index \"" + name + "\" does not exist");
        }
        storage::Index* index = table->FindIndex(name);
        if (index != nullptr && index->schema().primary) {
          return Status(sqlstate::kDependentObjectsStillExist,
                        "cannot drop index " + name + " because constraint " + name + " on table " + table->name() +
                            " requires it");
        }
        PL_RETURN_IF_ERROR(catalog_->DropIndex(name));
      }
      Tag(result, "DROP INDEX");
      return Status::OK();
    case ObjectKind::kDomain:
      for (const auto& name : stmt.names) {
        if (!catalog_->FindDomain(name)) {
          if (stmt.if_exists) continue;
          return Status(sqlstate::kUndefinedObject, "type \"" + name + "\" does not exist");
        }
        PL_RETURN_IF_ERROR(catalog_->DropDomain(name, stmt.cascade));
      }
      Tag(result, "DROP DOMAIN");
      return Status::OK();
    case ObjectKind::kView:
      for (const auto& name : stmt.names) {
        if (!catalog_->FindView(name)) {
          if (catalog_->FindTable(name)) {
            return Status(sqlstate::kWrongObjectType, "\"" + name + "\" is not a view")
                .WithDetail("Use DROP TABLE to remove a table.");
          }
          if (stmt.if_exists) continue;
          return Status(sqlstate::kUndefinedTable, "view \"" + name + "\" does not exist");
        }
        PL_RETURN_IF_ERROR(catalog_->DropView(name, stmt.cascade));
      }
      Tag(result, "DROP VIEW");
      return Status::OK();
    case ObjectKind::kSequence:
      return SequenceDdl(catalog_, options_).Drop(stmt, result);
    case ObjectKind::kOther:
      return NotSupported("DROP of this kind of object");
  }
  return Status::OK();
}

Status DdlExecutor::CreateView(const CreateViewStmt& stmt, const std::string& text, QueryResult* result) {
  if (catalog_->FindTable(stmt.name) || catalog_->FindIndexTable(stmt.name)) {
    if (!stmt.replace) return Status(sqlstate::kDuplicateTable, "relation \"" + stmt.name + "\" already exists");
    return Status(sqlstate::kWrongObjectType, "\"" + stmt.name + "\" is not a view");
  }
  if (!stmt.replace && catalog_->FindView(stmt.name)) {
    return Status(sqlstate::kDuplicateTable, "relation \"" + stmt.name + "\" already exists");
  }
  Binder binder(catalog_);
  binder.SetSource(source_);
  std::unique_ptr<SelectPlan> plan;
  PL_RETURN_IF_ERROR(binder.BindSelect(*stmt.query, &plan));
  if (!binder.ModifyingCtes().empty()) {
    return Status(sqlstate::kFeatureNotSupported, "views must not contain data-modifying statements in WITH");
  }
  if (!binder.ParameterTypes().empty()) {
    return Status(sqlstate::kUndefinedParameter, "there is no parameter $1");
  }
  catalog::ViewSchema view;
  view.name = stmt.name;
  view.definition = text;
  if (stmt.column_aliases.size() > plan->columns.size()) {
    return Status(sqlstate::kSyntaxError, "CREATE VIEW specifies more column names than columns");
  }
  for (size_t c = 0; c < plan->columns.size(); ++c) {
    view.columns.push_back(c < stmt.column_aliases.size() ? stmt.column_aliases[c] : plan->columns[c].name);
    // An untyped literal column is text, as PostgreSQL makes it.
    const Type& type = plan->columns[c].type;
    view.column_types.push_back(type.id == TypeId::kUnknown ? Type(TypeId::kText) : type);
    for (size_t d = 0; d < c; ++d) {
      if (view.columns[d] == view.columns[c]) {
        return Status(sqlstate::kDuplicateColumn, "column \"" + view.columns[c] + "\" specified more than once");
      }
    }
  }
  view.depends_on = binder.RelationsNamed();
  if (const catalog::ViewSchema* old = catalog_->FindView(stmt.name)) {
    // OR REPLACE keeps every old column, by name and type, in its place.
    if (view.columns.size() < old->columns.size()) {
      return Status(sqlstate::kInvalidTableDefinition, "cannot drop columns from view");
    }
    for (size_t c = 0; c < old->columns.size(); ++c) {
      if (view.columns[c] != old->columns[c]) {
        return Status(sqlstate::kInvalidTableDefinition, "cannot change name of view column \"" + old->columns[c] +
                                                             "\" to \"" + view.columns[c] + "\"");
      }
      if (!(view.column_types[c] == old->column_types[c])) {
        return Status(sqlstate::kInvalidTableDefinition,
                      "cannot change data type of view column \"" + old->columns[c] + "\" from " +
                          old->column_types[c].ToString() + " to " + view.column_types[c].ToString());
      }
    }
    if (std::find(view.depends_on.begin(), view.depends_on.end(), stmt.name) != view.depends_on.end()) {
      return Status(sqlstate::kInvalidObjectDefinition,
                    "infinite recursion detected in rules for relation \"" + stmt.name + "\"");
    }
  }
  PL_RETURN_IF_ERROR(catalog_->CreateView(std::move(view), stmt.replace));
  Tag(result, "CREATE VIEW");
  return Status::OK();
}

Status DdlExecutor::Truncate(const TruncateStmt& stmt, QueryResult* result) {
  std::vector<std::shared_ptr<storage::Table>> tables;
  for (const auto& name : stmt.tables) {
    auto table = catalog_->FindTable(name);
    if (!table) return Status(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
    tables.push_back(table);
  }
  // A table that references one of them goes too (CASCADE) or must be
  // among them.
  std::vector<std::string> names = stmt.tables;
  for (size_t i = 0; i < names.size(); ++i) {
    for (const auto& [referencing_table, fk] : catalog_->ForeignKeysReferencing(names[i])) {
      const std::string& referencing = referencing_table->name();
      if (std::find(names.begin(), names.end(), referencing) != names.end()) continue;
      if (!stmt.cascade) {
        return Status(sqlstate::kFeatureNotSupported,
                      "cannot truncate a table referenced in a foreign key constraint")
            .WithDetail("Table \"" + referencing + "\" references \"" + names[i] + "\".");
      }
      names.push_back(referencing);
      tables.push_back(referencing_table);
    }
  }
  for (auto& t : tables) t->Truncate();
  if (stmt.restart_identity) {
    for (const auto& name : names) {
      for (const auto& sequence : catalog_->OwnedSequences(name)) {
        PL_RETURN_IF_ERROR(SequenceDdl(catalog_, options_).Restart(sequence));
      }
    }
  }
  Tag(result, "TRUNCATE TABLE");
  return Status::OK();
}

}  // namespace paceline::sql
