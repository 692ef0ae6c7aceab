// DdlExecutor: runs CREATE TABLE / DOMAIN / INDEX, DROP, TRUNCATE and ALTER
// TABLE against the catalog; sequences go to SequenceDdl. CREATE TABLE is in
// ddl_create_table.cc, ALTER TABLE in ddl_alter_table.cc.
//
// DDL takes effect immediately and is not undone by a later ROLLBACK (see
// README: Paceline's DDL is not transactional). Foreign keys are recorded,
// checked for shape (the referenced table and columns exist and match in
// number), and not enforced on data.
//
// Redo: the caller logs the statement's text, which replay runs again.
// What replay would not make the same way is in redo_after(), for the caller
// to log after that text: an ADD COLUMN whose DEFAULT is not a constant
// (now(), nextval) gave each row a value replay would not give again, so
// the rewritten table's rows are logged; the states of sequences it drew
// from (a serial column added is created by the statement itself, so their
// records must follow it).
//
// Thread-safety: the caller has exclusive use of the catalog and the tables.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <string_view>

#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "common/query_result.h"
#include "sql/ast.h"
#include "sql/bound_expr.h"

namespace paceline::sql {

class Binder;

struct DdlOptions {
  // The statement succeeded once and is replayed from the redo log: checks
  // against a sequence's current value are skipped, since its state at this
  // point of the log comes from the records after it.
  bool replaying = false;
  // Appends "sequence `name` is at (value, called)" to the redo log before
  // the statement's own record; empty: nothing is logged (in memory, or
  // replaying).
  std::function<Lsn(std::string_view name, int64_t value, bool called)> log_sequence;
};

// What the caller logs after the statement's own record (see above).
struct DdlRedo {
  struct SequenceState {
    std::string name;
    int64_t value;
    bool called;
  };
  std::vector<SequenceState> sequences;                  // in the order drawn
  std::vector<std::shared_ptr<storage::Table>> tables;   // every present row of each
};

class DdlExecutor {
 public:
  explicit DdlExecutor(catalog::Catalog* catalog, DdlOptions options = {})
      : catalog_(catalog), options_(std::move(options)) {}

  Status Execute(const Statement& statement, QueryResult* result);
  const DdlRedo& redo_after() const { return redo_after_; }

