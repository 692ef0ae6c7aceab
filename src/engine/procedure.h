// Procedure: a stored procedure — a C++ function that runs one transaction by
// issuing SQL through a ProcedureContext. It declares up front the statement
// texts it may run (prepared once, executed by index: no SQL text lookups on
// the hot path) and may predict, from its arguments alone, which statements
// it will run with which parameters (what the scheduler reads as its
// footprint).
//
// What `predict` is for: values computed inside the transaction (an order id
// read from a row) cannot be known before it runs; a prediction passes NULL
// for them and they yield no reference.
//
// A procedure ends its transaction by returning: OK commits; an error rolls
// back. ProcedureContext::Rollback marks a business-rule abort (TPC-C's
// invalid item): rolled back, reported as a user abort, never retried.
//
// Thread-safety: a Procedure is immutable once registered and its body may
// run on many threads at once; a ProcedureContext belongs to one execution.
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/value.h"
#include "common/query_result.h"
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
  // The procedure's result for its caller (TransactionResult::results, one
  // element), like a function's result set: what the committed attempt
  // last returned; nothing when it never calls this.
  virtual void Return(QueryResult result) = 0;
};

// Receives a procedure's predictions, one statement execution at a time.
class StatementPredictions {
 public:
  virtual ~StatementPredictions() = default;
  // Declared statement number `statement` will run with parameters
  // `params` ($1 first); NULL stands for a value computed at run time.
  virtual void Add(size_t statement, std::span<const Value> params) = 0;
  void Add(size_t statement, std::initializer_list<Value> params) {
    Add(statement, std::span<const Value>(params.begin(), params.size()));
  }
};

struct Procedure {
  std::string name;
  std::vector<std::string> statements;  // the SQL it may run, by index
  std::function<Status(ProcedureContext& ctx, const std::vector<Value>& args)> body;
  // Optional: the statements the body will run for `args` and how the
  // arguments feed their parameters, as far as the arguments determine them
  // (the transaction's footprint for the scheduler). Must be cheap, must not
  // throw, and must not assume `args` are valid (a malformed call is
  // rejected when the body runs): predict nothing for what it cannot read.
  std::function<void(const std::vector<Value>& args, StatementPredictions& out)> predict;
};

}  // namespace paceline::engine
