// SmallbankWorkload: schema and load, the mix, the ledger and the check.
#include "workloads/smallbank/smallbank_workload.h"

#include "engine/session.h"
#include "workloads/smallbank/smallbank_procedures.h"
#include "workloads/statement_latency.h"

namespace paceline::workloads::smallbank {

namespace {

constexpr uint64_t kLoadChunkRows = 10000;  // rows per BulkLoad call: bounds the loader's memory
constexpr int64_t kMinBalanceCents = 1000000;
constexpr int64_t kMaxBalanceCents = 5000000;
// The mix, in percent, in Type order.
constexpr int kMix[] = {15, 15, 15, 25, 15, 15};

// The single integer a one-row, one-column aggregate returned (NULL: 0).
Status OneInt(engine::Session& session, const std::string& sql, int64_t* out) {
  QueryResult r;
  PL_RETURN_IF_ERROR(session.Execute(sql, &r));
  if (r.rows.size() != 1 || r.rows[0].size() != 1) {
    return Status(sqlstate::kInternalError, "smallbank: " + sql + " returned no single value");
  }
  if (r.rows[0][0].is_null()) {
    *out = 0;
    return Status::OK();
  }
  Value cast;
  PL_RETURN_IF_ERROR(CastValue(r.rows[0][0], Type(TypeId::kInt64), false, &cast));
  *out = cast.int_value();
  return Status::OK();
}

Status TotalBalance(engine::Database* db, int64_t* total) {
  auto session = db->CreateSession();
  int64_t savings = 0, checking = 0;
  PL_RETURN_IF_ERROR(OneInt(*session, "SELECT sum(bal) FROM savings", &savings));
  PL_RETURN_IF_ERROR(OneInt(*session, "SELECT sum(bal) FROM checking", &checking));
  *total = savings + checking;
  return Status::OK();
}

}  // namespace

SmallbankWorkload::SmallbankWorkload(const SmallbankOptions& options)
    : options_(options),
      hot_(options.accounts, options.hot_records, options.hot_fraction, options.seed),
      clock_(options.hot_shift) {}

Status SmallbankWorkload::Setup(engine::Database* db) {
  PL_RETURN_IF_ERROR(options_.Validate());
  {
    auto session = db->CreateSession();
    QueryResult r;
    for (const char* ddl : {
             "CREATE TABLE accounts (custid INT PRIMARY KEY, name VARCHAR(64) NOT NULL)",
             "CREATE TABLE savings (custid INT PRIMARY KEY REFERENCES accounts (custid), bal BIGINT NOT NULL)",
             "CREATE TABLE checking (custid INT PRIMARY KEY REFERENCES accounts (custid), bal BIGINT NOT NULL)",
         }) {
      PL_RETURN_IF_ERROR(session->Execute(ddl, &r));
    }
  }
  Random rng(options_.seed);
  std::uniform_int_distribution<int64_t> balance(kMinBalanceCents, kMaxBalanceCents);
  std::vector<std::vector<Value>> accounts, savings, checking;
  int64_t total = 0;
  for (uint64_t first = 0; first < options_.accounts; first += kLoadChunkRows) {
    const uint64_t end = std::min<uint64_t>(options_.accounts, first + kLoadChunkRows);
    accounts.clear();
    savings.clear();
    checking.clear();
    for (uint64_t c = first; c < end; ++c) {
      const Value custid = Value::Int32(static_cast<int32_t>(c));
      const int64_t s = balance(rng), k = balance(rng);
      total += s + k;
      accounts.push_back({custid, Value::String(TypeId::kVarchar, "customer " + std::to_string(c))});
      savings.push_back({custid, Value::Int64(s)});
      checking.push_back({custid, Value::Int64(k)});
    }
    PL_RETURN_IF_ERROR(db->BulkLoad("accounts", accounts));
    PL_RETURN_IF_ERROR(db->BulkLoad("savings", savings));
    PL_RETURN_IF_ERROR(db->BulkLoad("checking", checking));
    loaded_rows_ += 3 * accounts.size();
  }
  initial_total_ = total;
  return Register(db);
}

Status SmallbankWorkload::Attach(engine::Database* db) {
  PL_RETURN_IF_ERROR(options_.Validate());
  PL_RETURN_IF_ERROR(TotalBalance(db, &initial_total_));
  return Register(db);
}

Status SmallbankWorkload::Register(engine::Database* db) const {
  for (engine::Procedure& p : SmallbankProcedures()) {
    PL_RETURN_IF_ERROR(db->RegisterProcedure(WithStatementLatency(std::move(p), options_.statement_latency)));
  }
  return Status::OK();
}

void SmallbankWorkload::Next(Random& rng, GeneratedTransaction* out) const {
  int draw = std::uniform_int_distribution<int>(0, 99)(rng);
  size_t type = 0;
  while (draw >= kMix[type]) draw -= kMix[type++];
  out->type = type;
  const uint64_t epoch = clock_.Epoch();
  auto customer = [&] { return Value::Int32(static_cast<int32_t>(hot_.Draw(rng, epoch))); };
  auto two_customers = [&] {
    const uint64_t a = hot_.Draw(rng, epoch);
    uint64_t b = hot_.Draw(rng, epoch);
    while (b == a) b = hot_.Draw(rng, epoch);  // accounts >= 2 (Validate); both hot or cold as drawn
    return std::vector<Value>{Value::Int32(static_cast<int32_t>(a)), Value::Int32(static_cast<int32_t>(b))};
  };
  engine::TransactionRequest& request = out->request;
  switch (static_cast<Type>(type)) {
    case kAmalgamate:
      request = engine::TransactionRequest::Call(kAmalgamateProcedure, two_customers());
      break;
    case kBalance:
      request = engine::TransactionRequest::Call(kBalanceProcedure, {customer()});
      break;
    case kDepositChecking:
      request = engine::TransactionRequest::Call(kDepositCheckingProcedure, {customer(), Value::Int64(kDepositCents)});
      break;
    case kSendPayment: {
      std::vector<Value> args = two_customers();
      args.push_back(Value::Int64(kPaymentCents));
      request = engine::TransactionRequest::Call(kSendPaymentProcedure, std::move(args));
      break;
    }
    case kTransactSavings: {
      const int64_t amount = std::bernoulli_distribution(0.5)(rng) ? kSavingsCents : -kSavingsCents;
      request = engine::TransactionRequest::Call(kTransactSavingsProcedure, {customer(), Value::Int64(amount)});
      break;
    }
    case kWriteCheck:
      request = engine::TransactionRequest::Call(kWriteCheckProcedure, {customer(), Value::Int64(kCheckCents)});
      break;
  }
}

void SmallbankWorkload::OnFinished(const GeneratedTransaction& txn, const engine::TransactionResult& result) {
  if (!result.committed()) return;
  const std::vector<Value>& args = txn.request.args;
  switch (static_cast<Type>(txn.type)) {
    case kDepositChecking:
    case kTransactSavings:
      deposits_.fetch_add(args[1].int_value(), std::memory_order_relaxed);
      break;
    case kWriteCheck:
      // The amount debited, penalty included, as the procedure returned it.
      if (!result.results.empty() && !result.results[0].rows.empty()) {
        checks_.fetch_add(result.results[0].rows[0][0].int_value(), std::memory_order_relaxed);
      }
      break;
    default:
      break;  // money moves between accounts only
  }
}

Status SmallbankWorkload::Check(engine::Database* db, std::string* report) const {
  auto session = db->CreateSession();
  const auto accounts = static_cast<int64_t>(options_.accounts);
  Status first;
  auto condition = [&](const std::string& what, int64_t found, int64_t expected, const std::string& why) {
    const bool ok = found == expected;
    *report += "smallbank " + what + ": " + std::to_string(found) + (ok ? " = " : " != ") + std::to_string(expected) +
               (ok ? " ok\n" : " VIOLATED\n");
    if (!ok && first.ok()) {
      first = Status(sqlstate::kInternalError, "smallbank " + what + ": " + std::to_string(found) + ", expected " +
                                                   std::to_string(expected) + " (" + why + ")");
    }
  };
  for (const char* table : {"accounts", "savings", "checking"}) {
    int64_t rows = 0;
    PL_RETURN_IF_ERROR(OneInt(*session, std::string("SELECT count(*) FROM ") + table, &rows));
    condition(std::string("rows of ") + table + " (= --smallbank-accounts)", rows, accounts,
              "no transaction inserts or deletes rows");
  }
  int64_t negative = 0;
  PL_RETURN_IF_ERROR(OneInt(*session, "SELECT count(*) FROM savings WHERE bal < 0", &negative));
  condition("negative savings balances", negative, 0, "TransactSavings never leaves savings negative");
  int64_t total = 0;
  PL_RETURN_IF_ERROR(TotalBalance(db, &total));
  const int64_t deposits = deposits_.load(std::memory_order_relaxed);
  const int64_t checks = checks_.load(std::memory_order_relaxed);
  condition("money (sum of balances = loaded " + std::to_string(initial_total_) + " + deposits " +
                std::to_string(deposits) + " - checks " + std::to_string(checks) + ")",
            total, initial_total_ + deposits - checks,
            "an update was lost, applied twice, or left behind by an aborted transaction");
  return first;
}

std::vector<std::pair<std::string, std::string>> SmallbankWorkload::Describe() const {
  return {
      {"smallbank_accounts", std::to_string(options_.accounts)},
      {"hot_records", std::to_string(options_.hot_records)},
      {"hot_fraction", ShortNumber(options_.hot_fraction)},
      {"hot_shift_s", ShortNumber(static_cast<double>(options_.hot_shift.count()) / 1e9)},
      {"stmt_latency_us", std::to_string(options_.statement_latency.count())},
      {"smallbank_seed", std::to_string(options_.seed)},
  };
}

}  // namespace paceline::workloads::smallbank
