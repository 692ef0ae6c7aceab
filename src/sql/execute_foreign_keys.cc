// Executor: foreign keys (see executor.h and ForeignKeyRule in plan.h), as
// PostgreSQL enforces them with its RI triggers. Each row a statement
// writes queues an event per rule whose key it sets, changes or removes
// (MATCH SIMPLE: a key with a NULL in it references nothing). When the
// statement's rows are written (its data-modifying WITH queries' too), the
// executor runs the events in order: a referencing key must be present in the referenced table (23503
// otherwise); a referenced key deleted or changed is refused while rows
// reference it (RESTRICT; NO ACTION unless the key is present again), or
// its referencing rows are deleted or updated (CASCADE, SET NULL, SET
// DEFAULT) by a statement run on the same transaction, whose own rows queue
// further events at the end of the same queue: a cascade through many
// levels is a loop, not a recursion. A deferred constraint's checks
// (DeferredConstraints) wait for commit instead.
//
// The checks are plain reads (validated under OCC, share-locked under
// 2PL): a concurrent transaction that deletes a referenced row, or inserts
// a row that references a key being deleted, conflicts with this one.
#include "sql/deferred_constraints.h"
#include "sql/executor.h"
#include "sql/prepared_statement.h"
#include "sql/statement_preparer.h"

