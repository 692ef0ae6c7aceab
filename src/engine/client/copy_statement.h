// CopyStatement: one COPY for a client, FROM STDIN or TO STDOUT, in the
// text format (delimiter, NULL string and backslash escapes as in
// PostgreSQL's text format; no HEADER, CSV, binary, files or queries:
// 0A000). The data goes through the protocol layer: TO through the
// ResultSink (CopyOutStart, a line per row, CopyOutDone), FROM through the
// ClientInput (ReadCopyData after CopyInStart). Both end with the command
// tag "COPY n".
//
// COPY FROM inserts each line through the session (a cancel stops it
// between lines with 57014); when no block is open its rows are one
// transaction of their own (an implicit block), so a bad line loads
// nothing. A line's error names the table and the line number.
//
// Thread-safety: as its session, one thread at a time.
// Ownership: borrows the session and the statement, which must outlive it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/query_result.h"

namespace paceline::sql {
struct CopyStmt;
}  // namespace paceline::sql

namespace paceline::engine {

class ClientInput;
class ResultSink;
class Session;

class CopyStatement {
 public:
  CopyStatement(Session* session, const sql::CopyStmt& copy);

  // Runs it, replies included (up to CommandComplete); an error is
  // returned, not reported.
  Status Run(ResultSink* sink, ClientInput* input);

 private:
  // TO STDOUT: the rows of `select`, a line each.
  Status ToClient(const std::string& select, ResultSink* sink);
  // FROM STDIN: the client's lines inserted into `table`'s `columns`.
  Status FromClient(const std::string& table, const std::vector<ResultColumn>& columns, ResultSink* sink,
                    ClientInput* input, uint64_t* rows);

  Session* session_;
  const sql::CopyStmt& copy_;
  const char delimiter_;            // the DELIMITER option, tab by default
  const std::string null_string_;  // the NULL option, \N by default
};

}  // namespace paceline::engine
