// The kinds of statement that the layers above SQL decide by: DML (what a
// scheduled transaction may hold), and transaction control (what opens
// and ends a block). One place for each rule; the lexer's own version for
// statements it has not parsed is ScriptStatement::Kind
// (literal_parameterizer.h).
//
// Pure functions of an AST; thread-safe.
#pragma once

#include "sql/ast.h"

namespace paceline::sql {

// SELECT, INSERT, UPDATE or DELETE.
inline bool IsDml(StatementKind kind) {
  return kind == StatementKind::kSelect || kind == StatementKind::kInsert || kind == StatementKind::kUpdate ||
         kind == StatementKind::kDelete;
}

// The transaction-control part of `ast`, or null when it is none (or null).
inline const TransactionStmt* TransactionOf(const Statement* ast) {
  return ast != nullptr && ast->kind == StatementKind::kTransaction ? ast->transaction.get() : nullptr;
}

// Transaction control of the kind `kind`.
inline bool IsTransaction(const Statement* ast, TransactionKind kind) {
  const TransactionStmt* t = TransactionOf(ast);
  return t != nullptr && t->kind == kind;
}

// COMMIT or ROLLBACK (END and ABORT are their spellings): ends a block,
// failed or not.
inline bool EndsBlock(const Statement* ast) {
  return IsTransaction(ast, TransactionKind::kCommit) || IsTransaction(ast, TransactionKind::kRollback);
}

// A plain BEGIN: nothing that a scheduled transaction would ignore (not
// READ ONLY).
inline bool IsPlainBegin(const Statement* ast) {
  const TransactionStmt* t = TransactionOf(ast);
  return t != nullptr && t->kind == TransactionKind::kBegin && !t->read_only;
}

}  // namespace paceline::sql
