// StatementRunner: schema changes — the table gates a schema change claims,
// the tables a DDL statement changes and names, running DDL and logging it
// (see statement_runner.h).
#include <malloc.h>
#include <tbb/scalable_allocator.h>

#include <algorithm>

#include "engine/statement_runner.h"
#include "engine/durability/redo_record.h"
#include "sql/ddl_executor.h"

namespace paceline::engine {

namespace {

constexpr size_t kDdlRedoBatchBytes = 1u << 20;  // row images per kRowImages record after an ALTER TABLE

// The Status of a table gate wait that did not enter.
Status TableGateStatus(TableGates::Outcome outcome, const char* what, std::chrono::milliseconds lock_timeout) {
  switch (outcome) {
    case TableGates::Outcome::kEntered:
      return Status::OK();
    case TableGates::Outcome::kDeadlock:
      return Status(sqlstate::kDeadlockDetected, "deadlock detected")
          .WithDetail(std::string("To ") + what +
                      ", this session would wait for a transaction block that waits, directly or not, for it.");
    case TableGates::Outcome::kCanceled:
      return CanceledStatus();
    case TableGates::Outcome::kTimedOut:
      break;
  }
  return Status(sqlstate::kLockNotAvailable, std::string("could not ") + what +
                                                 ": waited longer than lock_timeout (" +
                                                 std::to_string(lock_timeout.count()) + " ms)");
}

}  // namespace

Status StatementRunner::EnterTableGate(const void* owner, TableId table, const CancelToken* cancel) {
  const auto deadline = std::chrono::steady_clock::now() + options_.lock_timeout;
  return TableGateStatus(table_gates_.EnterShared(owner, table, deadline, cancel),
                         "use a table whose schema is being changed", options_.lock_timeout);
}

Status StatementRunner::ChangeSchema(const void* owner, const CancelToken* cancel,
                                     const std::function<std::vector<TableId>()>& tables,
                                     const std::function<Status()>& change) {
  std::vector<TableId> entered;
  {
    ScopedGate gate(this);
    PL_RETURN_IF_ERROR(gate.Enter());
    entered = tables();
  }
  const auto deadline = std::chrono::steady_clock::now() + options_.lock_timeout;
  for (;;) {
    PL_RETURN_IF_ERROR(TableGateStatus(table_gates_.EnterExclusive(owner, entered, deadline, cancel),
                                       "change the schema of a table in use", options_.lock_timeout));
    Status status;
    bool again = false;
    {
      ScopedGate gate(this);
      status = gate.EnterExclusive();
      if (status.ok()) {
        // Another schema change may have run between the look and the
        // claim (a new table with a foreign key to this one).
        std::vector<TableId> now = tables();
        if (std::includes(entered.begin(), entered.end(), now.begin(), now.end())) {
          status = change();
        } else {
          again = true;
          std::vector<TableId> all;
          std::set_union(entered.begin(), entered.end(), now.begin(), now.end(), std::back_inserter(all));
          entered = std::move(all);
        }
      }
    }
    table_gates_.LeaveExclusive(owner);
    if (!again) return status;
  }
}

std::vector<TableId> StatementRunner::TablesChangedBy(const sql::Statement& ast) const {
  std::vector<TableId> ids;
  auto add = [&](const std::shared_ptr<storage::Table>& table) {
    if (table) ids.push_back(table->id());
  };
  // A named table with the tables its foreign keys connect it to: their
  // recorded keys change with it (DROP .. CASCADE, a new reference).
  auto add_with_neighbours = [&](const std::shared_ptr<storage::Table>& table) {
    if (!table) return;
    add(table);
    for (const auto& fk : table->schema().foreign_keys) add(catalog_.FindTable(fk.ref_table));
    for (const auto& name : catalog_.TableNames()) {
      auto other = catalog_.FindTable(name);
      for (const auto& fk : other->schema().foreign_keys) {
        if (fk.ref_table == table->name()) add(other);
      }
    }
  };
  auto add_reference = [&](const sql::ConstraintDef& c) {
    if (c.kind == sql::ConstraintKind::kForeignKey) add(catalog_.FindTable(c.ref_table));
  };
  auto add_references = [&](const std::vector<sql::ConstraintDef>& constraints) {
    for (const auto& c : constraints) add_reference(c);
  };
  for (const auto& table : TablesNamedBy(ast)) add_with_neighbours(table);
  switch (ast.kind) {
    case sql::StatementKind::kCreateTable:
      add_references(ast.create_table->constraints);
      for (const auto& column : ast.create_table->columns) add_references(column.constraints);
      break;
    case sql::StatementKind::kDrop:
      if (ast.drop->kind != sql::ObjectKind::kDomain) break;
      for (const auto& name : ast.drop->names) {
        for (const auto& table_name : catalog_.TableNames()) {
          auto table = catalog_.FindTable(table_name);
          for (const auto& column : table->schema().columns) {
            if (column.domain == name) add(table);
          }
        }
      }
      break;
    case sql::StatementKind::kAlterTable:
      for (const auto& cmd : ast.alter_table->commands) {
        add_reference(cmd.constraint);
        add_references(cmd.column.constraints);
      }
      break;
    default:
      break;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<std::shared_ptr<storage::Table>> StatementRunner::TablesNamedBy(const sql::Statement& ast) const {
  std::vector<std::shared_ptr<storage::Table>> named;
  switch (ast.kind) {
    case sql::StatementKind::kCreateIndex:
      named.push_back(catalog_.FindTable(ast.create_index->table.name));
      break;
    case sql::StatementKind::kDrop:
      for (const auto& name : ast.drop->names) {
        if (ast.drop->kind == sql::ObjectKind::kTable) named.push_back(catalog_.FindTable(name));
        if (ast.drop->kind == sql::ObjectKind::kIndex) named.push_back(catalog_.FindIndexTable(name));
      }
      break;
    case sql::StatementKind::kTruncate:
      for (const auto& name : ast.truncate->tables) named.push_back(catalog_.FindTable(name));
      break;
    case sql::StatementKind::kAlterTable:
      named.push_back(catalog_.FindTable(ast.alter_table->table));
      break;
    default:
      break;
  }
  std::erase(named, nullptr);
  return named;
}


Status StatementRunner::LogDdl(const std::string& text, const sql::DdlRedo& after) {
  Lsn lsn = durability_->AppendDdl(text);
  for (const auto& state : after.sequences) lsn = durability_->AppendSequence(state.name, state.value, state.called);
  for (const auto& table : after.tables) {
    std::string batch;
    table->ForEachRow([&](storage::Row* row) {
      const storage::Tuple* tuple = row->tuple.load(std::memory_order_acquire);
      if (tuple == nullptr) return true;
      durability::AppendRowImage(table->name(), row->row_id, tuple, &batch);
      if (batch.size() >= kDdlRedoBatchBytes) {
        lsn = durability_->AppendRowImages(batch);
        batch.clear();
      }
      return true;
    });
    if (!batch.empty()) lsn = durability_->AppendRowImages(batch);
  }
  return durability_->WaitDurable(lsn);
}

Status StatementRunner::RunDdl(const sql::PreparedStatement& statement, QueryResult* result, bool replaying) {
  // The caller holds the execution gate exclusively (no statement runs)
  // and the gates of the tables this changes (no block uses them). Blocks
  // idle on other tables, and the caller's own (DDL inside a block), may
  // still hold rows of a table this drops or truncates, so those stay
  // allocated until every transaction pinned now has ended.
  struct Survivors {
    std::vector<std::pair<std::shared_ptr<storage::Table>, uint64_t>> tables;  // (table, stamp to free up to)
  };
  std::vector<std::shared_ptr<storage::Table>> before;
  for (const auto& name : catalog_.TableNames()) before.push_back(catalog_.FindTable(name));
  std::vector<uint64_t> stamps;
  for (const auto& t : before) stamps.push_back(t->stamp());
  sql::DdlOptions ddl_options;
  ddl_options.replaying = replaying;
  if (durability_ != nullptr) {
    ddl_options.log_sequence = [this](std::string_view name, int64_t value, bool called) {
      return durability_->AppendSequence(name, value, called);
    };
  }
  sql::DdlExecutor ddl(&catalog_, std::move(ddl_options));
  Status status = ddl.Execute(*statement.ast, result);
  cache_.DropStale(catalog_.version());  // stale plans would keep dropped tables alive
  if (status.ok() && durability_ != nullptr) status = LogDdl(statement.text, ddl.redo_after());
  // Tables dropped, truncated or that lost an index keep what they buried
  // until every transaction pinned now has ended.
  auto survivors = new Survivors;
  for (size_t i = 0; i < before.size(); ++i) {
    const bool dropped = catalog_.FindTable(before[i]->name()) != before[i];
    // A stale plan (a session's, a client's prepared statement) may keep
    // the table object until it is bound again; its rows and index entries
    // need not wait for that.
    if (dropped) before[i]->Truncate();
    if (dropped || before[i]->stamp() != stamps[i]) survivors->tables.emplace_back(before[i], before[i]->stamp());
  }
  // The survivors hold what must be freed later; with `before` gone now, the
  // last reference of a dropped table is theirs, so the trim below comes
  // after its rows are freed, not before.
  before.clear();
  epoch_.Retire(
      [](void* p, void*) {
        auto* s = static_cast<Survivors*>(p);
        const bool freed = !s->tables.empty();
        for (auto& [table, stamp] : s->tables) table->FreeGraveyard(stamp);
        delete s;  // the last reference of a dropped table: its rows go now
        // Hand the freed pages back to the system: the tuples' allocator
        // (oneTBB's) and glibc's, which keep them otherwise.
        if (freed) {
          scalable_allocation_command(TBBMALLOC_CLEAN_ALL_BUFFERS, nullptr);
          malloc_trim(0);
        }
      },
      survivors, nullptr);
  epoch_.Collect();  // at once when no transaction is pinned (else at the end of the DDL's block)
  return status;
}


}  // namespace paceline::engine
