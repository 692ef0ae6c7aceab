// Paceline's own abstract syntax tree: what the parser produces and the
// binder consumes. It mirrors the subset of PostgreSQL's raw parse tree that
// Paceline supports, with names resolved to nothing yet (tables and columns
// are plain strings, literals keep their source text, types are names).
//
// Only src/sql/parser.cc knows libpg_query; everything after it sees
// these structs. Nodes are plain value types owned through unique_ptr by
// their parent; a tree is immutable once the parser returns it and may be read
// from any thread.
//
// The nodes live in three headers by statement kind: ast_query.h (types,
// expressions, SELECT, INSERT/UPDATE/DELETE), ast_ddl.h and ast_utility.h;
// this one adds the Statement that holds any of them.
#pragma once

#include <memory>
#include <string>

#include "sql/ast_ddl.h"
#include "sql/ast_query.h"
#include "sql/ast_utility.h"

namespace paceline::sql {

enum class StatementKind {
  kSelect, kInsert, kUpdate, kDelete,
  kCreateTable, kCreateDomain, kCreateIndex, kCreateView, kDrop, kTruncate, kAlterTable,
  kCreateSequence, kAlterSequence,
  kTransaction, kSet, kShow,
  kSetConstraints,      // SET CONSTRAINTS: the session's block
  kListen, kUnlisten, kNotify,  // the session's notifications (engine/notification_hub.h)
  kLock,                // LOCK TABLE: the block's table gates
  kVacuum, kAnalyze,    // accepted, no effect
  kCheckpoint,          // a checkpoint of the data directory (none without one)
  kCopy, kDeallocate, kPrepare, kExecute,  // carried out by the protocol layer (src/server)
  kExplain,             // EXPLAIN [ANALYZE] of a DML statement (sql/explain/)
  kDiscard,             // the session's part here, the protocol layer's part there
  kUnsupported,         // parsed by PostgreSQL's grammar but not by Paceline
};

struct ExplainStmt;

struct Statement {
  StatementKind kind;
  std::string text;     // this statement's own text (trimmed, without ';')
  int location = 0;     // offset of `text` within the string given to Parse
  // The whole string given to Parse, shared by its statements: every
  // `location` in the tree is a byte offset into it (error positions are
  // reported in characters of it, as PostgreSQL does).
  std::shared_ptr<const std::string> source;
  // Exactly one of these is set, matching `kind` (none for kVacuum,
  // kAnalyze, kCheckpoint).
  std::unique_ptr<SelectStmt> select;
  std::unique_ptr<InsertStmt> insert;
  std::unique_ptr<UpdateStmt> update;
  std::unique_ptr<DeleteStmt> del;
  std::unique_ptr<CreateTableStmt> create_table;
  std::unique_ptr<CreateDomainStmt> create_domain;
  std::unique_ptr<CreateIndexStmt> create_index;
  std::unique_ptr<CreateViewStmt> create_view;
  std::unique_ptr<DropStmt> drop;
  std::unique_ptr<TruncateStmt> truncate;
  std::unique_ptr<AlterTableStmt> alter_table;
  std::unique_ptr<CreateSequenceStmt> create_sequence;
  std::unique_ptr<AlterSequenceStmt> alter_sequence;
  std::unique_ptr<TransactionStmt> transaction;
  std::unique_ptr<SetStmt> set;
  std::unique_ptr<ShowStmt> show;
  std::unique_ptr<CopyStmt> copy;
  std::unique_ptr<DeallocateStmt> deallocate;
  std::unique_ptr<DiscardStmt> discard;
  std::unique_ptr<SetConstraintsStmt> set_constraints;
  std::unique_ptr<NotifyStmt> notify;  // kListen, kUnlisten, kNotify
  std::unique_ptr<LockStmt> lock;      // kLock
  std::unique_ptr<PrepareStmt> prepare;
  std::unique_ptr<ExecuteStmt> execute;
  std::unique_ptr<ExplainStmt> explain;
  // kUnsupported: what it is, for the 0A000 message ("CREATE FUNCTION").
  std::string unsupported_what;
};

// EXPLAIN [ANALYZE] [VERBOSE] statement, or EXPLAIN (option [value], ..)
// statement. The statement explained is a SELECT, INSERT, UPDATE or DELETE
// (the grammar admits others; the binder refuses them). BUFFERS, SETTINGS
// and WAL are accepted and show nothing (a main-memory engine has no
// buffers); COSTS shows nothing either (Paceline has no cost model).
enum class ExplainFormat { kText, kJson };
struct ExplainStmt {
  bool analyze = false;
  bool verbose = false;
  bool timing = true;   // ANALYZE: each node's time (and the statement's, with SUMMARY)
  bool summary = true;  // the trailing lines (Execution Time); default: with ANALYZE
  ExplainFormat format = ExplainFormat::kText;
  std::unique_ptr<Statement> query;  // its text and locations are the EXPLAIN's
};

}  // namespace paceline::sql
