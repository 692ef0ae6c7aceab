// Binder: the foreign keys a data-changing statement enforces, as
// ForeignKeyRules (plan.h) with the SQL text of the statements that check
// them and carry out their referential actions (see binder.h).
#include <algorithm>

#include "sql/binder.h"

namespace paceline::sql {

namespace {

std::string Quoted(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

// "a" = $<first> AND "b" = $<first + 1> ...
std::string KeyCondition(const std::vector<std::string>& columns, size_t first) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    out += (i == 0 ? "" : " AND ") + Quoted(columns[i]) + " = $" + std::to_string(first + i);
  }
  return out;
}

bool Intersects(const std::vector<int>& a, const std::vector<int>& b) {
  return std::any_of(a.begin(), a.end(), [&](int c) { return std::find(b.begin(), b.end(), c) != b.end(); });
}

// Visits each foreign key that references `table` (self-references too):
// fn(referencing table, foreign key, positions of its referenced columns in
// `table`).
template <typename Fn>
void ForEachReferencing(const catalog::Catalog& catalog, const storage::Table& table, Fn fn) {
  for (const auto& [other, fk] : catalog.ForeignKeysReferencing(table.name())) {
    std::vector<int> referenced;
    for (const auto& column : fk->ref_columns) referenced.push_back(table.schema().FindColumn(column));
    fn(*other, *fk, referenced);
  }
}

}  // namespace

void Binder::BindForeignKeys(const storage::Table& table, WriteKind kind, const std::vector<int>& set_columns,
                             ForeignKeyRules* out) {
  const catalog::TableSchema& schema = table.schema();
  if (kind != WriteKind::kDelete) {
    for (const catalog::ForeignKey& fk : schema.foreign_keys) {
      if (kind == WriteKind::kUpdate && !Intersects(fk.columns, set_columns)) continue;
      std::shared_ptr<storage::Table> referenced = catalog_->FindTable(fk.ref_table);
      if (!referenced) continue;
      auto rule = std::make_shared<ForeignKeyRule>();
      rule->side = ForeignKeyRule::Side::kReferencing;
      rule->constraint = fk.name;
      rule->referencing_table = table.name();
      rule->referenced_table = fk.ref_table;
      rule->columns = fk.columns;
      for (int c : fk.columns) rule->column_names.push_back(schema.columns[c].name);
      rule->deferrable = fk.deferrable;
      rule->initially_deferred = fk.initially_deferred;
      rule->lookup_sql = "SELECT 1 FROM " + Quoted(fk.ref_table) + " WHERE " + KeyCondition(fk.ref_columns, 1);
      for (const auto& column : fk.ref_columns) {
        rule->lookup_types.push_back(referenced->schema().columns[referenced->schema().FindColumn(column)].type);
      }
      out->push_back(std::move(rule));
    }
  }
  if (kind != WriteKind::kInsert) {
    ForEachReferencing(*catalog_, table, [&](const storage::Table& referencing, const catalog::ForeignKey& fk,
                                             const std::vector<int>& referenced_columns) {
      if (kind == WriteKind::kUpdate && !Intersects(referenced_columns, set_columns)) return;
      auto rule = std::make_shared<ForeignKeyRule>();
      rule->side = ForeignKeyRule::Side::kReferenced;
      rule->constraint = fk.name;
      rule->referencing_table = referencing.name();
      rule->referenced_table = table.name();
      rule->columns = referenced_columns;
      rule->column_names = fk.ref_columns;
      rule->action = kind == WriteKind::kDelete ? fk.on_delete : fk.on_update;
      rule->deferrable = fk.deferrable;
      rule->initially_deferred = fk.initially_deferred;
      rule->lookup_sql = "SELECT 1 FROM " + Quoted(table.name()) + " WHERE " + KeyCondition(fk.ref_columns, 1);
      for (int c : referenced_columns) rule->lookup_types.push_back(schema.columns[c].type);
      std::vector<std::string> names;
      for (int c : fk.columns) {
        names.push_back(referencing.schema().columns[c].name);
        rule->referencing_types.push_back(referencing.schema().columns[c].type);
      }
      const std::string where = " WHERE " + KeyCondition(names, 1);
      rule->referencing_sql = "SELECT 1 FROM " + Quoted(referencing.name()) + where + " LIMIT 1";
      // SET NULL / SET DEFAULT: the key's columns, or ON DELETE's list.
      std::vector<std::string> set = names;
      if (kind == WriteKind::kDelete && !fk.delete_set_columns.empty()) {
        set.clear();
        for (int c : fk.delete_set_columns) set.push_back(referencing.schema().columns[c].name);
      }
      std::string assignments;
      for (size_t i = 0; i < set.size(); ++i) {
        assignments += (i == 0 ? "" : ", ") + Quoted(set[i]) + " = ";
        switch (rule->action) {
          case catalog::ForeignKeyAction::kCascade: assignments += "$" + std::to_string(names.size() + i + 1); break;
          case catalog::ForeignKeyAction::kSetNull: assignments += "NULL"; break;
          default: assignments += "DEFAULT"; break;
        }
      }
      switch (rule->action) {
        case catalog::ForeignKeyAction::kCascade:
          rule->action_sql = kind == WriteKind::kDelete
                                 ? "DELETE FROM " + Quoted(referencing.name()) + where
                                 : "UPDATE " + Quoted(referencing.name()) + " SET " + assignments + where;
          break;
        case catalog::ForeignKeyAction::kSetNull:
        case catalog::ForeignKeyAction::kSetDefault:
          rule->action_sql = "UPDATE " + Quoted(referencing.name()) + " SET " + assignments + where;
          break;
        default: break;
      }
      out->push_back(std::move(rule));
    });
  }
  std::set<std::tuple<TableId, WriteKind, std::vector<int>>> seen;
  UseForeignKeyTables(table, kind, set_columns, &seen);
}

void Binder::UseForeignKeyTables(const storage::Table& table, WriteKind kind, const std::vector<int>& set_columns,
                                 std::set<std::tuple<TableId, WriteKind, std::vector<int>>>* seen) {
  if (!seen->insert({table.id(), kind, set_columns}).second) return;
  tables_used_.push_back(table.id());
  if (kind != WriteKind::kDelete) {
    for (const catalog::ForeignKey& fk : table.schema().foreign_keys) {
      if (kind == WriteKind::kUpdate && !Intersects(fk.columns, set_columns)) continue;
      if (auto referenced = catalog_->FindTable(fk.ref_table)) tables_used_.push_back(referenced->id());
    }
  }
  if (kind == WriteKind::kInsert) return;
  ForEachReferencing(*catalog_, table, [&](const storage::Table& referencing, const catalog::ForeignKey& fk,
                                           const std::vector<int>& referenced_columns) {
    if (kind == WriteKind::kUpdate && !Intersects(referenced_columns, set_columns)) return;
    tables_used_.push_back(referencing.id());
    const catalog::ForeignKeyAction action = kind == WriteKind::kDelete ? fk.on_delete : fk.on_update;
    if (action == catalog::ForeignKeyAction::kCascade && kind == WriteKind::kDelete) {
      UseForeignKeyTables(referencing, WriteKind::kDelete, {}, seen);
    } else if (action == catalog::ForeignKeyAction::kCascade || action == catalog::ForeignKeyAction::kSetNull ||
               action == catalog::ForeignKeyAction::kSetDefault) {
      UseForeignKeyTables(referencing, WriteKind::kUpdate, fk.columns, seen);
    }
  });
}

}  // namespace paceline::sql
