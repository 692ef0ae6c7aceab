// ResultSink: where a client's results go — the protocol layer's side of
// the engine's client entry point (ClientSession). The engine calls it in
// the order the client must see the replies; the implementation encodes
// them (server::WireResultSink writes PostgreSQL protocol messages) and
// decides when to send what it has buffered.
//
// One statement's replies are
//   Warning* · [Columns] · Row* · (Complete | Suspended | EmptyQuery)
// or, when it fails, Warning* · Error. The extended protocol's steps add
// ParseComplete, BindComplete, CloseComplete, Parameters and NoData; a COPY
// adds CopyOutStart · CopyOutLine* · CopyOutDone or CopyInStart before its
// Complete.
//
// Row formats: `formats` are the client's result formats for a portal
// (none: all text; one: all that; else one per column). They are opaque to
// the engine, which hands back what the client asked for.
//
// Thread-safety: called only on the thread that runs the client's request,
// never concurrently. Ownership: the caller owns the sink; the engine
// borrows it for one call and keeps no pointer to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"
#include "common/query_result.h"

namespace paceline::engine {

class ResultSink {
 public:
  virtual ~ResultSink() = default;

  // A statement's warning (PostgreSQL's WARNING notice); it still runs.
  virtual void Warning(const Status& warning) = 0;
  // The columns of the rows that follow (RowDescription).
  virtual void Columns(const std::vector<ResultColumn>& columns, const std::vector<int16_t>& formats) = 0;
  // One row of `columns` in `formats`. A value that cannot be encoded, or
  // a failure to send buffered replies, is the statement's error.
  virtual Status Row(const std::vector<Value>& row, const std::vector<ResultColumn>& columns,
                     const std::vector<int16_t>& formats) = 0;
  // The statement finished, with its command tag ("SELECT 3", "INSERT 0 1").
  virtual void Complete(std::string_view command_tag) = 0;
  // An Execute's row limit was reached; the portal may go on.
  virtual void Suspended() = 0;
  // The text held no statement.
  virtual void EmptyQuery() = 0;
  // The request's error: the statement (or message) failed.
  virtual void Error(const Status& error) = 0;

  // Extended-protocol steps.
  virtual void ParseComplete() = 0;
  virtual void BindComplete() = 0;
  virtual void CloseComplete() = 0;
  // The parameter types of a described statement.
  virtual void Parameters(const std::vector<Type>& types) = 0;
  // A described statement or portal returns no rows.
  virtual void NoData() = 0;

  // COPY TO: `columns` columns in the text format, then its lines (each
  // ends with '\n'), then the end. A failure to send is the COPY's error.
  virtual void CopyOutStart(size_t columns) = 0;
  virtual Status CopyOutLine(std::string_view line) = 0;
  virtual void CopyOutDone() = 0;
  // COPY FROM: tells the client to send `columns` columns of text, and
  // sends it at once (the client waits for it).
  virtual Status CopyInStart(size_t columns) = 0;
};

}  // namespace paceline::engine
