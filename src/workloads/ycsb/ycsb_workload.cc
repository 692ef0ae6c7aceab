// YcsbWorkload: schema and load, the ycsb_transaction procedure, the
// generator and the consistency check.
#include "workloads/ycsb/ycsb_workload.h"

#include <algorithm>
#include <numeric>

#include "engine/session.h"
#include "workloads/statement_latency.h"

namespace paceline::workloads::ycsb {

namespace {

constexpr size_t kLoadChunkRows = 10000;  // rows per BulkLoad call: bounds the loader's memory

// The procedure's statements: three per field, at 3 * field + kind.
constexpr size_t kStatementsPerField = 3;
constexpr size_t kRead = 0;
constexpr size_t kReadForUpdate = 1;
constexpr size_t kWrite = 2;

// 64 printable characters: each takes 6 bits of a random draw.
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static_assert(sizeof(kAlphabet) - 1 == 64);

std::string FieldName(int field) { return "field" + std::to_string(field); }

// A string of exactly `length` characters of kAlphabet.
std::string RandomField(int length, Random& rng) {
  std::string s(static_cast<size_t>(length), ' ');
  uint64_t bits = 0;
  int left = 0;  // unused 6-bit groups in `bits`
  for (char& c : s) {
    if (left == 0) {
      bits = rng();
      left = 10;
    }
    c = kAlphabet[bits & 63];
    bits >>= 6;
    --left;
  }
  return s;
}

// A uniform double in [0, 1) from the top 53 bits of one draw (never 1.0,
// unlike some std::uniform_real_distribution implementations).
double Uniform01(Random& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// The read-modify-write's new value: the old one rotated left by one
// character (same length, so it always fits VARCHAR(L)).
std::string Modified(const std::string& old) {
  if (old.empty()) return old;
  return old.substr(1) + old[0];
}

Status BadArguments(std::string why) {
  return Status(sqlstate::kInvalidParameterValue,
                std::string(YcsbWorkload::kProcedureName) + ": " + std::move(why) +
                    " (expected triples of key INT, field INT, write BOOL)");
}

// The number of read-modify-writes among the procedure arguments.
uint64_t CountWrites(const std::vector<Value>& args) {
  uint64_t writes = 0;
  for (size_t i = 2; i < args.size(); i += 3) {
    if (args[i].type() == TypeId::kBool && !args[i].is_null() && args[i].bool_value()) ++writes;
  }
  return writes;
}

Status ToInt64(const Value& v, int64_t* out) {
  if (v.is_null()) {
    *out = 0;  // sum() over no rows
    return Status::OK();
  }
  Value cast;
  PL_RETURN_IF_ERROR(CastValue(v, Type(TypeId::kInt64), false, &cast));
  *out = cast.int_value();
  return Status::OK();
}

}  // namespace

YcsbWorkload::YcsbWorkload(const YcsbOptions& options)
    : options_(options), zipfian_(options.records, options.theta), clock_(options.hot_shift) {}

uint64_t YcsbWorkload::KeyOfRank(uint64_t rank, uint64_t epoch) const {
  const uint64_t n = options_.records;
  if (epoch == 0 || n == 1) return rank;
  // a and b from a chain of well-mixed seeds (cheap: no generator to set up
  // per draw); a is redrawn until coprime to n (about 2 tries on average).
  uint64_t x = EpochSeed(options_.seed, epoch);
  uint64_t a = x % n;
  while (a == 0 || std::gcd(a, n) != 1) a = (x = EpochSeed(x, 1)) % n;
  const uint64_t b = EpochSeed(x, 2) % n;
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * rank + b) % n);
}