 private:
  class Sequences;  // nextval & co. for the DEFAULTs an ADD COLUMN fills in
  // A column of CREATE TABLE or ADD COLUMN, by PostgreSQL's rules for its
  // constraints: its schema, the sequence of a serial or identity column
  // (to create first), its PRIMARY KEY / UNIQUE / REFERENCES as table
  // constraints on it, and its CHECKs (pointing into `col`).
  struct ColumnDefinition {
    catalog::ColumnSchema column;
    std::optional<catalog::SequenceSchema> sequence;
    std::vector<ConstraintDef> constraints;
    std::vector<const ConstraintDef*> checks;
  };
  Status DefineColumn(const std::string& table_name, const ColumnDef& col, Binder* binder, ColumnDefinition* out);
  // 42P16 for a column of a pseudo-type (record, record[]), as PostgreSQL.
  Status CheckColumnType(const std::string& column, const Type& type, int location) const;
  Status CreateTable(const CreateTableStmt& stmt, QueryResult* result);
  // Binds CHECK constraints of `table` (42804, 0A000, ...), names them as
  // PostgreSQL does (42710 for a name taken), checks the rows the table
  // has (23514) and adds them to its schema.
  Status AddChecks(storage::Table* table, const std::vector<const ConstraintDef*>& defs);
  Status CreateDomain(const CreateDomainStmt& stmt, QueryResult* result);
  Status CreateIndex(const CreateIndexStmt& stmt, QueryResult* result);
  // `text`: the whole statement, kept as the view's definition.
  Status CreateView(const CreateViewStmt& stmt, const std::string& text, QueryResult* result);
  Status Drop(const DropStmt& stmt, QueryResult* result);
  Status Truncate(const TruncateStmt& stmt, QueryResult* result);
  Status AlterTable(const AlterTableStmt& stmt, QueryResult* result);
  // One ALTER [COLUMN] c SET/DROP DEFAULT or SET/DROP NOT NULL of `table`.
  Status AlterColumn(storage::Table& table, const AlterTableCmd& cmd);
  // The other ALTER TABLE commands, one each.
  Status AddConstraint(storage::Table& table, const ConstraintDef& def);
  Status AddColumn(storage::Table& table, const AlterTableCmd& cmd);
  Status DropColumn(storage::Table& table, const AlterTableCmd& cmd);
  Status AlterType(storage::Table& table, const AlterTableCmd& cmd);
  Status DropConstraint(storage::Table& table, const AlterTableCmd& cmd);
  Status RenameColumn(storage::Table& table, const AlterTableCmd& cmd);
  Status RenameTable(storage::Table& table, const AlterTableCmd& cmd);
  Status RenameConstraint(storage::Table& table, const AlterTableCmd& cmd);
  // 23514 when a row of `table` makes CHECK `condition` (named `name`) false.
  Status CheckRows(const storage::Table& table, const BoundExpr& condition, const std::string& name);
  // The views that bind differently (or not at all) once `table` has
  // `columns` instead of its own: tried with the table's schema changed and
  // put back.
  std::vector<std::string> ViewsBrokenBy(storage::Table& table, const std::vector<catalog::ColumnSchema>& columns);
  // The columns (of source 0) that `e` reads.
  static void CollectColumns(const BoundExpr& e, std::set<int>* out);
  // The partial indexes of `table` whose condition reads `column`.
  static std::vector<std::string> PartialIndexesReading(const storage::Table& table, int column);
  // catalog::ChangeColumns for a change that moves or retypes columns: the
  // table's partial indexes are dropped first and made again over the new
  // columns from their text (ddl_partial_index.cc), or put back as they
  // were when the rewrite fails. An error binding a condition over the new
  // columns fails the change before anything changes. The caller drops the
  // partial indexes that read a column that goes.
  Status RewriteColumns(storage::Table& table, catalog::TableSchema schema, const std::vector<int>& position,
                        const storage::Table::RowValues& values_of);
  // The columns of `table` that its CHECK `check` reads.
  Status ColumnsReadBy(storage::Table& table, const catalog::CheckConstraint& check, std::set<int>* out);
  // 23502 when a row of `table` has NULL in `column` (SET NOT NULL, a
  // primary key added).
  static Status CheckNoNulls(const storage::Table& table, int column);

  // ADD FOREIGN KEY: 23503, as an INSERT would give it, for the first row
  // of `table` whose key (no NULL in it) the referenced table lacks.
  Status CheckForeignKeyRows(const storage::Table& table, const catalog::ForeignKey& fk);
  // Resolves column names of `schema` to positions (42703 when absent).
  Status ColumnPositions(const catalog::TableSchema& schema, const std::vector<std::string>& names,
                         std::vector<int>* out) const;
  // Builds a foreign key of `schema` with PostgreSQL's checks: the
  // referenced columns a unique key (42830), comparable types (42804).
  // `schema` may be the table being created; `new_indexes` are then its
  // keys, for a self-reference (nullptr for an existing table).
  Status MakeForeignKey(const catalog::TableSchema& schema, const ConstraintDef& def,
                        const std::vector<catalog::IndexSchema>* new_indexes, catalog::ForeignKey* out) const;
  Status MakeIndex(const catalog::TableSchema& schema, const ConstraintDef& def, bool primary,
                   catalog::IndexSchema* out) const;

  // 1-based character position of a byte location in source_ (0: none).
  int Pos(int location) const;

  catalog::Catalog* catalog_;
  DdlOptions options_;
  DdlRedo redo_after_;
  std::shared_ptr<const std::string> source_;  // of the statement being executed
};

}  // namespace paceline::sql
