// SequenceDdl: CREATE SEQUENCE, ALTER SEQUENCE and DROP SEQUENCE against the
// catalog, with PostgreSQL 15's rules and messages. The option rules are
// SequenceOptions'; this class resolves names, applies IF [NOT] EXISTS and
// makes the change.
//
// Like all of Paceline's DDL, the change takes effect at once and is logged
// as the statement's text (engine::StatementRunner::RunDdl), so recovery replays it in log
// order; a sequence's position is logged separately (sequence.h).
//
// Thread-safety: the caller has exclusive use of the catalog (DDL runs under
// the exclusive execution gate).
#pragma once

#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "common/query_result.h"
#include "sql/ast.h"
#include "sql/ddl_executor.h"

namespace paceline::sql {

class SequenceDdl {
 public:
  // `options`: borrowed; see DdlOptions (replaying, log_sequence).
  SequenceDdl(catalog::Catalog* catalog, const DdlOptions& options) : catalog_(catalog), options_(options) {}

  Status Create(const CreateSequenceStmt& stmt, QueryResult* result);
  // ALTER logs the sequence's exact state before its own record, so that
  // replay reaches the ALTER with the state it had (Sequence::LogState).
  Status Alter(const AlterSequenceStmt& stmt, QueryResult* result);
  // RESTART of sequence `name` at its START, logged as ALTER's is
  // (TRUNCATE .. RESTART IDENTITY).
  Status Restart(const std::string& name);
  // DROP SEQUENCE names...: every name is checked before any is dropped.
  Status Drop(const DropStmt& stmt, QueryResult* result);

  // serial, bigserial and smallserial (serial4, serial8, serial2), as
  // PostgreSQL recognises them in CREATE TABLE: an unqualified type name
  // (an array of one is the caller's 0A000). Sets *integer to the column's
  // type (kInt32, kInt64, kInt16).
  static bool IsSerial(const TypeName& type, TypeId* integer);
  // Makes `column` (`column_name` of table `table`, declared serial) what
  // PostgreSQL makes it: of type `integer`, NOT NULL, DEFAULT
  // nextval('<table>_<column>_seq'::regclass), and describes in *sequence the
  // sequence it will own (the name made unique with a number when taken).
  // Creates nothing; the column's other constraints are the caller's.
  void Serial(const std::string& table, const std::string& column_name, TypeId integer, catalog::ColumnSchema* column,
              catalog::SequenceSchema* sequence) const;
  // The same for `column` of `table` declared GENERATED .. AS IDENTITY by
  // `def` (kIdentity), its sequence made with the options given there; the
  // column's type must already be set (22023 unless smallint, integer or
  // bigint).
  Status Identity(const std::string& table, const ConstraintDef& def, catalog::ColumnSchema* column,
                  catalog::SequenceSchema* sequence) const;

 private:
  // Logs the sequence's exact state before the statement's own record
  // (Sequence::LogState), when the statement is logged.
  void LogState(const std::string& name, catalog::Sequence& sequence) const;

  catalog::Catalog* catalog_;
  const DdlOptions& options_;
};

}  // namespace paceline::sql
