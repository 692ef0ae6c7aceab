// Catalog: name → object maps and their DDL rules (see catalog.h).
#include "storage/catalog/catalog.h"

#include <algorithm>

namespace paceline::catalog {

std::shared_ptr<storage::Table> Catalog::FindTable(std::string_view name) const {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

const DomainSchema* Catalog::FindDomain(std::string_view name) const {
  auto it = domains_.find(name);
  return it == domains_.end() ? nullptr : &it->second;
}

std::shared_ptr<storage::Table> Catalog::FindIndexTable(std::string_view name) const {
  auto it = index_owner_.find(name);
  return it == index_owner_.end() ? nullptr : FindTable(it->second);
}

std::vector<std::string> Catalog::TableNames() const {
  std::vector<std::string> names;
  for (const auto& [name, table] : tables_) names.push_back(name);
  return names;
}

std::vector<std::shared_ptr<storage::Table>> Catalog::Tables() const {
  std::vector<std::shared_ptr<storage::Table>> out;
  for (const auto& [name, table] : tables_) out.push_back(table);
  return out;
}

std::vector<const ViewSchema*> Catalog::Views() const {
  std::vector<const ViewSchema*> out;
  for (const auto& [name, view] : views_) out.push_back(&view);
  return out;
}

std::vector<const DomainSchema*> Catalog::Domains() const {
  std::vector<const DomainSchema*> out;
  for (const auto& [name, domain] : domains_) out.push_back(&domain);
  return out;
}

std::vector<std::shared_ptr<Sequence>> Catalog::Sequences() const {
  std::vector<std::shared_ptr<Sequence>> out;
  for (const auto& [name, sequence] : sequences_) out.push_back(sequence);
  return out;
}

void Catalog::Bump() {
  AssignOids();
  version_.fetch_add(1, std::memory_order_acq_rel);
}

void Catalog::AssignOids() {
  auto assign = [this](uint32_t* oid) {
    if (*oid == 0) *oid = next_oid_++;
  };
  for (auto& [name, sequence] : sequences_) {
    SequenceSchema schema = sequence->schema();
    if (schema.oid != 0) continue;
    assign(&schema.oid);
    sequence->Describe(std::move(schema));
  }
  for (auto& [name, table] : tables_) {
    TableSchema& schema = table->mutable_schema();
    assign(&schema.oid);
    for (const auto& index : table->indexes()) {
      IndexSchema& is = index->mutable_schema();
      assign(&is.oid);
      if (is.constraint) assign(&is.constraint_oid);
    }
    for (ForeignKey& fk : schema.foreign_keys) assign(&fk.oid);
    for (CheckConstraint& check : schema.checks) assign(&check.oid);
    for (ColumnSchema& column : schema.columns) {
      if (column.default_value.present()) {
        assign(&column.default_value.oid);
      } else {
        column.default_value.oid = 0;
      }
    }
  }
  for (auto& [name, view] : views_) assign(&view.oid);
  for (auto& [name, domain] : domains_) assign(&domain.oid);
}

bool Catalog::RelationNameTaken(std::string_view name) const {
  return tables_.count(name) || index_owner_.count(name) || views_.count(name) || sequences_.count(name);
}

Status Catalog::RelationExists(std::string_view name) {
  return Status(sqlstate::kDuplicateTable, "relation \"" + std::string(name) + "\" already exists");
}

Status Catalog::CreateTable(TableSchema schema, std::vector<IndexSchema> indexes,
                            std::shared_ptr<storage::Table>* out) {
  if (RelationNameTaken(schema.name)) return RelationExists(schema.name);
  for (const auto& index : indexes) {
    if (RelationNameTaken(index.name)) return RelationExists(index.name);
  }
  auto table = std::make_shared<storage::Table>(next_table_id_, std::move(schema));
  next_table_id_ = next_table_id_.Next();
  for (auto& index : indexes) {
    std::string name = index.name;
    PL_RETURN_IF_ERROR(table->AddIndex(std::move(index)));
    index_owner_[name] = table->name();
  }
  tables_[table->name()] = table;
  Bump();
  if (out) *out = table;
  return Status::OK();
}

Status Catalog::DropTable(std::string_view name, bool cascade) {
  auto it = tables_.find(name);
  if (it == tables_.end()) {
    return Status(sqlstate::kUndefinedTable, "table \"" + std::string(name) + "\" does not exist");
  }
  for (auto& [other_name, other] : tables_) {
    if (other_name == name) continue;
    auto& fks = other->mutable_schema().foreign_keys;
    for (auto fk = fks.begin(); fk != fks.end();) {
      if (fk->ref_table != name) {
        ++fk;
        continue;
      }
      if (!cascade) {
        return Status(sqlstate::kDependentObjectsStillExist,
                      "cannot drop table " + std::string(name) + " because other objects depend on it: "
                      "a foreign key of table " + other_name + " references it (use DROP ... CASCADE)");
      }
      fk = fks.erase(fk);
    }
  }
  PL_RETURN_IF_ERROR(DropDependentViews(name, "table", cascade));
  for (const auto& sequence_name : OwnedSequences(name)) {
    PL_RETURN_IF_ERROR(DropDependentDefaults(sequence_name, name, "table " + std::string(name), cascade));
  }
  for (const auto& index : it->second->indexes()) index_owner_.erase(index->schema().name);
  // The sequences it owns (OWNED BY, serial, identity) go with it.
  std::erase_if(sequences_, [&](const auto& entry) { return entry.second->schema().owned_by_table == name; });
  tables_.erase(it);
  Bump();
  return Status::OK();
}

const ViewSchema* Catalog::FindView(std::string_view name) const {
  auto it = views_.find(name);
  return it == views_.end() ? nullptr : &it->second;
}

Status Catalog::CreateView(ViewSchema view, bool replace) {
  if (RelationNameTaken(view.name) && !(replace && views_.count(view.name))) return RelationExists(view.name);
  std::string name = view.name;
  if (auto old = views_.find(name); old != views_.end()) view.oid = old->second.oid;  // OR REPLACE keeps it
  views_[name] = std::move(view);
  Bump();
  return Status::OK();
}

Status Catalog::DropView(std::string_view name, bool cascade) {
  auto it = views_.find(name);
  if (it == views_.end()) {
    return Status(sqlstate::kUndefinedTable, "view \"" + std::string(name) + "\" does not exist");
  }
  PL_RETURN_IF_ERROR(DropDependentViews(name, "view", cascade));
  views_.erase(std::string(name));
  Bump();
  return Status::OK();
}

std::vector<std::string> Catalog::DependentViews(std::string_view name) const {
  std::vector<std::string> dependents;
  for (const auto& [view_name, view] : views_) {
    if (std::find(view.depends_on.begin(), view.depends_on.end(), name) != view.depends_on.end()) {
      dependents.push_back(view_name);
    }
  }
  return dependents;
}

Status Catalog::DropDependentViews(std::string_view name, const char* kind, bool cascade) {
  const std::vector<std::string> dependents = DependentViews(name);
  if (dependents.empty()) return Status::OK();
  if (!cascade) {
    return Status(sqlstate::kDependentObjectsStillExist,
                  std::string("cannot drop ") + kind + " " + std::string(name) + " because other objects depend on it")
        .WithDetail("view " + dependents[0] + " depends on " + kind + " " + std::string(name));
  }
  for (const auto& dependent : dependents) {
    if (views_.count(dependent)) PL_RETURN_IF_ERROR(DropView(dependent, true));
  }
  return Status::OK();
}

Status Catalog::CheckSequenceDrop(std::string_view name) {
  return DropSequenceDependents(name, /*cascade=*/false);  // without CASCADE they are only looked at
}

Status Catalog::DropSequenceDependents(std::string_view name, bool cascade) {
  PL_RETURN_IF_ERROR(DropDependentDefaults(name, "", "sequence " + std::string(name), cascade));
  return DropDependentViews(name, "sequence", cascade);
}

namespace {

// An identity column's own sequence: not even CASCADE drops it.
Status IdentityRequires(const std::string& dropping, const std::string& column, const std::string& table) {
  return Status(sqlstate::kDependentObjectsStillExist,
                "cannot drop " + dropping + " because column " + column + " of table " + table + " requires it");
}

}  // namespace

std::vector<std::pair<std::shared_ptr<storage::Table>, const ForeignKey*>> Catalog::ForeignKeysReferencing(
    std::string_view table) const {
  std::vector<std::pair<std::shared_ptr<storage::Table>, const ForeignKey*>> out;
  for (const auto& [name, other] : tables_) {
    for (const auto& fk : other->schema().foreign_keys) {
      if (fk.ref_table == table) out.emplace_back(other, &fk);
    }
  }
  return out;
}

std::vector<std::string> Catalog::OwnedSequences(std::string_view table) const {
  std::vector<std::string> owned;
  for (const auto& [name, sequence] : sequences_) {
    if (sequence->schema().owned_by_table == table) owned.push_back(name);
  }
  return owned;
}

Status Catalog::CheckDefaultsCalling(std::string_view sequence, const std::vector<std::string>& dropped,
                                     const std::string& dropping) const {
  for (const auto& [table_name, table] : tables_) {
    if (std::find(dropped.begin(), dropped.end(), table_name) != dropped.end()) continue;
    for (const auto& column : table->schema().columns) {
      if (!column.default_value.Calls(sequence)) continue;
      if (column.identity != 0) return IdentityRequires(dropping, column.name, table_name);
      return Status(sqlstate::kDependentObjectsStillExist, "cannot drop " + dropping + " because other objects depend on it")
          .WithDetail("default value for column " + column.name + " of table " + table_name + " depends on sequence " +
                      std::string(sequence));
    }
  }
  return Status::OK();
}

Status Catalog::DropDependentDefaults(std::string_view sequence, std::string_view except, const std::string& dropping,
                                      bool cascade) {
  if (!cascade) return CheckDefaultsCalling(sequence, {std::string(except)}, dropping);
  for (const auto& [table_name, table] : tables_) {
    for (const auto& column : table->schema().columns) {
      if (table_name != except && column.identity != 0 && column.default_value.Calls(sequence)) {
        return IdentityRequires(dropping, column.name, table_name);
      }
    }
  }
  for (auto& [table_name, table] : tables_) {
    if (table_name == except) continue;
    for (auto& column : table->mutable_schema().columns) {
      if (!column.default_value.Calls(sequence)) continue;
      column.default_value = ColumnDefault();
      Bump();
    }
  }
  return Status::OK();
}

Status Catalog::CreateDomain(DomainSchema domain) {
  if (domains_.count(domain.name)) {
    return Status(sqlstate::kDuplicateObject, "type \"" + domain.name + "\" already exists");
  }
  std::string name = domain.name;
  domains_.emplace(std::move(name), std::move(domain));
  Bump();
  return Status::OK();
}

Status Catalog::DropDomain(std::string_view name, bool cascade) {
  auto it = domains_.find(name);
  if (it == domains_.end()) {
    return Status(sqlstate::kUndefinedObject, "type \"" + std::string(name) + "\" does not exist");
  }
  if (!cascade) {
    for (const auto& [table_name, table] : tables_) {
      for (const auto& column : table->schema().columns) {
        if (column.domain == name) {
          return Status(sqlstate::kDependentObjectsStillExist,
                        "cannot drop type " + std::string(name) + " because other objects depend on it")
              .WithDetail("column " + column.name + " of table " + table_name + " depends on type " +
                          std::string(name));
        }
      }
    }
  }
  domains_.erase(it);
  Bump();
  return Status::OK();
}

Status Catalog::CreateIndex(storage::Table* table, IndexSchema index,
                            std::shared_ptr<const storage::IndexPredicate> predicate) {
  if (RelationNameTaken(index.name)) return RelationExists(index.name);
  std::string name = index.name;
  PL_RETURN_IF_ERROR(table->AddIndex(std::move(index), std::move(predicate)));
  index_owner_[name] = table->name();
  Bump();
  return Status::OK();
}

Status Catalog::DropIndex(std::string_view name) {
  auto it = index_owner_.find(name);
  if (it == index_owner_.end()) {
    return Status(sqlstate::kUndefinedObject, "index \"" + std::string(name) + "\" does not exist");
  }
  auto table = FindTable(it->second);
  if (table) table->DropIndex(name);
  index_owner_.erase(it);
  Bump();
  return Status::OK();
}

std::shared_ptr<Sequence> Catalog::FindSequence(std::string_view name) const {
  auto it = sequences_.find(name);
  return it == sequences_.end() ? nullptr : it->second;
}

Status Catalog::SequenceNamed(std::string_view name, std::shared_ptr<Sequence>* out, std::string_view missing) const {
  *out = FindSequence(name);
  if (*out) return Status::OK();
  if (RelationNameTaken(name)) {
    return Status(sqlstate::kWrongObjectType, "\"" + std::string(name) + "\" is not a sequence");
  }
  return Status(sqlstate::kUndefinedTable, std::string(missing) + " \"" + std::string(name) + "\" does not exist");
}

std::vector<std::string> Catalog::SequenceNames() const {
  std::vector<std::string> names;
  for (const auto& [name, sequence] : sequences_) names.push_back(name);
  return names;
}

Status Catalog::CreateSequence(SequenceSchema schema, std::shared_ptr<Sequence>* out) {
  if (RelationNameTaken(schema.name)) return RelationExists(schema.name);
  std::string name = schema.name;
  auto sequence = std::make_shared<Sequence>(std::move(schema));
  sequences_[name] = sequence;
  Bump();
  if (out) *out = std::move(sequence);
  return Status::OK();
}

Status Catalog::DropSequence(std::string_view name, bool cascade) {
  if (sequences_.find(name) == sequences_.end()) {
    return Status(sqlstate::kUndefinedTable, "sequence \"" + std::string(name) + "\" does not exist");
  }
  PL_RETURN_IF_ERROR(DropSequenceDependents(name, cascade));
  sequences_.erase(sequences_.find(name));
  Bump();
  return Status::OK();
}

Status Catalog::AlterSequence(std::string_view name, SequenceSchema schema, bool restart, int64_t restart_value) {
  auto it = sequences_.find(name);
  if (it == sequences_.end()) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + std::string(name) + "\" does not exist");
  }
  it->second->Reset(std::move(schema), restart, restart_value);
  Bump();
  return Status::OK();
}

