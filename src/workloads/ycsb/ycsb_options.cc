// YcsbOptions: validation.
#include "workloads/ycsb/ycsb_options.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>

namespace paceline::workloads::ycsb {

namespace {

constexpr uint64_t kMaxRecords = std::numeric_limits<int32_t>::max();  // keys are INT
constexpr int kMaxFields = 100;
constexpr int kMaxFieldLength = 10000;
constexpr uint64_t kMaxOperations = 1000;

template <typename T>
Status Bad(const char* flag, const std::string& range, T value) {
  std::ostringstream out;
  out << flag << " must be " << range << ": " << value;
  return Status(sqlstate::kInvalidParameterValue, out.str());
}

}  // namespace

Status YcsbOptions::Validate() const {
  if (records < 1 || records > kMaxRecords) {
    return Bad("--ycsb-records", "between 1 and " + std::to_string(kMaxRecords), records);
  }
  if (fields < 1 || fields > kMaxFields) return Bad("--ycsb-fields", "between 1 and 100", fields);
  if (field_length < 1 || field_length > kMaxFieldLength) {
    return Bad("--ycsb-field-length", "between 1 and 10000", field_length);
  }
  const uint64_t max_operations = std::min(records, kMaxOperations);
  if (operations < 1 || static_cast<uint64_t>(operations) > max_operations) {
    return Bad("--ycsb-operations",
               "between 1 and " + std::to_string(max_operations) +
                   " (the keys of a transaction are distinct: at most --ycsb-records, and at most 1000)",
               operations);
  }
  if (!(read_fraction >= 0 && read_fraction <= 1)) return Bad("--ycsb-read-fraction", "in [0, 1]", read_fraction);
  if (!(theta >= 0 && theta < 1)) return Bad("--ycsb-theta", "in [0, 1)", theta);
  if (statement_latency.count() < 0) return Bad("--stmt-latency-us", "at least 0", statement_latency.count());
  if (hot_shift.count() < 0) return Status(sqlstate::kInvalidParameterValue, "--hot-shift-s must be positive");
  return Status::OK();
}

}  // namespace paceline::workloads::ycsb
