// The syntax tree of utility statements (see ast.h for what the tree is):
// transaction control, SET/SHOW, COPY, PREPARE/EXECUTE/DEALLOCATE, DISCARD,
// SET CONSTRAINTS and LISTEN/NOTIFY.
#pragma once

#include <string>
#include <vector>

#include "sql/ast_query.h"

namespace paceline::sql {

enum class TransactionKind { kBegin, kCommit, kRollback, kSavepoint, kRelease, kRollbackTo, kPrepare, kOther };

struct TransactionStmt {
  TransactionKind kind;
  std::string isolation_level;  // "serializable", "read committed", ... ("" when not given)
  bool read_only = false;
  std::string savepoint_name;   // kSavepoint / kRelease / kRollbackTo: the savepoint ("" otherwise)
};

struct SetStmt {
  std::string name;                 // lower-cased ("search_path", "transaction_isolation")
  std::vector<std::string> values;  // as text; empty for SET .. TO DEFAULT / RESET
  bool reset = false;               // RESET x / SET x TO DEFAULT
  bool local = false;               // SET LOCAL
};

struct ShowStmt {
  std::string name;  // lower-cased; "all" for SHOW ALL
};

// COPY table [(columns)] FROM STDIN | TO STDOUT [WITH (options)]: the wire
// protocol layer moves the data; the engine only parses the statement.
struct CopyStmt {
  std::string table;
  std::vector<std::string> columns;  // empty: every column, in table order
  bool from = true;                  // FROM (load) or TO (dump)
  bool stdio = true;                 // STDIN/STDOUT (false: a file or PROGRAM, not supported)
  bool has_query = false;            // COPY (SELECT ...) TO: not supported
  bool has_where = false;            // COPY ... FROM ... WHERE: not supported
  std::string format = "text";       // lower-cased FORMAT option
  std::string delimiter;             // DELIMITER option ("" when not given)
  std::string null_string;           // NULL option
  bool has_null_string = false;
  bool header = false;               // HEADER option
  std::vector<std::string> unsupported_options;  // names of options not understood
};

// DEALLOCATE [PREPARE] name | ALL.
struct DeallocateStmt {
  std::string name;  // "" for ALL
};

// DISCARD ALL | PLANS | SEQUENCES | TEMP (connection poolers send DISCARD
// ALL when a client gives a connection back).
enum class DiscardTarget { kAll, kPlans, kSequences, kTemp };
struct DiscardStmt {
  DiscardTarget target = DiscardTarget::kAll;
};

// SET CONSTRAINTS { ALL | name [, ...] } { DEFERRED | IMMEDIATE }.
struct SetConstraintsStmt {
  std::vector<std::string> names;  // empty: ALL
  bool deferred = false;
};

// LISTEN channel, UNLISTEN {channel | *}, NOTIFY channel [, 'payload'].
struct NotifyStmt {
  std::string channel;  // "" for UNLISTEN *
  std::string payload;  // NOTIFY's ("" when none)
};

// LOCK [TABLE] name [, ...] [IN mode MODE] [NOWAIT]. `mode` is
// PostgreSQL's lock mode number, 1 (ACCESS SHARE) to 8 (ACCESS EXCLUSIVE).
struct LockStmt {
  std::vector<TableRef> tables;
  int mode = 8;
  bool nowait = false;
};

// PREPARE name [(types)] AS statement.
struct PrepareStmt {
  std::string name;
  std::vector<TypeName> types;
  std::string query;  // the statement's text (after AS)
};

// EXECUTE name [(arguments)].
struct ExecuteStmt {
  std::string name;
  std::string arguments;  // the text between the parentheses ("" when none)
};

}  // namespace paceline::sql