Status Catalog::AddForeignKey(storage::Table* table, ForeignKey fk) {
  table->mutable_schema().foreign_keys.push_back(std::move(fk));
  Bump();
  return Status::OK();
}

void Catalog::AlterColumn(storage::Table* table, int column, ColumnSchema changed) {
  table->mutable_schema().columns[column] = std::move(changed);
  Bump();
}

Status Catalog::ChangeColumns(storage::Table* table, TableSchema schema, const std::vector<int>& position,
                              const storage::Table::RowValues& values_of) {
  Status status = table->ChangeColumns(std::move(schema), position, values_of);
  Bump();  // also on failure: a rebuilt index may have failed after the rows changed
  return status;
}

Status Catalog::RenameTable(std::string_view name, const std::string& new_name) {
  auto it = tables_.find(name);
  if (it == tables_.end()) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + std::string(name) + "\" does not exist");
  }
  if (RelationNameTaken(new_name)) return RelationExists(new_name);
  std::shared_ptr<storage::Table> table = it->second;
  const std::string old_name(name);
  tables_.erase(it);
  table->Rename(new_name);
  tables_[new_name] = table;
  for (auto& [index, owner] : index_owner_) {
    if (owner == old_name) owner = new_name;
  }
  for (auto& [other_name, other] : tables_) {
    for (auto& fk : other->mutable_schema().foreign_keys) {
      if (fk.ref_table == old_name) fk.ref_table = new_name;
    }
  }
  for (auto& [sequence_name, sequence] : sequences_) {
    SequenceSchema schema = sequence->schema();
    if (schema.owned_by_table != old_name) continue;
    schema.owned_by_table = new_name;
    sequence->Describe(std::move(schema));
  }
  Bump();
  return Status::OK();
}

