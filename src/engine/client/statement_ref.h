// StatementRef: one statement a client runs, as its protocol layer found
// it — parsed from a Query's text (ast), or prepared for a Parse or from
// the text itself (prepared). Plain value type; the pointers and the text
// are borrowed from the caller for the call they are passed to.
#pragma once

#include <string_view>

#include "sql/ast.h"

namespace paceline::sql {
struct PreparedStatement;
}  // namespace paceline::sql

namespace paceline::engine {

struct StatementRef {
  const sql::Statement* ast = nullptr;  // may be null for prepared DML
  const sql::PreparedStatement* prepared = nullptr;
  sql::StatementKind kind = sql::StatementKind::kUnsupported;
  std::string_view text;
};

}  // namespace paceline::engine
