// The six SmallBank procedures: one statement list shared by all, a body
// and a prediction each (smallbank_procedures.h).
#include "workloads/smallbank/smallbank_procedures.h"

#include <string>

namespace paceline::workloads::smallbank {

namespace {

enum Statement : size_t {
  kAccount,
  kSavings,
  kChecking,
  kSavingsForUpdate,
  kCheckingForUpdate,
  kAddSavings,
  kAddChecking,
  kZeroSavings,
  kZeroChecking,
};

std::vector<std::string> Statements() {
  return {
      "SELECT name FROM accounts WHERE custid = $1",
      "SELECT bal FROM savings WHERE custid = $1",
      "SELECT bal FROM checking WHERE custid = $1",
      "SELECT bal FROM savings WHERE custid = $1 FOR UPDATE",
      "SELECT bal FROM checking WHERE custid = $1 FOR UPDATE",
      "UPDATE savings SET bal = bal + $2 WHERE custid = $1",
      "UPDATE checking SET bal = bal + $2 WHERE custid = $1",
      "UPDATE savings SET bal = 0 WHERE custid = $1",
      "UPDATE checking SET bal = 0 WHERE custid = $1",
  };
}

bool IsInt(const Value& v) { return !v.is_null() && Type(v.type()).IsInteger(); }

Status BadArguments(const std::string& procedure, const std::string& expected) {
  return Status(sqlstate::kInvalidParameterValue, procedure + ": expected arguments " + expected);
}

// OK when the customer has an account; otherwise the business abort (a
// Status to return from the body).
Status RequireAccount(engine::ProcedureContext& ctx, const Value& custid) {
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(kAccount, {custid}, &r));
  if (r.rows.empty()) return ctx.Rollback("unknown customer " + custid.ToString());
  return Status::OK();
}

// One balance (a single row; its absence is an internal error: accounts,
// savings and checking are loaded together and never lose rows).
Status ReadBalance(engine::ProcedureContext& ctx, size_t statement, const Value& custid, int64_t* bal) {
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(statement, {custid}, &r));
  if (r.rows.size() != 1 || r.rows[0].empty() || r.rows[0][0].is_null()) {
    return Status(sqlstate::kInternalError,
                  "smallbank: no balance for customer " + custid.ToString() + " who has an account");
  }
  *bal = r.rows[0][0].int_value();
  return Status::OK();
}

Status Update(engine::ProcedureContext& ctx, size_t statement, std::vector<Value> params) {
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(statement, params, &r));
  if (r.rows_affected != 1) {
    return Status(sqlstate::kInternalError, "smallbank: an update of customer " + params[0].ToString() + " changed " +
                                                std::to_string(r.rows_affected) + " rows, not 1");
  }
  return Status::OK();
}

Value Cents(int64_t v) { return Value::Int64(v); }

// A one-row, one-column BIGINT result for ProcedureContext::Return.
QueryResult OneAmount(const char* column, int64_t cents) {
  QueryResult r;
  r.columns = {{column, Type(TypeId::kInt64)}};
  r.rows = {{Cents(cents)}};
  r.returns_rows = true;
  r.rows_affected = 1;
  r.command_tag = "SELECT 1";
  return r;
}

engine::Procedure Make(const char* name) {
  engine::Procedure p;
  p.name = name;
  p.statements = Statements();
  return p;
}

engine::Procedure Amalgamate() {
  engine::Procedure p = Make(kAmalgamateProcedure);
  p.body = [](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() != 2 || !IsInt(args[0]) || !IsInt(args[1])) return BadArguments(kAmalgamateProcedure, "(INT, INT)");
    const Value& from = args[0];
    const Value& to = args[1];
    PL_RETURN_IF_ERROR(RequireAccount(ctx, from));
    PL_RETURN_IF_ERROR(RequireAccount(ctx, to));
    int64_t savings = 0, checking = 0;
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kSavingsForUpdate, from, &savings));
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kCheckingForUpdate, from, &checking));
    PL_RETURN_IF_ERROR(Update(ctx, kZeroSavings, {from}));
    PL_RETURN_IF_ERROR(Update(ctx, kZeroChecking, {from}));
    return Update(ctx, kAddChecking, {to, Cents(savings + checking)});
  };
  p.predict = [](const std::vector<Value>& args, engine::StatementPredictions& out) {
    if (args.size() != 2) return;
    out.Add(kAccount, {args[0]});
    out.Add(kAccount, {args[1]});
    out.Add(kSavingsForUpdate, {args[0]});
    out.Add(kCheckingForUpdate, {args[0]});
    out.Add(kZeroSavings, {args[0]});
    out.Add(kZeroChecking, {args[0]});
    out.Add(kAddChecking, {args[1], Value()});
  };
  return p;
}

engine::Procedure Balance() {
  engine::Procedure p = Make(kBalanceProcedure);
  p.body = [](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() != 1 || !IsInt(args[0])) return BadArguments(kBalanceProcedure, "(INT)");
    PL_RETURN_IF_ERROR(RequireAccount(ctx, args[0]));
    int64_t savings = 0, checking = 0;
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kSavings, args[0], &savings));
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kChecking, args[0], &checking));
    ctx.Return(OneAmount("balance", savings + checking));
    return Status::OK();
  };
  p.predict = [](const std::vector<Value>& args, engine::StatementPredictions& out) {
    if (args.size() != 1) return;
    out.Add(kAccount, {args[0]});
    out.Add(kSavings, {args[0]});
    out.Add(kChecking, {args[0]});
  };
  return p;
}

