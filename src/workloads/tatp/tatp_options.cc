// TatpOptions: validation.
#include "workloads/tatp/tatp_options.h"

#include <sstream>
#include <string>

#include "workloads/hot_set.h"

namespace paceline::workloads::tatp {

namespace {

constexpr uint64_t kMaxSubscribers = 10000000;  // the spec's largest population

template <typename T>
Status Bad(const char* flag, const std::string& range, T value) {
  std::ostringstream out;
  out << flag << " must be " << range << ": " << value;
  return Status(sqlstate::kInvalidParameterValue, out.str());
}

}  // namespace

Status TatpOptions::Validate() const {
  if (subscribers < 1 || subscribers > kMaxSubscribers) {
    return Bad("--tatp-subscribers", "between 1 and " + std::to_string(kMaxSubscribers), subscribers);
  }
  PL_RETURN_IF_ERROR(HotSet::Validate(subscribers, "--tatp-subscribers", hot_records, "--hot-records", hot_fraction));
  if (hot_shift.count() < 0) {
    return Bad("--hot-shift-s", "positive (or 0: the hot set never moves)",
               std::chrono::duration<double>(hot_shift).count());
  }
  if (statement_latency.count() < 0) return Bad("--stmt-latency-us", "at least 0", statement_latency.count());
  return Status::OK();
}

}  // namespace paceline::workloads::tatp
