// PreparedNamespace: one client's named prepared statements and portals.
// The extended protocol's Parse, Bind and Close and SQL's PREPARE, EXECUTE
// and DEALLOCATE share the statement namespace, as in PostgreSQL; the
// unnamed statement ("") is the extended protocol's alone (EXECUTE and
// DEALLOCATE do not see it, DEALLOCATE ALL keeps it).
//
// Errors, with PostgreSQL's texts: 42P05 a named statement that exists
// already (Parse, PREPARE), 42P03 a named portal that exists already,
// 26000 an unknown statement, 34000 an unknown portal, 08P01 a Bind whose
// parameter count or formats do not fit its statement.
//
// Thread-safety: one thread at a time, as its ClientSession.
// Ownership: borrows the Session, which must outlive it. Statements and
// portals hold their prepared statements (shared with the statement cache).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"
#include "engine/client/client_request.h"
#include "common/query_result.h"

namespace paceline::sql {
struct PreparedStatement;
struct PrepareStmt;
struct ExecuteStmt;
}  // namespace paceline::sql

namespace paceline::engine {

class ClientInput;
class Session;

class PreparedNamespace {
 public:
  // A named (or the unnamed) prepared statement.
  struct StatementEntry {
    // Prepared with the client's declared parameter types; a scheduled
    // transaction carries it to the workers as it is (StatementCall), so
    // the text has one cache entry.
    std::shared_ptr<const sql::PreparedStatement> prepared;
  };
  // A bound statement, and its execution as far as it has gone.
  struct Portal {
    StatementEntry statement;
    std::vector<Value> params;
    std::vector<int16_t> result_formats;  // the client's, handed back with its rows
    bool started = false;  // executed; `result` holds its rows
    bool finished = false;
    QueryResult result;
    size_t next_row = 0;
  };

  explicit PreparedNamespace(Session* session) : session_(session) {}

  // Prepares `text` with the `declared` parameter types as Parse would,
  // without naming it.
  Status Prepare(std::string_view text, const std::vector<Type>& declared, StatementEntry* entry) const;
  // Parse: stores the statement under its name; replaces the unnamed one.
  Status Parse(const ParseMessage& parse);
  // Parse of a statement prepared already (Prepare): stores it under
  // `name`, which the caller has checked is free or "".
  void Store(std::string_view name, StatementEntry entry) { statements_[std::string(name)] = std::move(entry); }
  // Bind: a portal from a statement, its parameters decoded by `input`
  // against the statement's parameter types; replaces the unnamed portal.
  Status Bind(const BindMessage& bind, ClientInput* input);
  // Close: forgets the statement or portal; one that does not exist is
  // not an error.
  void CloseStatement(std::string_view name) { Erase(&statements_, name); }
  void ClosePortal(std::string_view name) { Erase(&portals_, name); }

  // The statement or portal of that name; null when there is none.
  const StatementEntry* FindStatement(std::string_view name) const;
  Portal* FindPortal(std::string_view name);
  // The same, 26000 or 34000 when there is none.
  Status LookupStatement(std::string_view name, const StatementEntry** entry) const;
  Status LookupPortal(std::string_view name, Portal** portal);

  // SQL PREPARE name [(types)] AS query.
  Status SqlPrepare(const sql::PrepareStmt& prepare);
  // SQL EXECUTE name [(arguments)]: the statement and its arguments
  // (evaluated, and cast to its parameter types), for the caller to run.
  Status SqlExecute(const sql::ExecuteStmt& execute, std::shared_ptr<const sql::PreparedStatement>* statement,
                    std::vector<Value>* args) const;
  // SQL DEALLOCATE name, or DEALLOCATE ALL when `name` is "": the command
  // tag in *tag.
  Status Deallocate(const std::string& name, std::string* tag);
  // The namespace's part of DISCARD ALL outside a block: every statement,
  // the unnamed one included.
  void DiscardAll() { statements_.clear(); }
  // The portals, at the end of a transaction (Sync when idle).
  void ClearPortals() { portals_.clear(); }

 private:
  template <typename Map>
  static void Erase(Map* map, std::string_view name) {
    auto it = map->find(name);
    if (it != map->end()) map->erase(it);
  }

  Session* session_;
  std::map<std::string, StatementEntry, std::less<>> statements_;
  std::map<std::string, Portal, std::less<>> portals_;
};

}  // namespace paceline::engine
