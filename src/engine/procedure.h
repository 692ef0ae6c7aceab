// Procedure: a stored procedure — a C++ function that runs one transaction by
// issuing SQL through a ProcedureContext. It declares up front the statement
// texts it may run (prepared once, executed by index: no SQL text lookups on
// the hot path) and may predict, from its arguments alone, which statements
// it will run with which parameters (what the scheduler reads as its
// footprint).
//
// A procedure ends its transaction by returning: OK commits; an error rolls
// back. ProcedureContext::Rollback marks a business-rule abort (TPC-C's
// invalid item): rolled back, reported as a user abort, never retried.
//
// Thread-safety: a Procedure is immutable once registered and its body may
// run on many threads at once; a ProcedureContext belongs to one execution.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "engine/query_result.h"
#include "engine/transaction_request.h"

namespace paceline::engine {

class ProcedureContext {
 public:
  virtual ~ProcedureContext() = default;
  // Runs declared statement number `statement` with parameters $1..$n.
  virtual Status Execute(size_t statement, const std::vector<Value>& params, QueryResult* result) = 0;
  // Ends the transaction as a business-rule abort; return its Status from
  // the body: `return ctx.Rollback("item number is not valid");`.
  virtual Status Rollback(std::string message) = 0;
};

struct Procedure {
  std::string name;
  std::vector<std::string> statements;  // the SQL it may run, by index
  std::function<Status(ProcedureContext& ctx, const std::vector<Value>& args)> body;
  // Optional: the statement calls (declared texts with parameters) the body
  // will make for `args`, as far as the arguments determine them.
  std::function<void(const std::vector<Value>& args, std::vector<StatementCall>* calls)> predict;
};

}  // namespace paceline::engine