engine::Procedure YcsbWorkload::MakeProcedure() const {
  engine::Procedure p;
  p.name = kProcedureName;
  for (int f = 0; f < options_.fields; ++f) {
    const std::string field = FieldName(f);
    p.statements.push_back("SELECT " + field + " FROM usertable WHERE ycsb_key = $1");
    p.statements.push_back("SELECT " + field + " FROM usertable WHERE ycsb_key = $1 FOR UPDATE");
    p.statements.push_back("UPDATE usertable SET " + field +
                           " = $2, ycsb_updates = ycsb_updates + 1 WHERE ycsb_key = $1");
  }
  const int fields = options_.fields;
  p.body = [fields](engine::ProcedureContext& ctx, const std::vector<Value>& args) -> Status {
    if (args.size() % 3 != 0) return BadArguments(std::to_string(args.size()) + " arguments");
    QueryResult r;
    for (size_t i = 0; i < args.size(); i += 3) {
      const Value& key = args[i];
      const Value& field = args[i + 1];
      const Value& write = args[i + 2];
      if (key.is_null() || key.type() != TypeId::kInt32 || field.is_null() || field.type() != TypeId::kInt32 ||
          write.is_null() || write.type() != TypeId::kBool) {
        return BadArguments("operation " + std::to_string(i / 3) + " has arguments of the wrong types");
      }
      if (field.int_value() < 0 || field.int_value() >= fields) {
        return BadArguments("field " + field.ToString() + " out of range [0, " + std::to_string(fields) + ")");
      }
      const size_t base = static_cast<size_t>(field.int_value()) * kStatementsPerField;
      PL_RETURN_IF_ERROR(ctx.Execute(base + (write.bool_value() ? kReadForUpdate : kRead), {key}, &r));
      if (r.rows.empty()) {
        return Status(sqlstate::kInternalError, "ycsb: no row with ycsb_key = " + key.ToString());
      }
      if (!write.bool_value()) continue;
      const Value& old = r.rows[0][0];
      Value updated = Value::String(TypeId::kVarchar, old.is_null() ? std::string() : Modified(old.string_value()));
      PL_RETURN_IF_ERROR(ctx.Execute(base + kWrite, {key, std::move(updated)}, &r));
      if (r.rows_affected != 1) {
        return Status(sqlstate::kInternalError, "ycsb: the UPDATE of ycsb_key = " + key.ToString() + " changed " +
                                                    std::to_string(r.rows_affected) + " rows, not 1");
      }
    }
    return Status::OK();
  };
  // Every key, read or written; the written value is computed inside.
  p.predict = [fields](const std::vector<Value>& args, engine::StatementPredictions& out) {
    for (size_t i = 0; i + 2 < args.size(); i += 3) {
      const Value& key = args[i];
      const Value& field = args[i + 1];
      const Value& write = args[i + 2];
      if (field.is_null() || field.type() != TypeId::kInt32 || write.is_null() || write.type() != TypeId::kBool ||
          field.int_value() < 0 || field.int_value() >= fields) {
        return;  // the body rejects the call
      }
      const size_t base = static_cast<size_t>(field.int_value()) * kStatementsPerField;
      out.Add(base + (write.bool_value() ? kReadForUpdate : kRead), {key});
      if (write.bool_value()) out.Add(base + kWrite, {key, Value()});
    }
  };
  return p;
}

Status YcsbWorkload::Setup(engine::Database* db) {
  const std::string length = std::to_string(options_.field_length);
  std::string ddl = "CREATE TABLE usertable (ycsb_key INT PRIMARY KEY, ycsb_updates BIGINT NOT NULL";
  for (int f = 0; f < options_.fields; ++f) ddl += ", " + FieldName(f) + " VARCHAR(" + length + ")";
  ddl += ")";
  {
    auto session = db->CreateSession();
    QueryResult r;
    PL_RETURN_IF_ERROR(session->Execute(ddl, &r));
  }

  Random rng(options_.seed);
  std::vector<std::vector<Value>> rows;
  for (uint64_t first = 0; first < options_.records; first += kLoadChunkRows) {
    const uint64_t end = std::min<uint64_t>(options_.records, first + kLoadChunkRows);
    rows.clear();
    rows.reserve(end - first);
    for (uint64_t key = first; key < end; ++key) {
      std::vector<Value> row;
      row.reserve(2 + static_cast<size_t>(options_.fields));
      row.push_back(Value::Int32(static_cast<int32_t>(key)));
      row.push_back(Value::Int64(0));
      for (int f = 0; f < options_.fields; ++f) {
        row.push_back(Value::String(TypeId::kVarchar, RandomField(options_.field_length, rng)));
      }
      rows.push_back(std::move(row));
    }
    PL_RETURN_IF_ERROR(db->BulkLoad("usertable", rows));
    loaded_rows_ += rows.size();
  }
  return Attach(db);
}

