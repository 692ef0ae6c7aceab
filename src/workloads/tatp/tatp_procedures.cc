// TATP's procedures (statements, body, prediction), their inputs and the mix.
#include "workloads/tatp/tatp_procedures.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <span>
#include <utility>

namespace paceline::workloads::tatp {

namespace {

using engine::ProcedureContext;
using engine::StatementPredictions;

// An integer argument's value (the arguments were checked by WellFormed).
int64_t IntOf(const Value& v) { return v.int_value(); }

// Whether `args` has exactly one non-NULL value per character of `kinds`:
// an integer where it says 'i', a string where it says 's'.
bool WellFormed(const std::vector<Value>& args, std::string_view kinds) {
  if (args.size() != kinds.size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].is_null()) return false;
    const Type type(args[i].type());
    if (!(kinds[i] == 'i' ? type.IsInteger() : type.IsString())) return false;
  }
  return true;
}

// 22023 for a call whose arguments do not match `signature`: names the
// call as made ("get_access_data(5, NULL)") and the signature.
Status BadArguments(std::string_view procedure, std::string_view signature, const std::vector<Value>& args,
                    std::string why = "wrong arguments") {
  std::string call(procedure);
  call += "(";
  for (size_t i = 0; i < args.size(); ++i) {
    call += (i == 0 ? "" : ", ") + (args[i].is_null() ? std::string("NULL") : args[i].ToString());
  }
  call += ")";
  return Status(sqlstate::kInvalidParameterValue,
                call + ": " + std::move(why) + " (expected " + std::string(signature) + ")");
}

// XX000: a subscriber the population guarantees is missing.
Status NoSubscriber(const std::string& what) {
  return Status(sqlstate::kInternalError, "tatp: subscriber " + what + " does not exist");
}

// The s_id of the subscriber with `sub_nbr` into *s_id (statement
// `statement` is SELECT s_id FROM subscriber WHERE sub_nbr = $1).
Status SubscriberId(ProcedureContext& ctx, size_t statement, const Value& sub_nbr, Value* s_id) {
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(statement, {sub_nbr}, &r));
  if (r.rows.empty()) return NoSubscriber("with sub_nbr '" + sub_nbr.string_value() + "'");
  *s_id = r.rows[0][0];
  return Status::OK();
}

constexpr char kSelectSubscriberId[] = "SELECT s_id FROM subscriber WHERE sub_nbr = $1";

int64_t StartTime(Random& rng) { return kStartTimes[static_cast<size_t>(Uniform(rng, 0, kStartTimes.size() - 1))]; }

// --- GetSubscriberData ----------------------------------------------------

namespace get_subscriber_data {

constexpr std::string_view kName = "get_subscriber_data";
constexpr std::string_view kSignature = "s_id INT";

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "i")) return BadArguments(kName, kSignature, args);
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(0, {args[0]}, &r));
  if (r.rows.empty()) return NoSubscriber(args[0].ToString());
  ctx.Return(std::move(r));
  return Status::OK();
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (WellFormed(args, "i")) out.Add(0, {args[0]});
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {"SELECT * FROM subscriber WHERE s_id = $1"};  // every column
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random&, int64_t s_id, std::vector<Value>* args) { *args = {Int(s_id)}; }

}  // namespace get_subscriber_data

// --- GetNewDestination ----------------------------------------------------

namespace get_new_destination {

constexpr std::string_view kName = "get_new_destination";
constexpr std::string_view kSignature = "s_id INT, sf_type SMALLINT, start_time SMALLINT, end_time SMALLINT";

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "iiii")) return BadArguments(kName, kSignature, args);
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(0, args, &r));
  if (r.rows.empty()) {
    return ctx.Rollback("no active call forwarding of subscriber " + args[0].ToString() + " special facility " +
                        args[1].ToString() + " from " + args[2].ToString() + " beyond " + args[3].ToString());
  }
  ctx.Return(std::move(r));
  return Status::OK();
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (WellFormed(args, "iiii")) out.Add(0, std::span<const Value>(args));
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {
      "SELECT cf.numberx FROM special_facility sf JOIN call_forwarding cf "
      "ON cf.s_id = sf.s_id AND cf.sf_type = sf.sf_type "
      "WHERE sf.s_id = $1 AND sf.sf_type = $2 AND sf.is_active = 1 AND cf.start_time <= $3 AND cf.end_time > $4"};
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random& rng, int64_t s_id, std::vector<Value>* args) {
  const int64_t sf_type = Uniform(rng, 1, kMaxType);
  const int64_t start_time = StartTime(rng);
  *args = {Int(s_id), SmallInt(sf_type), SmallInt(start_time), SmallInt(Uniform(rng, 1, 24))};
}

}  // namespace get_new_destination

// --- GetAccessData --------------------------------------------------------

