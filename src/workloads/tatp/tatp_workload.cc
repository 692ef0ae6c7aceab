// TatpWorkload: schema and population, the mix, and the consistency check.
#include "workloads/tatp/tatp_workload.h"

#include <algorithm>
#include <array>
#include <limits>

#include "engine/session.h"
#include "workloads/statement_latency.h"

namespace paceline::workloads::tatp {

namespace {

// Subscribers per round of BulkLoad calls (one per table): bounds the
// loader's memory (about 2.5 access_info, 2.5 special_facility and 3.75
// call_forwarding rows each).
constexpr uint64_t kLoadChunkSubscribers = 10000;

std::vector<std::string> SchemaStatements() {
  std::string subscriber = "CREATE TABLE subscriber (\n  s_id INT NOT NULL,\n  sub_nbr VARCHAR(15) NOT NULL UNIQUE,\n";
  for (const char* group : {"bit_", "hex_", "byte2_"}) {
    for (int i = 1; i <= 10; ++i) subscriber += "  " + std::string(group) + std::to_string(i) + " SMALLINT,\n";
  }
  subscriber += "  msc_location INT,\n  vlr_location INT,\n  PRIMARY KEY (s_id))";
  return {
      subscriber,
      R"(CREATE TABLE access_info (
  s_id INT NOT NULL REFERENCES subscriber (s_id),
  ai_type SMALLINT NOT NULL,
  data1 SMALLINT,
  data2 SMALLINT,
  data3 VARCHAR(3),
  data4 VARCHAR(5),
  PRIMARY KEY (s_id, ai_type)))",
      R"(CREATE TABLE special_facility (
  s_id INT NOT NULL REFERENCES subscriber (s_id),
  sf_type SMALLINT NOT NULL,
  is_active SMALLINT NOT NULL,
  error_cntrl SMALLINT,
  data_a SMALLINT,
  data_b VARCHAR(5),
  PRIMARY KEY (s_id, sf_type)))",
      R"(CREATE TABLE call_forwarding (
  s_id INT NOT NULL,
  sf_type SMALLINT NOT NULL,
  start_time SMALLINT NOT NULL,
  end_time SMALLINT NOT NULL,
  numberx VARCHAR(15),
  PRIMARY KEY (s_id, sf_type, start_time),
  FOREIGN KEY (s_id, sf_type) REFERENCES special_facility (s_id, sf_type)))",
  };
}

// `count` distinct values of `from`, uniformly chosen, ascending.
template <size_t N>
std::vector<int> DistinctSubset(Random& rng, std::array<int, N> from, int64_t count) {
  const auto k = static_cast<size_t>(count);
  for (size_t i = 0; i < k; ++i) {  // partial Fisher-Yates
    std::swap(from[i], from[static_cast<size_t>(Uniform(rng, static_cast<int64_t>(i), N - 1))]);
  }
  std::vector<int> chosen(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(k));
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

constexpr std::array<int, kMaxType> kTypes = {1, 2, 3, 4};

Status Count(engine::Session& session, const std::string& sql, int64_t* out) {
  QueryResult r;
  PL_RETURN_IF_ERROR(session.Execute(sql, &r));
  if (r.rows.size() != 1 || r.rows[0].size() != 1 || r.rows[0][0].is_null()) {
    return Status(sqlstate::kInternalError, "tatp: " + sql + " returned no single count");
  }
  *out = r.rows[0][0].int_value();
  return Status::OK();
}

}  // namespace

TatpWorkload::TatpWorkload(const TatpOptions& options)
    : options_(options),
      hot_(options.subscribers, options.hot_records, options.hot_fraction, options.seed),
      clock_(options.hot_shift) {
  for (const TatpTransactionType& t : TatpMix()) types_.emplace_back(t.name);
}

Status TatpWorkload::Setup(engine::Database* db) {
  PL_RETURN_IF_ERROR(options_.Validate());
  PL_RETURN_IF_ERROR(CreateSchema(db));
  PL_RETURN_IF_ERROR(Load(db));
  loaded_rows_ = initial_.total();
  return RegisterProcedures(db);
}

Status TatpWorkload::Attach(engine::Database* db) {
  PL_RETURN_IF_ERROR(options_.Validate());
  PL_RETURN_IF_ERROR(RegisterProcedures(db));
  // What the run starts from is what the database holds now.
  auto session = db->CreateSession();
  int64_t n[4];
  PL_RETURN_IF_ERROR(Count(*session, "SELECT count(*) FROM subscriber", &n[0]));
  PL_RETURN_IF_ERROR(Count(*session, "SELECT count(*) FROM access_info", &n[1]));
  PL_RETURN_IF_ERROR(Count(*session, "SELECT count(*) FROM special_facility", &n[2]));
  PL_RETURN_IF_ERROR(Count(*session, "SELECT count(*) FROM call_forwarding", &n[3]));
  initial_ = {static_cast<uint64_t>(n[0]), static_cast<uint64_t>(n[1]), static_cast<uint64_t>(n[2]),
              static_cast<uint64_t>(n[3])};
  return Status::OK();
}

