// The syntax tree of DDL statements (see ast.h for what the tree is):
// CREATE/ALTER/DROP of tables, indexes, views, domains and sequences, and
// TRUNCATE.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sql/ast_query.h"

namespace paceline::sql {

// One option of CREATE / ALTER SEQUENCE or of an identity column, as
// written; SequenceOptions (sequence_options.h) checks them.
struct SequenceOption {
  enum class Kind { kAs, kIncrement, kStart, kRestart, kMinValue, kMaxValue, kCache, kCycle, kOwnedBy };
  Kind kind;
  bool has_value = false;               // false: NO MINVALUE / NO MAXVALUE / a bare RESTART
  int64_t value = 0;                    // kIncrement .. kCache
  bool flag = false;                    // kCycle: CYCLE (true) or NO CYCLE
  TypeName type;                        // kAs
  std::vector<std::string> names;       // kOwnedBy: [table, column], or ["none"]
  int location = -1;
};

enum class ConstraintKind { kPrimaryKey, kUnique, kForeignKey, kNotNull, kNull, kDefault, kCheck, kIdentity };

struct ConstraintDef {
  ConstraintKind kind;
  std::string name;                       // CONSTRAINT name; "" when none
  std::vector<std::string> columns;       // table constraint columns (PK, UNIQUE, FK)
  std::string ref_table;                  // FOREIGN KEY / REFERENCES
  std::vector<std::string> ref_columns;   // empty: the referenced table's primary key
  char on_delete = 'a';                   // FOREIGN KEY: catalog::ForeignKeyAction's letters
  char on_update = 'a';
  std::vector<std::string> delete_set_columns;  // ON DELETE SET NULL/DEFAULT (columns)
  bool deferrable = false;                // FOREIGN KEY: DEFERRABLE
  bool initially_deferred = false;        // FOREIGN KEY: INITIALLY DEFERRED
  bool not_deferrable = false;            // NOT DEFERRABLE written (column constraint attributes)
  bool not_valid = false;                 // ALTER TABLE .. ADD .. NOT VALID: existing rows not checked
  ExprPtr default_value;                  // kDefault
  std::string default_text;               // kDefault: PostgreSQL's text of it ("now()")
  ExprPtr check;                          // kCheck: the condition
  std::string check_text;                 // kCheck: PostgreSQL's text of it ("(a > 0)")
  char identity = 0;                      // kIdentity: 'a' GENERATED ALWAYS, 'd' BY DEFAULT
  std::vector<SequenceOption> sequence_options;  // kIdentity: ( sequence options )
  int location = -1;
};

struct ColumnDef {
  std::string name;
  TypeName type;
  std::vector<ConstraintDef> constraints;  // column constraints, in order written
  int location = -1;
};

struct CreateTableStmt {
  std::string name;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::vector<ConstraintDef> constraints;  // table constraints
};

struct CreateDomainStmt {
  std::string name;
  TypeName type;
  bool not_null = false;
  bool has_check = false;  // CHECK constraints: not supported (binder says so)
};

struct CreateIndexStmt {
  std::string name;  // "" when omitted
  TableRef table;
  bool unique = false;
  bool if_not_exists = false;
  std::string method;  // "btree" (default), "hash", ...
  std::vector<std::string> columns;
  bool has_expressions = false;  // an index on an expression: not supported
  // WHERE: a partial index's condition, and its deparsed text ("NOT done"),
  // which the catalog keeps. Null for an index of every row.
  ExprPtr where;
  std::string where_text;
};

// CREATE [OR REPLACE] VIEW name [(columns)] AS query.
struct CreateViewStmt {
  std::string name;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const SelectStmt> query;
  bool replace = false;
  int location = -1;
};

enum class ObjectKind { kTable, kIndex, kDomain, kView, kSequence, kOther };

struct DropStmt {
  ObjectKind kind = ObjectKind::kTable;
  std::vector<std::string> names;
  bool if_exists = false;
  bool cascade = false;
};

struct TruncateStmt {
  std::vector<std::string> tables;
  bool restart_identity = false;  // RESTART IDENTITY: the tables' own sequences start again
  bool cascade = false;           // CASCADE: the tables that reference them too
};

// CREATE SEQUENCE [IF NOT EXISTS] name [options].
struct CreateSequenceStmt {
  std::string name;
  bool if_not_exists = false;
  std::vector<SequenceOption> options;
  int location = -1;
};

// ALTER SEQUENCE [IF EXISTS] name options.
struct AlterSequenceStmt {
  std::string name;
  bool if_exists = false;
  std::vector<SequenceOption> options;
  int location = -1;
};

enum class AlterKind {
  kAddConstraint,
  kAddColumn,
  kSetDefault,   // ALTER [COLUMN] c SET DEFAULT expr
  kDropDefault,  // ALTER [COLUMN] c DROP DEFAULT
  kSetNotNull,   // ALTER [COLUMN] c SET NOT NULL
  kDropNotNull,  // ALTER [COLUMN] c DROP NOT NULL
  kAlterType,    // ALTER [COLUMN] c [SET DATA] TYPE t
  kDropColumn,       // DROP [COLUMN] [IF EXISTS] c [CASCADE]
  kDropConstraint,   // DROP CONSTRAINT [IF EXISTS] name [CASCADE]
  kRenameColumn,     // RENAME [COLUMN] c TO new_name (PostgreSQL's RenameStmt)
  kRenameTable,      // RENAME TO new_name (PostgreSQL's RenameStmt)
  kRenameConstraint, // RENAME CONSTRAINT name TO new_name (PostgreSQL's RenameStmt)
  kOwnerTo,          // OWNER TO new_name (of a table, view or sequence; Paceline keeps no owners)
  kOther
};

struct AlterTableCmd {
  AlterKind kind = AlterKind::kOther;
  ConstraintDef constraint;  // kAddConstraint; kSetDefault: its default_value and default_text
  ColumnDef column;          // kAddColumn; kAlterType: its type
  std::string column_name;   // the ALTER COLUMN kinds, kDropColumn, kRenameColumn; kDropConstraint's and
                             // kRenameConstraint's constraint
  std::string new_name;      // the RENAME kinds; kOwnerTo's role
  bool missing_ok = false;   // ADD COLUMN IF NOT EXISTS, DROP .. IF EXISTS
  bool cascade = false;      // DROP .. CASCADE
  bool using_expression = false;  // kAlterType with USING (not supported)
  std::string description;   // kOther: what it was, for the error message
};

struct AlterTableStmt {
  std::string table;
  bool if_exists = false;  // ALTER TABLE IF EXISTS
  std::vector<AlterTableCmd> commands;
};

}  // namespace paceline::sql