namespace get_access_data {

constexpr std::string_view kName = "get_access_data";
constexpr std::string_view kSignature = "s_id INT, ai_type SMALLINT";

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "ii")) return BadArguments(kName, kSignature, args);
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(0, args, &r));
  if (r.rows.empty()) {
    return ctx.Rollback("no access info of type " + args[1].ToString() + " for subscriber " + args[0].ToString());
  }
  ctx.Return(std::move(r));
  return Status::OK();
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (WellFormed(args, "ii")) out.Add(0, {args[0], args[1]});
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {"SELECT data1, data2, data3, data4 FROM access_info WHERE s_id = $1 AND ai_type = $2"};
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random& rng, int64_t s_id, std::vector<Value>* args) {
  *args = {Int(s_id), SmallInt(Uniform(rng, 1, kMaxType))};
}

}  // namespace get_access_data

// --- UpdateSubscriberData -------------------------------------------------

namespace update_subscriber_data {

constexpr std::string_view kName = "update_subscriber_data";
constexpr std::string_view kSignature = "s_id INT, sf_type SMALLINT, bit_1 SMALLINT, data_a SMALLINT";
enum Statement : size_t { kUpdateSubscriber, kUpdateSpecialFacility };

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "iiii")) return BadArguments(kName, kSignature, args);
  const Value& s_id = args[0];
  const Value& sf_type = args[1];
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(kUpdateSubscriber, {s_id, args[2]}, &r));
  if (r.rows_affected != 1) return NoSubscriber(s_id.ToString());
  PL_RETURN_IF_ERROR(ctx.Execute(kUpdateSpecialFacility, {s_id, sf_type, args[3]}, &r));
  if (r.rows_affected == 0) {
    return ctx.Rollback("subscriber " + s_id.ToString() + " has no special facility " + sf_type.ToString());
  }
  return Status::OK();
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (!WellFormed(args, "iiii")) return;
  out.Add(kUpdateSubscriber, {args[0], args[2]});
  out.Add(kUpdateSpecialFacility, {args[0], args[1], args[3]});
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {
      "UPDATE subscriber SET bit_1 = $2 WHERE s_id = $1",
      "UPDATE special_facility SET data_a = $3 WHERE s_id = $1 AND sf_type = $2",
  };
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random& rng, int64_t s_id, std::vector<Value>* args) {
  const int64_t sf_type = Uniform(rng, 1, kMaxType);
  const int64_t bit = Uniform(rng, 0, 1);
  *args = {Int(s_id), SmallInt(sf_type), SmallInt(bit), SmallInt(Uniform(rng, 0, 255))};
}

}  // namespace update_subscriber_data

// --- UpdateLocation -------------------------------------------------------

namespace update_location {

constexpr std::string_view kName = "update_location";
constexpr std::string_view kSignature = "sub_nbr VARCHAR, vlr_location INT";

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "si")) return BadArguments(kName, kSignature, args);
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(0, args, &r));
  if (r.rows_affected != 1) return NoSubscriber("with sub_nbr '" + args[0].string_value() + "'");
  return Status::OK();
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (WellFormed(args, "si")) out.Add(0, {args[0], args[1]});
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {"UPDATE subscriber SET vlr_location = $2 WHERE sub_nbr = $1"};
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random& rng, int64_t s_id, std::vector<Value>* args) {
  *args = {Varchar(SubscriberNumber(s_id)), Int(Uniform(rng, 1, std::numeric_limits<int32_t>::max()))};
}

}  // namespace update_location

// --- InsertCallForwarding -------------------------------------------------

namespace insert_call_forwarding {

constexpr std::string_view kName = "insert_call_forwarding";
constexpr std::string_view kSignature =
    "sub_nbr VARCHAR, sf_type SMALLINT, start_time SMALLINT, end_time SMALLINT, numberx VARCHAR";
enum Statement : size_t { kSubscriberId, kSpecialFacilities, kInsert };

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "siiis")) return BadArguments(kName, kSignature, args);
  const Value& sf_type = args[1];
  const Value& start_time = args[2];
  const Value& end_time = args[3];
  const int64_t start = IntOf(start_time);
  if (std::find(kStartTimes.begin(), kStartTimes.end(), start) == kStartTimes.end()) {
    return BadArguments(kName, kSignature, args, "start_time must be 0, 8 or 16");
  }
  if (IntOf(end_time) < start + 1 || IntOf(end_time) > start + 8) {
    return BadArguments(kName, kSignature, args, "end_time must be start_time + 1 .. start_time + 8");
  }
  Value s_id;
  PL_RETURN_IF_ERROR(SubscriberId(ctx, kSubscriberId, args[0], &s_id));
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(kSpecialFacilities, {s_id}, &r));
  const bool has_facility = std::any_of(r.rows.begin(), r.rows.end(), [&](const std::vector<Value>& row) {
    return !row[0].is_null() && row[0].int_value() == IntOf(sf_type);
  });
  if (!has_facility) {
    return ctx.Rollback("subscriber " + s_id.ToString() + " has no special facility " + sf_type.ToString());
  }
  // The spec's way to find the slot taken: the primary key's violation
  // (committed by another transaction, even one that committed after this
  // one looked; an uncommitted one is a conflict, retried).
  Status inserted = ctx.Execute(kInsert, {s_id, sf_type, start_time, end_time, args[4]}, &r);
  if (inserted.Is(sqlstate::kUniqueViolation)) {
    return ctx.Rollback("subscriber " + s_id.ToString() + " already forwards special facility " +
                        sf_type.ToString() + " from " + start_time.ToString());
  }
  return inserted;
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (!WellFormed(args, "siiis")) return;
  const Value s_id;  // read by sub_nbr
  out.Add(kSubscriberId, {args[0]});
  out.Add(kSpecialFacilities, {s_id});
  out.Add(kInsert, {s_id, args[1], args[2], args[3], args[4]});
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {
      kSelectSubscriberId,
      "SELECT sf_type FROM special_facility WHERE s_id = $1",
      "INSERT INTO call_forwarding (s_id, sf_type, start_time, end_time, numberx) VALUES ($1, $2, $3, $4, $5)",
  };
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random& rng, int64_t s_id, std::vector<Value>* args) {
  const int64_t sf_type = Uniform(rng, 1, kMaxType);
  const int64_t start_time = StartTime(rng);
  const int64_t end_time = start_time + Uniform(rng, 1, 8);
  *args = {Varchar(SubscriberNumber(s_id)), SmallInt(sf_type), SmallInt(start_time), SmallInt(end_time),
           Varchar(RandomDigits(rng, 15))};
}

}  // namespace insert_call_forwarding

