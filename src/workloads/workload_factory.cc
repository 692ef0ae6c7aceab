// CreateWorkload: name → workload.
#include "workloads/workload_factory.h"

#include "workloads/smallbank/smallbank_workload.h"
#include "workloads/tatp/tatp_workload.h"
#include "workloads/tpcc/tpcc_workload.h"
#include "workloads/ycsb/ycsb_workload.h"

namespace paceline::workloads {

std::vector<std::string> WorkloadNames() { return {"tpcc", "ycsb", "smallbank", "tatp"}; }

Status CreateWorkload(const WorkloadOptions& options, std::unique_ptr<Workload>* out) {
  if (options.name == "tpcc") {
    PL_RETURN_IF_ERROR(options.tpcc.Validate());
    *out = std::make_unique<tpcc::TpccWorkload>(options.tpcc);
    return Status::OK();
  }
  if (options.name == "ycsb") {
    PL_RETURN_IF_ERROR(options.ycsb.Validate());
    *out = std::make_unique<ycsb::YcsbWorkload>(options.ycsb);
    return Status::OK();
  }
  if (options.name == "smallbank") {
    PL_RETURN_IF_ERROR(options.smallbank.Validate());
    *out = std::make_unique<smallbank::SmallbankWorkload>(options.smallbank);
    return Status::OK();
  }
  if (options.name == "tatp") {
    PL_RETURN_IF_ERROR(options.tatp.Validate());
    *out = std::make_unique<tatp::TatpWorkload>(options.tatp);
    return Status::OK();
  }
  std::string valid;
  for (const std::string& name : WorkloadNames()) valid += (valid.empty() ? "" : ", ") + name;
  return Status(sqlstate::kInvalidParameterValue,
                "unknown workload \"" + options.name + "\"; valid workloads: " + valid);
}

}  // namespace paceline::workloads
