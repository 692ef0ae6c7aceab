// CreateWorkload: a Workload by name ("tpcc", "ycsb", "smallbank", "tatp")
// from its options.
//
// Thread-safety: a pure function; the workload is the caller's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "workloads/smallbank/smallbank_options.h"
#include "workloads/tatp/tatp_options.h"
#include "workloads/tpcc/tpcc_options.h"
#include "workloads/workload.h"
#include "workloads/ycsb/ycsb_options.h"

namespace paceline::workloads {

struct WorkloadOptions {
  std::string name = "tpcc";  // --workload
  tpcc::TpccOptions tpcc;     // used when name is "tpcc"
  ycsb::YcsbOptions ycsb;     // used when name is "ycsb"
  smallbank::SmallbankOptions smallbank;  // used when name is "smallbank"
  tatp::TatpOptions tatp;                 // used when name is "tatp"
};

// The names CreateWorkload accepts.
std::vector<std::string> WorkloadNames();

// 22023 for an unknown name (listing the valid ones) or invalid options of
// the chosen workload.
Status CreateWorkload(const WorkloadOptions& options, std::unique_ptr<Workload>* out);

}  // namespace paceline::workloads