// --- DeleteCallForwarding -------------------------------------------------

namespace delete_call_forwarding {

constexpr std::string_view kName = "delete_call_forwarding";
constexpr std::string_view kSignature = "sub_nbr VARCHAR, sf_type SMALLINT, start_time SMALLINT";
enum Statement : size_t { kSubscriberId, kDelete };

Status Body(ProcedureContext& ctx, const std::vector<Value>& args) {
  if (!WellFormed(args, "sii")) return BadArguments(kName, kSignature, args);
  Value s_id;
  PL_RETURN_IF_ERROR(SubscriberId(ctx, kSubscriberId, args[0], &s_id));
  QueryResult r;
  PL_RETURN_IF_ERROR(ctx.Execute(kDelete, {s_id, args[1], args[2]}, &r));
  if (r.rows_affected == 0) {
    return ctx.Rollback("subscriber " + s_id.ToString() + " does not forward special facility " +
                        args[1].ToString() + " from " + args[2].ToString());
  }
  return Status::OK();
}

void Predict(const std::vector<Value>& args, StatementPredictions& out) {
  if (!WellFormed(args, "sii")) return;
  out.Add(kSubscriberId, {args[0]});
  out.Add(kDelete, {Value(), args[1], args[2]});  // s_id: read by sub_nbr
}

engine::Procedure Make() {
  engine::Procedure p;
  p.name = kName;
  p.statements = {
      kSelectSubscriberId,
      "DELETE FROM call_forwarding WHERE s_id = $1 AND sf_type = $2 AND start_time = $3",
  };
  p.body = Body;
  p.predict = Predict;
  return p;
}

void Draw(Random& rng, int64_t s_id, std::vector<Value>* args) {
  const int64_t sf_type = Uniform(rng, 1, kMaxType);
  *args = {Varchar(SubscriberNumber(s_id)), SmallInt(sf_type), SmallInt(StartTime(rng))};
}

}  // namespace delete_call_forwarding

std::string RandomOf(Random& rng, size_t length, std::string_view alphabet) {
  std::string s(length, ' ');
  for (char& c : s) c = alphabet[static_cast<size_t>(Uniform(rng, 0, static_cast<int64_t>(alphabet.size()) - 1))];
  return s;
}

}  // namespace

const std::array<TatpTransactionType, kTatpTransactionCount>& TatpMix() {
  static const std::array<TatpTransactionType, kTatpTransactionCount> mix = {{
      {"GetSubscriberData", 35, get_subscriber_data::kName, get_subscriber_data::Make, get_subscriber_data::Draw},
      {"GetNewDestination", 10, get_new_destination::kName, get_new_destination::Make, get_new_destination::Draw},
      {"GetAccessData", 35, get_access_data::kName, get_access_data::Make, get_access_data::Draw},
      {"UpdateSubscriberData", 2, update_subscriber_data::kName, update_subscriber_data::Make,
       update_subscriber_data::Draw},
      {"UpdateLocation", 14, update_location::kName, update_location::Make, update_location::Draw},
      {"InsertCallForwarding", 2, insert_call_forwarding::kName, insert_call_forwarding::Make,
       insert_call_forwarding::Draw},
      {"DeleteCallForwarding", 2, delete_call_forwarding::kName, delete_call_forwarding::Make,
       delete_call_forwarding::Draw},
  }};
  return mix;
}

std::string SubscriberNumber(int64_t s_id) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%015lld", static_cast<long long>(s_id));
  return digits;
}

std::string RandomLetters(Random& rng, size_t length) { return RandomOf(rng, length, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"); }

std::string RandomDigits(Random& rng, size_t length) { return RandomOf(rng, length, "0123456789"); }

}  // namespace paceline::workloads::tatp
