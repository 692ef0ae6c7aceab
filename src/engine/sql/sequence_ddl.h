// SequenceDdl: CREATE SEQUENCE, ALTER SEQUENCE and DROP SEQUENCE against the
// catalog, with PostgreSQL 15's rules and messages. The option rules are
// SequenceOptions'; this class resolves names, applies IF [NOT] EXISTS and
// makes the change.
//
// Like all of Paceline's DDL, the change takes effect at once and is logged
// as the statement's text (Database::RunDdl), so recovery replays it in log
// order; a sequence's position is logged separately (sequence.h).
//
// Thread-safety: the caller has exclusive use of the catalog (DDL runs under
// the exclusive execution gate).
#pragma once

#include "common/status.h"
#include "engine/catalog/catalog.h"
#include "engine/query_result.h"
#include "engine/sql/ast.h"
#include "engine/sql/ddl_executor.h"

namespace paceline::sql {

class SequenceDdl {
 public:
  // `options`: borrowed; see DdlOptions (replaying, log_sequence).
  SequenceDdl(catalog::Catalog* catalog, const DdlOptions& options) : catalog_(catalog), options_(options) {}

  Status Create(const CreateSequenceStmt& stmt, engine::QueryResult* result);
  // ALTER logs the sequence's exact state before its own record, so that
  // replay reaches the ALTER with the state it had (Sequence::LogState).
  Status Alter(const AlterSequenceStmt& stmt, engine::QueryResult* result);
  // DROP SEQUENCE names...: every name is checked before any is dropped.
  Status Drop(const DropStmt& stmt, engine::QueryResult* result);

 private:
  catalog::Catalog* catalog_;
  const DdlOptions& options_;
};

}  // namespace paceline::sql
