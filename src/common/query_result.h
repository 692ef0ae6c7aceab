// QueryResult: what one SQL statement returns to its caller.
//
// A row-returning statement (SELECT, SHOW, anything with RETURNING) fills
// `columns` and `rows`; every statement has a PostgreSQL command tag
// ("SELECT 3", "INSERT 0 2", "UPDATE 1", "CREATE TABLE", "COMMIT"). Plain
// value type: SQL fills it, the engine and the protocol layer pass it on,
// so it sits below all of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline {

struct ResultColumn {
  std::string name;
  Type type;
};

struct QueryResult {
  std::vector<ResultColumn> columns;
  std::vector<std::vector<Value>> rows;
  std::string command_tag;
  bool returns_rows = false;  // a row description is sent even for zero rows
  uint64_t rows_affected = 0;  // rows returned, inserted, updated or deleted
  // PostgreSQL's WARNINGs for the statement (a COMMIT with no transaction
  // in progress: 25P01); it still succeeded. A protocol sends them first.
  std::vector<Status> warnings;

  void Clear() {
    columns.clear();
    rows.clear();
    command_tag.clear();
    returns_rows = false;
    rows_affected = 0;
    warnings.clear();
  }
};

}  // namespace paceline
