// TpccOptions: mix parsing and validation.
#include "workloads/tpcc/tpcc_options.h"

#include "workloads/hot_set.h"

#include <cstdlib>
#include <sstream>
#include <vector>

namespace paceline::workloads::tpcc {

namespace {
constexpr std::array<std::string_view, kTpccTransactionCount> kNames = {"NewOrder", "Payment", "OrderStatus",
                                                                       "Delivery", "StockLevel"};
constexpr std::array<double, kTpccTransactionCount> kPaper = {50, 50, 0, 0, 0};
constexpr std::array<double, kTpccTransactionCount> kStandard = {45, 43, 4, 4, 4};

Status BadMix(std::string_view text, std::string_view why) {
  return Status(sqlstate::kInvalidParameterValue,
                "invalid --mix \"" + std::string(text) + "\": " + std::string(why) +
                    "; valid values: paper (NewOrder 50, Payment 50), standard (45,43,4,4,4), or five "
                    "comma-separated weights for NewOrder,Payment,OrderStatus,Delivery,StockLevel");
}

std::string Number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}
}  // namespace

std::string_view TpccTransactionName(TpccTransaction t) { return kNames[static_cast<size_t>(t)]; }

Status TpccMix::Parse(std::string_view text, TpccMix* out) {
  if (text == "paper") {
    out->weights = kPaper;
    return Status::OK();
  }
  if (text == "standard") {
    out->weights = kStandard;
    return Status::OK();
  }
  std::vector<double> weights;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string part(text.substr(start, comma - start));
    char* end = nullptr;
    double w = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size()) return BadMix(text, "\"" + part + "\" is not a number");
    if (!(w >= 0)) return BadMix(text, "weights must not be negative");
    weights.push_back(w);
    start = comma + 1;
  }
  if (weights.size() != kTpccTransactionCount) return BadMix(text, "expected five weights");
  double sum = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    out->weights[i] = weights[i];
    sum += weights[i];
  }
  if (!(sum > 0)) return BadMix(text, "the weights add up to zero");
  return Status::OK();
}

std::string TpccMix::ToString() const {
  if (weights == kPaper) return "paper";
  if (weights == kStandard) return "standard";
  std::string s;
  for (size_t i = 0; i < weights.size(); ++i) s += (i ? "," : "") + Number(weights[i]);
  return s;
}

Status TpccOptions::Validate() const {
  auto bad = [](std::string flag, std::string range, long value) {
    return Status(sqlstate::kInvalidParameterValue,
                  flag + " must be " + range + ": " + std::to_string(value));
  };
  if (warehouses < 1 || warehouses > 10000) return bad("--warehouses", "between 1 and 10000", warehouses);
  if (items < 10 || items > 100000) return bad("--items", "between 10 and 100000 (the spec's 100000)", items);
  if (customers_per_district < 10 || customers_per_district > 3000) {
    return bad("--tpcc-customers", "between 10 and 3000 (the spec's 3000)", customers_per_district);
  }
  if (statement_latency.count() < 0) return bad("--stmt-latency-us", "at least 0", statement_latency.count());
  if (hot_warehouses < 0) return bad("--tpcc-hot-warehouses", "between 0 and " + std::to_string(warehouses), hot_warehouses);
  PL_RETURN_IF_ERROR(HotSet::Validate(static_cast<uint64_t>(warehouses), "--warehouses",
                                      static_cast<uint64_t>(hot_warehouses), "--tpcc-hot-warehouses", hot_fraction));
  if (hot_shift.count() < 0) return Status(sqlstate::kInvalidParameterValue, "--hot-shift-s must be positive");
  return Status::OK();
}

}  // namespace paceline::workloads::tpcc