namespace paceline::sql {

using storage::Row;
using storage::Tuple;

namespace {

std::vector<Value> KeyOf(const storage::Table& table, const Tuple& tuple, const std::vector<int>& columns) {
  std::vector<Value> key;
  key.reserve(columns.size());
  for (int c : columns) key.push_back(table.layout().Get(tuple, c));
  return key;
}

bool HasNull(const std::vector<Value>& key) {
  for (const Value& v : key) {
    if (v.is_null()) return true;
  }
  return false;
}

// PostgreSQL's "Key (a, b)=(1, 2)".
std::string KeyText(const ForeignKeyRule& rule, const std::vector<Value>& key) {
  std::string names;
  std::string values;
  for (size_t i = 0; i < key.size(); ++i) {
    names += (i == 0 ? "" : ", ") + rule.column_names[i];
    values += (i == 0 ? "" : ", ") + key[i].ToString();
  }
  return "Key (" + names + ")=(" + values + ")";
}

// `key` as values of `types`; false when a value does not fit or would
// change (then no row of those types holds it: CastKeyValue).
bool CastKey(const std::vector<Value>& key, const std::vector<Type>& types, std::vector<Value>* out) {
  out->resize(key.size());
  for (size_t i = 0; i < key.size(); ++i) {
    if (!CastKeyValue(key[i], types[i], &(*out)[i])) return false;
  }
  return true;
}

}  // namespace

void Executor::QueueForeignKeys(const ForeignKeyRules& rules, const std::shared_ptr<storage::Table>& table, Row* row,
                                const Tuple* old_image, const Tuple* new_image) {
  for (const auto& rule : rules) {
    ForeignKeyEvent event;
    if (rule->side == ForeignKeyRule::Side::kReferencing) {
      event.new_key = KeyOf(*table, *new_image, rule->columns);
      if (HasNull(event.new_key)) continue;
      if (old_image != nullptr && KeyOf(*table, *old_image, rule->columns) == event.new_key) continue;
    } else {
      event.old_key = KeyOf(*table, *old_image, rule->columns);
      if (HasNull(event.old_key)) continue;
      if (new_image != nullptr) {
        event.new_key = KeyOf(*table, *new_image, rule->columns);
        if (event.new_key == event.old_key) continue;
      }
    }
    event.rule = rule;
    event.table = table;
    event.row = row;
    fk_events_->push_back(std::move(event));
  }
}

Status Executor::RunForeignKeyEvents() {
  if (fk_events_->empty()) return Status::OK();
  Status status;
  // Events run may queue more (a cascade's own rows): index, not iterators.
  for (size_t i = 0; i < fk_events_->size() && status.ok(); ++i) {
    ForeignKeyEvent event = std::move((*fk_events_)[i]);
    status = Tick();
    if (status.ok()) status = EnforceForeignKey(std::move(event), /*at_commit=*/false);
  }
  fk_events_->clear();
  return status;
}

Status Executor::CheckDeferredForeignKeys(bool all) {
  if (!txn_->has_deferred_checks()) return Status::OK();
  for (ForeignKeyEvent& event : txn_->deferred_constraints().Due(all)) {
    PL_RETURN_IF_ERROR(Tick());
    if (event.rule->side == ForeignKeyRule::Side::kReferencing) {
      // The row as it is now: gone, or with another key (whose write queued
      // its own check), it needs none.
      const Tuple* image = nullptr;
      PL_RETURN_IF_ERROR(txn_->Read(event.row, false, &image));
      if (image == nullptr || KeyOf(*event.table, *image, event.rule->columns) != event.new_key) continue;
    }
    PL_RETURN_IF_ERROR(EnforceForeignKey(std::move(event), /*at_commit=*/true));
  }
  // The checks those ran queued none (they only read): nothing else to run.
  txn_->deferred_constraints().RemoveDue(all);
  return Status::OK();
}

Status Executor::EnforceForeignKey(ForeignKeyEvent event, bool at_commit) {
  const ForeignKeyRule& rule = *event.rule;
  const bool no_action = rule.action == catalog::ForeignKeyAction::kNoAction;
  const bool deferrable_check = rule.side == ForeignKeyRule::Side::kReferencing || no_action;
  if (!at_commit && deferrable_check && txn_->deferred_constraints().IsDeferred(rule)) {
    event.mark = txn_->Mark();
    txn_->deferred_constraints().Add(std::move(event));
    return Status::OK();
  }
  bool found = false;
  if (rule.side == ForeignKeyRule::Side::kReferencing) {
    std::vector<Value> key;
    if (CastKey(event.new_key, rule.lookup_types, &key)) {
      PL_RETURN_IF_ERROR(RunForeignKeyStatement(rule.lookup_sql, rule.lookup_types, rule.lookup_prepared, std::move(key), &found));
    }
    if (found) return Status::OK();
    return Status(sqlstate::kForeignKeyViolation, "insert or update on table \"" + rule.referencing_table +
                                                      "\" violates foreign key constraint \"" + rule.constraint + "\"")
        .WithDetail(KeyText(rule, event.new_key) + " is not present in table \"" + rule.referenced_table + "\".");
  }
  if (rule.action_sql.empty()) return CheckNotReferenced(rule, event.old_key, /*key_may_return=*/no_action);
  std::vector<Value> params;
  // A key no referencing column can hold is referenced by no row.
  if (!CastKey(event.old_key, rule.referencing_types, &params)) return Status::OK();
  std::vector<Type> types = rule.referencing_types;
  if (rule.action == catalog::ForeignKeyAction::kCascade && !event.new_key.empty()) {  // ON UPDATE CASCADE
    for (size_t i = 0; i < event.new_key.size(); ++i) {
      Value v;
      PL_RETURN_IF_ERROR(CastValue(event.new_key[i], rule.referencing_types[i], false, &v));
      params.push_back(std::move(v));
      types.push_back(rule.referencing_types[i]);
    }
  }
  PL_RETURN_IF_ERROR(RunForeignKeyStatement(rule.action_sql, types, rule.action_prepared, std::move(params), &found));
  // SET DEFAULT to a default equal to the key that went leaves its rows
  // referencing it, unchanged (so unchecked): checked as NO ACTION, as
  // PostgreSQL's ri_set does.
  if (rule.action == catalog::ForeignKeyAction::kSetDefault) {
    return CheckNotReferenced(rule, event.old_key, /*key_may_return=*/true);
  }
  return Status::OK();
}

Status Executor::CheckNotReferenced(const ForeignKeyRule& rule, const std::vector<Value>& old_key,
                                    bool key_may_return) {
  bool found = false;
  // NO ACTION: nothing to do when a row holds the key again (an UPDATE
  // that gave it to another row, a deleted key inserted again).
  if (key_may_return) {
    PL_RETURN_IF_ERROR(RunForeignKeyStatement(rule.lookup_sql, rule.lookup_types, rule.lookup_prepared, old_key, &found));
    if (found) return Status::OK();
  }
  std::vector<Value> params;
  if (!CastKey(old_key, rule.referencing_types, &params)) return Status::OK();  // no row can hold it
  PL_RETURN_IF_ERROR(RunForeignKeyStatement(rule.referencing_sql, rule.referencing_types, rule.referencing_prepared, std::move(params), &found));
  if (!found) return Status::OK();
  return Status(sqlstate::kForeignKeyViolation, "update or delete on table \"" + rule.referenced_table +
                                                    "\" violates foreign key constraint \"" + rule.constraint +
                                                    "\" on table \"" + rule.referencing_table + "\"")
      .WithDetail(KeyText(rule, old_key) + " is still referenced from table \"" + rule.referencing_table + "\".");
}

Status Executor::RunForeignKeyStatement(const std::string& text, const std::vector<Type>& types,
                                        const PreparedSlot& slot, std::vector<Value> params, bool* found) {
  *found = false;
  StatementPreparer* preparer = txn_->statements();
  if (preparer == nullptr) return InternalError("foreign keys are enforced without a StatementPreparer");
  std::shared_ptr<const PreparedStatement> statement = slot.Get();
  if (statement == nullptr || statement->catalog_version != preparer->CatalogVersion() ||
      statement->param_types.size() != params.size()) {
    PL_RETURN_IF_ERROR(preparer->Prepare(text, types, &statement));
    slot.Keep(statement);
  }
  if (statement->param_types.size() != params.size()) return InternalError("foreign key statement: " + text);
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].is_null() || params[i].type() == statement->param_types[i].id) continue;
    Value cast;
    PL_RETURN_IF_ERROR(CastValue(params[i], statement->param_types[i], false, &cast));
    params[i] = std::move(cast);
  }
  Executor nested(txn_, &params, ctx_.statement_time);
  nested.fk_events_ = fk_events_;  // its rows' events run in this statement's loop
  QueryResult result;
  switch (statement->kind) {
    case StatementKind::kSelect: return nested.AnyRow(*statement->select, found);
    case StatementKind::kUpdate: return nested.Update(*statement->update, &result);
    case StatementKind::kDelete: return nested.Delete(*statement->del, &result);
    default: return InternalError("foreign key statement: " + text);
  }
}

}  // namespace paceline::sql
