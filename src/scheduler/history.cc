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

// libcuckoo keeps one 64-byte-aligned spinlock per bucket, up to 2^16.
constexpr size_t kLockStripeBytes = 64;
constexpr size_t kMaxLockStripes = size_t{1} << 16;
// The table is created at 2^16 buckets, which allocates libcuckoo's full
// lock array, then shrunk to 2^kInitialHashpower buckets before any use; it
// grows from there without ever resizing the lock array (see the header).
constexpr size_t kFullLockArraySlots = kMaxLockStripes * libcuckoo::DEFAULT_SLOT_PER_BUCKET;
constexpr size_t kInitialHashpower = 10;
// A name's node in std::unordered_map: next pointer, cached hash, key, string.
constexpr size_t kNameNodeBytes = 2 * sizeof(void*) + sizeof(ReferenceKey) + sizeof(std::string);

int64_t ClampToInt64(size_t n) {
  return static_cast<int64_t>(std::min<size_t>(n, std::numeric_limits<int64_t>::max()));
}


// log2 of the filter's size in bits: capacity rounded up to a power of two,
// within [2^16, 2^24] (8 KB to 2 MB).
unsigned FilterBitsLog2(size_t capacity) {
  unsigned log2 = 16;
  while (log2 < 24 && (size_t{1} << log2) < capacity) ++log2;
  return log2;
}

}  // namespace

History::History(size_t capacity)
    : capacity_(capacity),
      filter_shift_(64 - FilterBitsLog2(capacity)),
      filter_(new std::atomic<uint64_t>[(uint64_t{1} << FilterBitsLog2(capacity)) / 64]),
      counts_(kFullLockArraySlots),
      sweep_threshold_(ClampToInt64(capacity)) {
  counts_.rehash(kInitialHashpower);
  const size_t words = (uint64_t{1} << (64 - filter_shift_)) / 64;
  for (size_t i = 0; i < words; ++i) filter_[i].store(0, std::memory_order_relaxed);
}

void History::RecordAbort(std::span<const ReferenceKey> references, const ReferenceNamer* namer) {
  size_t inserted = 0;
  for (size_t i = 0; i < references.size(); ++i) {
    bool first_abort = false;
    if (counts_.upsert(
            references[i],
            [&first_abort](HistoryCounts& counts) {
              first_abort = counts.aborts == 0;
              ++counts.aborts;
            },
            HistoryCounts{.aborts = 1, .commits = 0})) {
      ++inserted;
      first_abort = true;
    }
    if (first_abort) {
      const uint64_t bit = FilterBit(references[i]);
      filter_[bit / 64].fetch_or(uint64_t{1} << (bit % 64), std::memory_order_relaxed);
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
    entries_.fetch_add(static_cast<int64_t>(inserted), std::memory_order_relaxed);
    MaybeForget();
  }
}

void History::RecordCommit(std::span<const ReferenceKey> references) {
  size_t inserted = 0;
  for (ReferenceKey key : references) {
    if (counts_.upsert(
            key, [](HistoryCounts& counts) { ++counts.commits; }, HistoryCounts{.aborts = 0, .commits = 1})) {
      ++inserted;
    }
  }
  if (inserted > 0) {
    entries_.fetch_add(static_cast<int64_t>(inserted), std::memory_order_relaxed);
    MaybeForget();
  }
}

size_t History::references() const {
  return static_cast<size_t>(std::max<int64_t>(entries_.load(std::memory_order_relaxed), 0));
}

HistoryCounts History::Lookup(ReferenceKey key) const {
  HistoryCounts counts;
  counts_.find_fn(key, [&counts](const HistoryCounts& found) { counts = found; });
  return counts;
}

std::string History::Name(ReferenceKey key) const {
  std::lock_guard<std::mutex> lock(names_mutex_);
  auto it = names_.find(key);
  return it == names_.end() ? std::string() : it->second;
}

std::vector<HistoryEntry> History::Aborted() const {
  std::vector<HistoryEntry> aborted;
  auto locked = counts_.lock_table();
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
  const size_t filter_bytes = (uint64_t{1} << (64 - filter_shift_)) / 8;
  // Each slot: the key-value pair, a one-byte partial key, an occupied flag.
  const size_t slot = sizeof(std::pair<ReferenceKey, HistoryCounts>) + sizeof(uint8_t) + sizeof(bool);
  return counts_.capacity() * slot + kMaxLockStripes * kLockStripeBytes + filter_bytes +
         name_buckets * sizeof(void*) + name_bytes_.load(std::memory_order_relaxed);
}

void History::MaybeForget() {
  if (entries_.load(std::memory_order_relaxed) <= sweep_threshold_.load(std::memory_order_relaxed)) return;
  if (sweeping_.exchange(true, std::memory_order_acquire)) return;  // another thread sweeps
  size_t dropped = 0;
  size_t kept = 0;
  {
    auto locked = counts_.lock_table();
    for (auto it = locked.begin(); it != locked.end();) {
      if (it->second.aborts == 0) {
        it = locked.erase(it);
        ++dropped;
      } else {
        ++it;
        ++kept;
      }
    }
  }
  entries_.fetch_sub(static_cast<int64_t>(dropped), std::memory_order_relaxed);
  forgotten_.fetch_add(dropped, std::memory_order_relaxed);
  // Aborted references are kept even past capacity; then leave room for a
  // quarter of capacity more before sweeping again, so that sweeps stay
  // amortised over many insertions.
  const size_t threshold = std::max(capacity_, kept + std::max<size_t>(capacity_ / 4, 1));
  sweep_threshold_.store(ClampToInt64(threshold), std::memory_order_relaxed);
  sweeping_.store(false, std::memory_order_release);
}

}  // namespace paceline::scheduler
