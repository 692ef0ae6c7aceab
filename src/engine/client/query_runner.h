// QueryRunner: one simple Query message's text for a ClientSession
// (client_session.h tells the rules), from its text to its results in a
// ResultSink:
//   1. the lexer splits the text at its semicolons and parameterizes each
//      statement's literals (Options::parameterize_literals);
//   2. a whole transaction ([BEGIN;] DML...[; COMMIT] outside a block)
//      whose DML all parameterizes goes to the scheduler unparsed;
//   3. a single DML or transaction-control statement runs from its
//      normalized (or its own) text, prepared through the caches, so
//      libpg_query never sees it unless the cache misses;
//   4. anything else is parsed; a whole transaction again goes to the
//      scheduler, else each statement runs through the session
//      (Session::RunStatements: implicit block, cancel between statements,
//      the first error fails the block).
// Errors carry their position in the whole text; a query on the system
// catalogs says that Paceline has none (request_errors.h).
//
// Thread-safety: as its ClientSession. Ownership: a QueryRunner lives for
// one message and borrows everything it is given.
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/query_result.h"

namespace paceline::sql {
struct ParameterizedStatement;
struct ScriptStatement;
struct Statement;
}  // namespace paceline::sql

namespace paceline::engine {

class ClientInput;
class ClientSession;
class Database;
class ResultSink;
class Session;

class QueryRunner {
 public:
  QueryRunner(ClientSession* client, Database* db, Session* session, ResultSink* sink, ClientInput* input)
      : client_(client), db_(db), session_(session), sink_(sink), input_(input) {}

  void Run(std::string_view text);

 private:
  // The unparsed way to the scheduler: every DML statement's literals
  // parameterize (the engine then runs them on cached plans). False when
  // not applicable.
  bool TrySubmitUnparsed(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                         const std::vector<sql::ParameterizedStatement>& normalized);
  // [BEGIN] DML... [COMMIT] outside a block: submitted as one transaction
  // and its results reported. `normalized`, if not null, holds each part
  // parameterized. False when not applicable.
  bool TrySubmitScript(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                       const std::vector<sql::ParameterizedStatement>* normalized = nullptr);
  // One statement that the lexer split and classified (DML, BEGIN,
  // COMMIT): prepared from `normalized` when its literals parameterize,
  // else from its text, run, and its result or error reported.
  void RunUnparsed(std::string_view text, const sql::ScriptStatement& part,
                   const sql::ParameterizedStatement* normalized);
  // One parsed statement run and its result reported; the error is
  // returned, not reported.
  Status RunParsed(const sql::Statement& statement);
  // Reports a statement's result: EmptyQuery, or [Columns, Rows], Complete.
  Status Report(const QueryResult& result);

  ClientSession* client_;
  Database* db_;
  Session* session_;
  ResultSink* sink_;
  ClientInput* input_;
};

}  // namespace paceline::engine
