// ClientSession: one client of a Database at the protocol's level — the
// engine's entry point for a protocol layer (src/server), which speaks the
// wire protocol and nothing of SQL. It owns the client's engine Session
// (its transaction state, settings and statements) and its named prepared
// statements and portals (prepared_namespace.h: Parse/Bind and SQL
// PREPARE/EXECUTE/DEALLOCATE share one namespace).
//
// Today it passes through: the protocol layer still runs the statements
// of a message through session() and the block rules of session.h. The
// rules for one client message (implicit blocks, COPY's own transaction,
// splitting and parameterizing a Query, submitting a whole transaction to
// the scheduler) move behind it, with the results reported through a
// ResultSink (result_sink.h), until the accessor goes.
//
// Thread-safety: used by one thread at a time (it may move between
// threads); Cancel() may be called from any thread.
// Ownership: must not outlive its Database. Destroying it rolls back the
// client's open transaction and drops its statements and portals.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "engine/client/prepared_namespace.h"
#include "engine/transaction_state.h"

namespace paceline::engine {

class Database;
class Session;

class ClientSession {
 public:
  explicit ClientSession(Database* db);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  // Stops what the client runs now with 57014 (Session::Cancel). Any
  // thread.
  void Cancel();
  // Between requests: idle, in a block, or in a failed block.
  TransactionState state() const;
  // A setting's current value (SHOW), or 42704 when unknown.
  Status GetSetting(std::string_view name, std::string* value) const;
  // Sets a setting (a start-up parameter); 42704 when unknown.
  Status SetSetting(std::string_view name, std::string value);

  // The client's named statements and portals.
  PreparedNamespace& names() { return names_; }
  // The engine session, for the protocol code not yet behind this class.
  Session* session() { return session_.get(); }

 private:
  std::unique_ptr<Session> session_;
  PreparedNamespace names_;  // after session_, which it borrows: destroyed first
};

}  // namespace paceline::engine
