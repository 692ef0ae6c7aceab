// SqlStateCounts (see sqlstate_counts.h).
#include "server/sqlstate_counts.h"

namespace paceline::server {

void SqlStateCounts::Add(std::string_view sqlstate) {
  std::lock_guard lock(mu_);
  auto it = counts_.find(sqlstate);
  if (it == counts_.end()) it = counts_.emplace(std::string(sqlstate), 0).first;
  ++it->second;
}

std::vector<std::pair<std::string, uint64_t>> SqlStateCounts::Snapshot() const {
  std::lock_guard lock(mu_);
  return {counts_.begin(), counts_.end()};
}

}  // namespace paceline::server