Status TatpWorkload::CreateSchema(engine::Database* db) const {
  auto session = db->CreateSession();
  QueryResult r;
  for (const std::string& sql : SchemaStatements()) PL_RETURN_IF_ERROR(session->Execute(sql, &r));
  return Status::OK();
}

Status TatpWorkload::Load(engine::Database* db) {
  Random rng(options_.seed);
  constexpr int64_t kMaxLocation = std::numeric_limits<int32_t>::max();
  std::vector<std::vector<Value>> subscribers, access_info, special_facility, call_forwarding;
  initial_ = {};
  auto flush = [&]() -> Status {
    PL_RETURN_IF_ERROR(db->BulkLoad("subscriber", subscribers));
    PL_RETURN_IF_ERROR(db->BulkLoad("access_info", access_info));
    PL_RETURN_IF_ERROR(db->BulkLoad("special_facility", special_facility));
    PL_RETURN_IF_ERROR(db->BulkLoad("call_forwarding", call_forwarding));
    initial_.subscriber += subscribers.size();
    initial_.access_info += access_info.size();
    initial_.special_facility += special_facility.size();
    initial_.call_forwarding += call_forwarding.size();
    subscribers.clear();
    access_info.clear();
    special_facility.clear();
    call_forwarding.clear();
    return Status::OK();
  };
  for (int64_t s_id = 1; s_id <= static_cast<int64_t>(options_.subscribers); ++s_id) {
    std::vector<Value> row;
    row.reserve(34);
    row.push_back(Int(s_id));
    row.push_back(Varchar(SubscriberNumber(s_id)));
    for (int i = 0; i < 10; ++i) row.push_back(SmallInt(Uniform(rng, 0, 1)));    // bit_i
    for (int i = 0; i < 10; ++i) row.push_back(SmallInt(Uniform(rng, 0, 15)));   // hex_i
    for (int i = 0; i < 10; ++i) row.push_back(SmallInt(Uniform(rng, 0, 255)));  // byte2_i
    row.push_back(Int(Uniform(rng, 1, kMaxLocation)));  // msc_location
    row.push_back(Int(Uniform(rng, 1, kMaxLocation)));  // vlr_location
    subscribers.push_back(std::move(row));

    for (int ai_type : DistinctSubset(rng, kTypes, Uniform(rng, 1, kMaxType))) {
      const int64_t data1 = Uniform(rng, 0, 255);
      const int64_t data2 = Uniform(rng, 0, 255);
      std::string data3 = RandomLetters(rng, 3);
      access_info.push_back({Int(s_id), SmallInt(ai_type), SmallInt(data1), SmallInt(data2), Varchar(std::move(data3)),
                             Varchar(RandomLetters(rng, 5))});
    }
    for (int sf_type : DistinctSubset(rng, kTypes, Uniform(rng, 1, kMaxType))) {
      const bool active = Uniform(rng, 1, 100) <= 85;
      const int64_t error_cntrl = Uniform(rng, 0, 255);
      const int64_t data_a = Uniform(rng, 0, 255);
      special_facility.push_back({Int(s_id), SmallInt(sf_type), SmallInt(active ? 1 : 0), SmallInt(error_cntrl),
                                  SmallInt(data_a), Varchar(RandomLetters(rng, 5))});
      for (int start : DistinctSubset(rng, kStartTimes, Uniform(rng, 0, 3))) {
        const int64_t end = start + Uniform(rng, 1, 8);
        call_forwarding.push_back(
            {Int(s_id), SmallInt(sf_type), SmallInt(start), SmallInt(end), Varchar(RandomDigits(rng, 15))});
      }
    }
    if (subscribers.size() == kLoadChunkSubscribers) PL_RETURN_IF_ERROR(flush());
  }
  return flush();
}

Status TatpWorkload::RegisterProcedures(engine::Database* db) const {
  for (const TatpTransactionType& t : TatpMix()) {
    PL_RETURN_IF_ERROR(db->RegisterProcedure(WithStatementLatency(t.make(), options_.statement_latency)));
  }
  return Status::OK();
}

void TatpWorkload::Next(Random& rng, GeneratedTransaction* out) const {
  const auto& mix = TatpMix();
  // The first type whose cumulative weight reaches u (weights add up to 100).
  const int64_t u = Uniform(rng, 1, 100);
  size_t type = 0;
  int64_t running = mix[0].weight;
  while (running < u && type + 1 < mix.size()) running += mix[++type].weight;
  const int64_t s_id = static_cast<int64_t>(hot_.Draw(rng, clock_.Epoch())) + 1;
  out->type = type;
  out->request.statements.clear();
  out->request.procedure = mix[type].procedure;
  mix[type].draw(rng, s_id, &out->request.args);
}

