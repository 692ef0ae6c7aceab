// Test helpers: the parameter space of concurrency tests that run for every
// concurrency control × every scheduler by name, and their test names.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "engine/database.h"

namespace paceline::engine::test_params {

inline const std::vector<std::string> kCcNames = {"occ", "2pl", "2pl-wait-die", "2pl-wound-wait"};

// Every scheduler but the "-single" aliases of the short policy names.
inline std::vector<std::string> DistinctSchedulerNames() {
  std::vector<std::string> names;
  for (const std::string& name : Database::SchedulerNames()) {
    if (!name.ends_with("-single")) names.push_back(name);
  }
  return names;
}

// "occ_count_max_canonical" for ("occ", "count-max-canonical").
inline std::string CcSchedulerName(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

}  // namespace paceline::engine::test_params