Status Catalog::RenameIndex(std::string_view name, const std::string& new_name) {
  auto it = index_owner_.find(name);
  if (it == index_owner_.end()) {
    return Status(sqlstate::kUndefinedObject, "index \"" + std::string(name) + "\" does not exist");
  }
  if (RelationNameTaken(new_name)) return RelationExists(new_name);
  const std::string owner = it->second;
  FindTable(owner)->FindIndex(name)->Rename(new_name);
  index_owner_.erase(it);
  index_owner_[new_name] = owner;
  Bump();
  return Status::OK();
}

void Catalog::RenameColumn(storage::Table* table, int column, const std::string& new_name) {
  const std::string old_name = table->schema().columns[column].name;
  table->mutable_schema().columns[column].name = new_name;
  for (auto& [other_name, other] : tables_) {
    for (auto& fk : other->mutable_schema().foreign_keys) {
      if (fk.ref_table != table->name()) continue;
      for (auto& ref : fk.ref_columns) {
        if (ref == old_name) ref = new_name;
      }
    }
  }
  for (auto& [sequence_name, sequence] : sequences_) {
    SequenceSchema schema = sequence->schema();
    if (schema.owned_by_table != table->name() || schema.owned_by_column != old_name) continue;
    schema.owned_by_column = new_name;
    sequence->Describe(std::move(schema));
  }
  Bump();
}

std::string Catalog::MakeIndexName(const std::string& table, const std::vector<std::string>& columns,
                                   const std::string& suffix) const {
  std::string base = table;
  if (suffix != "pkey") {
    for (const auto& c : columns) base += "_" + c;
  }
  base += "_" + suffix;
  std::string name = base;
  for (int n = 1; RelationNameTaken(name); ++n) name = base + std::to_string(n);
  return name;
}

}  // namespace paceline::catalog
