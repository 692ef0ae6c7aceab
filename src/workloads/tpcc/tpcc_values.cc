// Reading NUMERIC values back in cents.
#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

int64_t CentsOf(const Value& v) {
  if (v.is_null()) return 0;
  Decimal d;
  if (!v.numeric_value().Rescale(2, &d).ok()) return 0;  // TPC-C amounts never overflow
  return static_cast<int64_t>(d.unscaled());
}

}  // namespace paceline::workloads::tpcc
