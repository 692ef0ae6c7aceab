// TATP without concurrency: the options, the population (within the spec's
// bounds, reproducible from the seed, loaded across chunks, attached to
// after recovery), the generator and the mix, each transaction's effects on
// a tiny database — the success paths and every expected failure (a user
// abort that changes nothing) — its predictions and the references the
// schedulers see, and the consistency check, which must pass after loading
// and after runs, and name the condition broken by data changed behind the
// workload's back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "engine/footprint_builder.h"
#include "tatp_test_database.h"
#include "test/engine/temp_dir.h"
#include "workloads/tatp/tatp_procedures.h"

namespace paceline::workloads::tatp {
namespace {

using engine::TransactionRequest;
using engine::TransactionResult;

bool AllOf(const std::string& s, int (*is)(int), size_t length) {
  return s.size() == length && std::all_of(s.begin(), s.end(), [is](char c) { return is(c) != 0; });
}

int64_t IntAt(const std::vector<Value>& row, size_t column) { return row[column].int_value(); }

// Every row of the four tables, in key order, as text: equal dumps, equal data.
std::string Dump(engine::Database* db) {
  std::string out;
  for (const char* sql : {"SELECT * FROM subscriber ORDER BY s_id", "SELECT * FROM access_info ORDER BY s_id, ai_type",
                          "SELECT * FROM special_facility ORDER BY s_id, sf_type",
                          "SELECT * FROM call_forwarding ORDER BY s_id, sf_type, start_time"}) {
    for (const auto& row : Query(db, sql).rows) {
      for (const Value& v : row) out += (v.is_null() ? std::string("NULL") : v.ToString()) + "|";
      out += "\n";
    }
    out += "--\n";
  }
  return out;
}

// --- Options -----------------------------------------------------------------

TEST(TatpOptionsTest, DefaultsAreValid) { EXPECT_TRUE(TatpOptions{}.Validate().ok()); }

TEST(TatpOptionsTest, OutOfRangeNamesTheFlagAndRange) {
  struct Case {
    void (*mutate)(TatpOptions*);
    std::string message;
  };
  const Case cases[] = {
      {[](TatpOptions* o) { o->subscribers = 0; }, "--tatp-subscribers must be between 1 and 10000000: 0"},
      {[](TatpOptions* o) { o->subscribers = 10000001; },
       "--tatp-subscribers must be between 1 and 10000000: 10000001"},
      {[](TatpOptions* o) {
         o->subscribers = 10;
         o->hot_records = 11;
       },
       "--hot-records must be between 0 and 10 (--tatp-subscribers): 11"},
      {[](TatpOptions* o) { o->hot_fraction = 1.5; }, "--hot-fraction must be in [0, 1]: 1.5"},
      {[](TatpOptions* o) { o->hot_fraction = -0.1; }, "--hot-fraction must be in [0, 1]: -0.1"},
      {[](TatpOptions* o) { o->hot_shift = std::chrono::seconds(-2); }, "--hot-shift-s must be positive"},
      {[](TatpOptions* o) { o->statement_latency = std::chrono::microseconds(-1); },
       "--stmt-latency-us must be at least 0: -1"},
  };
  for (const Case& c : cases) {
    TatpOptions o;
    c.mutate(&o);
    Status s = o.Validate();
    EXPECT_TRUE(s.Is(sqlstate::kInvalidParameterValue)) << c.message << ": " << s.ToString();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
  TatpOptions edge;
  edge.subscribers = 1;
  edge.hot_records = 1;
  edge.hot_fraction = 1;
  EXPECT_TRUE(edge.Validate().ok());
  edge.subscribers = 10000000;
  edge.hot_records = 0;
  edge.hot_fraction = 0;
  edge.hot_shift = std::chrono::milliseconds(1);
  EXPECT_TRUE(edge.Validate().ok());
}

// --- The workload's face -----------------------------------------------------

TEST(TatpWorkloadTest, NameTypesMixDescribeAndClock) {
  TatpOptions o = TinyTatpOptions();
  TatpWorkload workload(o);
  EXPECT_EQ(workload.Name(), "tatp");
  EXPECT_EQ(workload.TransactionTypes(),
            (std::vector<std::string>{"GetSubscriberData", "GetNewDestination", "GetAccessData", "UpdateSubscriberData",
                                      "UpdateLocation", "InsertCallForwarding", "DeleteCallForwarding"}));
  int total = 0;
  std::set<std::string_view> procedures;
  for (const TatpTransactionType& t : TatpMix()) {
    total += t.weight;
    procedures.insert(t.procedure);
    EXPECT_EQ(t.make().name, t.procedure);
  }
  EXPECT_EQ(total, 100);
  EXPECT_EQ(procedures.size(), kTatpTransactionCount);
  EXPECT_EQ(TatpType(TatpTransaction::kUpdateLocation).weight, 14);
  EXPECT_EQ(workload.hot_set_clock(), nullptr);  // the hot set never moves

  o.hot_shift = std::chrono::milliseconds(2500);
  o.hot_fraction = 0.75;
  o.statement_latency = std::chrono::microseconds(40);
  o.seed = 7;
  TatpWorkload moving(o);
  ASSERT_NE(moving.hot_set_clock(), nullptr);
  EXPECT_EQ(moving.hot_set_clock()->shift_seconds(), 2.5);
  std::map<std::string, std::string> d;
  for (const auto& [k, v] : moving.Describe()) d[k] = v;
  EXPECT_EQ(d, (std::map<std::string, std::string>{{"tatp_subscribers", "10"},
                                                   {"hot_records", "2"},
                                                   {"hot_fraction", "0.75"},
                                                   {"hot_shift_s", "2.5"},
                                                   {"stmt_latency_us", "40"},
                                                   {"tatp_seed", "7"}}));
}

TEST(TatpWorkloadTest, SubscriberNumberIsFifteenDigits) {
  EXPECT_EQ(SubscriberNumber(42), "000000000000042");
  EXPECT_EQ(SubscriberNumber(10000000), "000000010000000");
}

// The mix in its proportions, each type's inputs in the spec's ranges, the
// subscriber from the hot set (s_id = key + 1) and its sub_nbr.
TEST(TatpWorkloadTest, NextDrawsTheMixAndTheSpecsInputs) {
  TatpOptions o = TinyTatpOptions(100);
  o.hot_records = 5;
  o.hot_fraction = 0.9;
  TatpWorkload workload(o);
  std::set<int64_t> hot;
  for (uint64_t key : HotSet(o.subscribers, o.hot_records, o.hot_fraction, o.seed).HotKeys(0)) {
    hot.insert(static_cast<int64_t>(key) + 1);
  }
  ASSERT_EQ(hot.size(), 5u);

  constexpr int kDraws = 20000;
  Random rng(5);
  std::vector<int> per_type(kTatpTransactionCount, 0);
  int on_hot = 0;
  std::set<int64_t> end_minus_start;
  for (int i = 0; i < kDraws; ++i) {
    GeneratedTransaction t;
    workload.Next(rng, &t);
    ASSERT_LT(t.type, kTatpTransactionCount);
    ++per_type[t.type];
    const auto type = static_cast<TatpTransaction>(t.type);
    EXPECT_EQ(t.request.procedure, TatpType(type).procedure);
    EXPECT_TRUE(t.request.statements.empty());
    const std::vector<Value>& a = t.request.args;
    ASSERT_FALSE(a.empty());
    int64_t s_id = 0;
    if (a[0].type() == TypeId::kVarchar) {  // a sub_nbr
      ASSERT_TRUE(AllOf(a[0].string_value(), std::isdigit, 15)) << a[0].string_value();
      s_id = std::stoll(a[0].string_value());
    } else {
      ASSERT_EQ(a[0].type(), TypeId::kInt32);
      s_id = a[0].int_value();
    }
    ASSERT_GE(s_id, 1);
    ASSERT_LE(s_id, 100);
    on_hot += hot.count(s_id) != 0;
    auto in = [&](size_t i, int64_t lo, int64_t hi) {
      EXPECT_TRUE(Type(a[i].type()).IsInteger());
      EXPECT_GE(a[i].int_value(), lo) << TatpType(type).name << " argument " << i;
      EXPECT_LE(a[i].int_value(), hi) << TatpType(type).name << " argument " << i;
    };
    auto start_time = [&](size_t i) {
      EXPECT_TRUE(a[i].int_value() == 0 || a[i].int_value() == 8 || a[i].int_value() == 16) << a[i].ToString();
    };
    switch (type) {
      case TatpTransaction::kGetSubscriberData:
        EXPECT_EQ(a.size(), 1u);
        break;
      case TatpTransaction::kGetNewDestination:
        ASSERT_EQ(a.size(), 4u);
        in(1, 1, 4);
        start_time(2);
        in(3, 1, 24);
        break;
      case TatpTransaction::kGetAccessData:
        ASSERT_EQ(a.size(), 2u);
        in(1, 1, 4);
        break;
      case TatpTransaction::kUpdateSubscriberData:
        ASSERT_EQ(a.size(), 4u);
        in(1, 1, 4);
        in(2, 0, 1);
        in(3, 0, 255);
        break;
      case TatpTransaction::kUpdateLocation:
        ASSERT_EQ(a.size(), 2u);
        EXPECT_EQ(a[1].type(), TypeId::kInt32);
        EXPECT_GE(a[1].int_value(), 1);
        break;
      case TatpTransaction::kInsertCallForwarding:
        ASSERT_EQ(a.size(), 5u);
        in(1, 1, 4);
        start_time(2);
        in(3, a[2].int_value() + 1, a[2].int_value() + 8);
        end_minus_start.insert(a[3].int_value() - a[2].int_value());
        EXPECT_TRUE(AllOf(a[4].string_value(), std::isdigit, 15)) << a[4].string_value();
        break;
      case TatpTransaction::kDeleteCallForwarding:
        ASSERT_EQ(a.size(), 3u);
        in(1, 1, 4);
        start_time(2);
        break;
    }
  }
  for (size_t t = 0; t < kTatpTransactionCount; ++t) {
    const double share = static_cast<double>(per_type[t]) / kDraws;
    EXPECT_NEAR(share, TatpMix()[t].weight / 100.0, 0.015) << TatpMix()[t].name;
  }
  EXPECT_NEAR(static_cast<double>(on_hot) / kDraws, 0.9, 0.02);
  EXPECT_EQ(end_minus_start, (std::set<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

// --- Population ----------------------------------------------------------------

TEST(TatpLoadTest, PopulationIsWithinTheSpecsBounds) {
  std::unique_ptr<TatpWorkload> workload;
  auto db = OpenTatp(TinyTatpOptions(300), 0, &workload);
  ASSERT_NE(db, nullptr);
  const TatpRowCounts& n = workload->initial_rows();
  EXPECT_EQ(n.subscriber, 300u);
  EXPECT_EQ(Count(db.get(), "SELECT count(*) FROM subscriber"), 300);
  EXPECT_EQ(Count(db.get(), "SELECT count(*) FROM access_info"), static_cast<int64_t>(n.access_info));
  EXPECT_EQ(Count(db.get(), "SELECT count(*) FROM special_facility"), static_cast<int64_t>(n.special_facility));
  EXPECT_EQ(Count(db.get(), "SELECT count(*) FROM call_forwarding"), static_cast<int64_t>(n.call_forwarding));
  EXPECT_EQ(workload->loaded_rows(), n.total());

  // Subscribers: s_id 1..300, sub_nbr its 15 digits, bits, hex, byte2 and
  // locations in range (and not constant).
  QueryResult r = Query(db.get(), "SELECT * FROM subscriber ORDER BY s_id");
  ASSERT_EQ(r.rows.size(), 300u);
  ASSERT_EQ(r.columns.size(), 34u);
  EXPECT_EQ(r.columns[1].name, "sub_nbr");
  EXPECT_EQ(r.columns[33].name, "vlr_location");
  std::set<int64_t> bits, hex, byte2;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    EXPECT_EQ(IntAt(row, 0), static_cast<int64_t>(i + 1));
    EXPECT_EQ(row[1].string_value(), SubscriberNumber(IntAt(row, 0)));
    for (size_t c = 2; c < 12; ++c) bits.insert(IntAt(row, c));
    for (size_t c = 12; c < 22; ++c) hex.insert(IntAt(row, c));
    for (size_t c = 22; c < 32; ++c) byte2.insert(IntAt(row, c));
    EXPECT_GE(IntAt(row, 32), 1);
    EXPECT_GE(IntAt(row, 33), 1);
  }
  EXPECT_EQ(bits, (std::set<int64_t>{0, 1}));
  EXPECT_EQ(hex.size(), 16u);
  EXPECT_EQ(*hex.rbegin(), 15);
  EXPECT_GT(byte2.size(), 250u);
  EXPECT_LE(*byte2.rbegin(), 255);
  EXPECT_GE(*byte2.begin(), 0);

  // 1–4 access_info rows per subscriber, every count occurring; distinct
  // types in 1..4 (the primary key), data in range.
  std::set<int64_t> counts;
  for (const auto& row : Query(db.get(), "SELECT s_id, count(*) FROM access_info GROUP BY s_id").rows) {
    counts.insert(IntAt(row, 1));
  }
  EXPECT_EQ(counts, (std::set<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(Count(db.get(), "SELECT count(DISTINCT s_id) FROM access_info"), 300);
  for (const auto& row : Query(db.get(), "SELECT ai_type, data1, data2, data3, data4 FROM access_info").rows) {
    EXPECT_GE(IntAt(row, 0), 1);
    EXPECT_LE(IntAt(row, 0), 4);
    for (size_t c : {1, 2}) {
      EXPECT_GE(IntAt(row, c), 0);
      EXPECT_LE(IntAt(row, c), 255);
    }
    EXPECT_TRUE(AllOf(row[3].string_value(), std::isupper, 3)) << row[3].string_value();
    EXPECT_TRUE(AllOf(row[4].string_value(), std::isupper, 5)) << row[4].string_value();
  }

  // 1–4 special facilities per subscriber, 85% active.
  counts.clear();
  for (const auto& row : Query(db.get(), "SELECT s_id, count(*) FROM special_facility GROUP BY s_id").rows) {
    counts.insert(IntAt(row, 1));
  }
  EXPECT_EQ(counts, (std::set<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(Count(db.get(), "SELECT count(DISTINCT s_id) FROM special_facility"), 300);
  int active = 0;
  r = Query(db.get(), "SELECT sf_type, is_active, error_cntrl, data_a, data_b FROM special_facility");
  for (const auto& row : r.rows) {
    EXPECT_GE(IntAt(row, 0), 1);
    EXPECT_LE(IntAt(row, 0), 4);
    EXPECT_TRUE(IntAt(row, 1) == 0 || IntAt(row, 1) == 1);
    active += static_cast<int>(IntAt(row, 1));
    for (size_t c : {2, 3}) {
      EXPECT_GE(IntAt(row, c), 0);
      EXPECT_LE(IntAt(row, c), 255);
    }
    EXPECT_TRUE(AllOf(row[4].string_value(), std::isupper, 5)) << row[4].string_value();
  }
  EXPECT_NEAR(static_cast<double>(active) / static_cast<double>(r.rows.size()), 0.85, 0.06);

  // 0–3 call forwardings per special facility (1.5 on average), distinct
  // start times in {0, 8, 16}, 1–8 hours long, 15-digit numbers.
  counts.clear();
  for (const auto& row :
       Query(db.get(), "SELECT s_id, sf_type, count(*) FROM call_forwarding GROUP BY s_id, sf_type").rows) {
    counts.insert(IntAt(row, 2));
  }
  EXPECT_EQ(counts, (std::set<int64_t>{1, 2, 3}));
  const double per_facility = static_cast<double>(n.call_forwarding) / static_cast<double>(n.special_facility);
  EXPECT_NEAR(per_facility, 1.5, 0.2);
  std::set<int64_t> starts, lengths;
  for (const auto& row : Query(db.get(), "SELECT start_time, end_time, numberx FROM call_forwarding").rows) {
    starts.insert(IntAt(row, 0));
    lengths.insert(IntAt(row, 1) - IntAt(row, 0));
    EXPECT_TRUE(AllOf(row[2].string_value(), std::isdigit, 15)) << row[2].string_value();
  }
  EXPECT_EQ(starts, (std::set<int64_t>{0, 8, 16}));
  EXPECT_EQ(lengths, (std::set<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));

  // Check passes, one ok line per condition.
  std::string report;
  Status s = workload->Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  EXPECT_EQ(std::count(report.begin(), report.end(), '\n'), 10) << report;
  EXPECT_EQ(report.find("VIOLATED"), std::string::npos) << report;
  EXPECT_NE(report.find("tatp subscriber rows (count(*) = --tatp-subscribers): 300 = 300 ok"), std::string::npos)
      << report;
  EXPECT_NE(report.find("tatp call_forwarding references (rows without their special_facility (s_id, sf_type) = 0): "
                        "0 = 0 ok"),
            std::string::npos)
      << report;
}

TEST(TatpLoadTest, TheSeedDecidesTheData) {
  std::unique_ptr<TatpWorkload> a, b, c;
  auto db_a = OpenTatp(TinyTatpOptions(20), 0, &a);
  auto db_b = OpenTatp(TinyTatpOptions(20), 0, &b);
  TatpOptions other = TinyTatpOptions(20);
  other.seed = 2;
  auto db_c = OpenTatp(other, 0, &c);
  EXPECT_EQ(Dump(db_a.get()), Dump(db_b.get()));
  EXPECT_NE(Dump(db_a.get()), Dump(db_c.get()));
}

// More subscribers than one loader chunk: every chunk is loaded, once.
TEST(TatpLoadTest, LoadsAcrossChunks) {
  std::unique_ptr<TatpWorkload> workload;
  auto db = OpenTatp(TinyTatpOptions(10003), 0, &workload);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Scalar(db.get(), "SELECT count(*) || ' ' || min(s_id) || ' ' || max(s_id) FROM subscriber"),
            "10003 1 10003");
  EXPECT_EQ(Count(db.get(), "SELECT count(DISTINCT s_id) FROM special_facility"), 10003);
  EXPECT_EQ(workload->initial_rows().subscriber, 10003u);
  std::string report;
  Status s = workload->Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
}

TEST(TatpLoadTest, SetupTwiceFails) {
  std::unique_ptr<TatpWorkload> workload;
  auto db = OpenTatp(TinyTatpOptions(), 0, &workload);
  ASSERT_NE(db, nullptr);
  TatpWorkload second(TinyTatpOptions());
  EXPECT_TRUE(second.Setup(db.get()).Is(sqlstate::kDuplicateTable));
}

// A database recovered from its data directory: Attach registers the
// procedures and takes the rows it finds as the run's starting point, so
// Check holds for what ran before and what runs after.
TEST(TatpLoadTest, AttachToARecoveredDatabase) {
  paceline::test::TempDir dir;
  engine::Options options;
  options.workers = 0;
  options.data_dir = dir.path();
  options.sync = "off";
  uint64_t loaded_call_forwardings = 0;  // what the data directory holds
  {
    std::unique_ptr<engine::Database> db;
    ASSERT_TRUE(engine::Database::Open(options, &db).ok());
    TatpWorkload workload(TinyTatpOptions());
    ASSERT_TRUE(workload.Setup(db.get()).ok());
    // Changed after loading: the recovered database starts from this.
    const int64_t deleted = Count(db.get(), "SELECT count(*) FROM call_forwarding WHERE s_id = 1");
    loaded_call_forwardings = workload.initial_rows().call_forwarding - static_cast<uint64_t>(deleted);
    Query(db.get(), "DELETE FROM call_forwarding WHERE s_id = 1");
  }
  std::unique_ptr<engine::Database> db;
  ASSERT_TRUE(engine::Database::Open(options, &db).ok());
  TatpWorkload workload(TinyTatpOptions());
  Status s = workload.Attach(db.get());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(workload.loaded_rows(), 0u);
  EXPECT_EQ(workload.initial_rows().subscriber, 10u);
  EXPECT_EQ(workload.initial_rows().call_forwarding, loaded_call_forwardings);
  std::string report;
  s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  Random rng(3);
  for (int i = 0; i < 200; ++i) {
    GeneratedTransaction t;
    workload.Next(rng, &t);
    TransactionResult r;
    db->Execute(t.request, &r);
    ASSERT_TRUE(r.committed() || r.user_abort) << r.status.ToString();
    workload.OnFinished(t, r);
  }
  s = workload.Check(db.get(), &report);
  EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
}

// --- The transactions, one at a time ---------------------------------------------

class TatpTransactionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenTatp(TinyTatpOptions(), 0, &workload_);
    ASSERT_NE(db_, nullptr);
  }

  // Runs one transaction and reports it to the workload (as the driver does).
  TransactionResult Run(TatpTransaction type, std::vector<Value> args) {
    GeneratedTransaction t;
    t.type = static_cast<size_t>(type);
    t.request = TransactionRequest::Call(std::string(TatpType(type).procedure), std::move(args));
    TransactionResult result;
    db_->Execute(t.request, &result);
    workload_->OnFinished(t, result);
    return result;
  }
  // Runs a transaction that must end in a business rollback and leave the
  // database as it was.
  void ExpectUserAbort(TatpTransaction type, std::vector<Value> args, const std::string& message) {
    const std::string before = Dump(db_.get());
    TransactionResult r = Run(type, std::move(args));
    EXPECT_FALSE(r.committed());
    EXPECT_TRUE(r.user_abort) << r.status.ToString();
    EXPECT_TRUE(r.status.Is(sqlstate::kRaiseException)) << r.status.ToString();
    EXPECT_NE(r.status.message().find(message), std::string::npos) << r.status.message();
    EXPECT_EQ(Dump(db_.get()), before);
  }
  void ExpectError(TatpTransaction type, std::vector<Value> args, std::string_view sqlstate,
                   const std::string& message) {
    const std::string before = Dump(db_.get());
    TransactionResult r = Run(type, std::move(args));
    EXPECT_FALSE(r.user_abort);
    EXPECT_TRUE(r.status.Is(sqlstate)) << r.status.ToString();
    EXPECT_NE(r.status.message().find(message), std::string::npos) << r.status.message();
    EXPECT_EQ(Dump(db_.get()), before);
  }
  void ExpectConsistent() {
    std::string report;
    Status s = workload_->Check(db_.get(), &report);
    EXPECT_TRUE(s.ok()) << s.ToString() << "\n" << report;
  }
  std::string Get(const std::string& sql) { return Scalar(db_.get(), sql); }
  // (s_id, sf_type) pairs with a special facility.
  std::set<std::pair<int64_t, int64_t>> Facilities() {
    std::set<std::pair<int64_t, int64_t>> out;
    for (const auto& row : Query(db_.get(), "SELECT s_id, sf_type FROM special_facility").rows) {
      out.insert({IntAt(row, 0), IntAt(row, 1)});
    }
    return out;
  }
  // A subscriber and a type it has no special facility of (other than
  // `besides`).
  std::pair<int64_t, int64_t> MissingFacility(std::pair<int64_t, int64_t> besides = {0, 0}) {
    auto have = Facilities();
    for (int64_t s = 1; s <= 10; ++s) {
      for (int64_t t = 1; t <= 4; ++t) {
        if (!have.count({s, t}) && std::pair(s, t) != besides) return {s, t};
      }
    }
    ADD_FAILURE() << "every subscriber has every special facility";
    return {0, 0};
  }
  // A special facility (s_id, sf_type) and a start time it has no call
  // forwarding for.
  std::vector<int64_t> FreeSlot() {
    for (const auto& [s, t] : Facilities()) {
      for (int64_t start : {0, 8, 16}) {
        if (Count(db_.get(), "SELECT count(*) FROM call_forwarding WHERE s_id = " + std::to_string(s) +
                                 " AND sf_type = " + std::to_string(t) + " AND start_time = " +
                                 std::to_string(start)) == 0) {
          return {s, t, start};
        }
      }
    }
    ADD_FAILURE() << "no free call forwarding slot";
    return {0, 0, 0};
  }
  // The first call forwarding (s_id, sf_type, start_time, end_time) of an
  // active special facility.
  std::vector<int64_t> ActiveCallForwarding() {
    QueryResult r = Query(db_.get(),
                          "SELECT cf.s_id, cf.sf_type, cf.start_time, cf.end_time FROM call_forwarding cf "
                          "JOIN special_facility sf ON sf.s_id = cf.s_id AND sf.sf_type = cf.sf_type "
                          "WHERE sf.is_active = 1 ORDER BY cf.s_id, cf.sf_type, cf.start_time");
    if (r.rows.empty()) {
      ADD_FAILURE() << "no call forwarding of an active special facility";
      return {0, 0, 0, 0};
    }
    return {IntAt(r.rows[0], 0), IntAt(r.rows[0], 1), IntAt(r.rows[0], 2), IntAt(r.rows[0], 3)};
  }

  std::unique_ptr<TatpWorkload> workload_;
  std::unique_ptr<engine::Database> db_;
};

TEST_F(TatpTransactionsTest, GetSubscriberDataReadsEverySubscriber) {
  const std::string before = Dump(db_.get());
  for (int64_t s = 1; s <= 10; ++s) {
    TransactionResult r = Run(TatpTransaction::kGetSubscriberData, {Int(s)});
    ASSERT_TRUE(r.committed()) << r.status.ToString();
    // It returns the subscriber's row, every column.
    ASSERT_EQ(r.results.size(), 1u);
    ASSERT_EQ(r.results[0].rows.size(), 1u);
    ASSERT_EQ(r.results[0].rows[0].size(), 34u);
    EXPECT_EQ(IntAt(r.results[0].rows[0], 0), s);
    EXPECT_EQ(r.results[0].rows[0][1].string_value(), SubscriberNumber(s));
    EXPECT_EQ(r.results[0].rows[0][33].ToString(), Get("SELECT vlr_location FROM subscriber WHERE s_id = " +
                                                       std::to_string(s)));
  }
  EXPECT_EQ(Dump(db_.get()), before);
  ExpectError(TatpTransaction::kGetSubscriberData, {Int(11)}, sqlstate::kInternalError, "subscriber 11 does not exist");
  ExpectError(TatpTransaction::kGetSubscriberData, {Varchar("1")}, sqlstate::kInvalidParameterValue,
              "get_subscriber_data(1): wrong arguments (expected s_id INT)");
  ExpectError(TatpTransaction::kGetSubscriberData, {}, sqlstate::kInvalidParameterValue, "get_subscriber_data()");
  ExpectError(TatpTransaction::kGetSubscriberData, {Value()}, sqlstate::kInvalidParameterValue,
              "get_subscriber_data(NULL)");
}

TEST_F(TatpTransactionsTest, GetNewDestinationFindsAnActiveForwardingCoveringTheTimes) {
  const std::vector<int64_t> cf = ActiveCallForwarding();
  const int64_t s = cf[0], t = cf[1], start = cf[2], end = cf[3];
  // From its start time (or later) until before its end time: found.
  const std::string numberx = Get("SELECT numberx FROM call_forwarding WHERE s_id = " + std::to_string(s) +
                                  " AND sf_type = " + std::to_string(t) + " AND start_time = " + std::to_string(start));
  for (int64_t asked_start : {start, int64_t{16}}) {
    TransactionResult r = Run(TatpTransaction::kGetNewDestination,
                              {Int(s), SmallInt(t), SmallInt(asked_start), SmallInt(end - 1)});
    ASSERT_TRUE(r.committed()) << r.status.ToString();
    // It returns the numbers forwarded to (this one among them).
    ASSERT_EQ(r.results.size(), 1u);
    std::set<std::string> numbers;
    for (const auto& row : r.results[0].rows) numbers.insert(row[0].string_value());
    EXPECT_TRUE(numbers.count(numberx)) << numberx;
  }
  // Ending at or after the latest end time (24 at most): no row.
  ExpectUserAbort(TatpTransaction::kGetNewDestination, {Int(s), SmallInt(t), SmallInt(16), SmallInt(24)},
                  "no active call forwarding of subscriber " + std::to_string(s));
  // No special facility of that type.
  const auto [ms, mt] = MissingFacility();
  ExpectUserAbort(TatpTransaction::kGetNewDestination, {Int(ms), SmallInt(mt), SmallInt(16), SmallInt(1)},
                  "no active call forwarding");
  // The facility inactive: its forwardings do not count.
  Query(db_.get(), "UPDATE special_facility SET is_active = 0 WHERE s_id = " + std::to_string(s) +
                       " AND sf_type = " + std::to_string(t));
  ExpectUserAbort(TatpTransaction::kGetNewDestination, {Int(s), SmallInt(t), SmallInt(start), SmallInt(end - 1)},
                  "no active call forwarding");
  ExpectError(TatpTransaction::kGetNewDestination, {Int(s), SmallInt(t), SmallInt(start)},
              sqlstate::kInvalidParameterValue, "expected s_id INT, sf_type SMALLINT, start_time SMALLINT");
}

TEST_F(TatpTransactionsTest, GetAccessDataReadsAnExistingType) {
  QueryResult r = Query(db_.get(), "SELECT s_id, ai_type FROM access_info");
  std::set<std::pair<int64_t, int64_t>> have;
  for (const auto& row : r.rows) have.insert({IntAt(row, 0), IntAt(row, 1)});
  int missing = 0;
  for (int64_t s = 1; s <= 10; ++s) {
    for (int64_t t = 1; t <= 4; ++t) {
      if (have.count({s, t})) {
        TransactionResult result = Run(TatpTransaction::kGetAccessData, {Int(s), SmallInt(t)});
        ASSERT_TRUE(result.committed()) << result.status.ToString();
        // It returns data1..data4.
        ASSERT_EQ(result.results.size(), 1u);
        ASSERT_EQ(result.results[0].rows.size(), 1u);
        const auto& row = result.results[0].rows[0];
        ASSERT_EQ(row.size(), 4u);
        EXPECT_EQ(row[0].ToString() + " " + row[1].ToString() + " " + row[2].ToString() + " " + row[3].ToString(),
                  Get("SELECT data1 || ' ' || data2 || ' ' || data3 || ' ' || data4 FROM access_info WHERE s_id = " +
                      std::to_string(s) + " AND ai_type = " + std::to_string(t)));
      } else {
        ++missing;
        ExpectUserAbort(TatpTransaction::kGetAccessData, {Int(s), SmallInt(t)},
                        "no access info of type " + std::to_string(t) + " for subscriber " + std::to_string(s));
      }
    }
  }
  EXPECT_GT(missing, 0);
  ExpectUserAbort(TatpTransaction::kGetAccessData, {Int(99), SmallInt(1)}, "no access info");
}

TEST_F(TatpTransactionsTest, UpdateSubscriberDataSetsBitAndDataA) {
  const auto [s, t] = *Facilities().begin();
  const std::string where = " WHERE s_id = " + std::to_string(s);
  const int64_t bit = 1 - std::stoll(Get("SELECT bit_1 FROM subscriber" + where));
  TransactionResult r =
      Run(TatpTransaction::kUpdateSubscriberData, {Int(s), SmallInt(t), SmallInt(bit), SmallInt(201)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT bit_1 FROM subscriber" + where), std::to_string(bit));
  EXPECT_EQ(Get("SELECT data_a FROM special_facility" + where + " AND sf_type = " + std::to_string(t)), "201");

  // No such special facility: the subscriber's bit stays as it was.
  const auto [ms, mt] = MissingFacility();
  const std::string bit_before = Get("SELECT bit_1 FROM subscriber WHERE s_id = " + std::to_string(ms));
  ExpectUserAbort(TatpTransaction::kUpdateSubscriberData,
                  {Int(ms), SmallInt(mt), SmallInt(1 - std::stoll(bit_before)), SmallInt(7)},
                  "subscriber " + std::to_string(ms) + " has no special facility " + std::to_string(mt));
  ExpectError(TatpTransaction::kUpdateSubscriberData, {Int(11), SmallInt(1), SmallInt(1), SmallInt(7)},
              sqlstate::kInternalError, "subscriber 11 does not exist");
  ExpectConsistent();
}

TEST_F(TatpTransactionsTest, UpdateLocationSetsTheVisitorLocationBySubscriberNumber) {
  TransactionResult r = Run(TatpTransaction::kUpdateLocation, {Varchar(SubscriberNumber(7)), Int(123456789)});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT vlr_location FROM subscriber WHERE s_id = 7"), "123456789");
  EXPECT_EQ(Count(db_.get(), "SELECT count(*) FROM subscriber WHERE vlr_location = 123456789"), 1);
  ExpectError(TatpTransaction::kUpdateLocation, {Varchar(SubscriberNumber(11)), Int(5)}, sqlstate::kInternalError,
              "subscriber with sub_nbr '000000000000011' does not exist");
  ExpectError(TatpTransaction::kUpdateLocation, {Int(7), Int(5)}, sqlstate::kInvalidParameterValue,
              "expected sub_nbr VARCHAR, vlr_location INT");
}

TEST_F(TatpTransactionsTest, InsertCallForwardingAddsAFreeSlotOfAnExistingFacility) {
  const std::vector<int64_t> slot = FreeSlot();
  const int64_t s = slot[0], t = slot[1], start = slot[2];
  const std::string key = " WHERE s_id = " + std::to_string(s) + " AND sf_type = " + std::to_string(t) +
                          " AND start_time = " + std::to_string(start);
  TransactionResult r = Run(TatpTransaction::kInsertCallForwarding, {Varchar(SubscriberNumber(s)), SmallInt(t),
                                                                      SmallInt(start), SmallInt(start + 3),
                                                                      Varchar("123456789012345")});
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  EXPECT_EQ(Get("SELECT end_time || ' ' || numberx FROM call_forwarding" + key),
            std::to_string(start + 3) + " 123456789012345");
  EXPECT_EQ(workload_->committed_inserts(), 1u);
  ExpectConsistent();  // the committed insert is counted

  // The same slot again: the row exists (and keeps its values).
  ExpectUserAbort(TatpTransaction::kInsertCallForwarding,
                  {Varchar(SubscriberNumber(s)), SmallInt(t), SmallInt(start), SmallInt(start + 5),
                   Varchar("999999999999999")},
                  "already forwards special facility " + std::to_string(t) + " from " + std::to_string(start));
  // No special facility of that type.
  const auto [ms, mt] = MissingFacility();
  ExpectUserAbort(TatpTransaction::kInsertCallForwarding,
                  {Varchar(SubscriberNumber(ms)), SmallInt(mt), SmallInt(0), SmallInt(1), Varchar("1")},
                  "subscriber " + std::to_string(ms) + " has no special facility " + std::to_string(mt));
  EXPECT_EQ(workload_->committed_inserts(), 1u);
  // Times outside the spec's, an unknown subscriber.
  ExpectError(TatpTransaction::kInsertCallForwarding,
              {Varchar(SubscriberNumber(s)), SmallInt(t), SmallInt(5), SmallInt(6), Varchar("1")},
              sqlstate::kInvalidParameterValue, "start_time must be 0, 8 or 16");
  ExpectError(TatpTransaction::kInsertCallForwarding,
              {Varchar(SubscriberNumber(s)), SmallInt(t), SmallInt(8), SmallInt(8), Varchar("1")},
              sqlstate::kInvalidParameterValue, "end_time must be start_time + 1 .. start_time + 8");
  ExpectError(TatpTransaction::kInsertCallForwarding,
              {Varchar(SubscriberNumber(s)), SmallInt(t), SmallInt(8), SmallInt(17), Varchar("1")},
              sqlstate::kInvalidParameterValue, "end_time must be");
  ExpectError(TatpTransaction::kInsertCallForwarding,
              {Varchar(SubscriberNumber(12)), SmallInt(1), SmallInt(0), SmallInt(1), Varchar("1")},
              sqlstate::kInternalError, "subscriber with sub_nbr '000000000000012' does not exist");
  ExpectConsistent();
}

TEST_F(TatpTransactionsTest, DeleteCallForwardingRemovesTheRow) {
  QueryResult r = Query(db_.get(), "SELECT s_id, sf_type, start_time FROM call_forwarding ORDER BY s_id LIMIT 1");
  ASSERT_EQ(r.rows.size(), 1u);
  const int64_t s = IntAt(r.rows[0], 0), t = IntAt(r.rows[0], 1), start = IntAt(r.rows[0], 2);
  const std::vector<Value> args = {Varchar(SubscriberNumber(s)), SmallInt(t), SmallInt(start)};
  const int64_t before = Count(db_.get(), "SELECT count(*) FROM call_forwarding");
  TransactionResult result = Run(TatpTransaction::kDeleteCallForwarding, args);
  ASSERT_TRUE(result.committed()) << result.status.ToString();
  EXPECT_EQ(Count(db_.get(), "SELECT count(*) FROM call_forwarding"), before - 1);
  EXPECT_EQ(Count(db_.get(), "SELECT count(*) FROM call_forwarding WHERE s_id = " + std::to_string(s) +
                                 " AND sf_type = " + std::to_string(t) + " AND start_time = " + std::to_string(start)),
            0);
  EXPECT_EQ(workload_->committed_deletes(), 1u);
  ExpectConsistent();
  // Gone now: nothing to delete.
  ExpectUserAbort(TatpTransaction::kDeleteCallForwarding, args,
                  "subscriber " + std::to_string(s) + " does not forward special facility " + std::to_string(t));
  EXPECT_EQ(workload_->committed_deletes(), 1u);
  ExpectError(TatpTransaction::kDeleteCallForwarding, {Varchar(SubscriberNumber(0)), SmallInt(1), SmallInt(0)},
              sqlstate::kInternalError, "does not exist");
  ExpectConsistent();
}

// The generated mix on the tiny database, one at a time: every transaction
// commits or ends in an expected failure, each type of expected failure
// happens, and Check holds with the reported outcomes.
TEST_F(TatpTransactionsTest, TheMixCommitsOrFailsAsExpected) {
  Random rng(11);
  std::vector<int> commits(kTatpTransactionCount, 0), user_aborts(kTatpTransactionCount, 0);
  for (int i = 0; i < 3000; ++i) {
    GeneratedTransaction t;
    workload_->Next(rng, &t);
    TransactionResult r;
    db_->Execute(t.request, &r);
    workload_->OnFinished(t, r);
    if (r.committed()) {
      ++commits[t.type];
    } else {
      ASSERT_TRUE(r.user_abort) << TatpMix()[t.type].name << ": " << r.status.ToString();
      ++user_aborts[t.type];
    }
  }
  for (size_t t = 0; t < kTatpTransactionCount; ++t) EXPECT_GT(commits[t], 0) << TatpMix()[t].name;
  EXPECT_EQ(user_aborts[static_cast<size_t>(TatpTransaction::kGetSubscriberData)], 0);
  EXPECT_EQ(user_aborts[static_cast<size_t>(TatpTransaction::kUpdateLocation)], 0);
  for (TatpTransaction t : {TatpTransaction::kGetNewDestination, TatpTransaction::kGetAccessData,
                            TatpTransaction::kUpdateSubscriberData, TatpTransaction::kInsertCallForwarding,
                            TatpTransaction::kDeleteCallForwarding}) {
    EXPECT_GT(user_aborts[static_cast<size_t>(t)], 0) << TatpType(t).name;
  }
  EXPECT_EQ(workload_->committed_inserts(), static_cast<uint64_t>(commits[5]));
  EXPECT_EQ(workload_->committed_deletes(), static_cast<uint64_t>(commits[6]));
  ExpectConsistent();
}

// --- Predictions ---------------------------------------------------------------

struct RecordingPredictions : engine::StatementPredictions {
  void Add(size_t statement, std::span<const Value> params) override {
    std::string text = std::to_string(statement) + ":";
    for (const Value& v : params) text += " " + (v.is_null() ? std::string("NULL") : v.ToString());
    calls.push_back(text);
  }
  using engine::StatementPredictions::Add;
  std::vector<std::string> calls;
};

std::vector<std::string> Predict(TatpTransaction type, const std::vector<Value>& args) {
  RecordingPredictions out;
  TatpType(type).make().predict(args, out);
  return out.calls;
}

TEST(TatpPredictionTest, EveryStatementWithWhatTheArgumentsTell) {
  using V = std::vector<std::string>;
  const Value nbr = Varchar(SubscriberNumber(3));
  EXPECT_EQ(Predict(TatpTransaction::kGetSubscriberData, {Int(3)}), V{"0: 3"});
  EXPECT_EQ(Predict(TatpTransaction::kGetNewDestination, {Int(3), SmallInt(2), SmallInt(8), SmallInt(12)}),
            V{"0: 3 2 8 12"});
  EXPECT_EQ(Predict(TatpTransaction::kGetAccessData, {Int(3), SmallInt(4)}), V{"0: 3 4"});
  EXPECT_EQ(Predict(TatpTransaction::kUpdateSubscriberData, {Int(3), SmallInt(2), SmallInt(1), SmallInt(99)}),
            (V{"0: 3 1", "1: 3 2 99"}));
  EXPECT_EQ(Predict(TatpTransaction::kUpdateLocation, {nbr, Int(77)}), V{"0: 000000000000003 77"});
  EXPECT_EQ(Predict(TatpTransaction::kInsertCallForwarding,
                    {nbr, SmallInt(2), SmallInt(8), SmallInt(12), Varchar("5")}),
            (V{"0: 000000000000003", "1: NULL", "2: NULL 2 8 12 5"}));
  EXPECT_EQ(Predict(TatpTransaction::kDeleteCallForwarding, {nbr, SmallInt(2), SmallInt(8)}),
            (V{"0: 000000000000003", "1: NULL 2 8"}));
  // Malformed calls predict nothing (the body rejects them).
  for (size_t t = 0; t < kTatpTransactionCount; ++t) {
    EXPECT_TRUE(Predict(static_cast<TatpTransaction>(t), {}).empty()) << TatpMix()[t].name;
    EXPECT_TRUE(Predict(static_cast<TatpTransaction>(t), {Value(), Value(), Value(), Value(), Value()}).empty());
  }
  EXPECT_TRUE(Predict(TatpTransaction::kUpdateLocation, {Int(3), Int(77)}).empty());
}

// The references the schedulers see (canonical, one per clause, from every
// source) and the partition value on "s_id": every s_id column is one
// canonical domain through the foreign keys (call_forwarding →
// special_facility → subscriber; shown qualified, several tables having an
// s_id column), so the transactions that take s_id are partitioned by it;
// those that take sub_nbr give s_id no value before they run (the s_id they
// read is NULL in their prediction).
TEST(TatpReferencesTest, CanonicalReferencesAndThePartitionOnSId) {
  std::unique_ptr<TatpWorkload> workload;
  auto db = OpenTatp(TinyTatpOptions(), 0, &workload);
  ASSERT_NE(db, nullptr);
  const Value nbr = Varchar(SubscriberNumber(3));
  struct Case {
    TatpTransaction type;
    std::vector<Value> args;
    std::vector<std::string> names;
    bool partitioned;
  };
  const Case cases[] = {
      {TatpTransaction::kGetSubscriberData, {Int(3)}, {"subscriber.s_id=3"}, true},
      {TatpTransaction::kGetNewDestination,
       {Int(3), SmallInt(2), SmallInt(8), SmallInt(12)},
       {"subscriber.s_id=3", "special_facility.sf_type=2", "is_active=1", "start_time<=8", "end_time>12"},
       true},
      {TatpTransaction::kGetAccessData, {Int(3), SmallInt(4)}, {"subscriber.s_id=3", "ai_type=4"}, true},
      {TatpTransaction::kUpdateSubscriberData,
       {Int(3), SmallInt(2), SmallInt(1), SmallInt(99)},
       {"bit_1=1", "subscriber.s_id=3", "data_a=99", "special_facility.sf_type=2"},
       true},
      {TatpTransaction::kUpdateLocation, {nbr, Int(77)}, {"vlr_location=77", "sub_nbr='000000000000003'"}, false},
      {TatpTransaction::kInsertCallForwarding,
       {nbr, SmallInt(2), SmallInt(8), SmallInt(12), Varchar("5")},
       {"sub_nbr='000000000000003'", "special_facility.sf_type=2", "start_time=8", "end_time=12", "numberx='5'"},
       false},
      {TatpTransaction::kDeleteCallForwarding,
       {nbr, SmallInt(2), SmallInt(8)},
       {"sub_nbr='000000000000003'", "special_facility.sf_type=2", "start_time=8"},
       false},
  };
  for (const Case& c : cases) {
    const engine::Procedure procedure = TatpType(c.type).make();
    SCOPED_TRACE(procedure.name);
    struct Collect : engine::StatementPredictions {
      void Add(size_t statement, std::span<const Value> params) override {
        calls.emplace_back(statement, std::vector<Value>(params.begin(), params.end()));
      }
      using engine::StatementPredictions::Add;
      std::vector<std::pair<size_t, std::vector<Value>>> calls;
    } predicted;
    procedure.predict(c.args, predicted);
    scheduler::FootprintSpec spec;
    spec.references = true;
    spec.form = scheduler::ReferenceForm::kCanonical;
    spec.partition_domain = "s_id";
    engine::FootprintBuilder builder(spec, /*with_names=*/true);
    for (const auto& [statement, params] : predicted.calls) {
      std::shared_ptr<sql::PreparedStatement> prepared;
      Status s = sql::PreparedStatement::Prepare(procedure.statements[statement], db->catalog(), {}, &prepared);
      ASSERT_TRUE(s.ok()) << s.ToString();
      builder.Add(*prepared, params);
    }
    scheduler::Footprint f = builder.Finish();
    EXPECT_EQ(builder.Names(), c.names);
    EXPECT_EQ(f.has_partition_value, c.partitioned);
    if (c.partitioned) {
      EXPECT_EQ(f.partition_value, 3u);
    }
  }
}

// --- Check ---------------------------------------------------------------------

// The report's line for `condition` ("" when missing).
std::string LineOf(const std::string& report, const std::string& condition) {
  const size_t at = report.find("tatp " + condition + " (");
  return at == std::string::npos ? "" : report.substr(at, report.find('\n', at) - at);
}

class TatpCheckTest : public TatpTransactionsTest {
 protected:
  // Check fails naming `condition` as the first violated one; the report
  // marks it VIOLATED (and is returned).
  std::string ExpectViolated(const std::string& condition) {
    std::string report;
    Status s = workload_->Check(db_.get(), &report);
    EXPECT_TRUE(s.Is(sqlstate::kInternalError)) << s.ToString();
    EXPECT_NE(s.message().find("tatp " + condition + " VIOLATED"), std::string::npos) << s.message();
    EXPECT_TRUE(LineOf(report, condition).ends_with(" VIOLATED")) << report;
    return report;
  }
  // Paceline enforces the schema's foreign keys: to break a reference the
  // check must catch, its constraint goes first.
  void DropForeignKey(const std::string& table, const std::string& constraint) {
    Query(db_.get(), "ALTER TABLE " + table + " DROP CONSTRAINT " + constraint);
  }
};

TEST_F(TatpCheckTest, CallForwardingsInsertedBehindTheWorkloadsBack) {
  const std::vector<int64_t> slot = FreeSlot();
  Query(db_.get(), "INSERT INTO call_forwarding VALUES (" + std::to_string(slot[0]) + ", " + std::to_string(slot[1]) +
                       ", " + std::to_string(slot[2]) + ", " + std::to_string(slot[2] + 1) + ", '1')");
  const std::string report = ExpectViolated("call_forwarding rows");
  EXPECT_TRUE(LineOf(report, "call_forwarding references").ends_with(" ok")) << report;
}

TEST_F(TatpCheckTest, CallForwardingsLeftWithoutTheirSpecialFacility) {
  QueryResult r = Query(db_.get(), "SELECT s_id, sf_type FROM call_forwarding ORDER BY s_id LIMIT 1");
  ASSERT_EQ(r.rows.size(), 1u);
  const std::pair<int64_t, int64_t> deleted = {IntAt(r.rows[0], 0), IntAt(r.rows[0], 1)};
  DropForeignKey("call_forwarding", "call_forwarding_s_id_sf_type_fkey");
  Query(db_.get(), "DELETE FROM special_facility WHERE s_id = " + std::to_string(deleted.first) +
                       " AND sf_type = " + std::to_string(deleted.second));
  std::string report = ExpectViolated("special_facility rows");  // the first condition broken
  EXPECT_TRUE(LineOf(report, "call_forwarding references").ends_with(" VIOLATED")) << report;
  // The facility count restored with another facility: only the orphans remain.
  const auto [ms, mt] = MissingFacility(deleted);
  Query(db_.get(), "INSERT INTO special_facility VALUES (" + std::to_string(ms) + ", " + std::to_string(mt) +
                       ", 1, 0, 0, 'ABCDE')");
  report = ExpectViolated("call_forwarding references");
  EXPECT_TRUE(LineOf(report, "special_facility rows").ends_with(" ok")) << report;
}

TEST_F(TatpCheckTest, AnAccessInfoWithoutItsSubscriber) {
  DropForeignKey("access_info", "access_info_s_id_fkey");
  Query(db_.get(), "UPDATE access_info SET s_id = 99 WHERE s_id = 1 AND ai_type = " +
                       Get("SELECT min(ai_type) FROM access_info WHERE s_id = 1"));
  ExpectViolated("access_info references");
}

TEST_F(TatpCheckTest, ASpecialFacilityWithoutItsSubscriber) {
  Query(db_.get(), "INSERT INTO subscriber (s_id, sub_nbr) VALUES (11, '000000000000011')");
  ExpectViolated("subscriber rows");
  Query(db_.get(), "DELETE FROM subscriber WHERE s_id = 11");
  ExpectConsistent();
  // Subscriber 1's special facilities moved to a subscriber 99 (leaving its
  // call forwardings, if any, orphaned too).
  const bool forwards = Count(db_.get(), "SELECT count(*) FROM call_forwarding WHERE s_id = 1") > 0;
  DropForeignKey("special_facility", "special_facility_s_id_fkey");
  DropForeignKey("call_forwarding", "call_forwarding_s_id_sf_type_fkey");
  Query(db_.get(), "UPDATE special_facility SET s_id = 99 WHERE s_id = 1");
  const std::string report = ExpectViolated("special_facility references");
  EXPECT_EQ(LineOf(report, "call_forwarding references").ends_with(" VIOLATED"), forwards) << report;
}

TEST_F(TatpCheckTest, AMissingSubscriber) {
  DropForeignKey("access_info", "access_info_s_id_fkey");
  DropForeignKey("special_facility", "special_facility_s_id_fkey");
  Query(db_.get(), "DELETE FROM subscriber WHERE s_id = 10");
  const std::string report = ExpectViolated("subscriber rows");
  EXPECT_TRUE(LineOf(report, "access_info references").ends_with(" VIOLATED")) << report;
  EXPECT_TRUE(LineOf(report, "special_facility references").ends_with(" VIOLATED")) << report;
}

TEST_F(TatpCheckTest, TypesAndTimesOutsideTheirDomains) {
  const std::string ai_type = Get("SELECT min(ai_type) FROM access_info WHERE s_id = 2");
  Query(db_.get(), "UPDATE access_info SET ai_type = 0 WHERE s_id = 2 AND ai_type = " + ai_type);
  ExpectViolated("access_info types");
  Query(db_.get(), "UPDATE access_info SET ai_type = " + ai_type + " WHERE s_id = 2 AND ai_type = 0");
  ExpectConsistent();

  // A special facility without call forwardings (so that none is orphaned).
  QueryResult r = Query(db_.get(),
                        "SELECT sf.s_id, sf.sf_type FROM special_facility sf LEFT JOIN call_forwarding cf "
                        "ON cf.s_id = sf.s_id AND cf.sf_type = sf.sf_type WHERE cf.s_id IS NULL");
  ASSERT_FALSE(r.rows.empty());
  Query(db_.get(), "UPDATE special_facility SET sf_type = 5 WHERE s_id = " + r.rows[0][0].ToString() +
                       " AND sf_type = " + r.rows[0][1].ToString());
  ExpectViolated("special_facility types");
  Query(db_.get(), "UPDATE special_facility SET sf_type = " + r.rows[0][1].ToString() +
                       " WHERE s_id = " + r.rows[0][0].ToString() + " AND sf_type = 5");
  ExpectConsistent();

  r = Query(db_.get(), "SELECT s_id, sf_type, start_time FROM call_forwarding ORDER BY s_id LIMIT 1");
  ASSERT_EQ(r.rows.size(), 1u);
  const std::string key = " WHERE s_id = " + r.rows[0][0].ToString() + " AND sf_type = " + r.rows[0][1].ToString() +
                          " AND start_time = ";
  const std::string start = r.rows[0][2].ToString();
  Query(db_.get(), "UPDATE call_forwarding SET end_time = start_time" + key + start);
  ExpectViolated("call_forwarding times");
  Query(db_.get(), "UPDATE call_forwarding SET end_time = start_time + 1" + key + start);
  ExpectConsistent();
  Query(db_.get(), "UPDATE call_forwarding SET start_time = 3" + key + start);
  ExpectViolated("call_forwarding times");
}

}  // namespace
}  // namespace paceline::workloads::tatp
