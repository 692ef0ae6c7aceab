// DdlExecutor: runs CREATE TABLE / DOMAIN / INDEX, DROP, TRUNCATE and ALTER
// TABLE against the catalog; sequences go to SequenceDdl.
//
// DDL takes effect immediately and is not undone by a later ROLLBACK (see
// README: Paceline's DDL is not transactional). Foreign keys are recorded,
// checked for shape (the referenced table and columns exist and match in
// number), and not enforced on data.
//
// Thread-safety: the caller has exclusive use of the catalog and the tables.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "engine/catalog/catalog.h"
#include "engine/query_result.h"
#include "engine/sql/ast.h"

namespace paceline::sql {

struct DdlOptions {
  // The statement succeeded once and is replayed from the redo log: checks
  // against a sequence's current value are skipped, since its state at this
  // point of the log comes from the records after it.
  bool replaying = false;
  // Appends "sequence `name` is at (value, called)" to the redo log before
  // the statement's own record; empty: nothing is logged (in memory, or
  // replaying).
  std::function<uint64_t(std::string_view name, int64_t value, bool called)> log_sequence;
};

class DdlExecutor {
 public:
  explicit DdlExecutor(catalog::Catalog* catalog, DdlOptions options = {})
      : catalog_(catalog), options_(std::move(options)) {}

  Status Execute(const Statement& statement, engine::QueryResult* result);

 private:
  Status CreateTable(const CreateTableStmt& stmt, engine::QueryResult* result);
  // Binds the CHECK constraints of new table `table` (42804, 0A000, ...),
  // names them as PostgreSQL does (42710 for a name given twice) and sets
  // them in its schema.
  Status AddChecks(storage::Table* table, const std::vector<const ConstraintDef*>& defs);
  Status CreateDomain(const CreateDomainStmt& stmt, engine::QueryResult* result);
  Status CreateIndex(const CreateIndexStmt& stmt, engine::QueryResult* result);
  // `text`: the whole statement, kept as the view's definition.
  Status CreateView(const CreateViewStmt& stmt, const std::string& text, engine::QueryResult* result);
  Status Drop(const DropStmt& stmt, engine::QueryResult* result);
  Status Truncate(const TruncateStmt& stmt, engine::QueryResult* result);
  Status AlterTable(const AlterTableStmt& stmt, engine::QueryResult* result);
  // One ALTER [COLUMN] c SET/DROP DEFAULT or SET/DROP NOT NULL of `table`.
  Status AlterColumn(storage::Table& table, const AlterTableCmd& cmd);
  // 23502 when a row of `table` has NULL in `column` (SET NOT NULL, a
  // primary key added).
  static Status CheckNoNulls(const storage::Table& table, int column);

  // Resolves column names of `schema` to positions (42703 when absent).
  Status ColumnPositions(const catalog::TableSchema& schema, const std::vector<std::string>& names,
                         std::vector<int>* out) const;
  // Builds a foreign key of `schema` (which may be the table being created;
  // `new_primary` is then its primary key, if any, for a self-reference).
  Status MakeForeignKey(const catalog::TableSchema& schema, const ConstraintDef& def,
                        const catalog::IndexSchema* new_primary, catalog::ForeignKey* out) const;
  Status MakeIndex(const catalog::TableSchema& schema, const ConstraintDef& def, bool primary,
                   catalog::IndexSchema* out) const;

  // 1-based character position of a byte location in source_ (0: none).
  int Pos(int location) const;

  catalog::Catalog* catalog_;
  DdlOptions options_;
  std::shared_ptr<const std::string> source_;  // of the statement being executed
};

}  // namespace paceline::sql
