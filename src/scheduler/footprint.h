// Footprint: what the scheduler knows of one transaction — the 64-bit keys
// of the references it makes (a column or its canonical domain, an operator
// and a value, hashed). The engine computes it from the statements' reference
// slots and the bound parameters before the transaction is queued; the
// scheduler never sees SQL text. An empty footprint is valid (nothing known).
//
// A plain value type.
#pragma once

#include <cstdint>
#include <vector>

namespace paceline::scheduler {

using ReferenceKey = uint64_t;

struct Footprint {
  std::vector<ReferenceKey> references;
};

}  // namespace paceline::scheduler