Status YcsbWorkload::Attach(engine::Database* db) {
  return db->RegisterProcedure(WithStatementLatency(MakeProcedure(), options_.statement_latency));
}

void YcsbWorkload::Next(Random& rng, GeneratedTransaction* out) const {
  const auto operations = static_cast<size_t>(options_.operations);
  std::vector<uint64_t> keys;
  keys.reserve(operations);
  const uint64_t epoch = clock_.Epoch();
  while (keys.size() < operations) {  // distinct keys: redraw a repeated one
    const uint64_t key = KeyOfRank(zipfian_.Next(rng), epoch);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  std::uniform_int_distribution<int> field(0, options_.fields - 1);
  std::vector<Value> args;
  args.reserve(3 * operations);
  bool any_write = false;
  for (uint64_t key : keys) {
    const bool write = !(Uniform01(rng) < options_.read_fraction);
    any_write |= write;
    args.push_back(Value::Int32(static_cast<int32_t>(key)));
    args.push_back(Value::Int32(field(rng)));
    args.push_back(Value::Bool(write));
  }
  out->type = any_write ? kReadWrite : kReadOnly;
  out->request = engine::TransactionRequest::Call(kProcedureName, std::move(args));
}

void YcsbWorkload::OnFinished(const GeneratedTransaction& txn, const engine::TransactionResult& result) {
  if (!result.committed() || txn.type != kReadWrite) return;
  committed_writes_.fetch_add(CountWrites(txn.request.args), std::memory_order_relaxed);
}

Status YcsbWorkload::Check(engine::Database* db, std::string* report) const {
  auto session = db->CreateSession();
  QueryResult r;
  PL_RETURN_IF_ERROR(session->Execute("SELECT count(*), sum(ycsb_updates) FROM usertable", &r));
  if (r.rows.size() != 1 || r.rows[0].size() != 2) {
    return Status(sqlstate::kInternalError, "ycsb: SELECT count(*), sum(ycsb_updates) returned no single row");
  }
  int64_t rows = 0, updates = 0;
  PL_RETURN_IF_ERROR(ToInt64(r.rows[0][0], &rows));
  PL_RETURN_IF_ERROR(ToInt64(r.rows[0][1], &updates));
  const auto records = static_cast<int64_t>(options_.records);
  const auto writes = static_cast<int64_t>(committed_writes());

  const bool rows_ok = rows == records;
  const bool updates_ok = updates == writes;
  *report += "ycsb rows (count(*) = --ycsb-records): " + std::to_string(rows) + (rows_ok ? " = " : " != ") +
             std::to_string(records) + (rows_ok ? " ok\n" : " VIOLATED\n");
  *report += "ycsb updates (sum(ycsb_updates) = committed read-modify-writes): " + std::to_string(updates) +
             (updates_ok ? " = " : " != ") + std::to_string(writes) + (updates_ok ? " ok\n" : " VIOLATED\n");
  if (!rows_ok) {
    return Status(sqlstate::kInternalError, "ycsb rows: usertable has " + std::to_string(rows) + " rows, expected " +
                                                std::to_string(records) + " (--ycsb-records)");
  }
  if (!updates_ok) {
    return Status(sqlstate::kInternalError,
                  "ycsb updates: sum(ycsb_updates) is " + std::to_string(updates) +
                      " but committed transactions made " + std::to_string(writes) +
                      " read-modify-writes (an update was lost, applied twice, or left behind by an aborted "
                      "transaction)");
  }
  return Status::OK();
}

std::vector<std::pair<std::string, std::string>> YcsbWorkload::Describe() const {
  return {
      {"ycsb_records", std::to_string(options_.records)},
      {"ycsb_fields", std::to_string(options_.fields)},
      {"ycsb_field_length", std::to_string(options_.field_length)},
      {"ycsb_operations", std::to_string(options_.operations)},
      {"ycsb_read_fraction", ShortNumber(options_.read_fraction)},
      {"ycsb_theta", ShortNumber(options_.theta)},
      {"stmt_latency_us", std::to_string(options_.statement_latency.count())},
      {"ycsb_seed", std::to_string(options_.seed)},
      {"hot_shift_s", ShortNumber(static_cast<double>(options_.hot_shift.count()) / 1e9)},
  };
}

}  // namespace paceline::workloads::ycsb