engine::Procedure DepositChecking() {
  engine::Procedure p = Make(kDepositCheckingProcedure);
  p.body = [](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() != 2 || !IsInt(args[0]) || !IsInt(args[1])) {
      return BadArguments(kDepositCheckingProcedure, "(INT, BIGINT)");
    }
    if (args[1].int_value() < 0) return ctx.Rollback("a deposit must not be negative: " + args[1].ToString());
    PL_RETURN_IF_ERROR(RequireAccount(ctx, args[0]));
    return Update(ctx, kAddChecking, {args[0], args[1]});
  };
  p.predict = [](const std::vector<Value>& args, engine::StatementPredictions& out) {
    if (args.size() != 2) return;
    out.Add(kAccount, {args[0]});
    out.Add(kAddChecking, {args[0], args[1]});
  };
  return p;
}

engine::Procedure SendPayment() {
  engine::Procedure p = Make(kSendPaymentProcedure);
  p.body = [](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() != 3 || !IsInt(args[0]) || !IsInt(args[1]) || !IsInt(args[2])) {
      return BadArguments(kSendPaymentProcedure, "(INT, INT, BIGINT)");
    }
    const Value& from = args[0];
    const Value& to = args[1];
    const int64_t amount = args[2].int_value();
    if (amount < 0) return ctx.Rollback("a payment must not be negative: " + args[2].ToString());
    PL_RETURN_IF_ERROR(RequireAccount(ctx, from));
    PL_RETURN_IF_ERROR(RequireAccount(ctx, to));
    int64_t checking = 0;
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kCheckingForUpdate, from, &checking));
    if (checking < amount) return ctx.Rollback("insufficient funds in the checking account of " + from.ToString());
    PL_RETURN_IF_ERROR(Update(ctx, kAddChecking, {from, Cents(-amount)}));
    return Update(ctx, kAddChecking, {to, Cents(amount)});
  };
  p.predict = [](const std::vector<Value>& args, engine::StatementPredictions& out) {
    if (args.size() != 3 || !IsInt(args[2])) return;
    out.Add(kAccount, {args[0]});
    out.Add(kAccount, {args[1]});
    out.Add(kCheckingForUpdate, {args[0]});
    out.Add(kAddChecking, {args[0], Value()});
    out.Add(kAddChecking, {args[1], args[2]});
  };
  return p;
}

engine::Procedure TransactSavings() {
  engine::Procedure p = Make(kTransactSavingsProcedure);
  p.body = [](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() != 2 || !IsInt(args[0]) || !IsInt(args[1])) {
      return BadArguments(kTransactSavingsProcedure, "(INT, BIGINT)");
    }
    PL_RETURN_IF_ERROR(RequireAccount(ctx, args[0]));
    int64_t savings = 0;
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kSavingsForUpdate, args[0], &savings));
    if (savings + args[1].int_value() < 0) {
      return ctx.Rollback("insufficient funds in the savings account of " + args[0].ToString());
    }
    return Update(ctx, kAddSavings, {args[0], args[1]});
  };
  p.predict = [](const std::vector<Value>& args, engine::StatementPredictions& out) {
    if (args.size() != 2) return;
    out.Add(kAccount, {args[0]});
    out.Add(kSavingsForUpdate, {args[0]});
    out.Add(kAddSavings, {args[0], args[1]});
  };
  return p;
}

engine::Procedure WriteCheck() {
  engine::Procedure p = Make(kWriteCheckProcedure);
  p.body = [](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() != 2 || !IsInt(args[0]) || !IsInt(args[1])) {
      return BadArguments(kWriteCheckProcedure, "(INT, BIGINT)");
    }
    const int64_t amount = args[1].int_value();
    if (amount < 0) return ctx.Rollback("a check must not be negative: " + args[1].ToString());
    PL_RETURN_IF_ERROR(RequireAccount(ctx, args[0]));
    int64_t savings = 0, checking = 0;
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kSavings, args[0], &savings));
    PL_RETURN_IF_ERROR(ReadBalance(ctx, kCheckingForUpdate, args[0], &checking));
    const int64_t debit = savings + checking < amount ? amount + kOverdraftPenaltyCents : amount;
    PL_RETURN_IF_ERROR(Update(ctx, kAddChecking, {args[0], Cents(-debit)}));
    ctx.Return(OneAmount("debited", debit));
    return Status::OK();
  };
  p.predict = [](const std::vector<Value>& args, engine::StatementPredictions& out) {
    if (args.size() != 2) return;
    out.Add(kAccount, {args[0]});
    out.Add(kSavings, {args[0]});
    out.Add(kCheckingForUpdate, {args[0]});
    out.Add(kAddChecking, {args[0], Value()});
  };
  return p;
}

}  // namespace

std::vector<engine::Procedure> SmallbankProcedures() {
  return {Amalgamate(), Balance(), DepositChecking(), SendPayment(), TransactSavings(), WriteCheck()};
}

}  // namespace paceline::workloads::smallbank
