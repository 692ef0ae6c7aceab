// PreparedStatement: one SQL statement parsed, bound and planned once, ready
// to execute any number of times with different parameter values.
//
// DML statements hold their plan; utility and DDL statements hold their AST
// and are interpreted at each execution. `catalog_version` is the catalog
// version the plan was bound against: the StatementCache rebuilds the
// statement when the catalog has changed since. DML statements also hold
// their reference slots (reference_slot.h), what the scheduler's footprint of
// a transaction is computed from.
//
// Thread-safety: immutable after Prepare; shared (shared_ptr) by every
// session that executes the same text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "common/query_result.h"
#include "sql/ast.h"
#include "sql/plan.h"
#include "sql/reference_slot.h"

namespace paceline::sql {

struct PreparedStatement {
  std::string text;
  StatementKind kind = StatementKind::kSelect;
  std::unique_ptr<Statement> ast;  // kept for utility and DDL statements
  std::unique_ptr<SelectPlan> select;
  std::unique_ptr<InsertPlan> insert;
  std::unique_ptr<UpdatePlan> update;
  std::unique_ptr<DeletePlan> del;
  std::vector<Type> param_types;                // $1 first
  std::vector<ResultColumn> columns;    // rows it returns (empty: none)
  bool returns_rows = false;
  uint64_t catalog_version = 0;
  // The tables a DML statement names (storage::Table ids, ascending): what
  // a transaction block enters the table gates of (engine/table_gates.h).
  std::vector<TableId> table_ids;
  std::vector<ReferenceSlot> reference_slots;   // in written order; none for non-DML
  // WITH name AS (INSERT/UPDATE/DELETE ..) queries, in written order: the
  // executor runs each once before the statement (Executor::RunModifyingCtes).
  std::vector<std::shared_ptr<const DerivedPlan>> modifying_ctes;
  // "nextval()" or "setval()" when the statement calls one (it changes a
  // sequence: refused in a read-only transaction); null otherwise.
  const char* sequence_write = nullptr;
  // kExplain: the statement explained, prepared (its parameters are the
  // EXPLAIN's); the EXPLAIN's own ast keeps the options, its query moved here.
  std::shared_ptr<const PreparedStatement> explained;

  // Parses and binds `text`, which must hold exactly one statement (an
  // empty text gives kind kUnsupported with unsupported_what "empty query";
  // several → 42601 "cannot insert multiple commands into a prepared
  // statement"). `declared` fixes the types of leading parameters (may be
  // empty or hold TypeId::kUnknown entries).
  static Status Prepare(std::string_view text, const catalog::Catalog& catalog, const std::vector<Type>& declared,
                        std::shared_ptr<PreparedStatement>* out);
  // Binds one already-parsed statement (takes ownership of it).
  static Status FromStatement(std::unique_ptr<Statement> statement, const catalog::Catalog& catalog,
                              const std::vector<Type>& declared, std::shared_ptr<PreparedStatement>* out);
  bool IsEmpty() const { return kind == StatementKind::kUnsupported && ast && ast->unsupported_what == "empty query"; }
};

}  // namespace paceline::sql
