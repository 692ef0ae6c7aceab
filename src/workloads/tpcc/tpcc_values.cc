// Reading NUMERIC values back at a fixed scale.
#include "workloads/tpcc/tpcc_values.h"

namespace paceline::workloads::tpcc {

namespace {
int64_t AtScale(const Value& v, int scale) {
  if (v.is_null()) return 0;
  Decimal d;
  if (!v.numeric_value().Rescale(scale, &d).ok()) return 0;  // TPC-C amounts never overflow
  return static_cast<int64_t>(d.unscaled());
}
}  // namespace

int64_t CentsOf(const Value& v) { return AtScale(v, 2); }
int64_t BasisPointsOf(const Value& v) { return AtScale(v, 4); }

}  // namespace paceline::workloads::tpcc