void TatpWorkload::OnFinished(const GeneratedTransaction& txn, const engine::TransactionResult& result) {
  if (!result.committed()) return;
  if (txn.type == static_cast<size_t>(TatpTransaction::kInsertCallForwarding)) {
    committed_inserts_.fetch_add(1, std::memory_order_relaxed);
  } else if (txn.type == static_cast<size_t>(TatpTransaction::kDeleteCallForwarding)) {
    committed_deletes_.fetch_add(1, std::memory_order_relaxed);
  }
}

Status TatpWorkload::Check(engine::Database* db, std::string* report) const {
  struct Condition {
    std::string name;  // "call_forwarding rows"
    std::string rule;  // "count(*) = loaded + committed inserts - committed deletes"
    std::string sql;   // one count
    int64_t expected;
  };
  const auto inserts = static_cast<int64_t>(committed_inserts());
  const auto deletes = static_cast<int64_t>(committed_deletes());
  const Condition conditions[] = {
      {"subscriber rows", "count(*) = --tatp-subscribers", "SELECT count(*) FROM subscriber",
       static_cast<int64_t>(options_.subscribers)},
      {"access_info rows", "count(*) = loaded", "SELECT count(*) FROM access_info",
       static_cast<int64_t>(initial_.access_info)},
      {"special_facility rows", "count(*) = loaded", "SELECT count(*) FROM special_facility",
       static_cast<int64_t>(initial_.special_facility)},
      {"call_forwarding rows",
       "count(*) = loaded " + std::to_string(initial_.call_forwarding) + " + committed inserts " +
           std::to_string(inserts) + " - committed deletes " + std::to_string(deletes),
       "SELECT count(*) FROM call_forwarding", static_cast<int64_t>(initial_.call_forwarding) + inserts - deletes},
      {"access_info references", "rows without their subscriber = 0",
       "SELECT count(*) FROM access_info ai LEFT JOIN subscriber s ON s.s_id = ai.s_id WHERE s.s_id IS NULL", 0},
      {"special_facility references", "rows without their subscriber = 0",
       "SELECT count(*) FROM special_facility sf LEFT JOIN subscriber s ON s.s_id = sf.s_id WHERE s.s_id IS NULL", 0},
      {"call_forwarding references", "rows without their special_facility (s_id, sf_type) = 0",
       "SELECT count(*) FROM call_forwarding cf LEFT JOIN special_facility sf "
       "ON sf.s_id = cf.s_id AND sf.sf_type = cf.sf_type WHERE sf.s_id IS NULL",
       0},
      {"access_info types", "rows with ai_type outside 1..4 = 0",
       "SELECT count(*) FROM access_info WHERE ai_type < 1 OR ai_type > 4", 0},
      {"special_facility types", "rows with sf_type outside 1..4 = 0",
       "SELECT count(*) FROM special_facility WHERE sf_type < 1 OR sf_type > 4", 0},
      {"call_forwarding times", "rows with start_time not in {0, 8, 16} or end_time <= start_time = 0",
       "SELECT count(*) FROM call_forwarding WHERE start_time NOT IN (0, 8, 16) OR end_time <= start_time", 0},
  };
  auto session = db->CreateSession();
  Status first_violation;
  for (const Condition& c : conditions) {
    int64_t actual = 0;
    PL_RETURN_IF_ERROR(Count(*session, c.sql, &actual));
    const bool ok = actual == c.expected;
    const std::string comparison = std::to_string(actual) + (ok ? " = " : " != ") + std::to_string(c.expected);
    if (report != nullptr) {
      *report += "tatp " + c.name + " (" + c.rule + "): " + comparison + (ok ? " ok\n" : " VIOLATED\n");
    }
    if (!ok && first_violation.ok()) {
      first_violation =
          Status(sqlstate::kInternalError, "tatp " + c.name + " VIOLATED (" + c.rule + "): " + comparison);
    }
  }
  return first_violation;
}

std::vector<std::pair<std::string, std::string>> TatpWorkload::Describe() const {
  return {
      {"tatp_subscribers", std::to_string(options_.subscribers)},
      {"hot_records", std::to_string(options_.hot_records)},
      {"hot_fraction", ShortNumber(options_.hot_fraction)},
      {"hot_shift_s", ShortNumber(std::chrono::duration<double>(options_.hot_shift).count())},
      {"stmt_latency_us", std::to_string(options_.statement_latency.count())},
      {"tatp_seed", std::to_string(options_.seed)},
  };
}

}  // namespace paceline::workloads::tatp
