// Parser: SQL text → Paceline's AST (ast.h).
//
// The only place that knows libpg_query. It runs PostgreSQL 15's own grammar
// (pg_query_parse_protobuf), unpacks the protobuf tree with the protobuf-c
// code built into libpg_query, and translates the supported subset into
// ast.h structs. Constructs the grammar accepts but Paceline does not support
// become StatementKind::kUnsupported (whole statements) or a 0A000 Status
// naming the feature (inside statements), never a crash.
//
// Thread-safety: Parse may be called from any number of threads at once
// (libpg_query keeps its memory context per thread).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/ast.h"

namespace paceline::sql {

// Parses `text`, which may hold several ';'-separated statements (or none:
// an empty or comment-only string yields an empty list). On a syntax error
// returns 42601 with PostgreSQL's message ("syntax error at or near \"FORM\"")
// and the 1-based position of the error in `text`.
Status Parse(std::string_view text, std::vector<std::unique_ptr<Statement>>* statements);

// Parses one expression, such as a column DEFAULT kept as text
// (catalog::ColumnDefault): `text` is parsed as `SELECT <text>`; 42601 when
// it is not exactly one expression.
Status ParseExpression(std::string_view text, ExprPtr* expression);

// Splits `text` into its ';'-separated statements with PostgreSQL's lexer
// (quotes, dollar quotes and comments respected), without parsing them, so a
// shell can run statements one by one and report a syntax error in one
// without losing the others. Whitespace-only pieces are dropped.
std::vector<std::string> SplitStatements(std::string_view text);

// Whether PostgreSQL's lexer reads `word` (lower case) as a keyword that
// is not unreserved (a column-name, type/function-name or reserved one):
// quote_ident quotes those.
bool IsNonUnreservedKeyword(std::string_view word);

}  // namespace paceline::sql
