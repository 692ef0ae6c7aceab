// PipelineRunner: the extended protocol's messages up to a Sync or a Flush
// (a PipelineRequest) for a ClientSession, from the decoded messages to
// their replies in a ResultSink:
//   1. At a Sync, a pipeline that holds a whole transaction
//      ([BEGIN] DML... [COMMIT], scheduled_transaction.h) outside a block,
//      every portal bound in it and executed once to completion, and no
//      Close, goes to the scheduler as one TransactionRequest. Its
//      statements are prepared and its portals bound first (an error there
//      runs nothing); its replies are reported in protocol order once it
//      has finished.
//   2. Otherwise message by message, in the implicit block's rules: a lone
//      Execute before Sync runs as an autocommit statement (its conflicts
//      are retried); more form one implicit block up to Sync, which stays
//      open across a Flush. The first error is reported, fails the block,
//      and every message after it up to Sync is dropped (*failed: the
//      protocol layer drops what it has not yet passed on). At Sync the
//      block ends (committed, or rolled back after an error) and, outside a
//      block, the portals are dropped.
// A Describe of a SHOW portal runs it at once (its columns are known only
// then), as PostgreSQL runs such a utility statement when its portal
// starts.
//
// Thread-safety: as its ClientSession. Ownership: lives for one request
// and borrows everything it is given; `failed` is the ClientSession's
// state since the last Sync.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "engine/client/client_request.h"
#include "engine/client/prepared_namespace.h"

namespace paceline::sql {
struct PreparedStatement;
}  // namespace paceline::sql

namespace paceline::engine {

class ClientInput;
class ClientSession;
class Database;
class ResultSink;
class Session;

class PipelineRunner {
 public:
  PipelineRunner(ClientSession* client, Database* db, Session* session, PreparedNamespace* names, ResultSink* sink,
                 ClientInput* input, bool* failed)
      : client_(client), db_(db), session_(session), names_(names), sink_(sink), input_(input), failed_(failed) {}

  void Run(const PipelineRequest& request);

 private:
  using Portal = PreparedNamespace::Portal;

  // Way 1; false when the request is not a whole transaction.
  bool TrySubmit(const PipelineRequest& request);
  // Way 2: one message each.
  Status Parse(const ParseMessage& parse);
  Status Describe(const DescribeMessage& describe);
  Status Execute(const ExecuteMessage& execute, bool autocommit);
  Status Close(const CloseMessage& close);
  // A described statement: its parameters, then its columns or NoData.
  void DescribeStatement(const sql::PreparedStatement& p);
  // Rows [next_row, next_row + max_rows) of a started portal (0: all), then
  // CommandComplete or PortalSuspended.
  Status ReportRows(Portal* portal, int32_t max_rows);
  // The message's error: reported, the block failed, the rest dropped.
  void Fail(const Status& error);

  ClientSession* client_;
  Database* db_;
  Session* session_;
  PreparedNamespace* names_;
  ResultSink* sink_;
  ClientInput* input_;
  bool* failed_;
};

}  // namespace paceline::engine
