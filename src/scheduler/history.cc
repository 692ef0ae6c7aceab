// History: per-reference (aborts, commits) counters in a libcuckoo map,
// incremented in place under the bucket lock; a names side table filled on
// first aborts; a try-flag sweep of never-aborted references past capacity.
#include "scheduler/history.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace paceline::scheduler {

namespace {

// A name's node in std::unordered_map: next pointer, cached hash, key, string.
constexpr size_t kNameNodeBytes = 2 * sizeof(void*) + sizeof(ReferenceKey) + sizeof(std::string);

// How many times reference i counts (at least once).
uint64_t Occurrences(std::span<const uint32_t> occurrences, size_t i) {
  return i < occurrences.size() ? std::max<uint32_t>(occurrences[i], 1) : 1;
}

}  // namespace

History::History(size_t capacity)
    : aborted_(capacity, ReferenceHash::kMultiplier), counts_(capacity) {}

void History::RecordAbort(std::span<const ReferenceKey> references, const ReferenceNamer* namer,
                          std::span<const uint32_t> occurrences) {
  size_t inserted = 0;
  for (size_t i = 0; i < references.size(); ++i) {
    bool first_abort = false;
    const uint64_t n = Occurrences(occurrences, i);
    if (counts_.map().upsert(
            references[i],
            [&first_abort, n](HistoryCounts& counts) {
              first_abort = counts.aborts == 0;
              counts.aborts += n;
            },
            HistoryCounts{.aborts = n, .commits = 0})) {
      ++inserted;
      first_abort = true;
    }
    if (first_abort) {
      aborted_.Add(references[i]);
    }
    // Exactly one event sees a reference's abort count leave 0, so each
    // reference is named at most once (a forgotten one never aborted).
    if (first_abort && namer != nullptr) {
      std::string name = namer->Name(i);  // outside the lock: it may be slow
      const size_t text = name.capacity() > std::string().capacity() ? name.capacity() + 1 : 0;
      std::lock_guard<std::mutex> lock(names_mutex_);
      if (names_.try_emplace(references[i], std::move(name)).second) {
        named_.fetch_add(1, std::memory_order_relaxed);
        name_bytes_.fetch_add(kNameNodeBytes + text, std::memory_order_relaxed);
      }
    }
  }
  if (inserted > 0) {
    counts_.CountInserted(static_cast<int64_t>(inserted));
    MaybeForget();
  }
}

void History::RecordCommit(std::span<const ReferenceKey> references, std::span<const uint32_t> occurrences) {
  size_t inserted = 0;
  for (size_t i = 0; i < references.size(); ++i) {
    const uint64_t n = Occurrences(occurrences, i);
    if (counts_.map().upsert(
            references[i], [n](HistoryCounts& counts) { counts.commits += n; },
            HistoryCounts{.aborts = 0, .commits = n})) {
      ++inserted;
    }
  }
  if (inserted > 0) {
    counts_.CountInserted(static_cast<int64_t>(inserted));
    MaybeForget();
  }
}

size_t History::references() const {
  return counts_.entries();
}

HistoryCounts History::Lookup(ReferenceKey key) const {
  HistoryCounts counts;
  counts_.map().find_fn(key, [&counts](const HistoryCounts& found) { counts = found; });
  return counts;
}

std::string History::Name(ReferenceKey key) const {
  std::lock_guard<std::mutex> lock(names_mutex_);
  auto it = names_.find(key);
  return it == names_.end() ? std::string() : it->second;
}

std::vector<HistoryEntry> History::Aborted() const {
  std::vector<HistoryEntry> aborted;
  auto locked = counts_.map().lock_table();
  for (const auto& [key, counts] : locked) {
    if (counts.aborts > 0) aborted.push_back(HistoryEntry{.key = key, .counts = counts});
  }
  return aborted;
}

size_t History::ApproximateBytes() const {
  size_t name_buckets;
  {
    std::lock_guard<std::mutex> lock(names_mutex_);
    name_buckets = names_.bucket_count();
  }
  // Each slot: the key-value pair, a one-byte partial key, an occupied flag.
  const size_t slot = sizeof(std::pair<ReferenceKey, HistoryCounts>) + sizeof(uint8_t) + sizeof(bool);
  return counts_.ApproximateBytes(slot) + aborted_.Bytes() +
         name_buckets * sizeof(void*) + name_bytes_.load(std::memory_order_relaxed);
}

void History::MaybeForget() {
  // Aborted references are kept even past capacity.
  counts_.Sweep([](ReferenceKey, const HistoryCounts& counts) { return counts.aborts == 0; });
}

}  // namespace paceline::scheduler
