// SmallbankOptions: validation.
#include "workloads/smallbank/smallbank_options.h"

#include <limits>
#include <string>

#include "workloads/hot_set.h"

namespace paceline::workloads::smallbank {

Status SmallbankOptions::Validate() const {
  constexpr uint64_t kMaxAccounts = std::numeric_limits<int32_t>::max();  // custid is INT
  if (accounts < 2 || accounts > kMaxAccounts) {
    return Status(sqlstate::kInvalidParameterValue, "--smallbank-accounts must be between 2 and " +
                                                        std::to_string(kMaxAccounts) + ": " + std::to_string(accounts));
  }
  PL_RETURN_IF_ERROR(HotSet::Validate(accounts, "--smallbank-accounts", hot_records, "--hot-records", hot_fraction));
  if (hot_shift.count() < 0) return Status(sqlstate::kInvalidParameterValue, "--hot-shift-s must be positive");
  if (statement_latency.count() < 0) {
    return Status(sqlstate::kInvalidParameterValue,
                  "--stmt-latency-us must be at least 0: " + std::to_string(statement_latency.count()));
  }
  return Status::OK();
}

}  // namespace paceline::workloads::smallbank
