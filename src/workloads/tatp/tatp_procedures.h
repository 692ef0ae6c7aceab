// TATP's seven transactions as stored procedures, the generators of their
// inputs, and the mix they are drawn in (one table of {name, weight,
// procedure}).
//
//   name                  %   procedure (arguments)
//   GetSubscriberData     35  get_subscriber_data (s_id)
//   GetNewDestination     10  get_new_destination (s_id, sf_type, start_time, end_time)
//   GetAccessData         35  get_access_data (s_id, ai_type)
//   UpdateSubscriberData   2  update_subscriber_data (s_id, sf_type, bit_1, data_a)
//   UpdateLocation        14  update_location (sub_nbr, vlr_location)
//   InsertCallForwarding   2  insert_call_forwarding (sub_nbr, sf_type, start_time, end_time, numberx)
//   DeleteCallForwarding   2  delete_call_forwarding (sub_nbr, sf_type, start_time)
//
// s_id and vlr_location are INT, sub_nbr and numberx VARCHAR (15 digits),
// the others SMALLINT (any integer Value is accepted and cast). What each
// runs (the three reads return what they read: ProcedureContext::Return):
//   get_subscriber_data: every column of the subscriber (s_id = $1).
//   get_new_destination: cf.numberx of special_facility sf JOIN
//     call_forwarding cf on (s_id, sf_type), sf.is_active = 1,
//     cf.start_time <= start_time and cf.end_time > end_time.
//   get_access_data: data1..data4 of access_info (s_id, ai_type).
//   update_subscriber_data: subscriber.bit_1 of s_id, then
//     special_facility.data_a of (s_id, sf_type).
//   update_location: subscriber.vlr_location of the subscriber sub_nbr.
//   insert_call_forwarding: reads the subscriber's s_id by sub_nbr and its
//     special facilities' sf_types, then inserts the call_forwarding row
//     (s_id, sf_type, start_time).
//   delete_call_forwarding: reads s_id by sub_nbr, then deletes the
//     call_forwarding row (s_id, sf_type, start_time).
//
// The spec's expected failures are business rollbacks
// (ProcedureContext::Rollback: a user abort, not retried, nothing changed):
// get_new_destination and get_access_data finding no row,
// update_subscriber_data finding no special facility (s_id, sf_type) (its
// update of the subscriber is rolled back too), insert_call_forwarding when
// the subscriber has no special facility sf_type or its insert violates the
// primary key (the row exists: 23505 from the INSERT, as the spec has it;
// a SELECT first would not do, since under OCC another transaction may
// commit the row between the SELECT and the INSERT, and the engine reports
// that as 23505, not as a conflict to retry), delete_call_forwarding
// finding no row to delete. A subscriber that does
// not exist (every s_id 1..N and its sub_nbr do) is an error, XX000;
// arguments of the wrong number or types, or an insert whose times are
// outside the spec's (start_time 0, 8 or 16; end_time start_time + 1..8),
// are 22023.
//
// Each procedure predicts every statement it may run, with the arguments it
// passes; the s_id read by sub_nbr is a value computed inside (NULL).
//
// Thread-safety: the procedures, the generators and the mix are stateless
// (generators use only the caller's Random).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.h"
#include "engine/procedure.h"
#include "workloads/workload.h"

namespace paceline::workloads::tatp {

// Indexes into TatpMix() and Workload::TransactionTypes().
enum class TatpTransaction : size_t {
  kGetSubscriberData,
  kGetNewDestination,
  kGetAccessData,
  kUpdateSubscriberData,
  kUpdateLocation,
  kInsertCallForwarding,
  kDeleteCallForwarding,
};
inline constexpr size_t kTatpTransactionCount = 7;

struct TatpTransactionType {
  std::string_view name;       // "GetSubscriberData"
  int weight;                  // percent of the mix
  std::string_view procedure;  // "get_subscriber_data"
  engine::Procedure (*make)();
  // The spec's inputs of a transaction on subscriber `s_id` (1..N).
  void (*draw)(Random& rng, int64_t s_id, std::vector<Value>* args);
};

// The seven transactions in TatpTransaction order; the weights add up to 100.
const std::array<TatpTransactionType, kTatpTransactionCount>& TatpMix();

inline const TatpTransactionType& TatpType(TatpTransaction t) { return TatpMix()[static_cast<size_t>(t)]; }

// --- Values shared by the loader, the generators and the checks ----------

// The call_forwarding start times.
inline constexpr std::array<int, 3> kStartTimes = {0, 8, 16};
// ai_type and sf_type take the values 1..kMaxType.
inline constexpr int kMaxType = 4;

// sub_nbr: s_id as 15 decimal digits, zero-padded ("000000000000042").
std::string SubscriberNumber(int64_t s_id);
// A uniform integer in [lo, hi].
inline int64_t Uniform(Random& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
// `length` uniform uppercase letters, or decimal digits.
std::string RandomLetters(Random& rng, size_t length);
std::string RandomDigits(Random& rng, size_t length);

inline Value Int(int64_t v) { return Value::Int32(static_cast<int32_t>(v)); }
inline Value SmallInt(int64_t v) { return Value::Int16(static_cast<int16_t>(v)); }
inline Value Varchar(std::string s) { return Value::String(TypeId::kVarchar, std::move(s)); }

}  // namespace paceline::workloads::tatp
