// RecentStatements: a session's recent statement texts (see recent_statements.h).
#include "engine/recent_statements.h"

namespace paceline::engine {

bool RecentStatements::Entry::WithLiterals(const std::vector<Value>& params, std::vector<Value>* out) const {
  if (literals.empty() || params.size() != supplied) return false;
  out->reserve(params.size() + literals.size());
  *out = params;
  out->insert(out->end(), literals.begin(), literals.end());
  return true;
}

const RecentStatements::Entry* RecentStatements::Find(std::string_view key, uint64_t catalog_version) const {
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.statement->catalog_version != catalog_version) return nullptr;
  return &it->second;
}

void RecentStatements::Remember(std::string key, Entry entry) {
  // Short texts only: the map is not bounded by bytes (the shared cache is,
  // and still serves long texts with one lookup).
  if (key.size() > kMaxText) return;
  if (entries_.size() >= kCapacity) entries_.clear();
  entries_[std::move(key)] = std::move(entry);
}

bool RecentStatements::SeenBefore(std::string_view text) {
  if (seen_.empty()) seen_.assign(kSeenSlots, 0);
  const size_t h = TextHash()(text);
  size_t& slot = seen_[h % kSeenSlots];
  if (slot == h) return true;
  slot = h;
  return false;
}

}  // namespace paceline::engine
