// ResultPrinter: renders QueryResults the way psql does (aligned tables with
// a row-count footer, or CSV), for the paceline-sql shell.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>

#include "common/query_result.h"

namespace paceline::tools {

// psql's default "aligned" format: a centered header, numbers right-aligned,
// text left-aligned, NULL as empty, then "(N rows)".
std::string FormatAligned(const QueryResult& result);

// RFC 4180 CSV with a header line; NULL as an empty field.
std::string FormatCsv(const QueryResult& result);

}  // namespace paceline::tools
