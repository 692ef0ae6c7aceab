// State: counts per (reference, group of 8 queues) in a libcuckoo map,
// changed in place under the bucket lock; totals and in-flight counts as
// per-queue atomics on their own cache lines; a try-flag sweep bounds the
// cumulative table.
#include "scheduler/state.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace paceline::scheduler {

namespace {

constexpr int32_t kMaxCount = std::numeric_limits<int32_t>::max();

}  // namespace

State::State(size_t queues, StateMode mode, size_t capacity)
    : queues_(queues),
      groups_((queues + kQueuesPerEntry - 1) / kQueuesPerEntry),
      mode_(mode),
      table_(capacity),
      totals_(new PaddedCounter[queues]),
      in_flight_(new PaddedCounter[queues]) {
  assert(queues >= 1);
}

void State::Add(std::span<const ReferenceKey> references, size_t queue) {
  assert(queue < queues_);
  const uint64_t group = queue / kQueuesPerEntry;
  const size_t slot = queue % kQueuesPerEntry;
  Counts8 first;
  first.count[slot] = 1;
  int64_t inserted = 0;
  for (ReferenceKey reference : references) {
    const auto increment = [slot](Counts8& counts) {
      if (counts.count[slot] < kMaxCount) ++counts.count[slot];
    };
    if (table_.map().upsert(Key{reference, group}, increment, first)) ++inserted;
  }
  table_.CountInserted(inserted);
  totals_[queue].value.fetch_add(static_cast<int64_t>(references.size()), std::memory_order_relaxed);
  in_flight_[queue].value.fetch_add(1, std::memory_order_relaxed);
}

void State::Remove(std::span<const ReferenceKey> references, size_t queue) {
  assert(queue < queues_);
  in_flight_[queue].value.fetch_sub(1, std::memory_order_relaxed);
  if (mode_ == StateMode::kCumulative) return;
  const uint64_t group = queue / kQueuesPerEntry;
  const size_t slot = queue % kQueuesPerEntry;
  int64_t erased = 0;
  for (ReferenceKey reference : references) {
    table_.map().erase_fn(Key{reference, group}, [slot, &erased](Counts8& counts) {
      --counts.count[slot];
      const bool empty = std::all_of(counts.count.begin(), counts.count.end(), [](int32_t c) { return c == 0; });
      if (empty) ++erased;
      return empty;
    });
  }
  table_.CountErased(erased);
  totals_[queue].value.fetch_sub(static_cast<int64_t>(references.size()), std::memory_order_relaxed);
}

void State::Accumulate(ReferenceKey key, double weight, double* scores) const {
  for (uint64_t group = 0; group < groups_; ++group) {
    const size_t first = group * kQueuesPerEntry;
    const size_t n = std::min(kQueuesPerEntry, queues_ - first);
    table_.map().find_fn(Key{key, group}, [weight, n, out = scores + first](const Counts8& counts) {
      for (size_t i = 0; i < n; ++i) out[i] += weight * static_cast<double>(counts.count[i]);
    });
  }
}

int64_t State::Count(ReferenceKey key, size_t queue) const {
  assert(queue < queues_);
  int64_t count = 0;
  table_.map().find_fn(Key{key, queue / kQueuesPerEntry},
               [&count, slot = queue % kQueuesPerEntry](const Counts8& counts) { count = counts.count[slot]; });
  return count;
}

std::vector<int64_t> State::Counts(ReferenceKey key) const {
  std::vector<int64_t> counts(queues_, 0);
  for (uint64_t group = 0; group < groups_; ++group) {
    const size_t first = group * kQueuesPerEntry;
    const size_t n = std::min(kQueuesPerEntry, queues_ - first);
    table_.map().find_fn(Key{key, group}, [&counts, first, n](const Counts8& found) {
      std::copy_n(found.count.begin(), n, counts.begin() + static_cast<ptrdiff_t>(first));
    });
  }
  return counts;
}

bool State::OverCapacity() const { return mode_ == StateMode::kCumulative && table_.OverCapacity(); }

size_t State::Forget(const std::function<bool(ReferenceKey)>& keep) {
  if (mode_ != StateMode::kCumulative) return 0;
  return table_.Sweep([&keep](const Key& key, const Counts8&) { return !keep(key.reference); });
}

size_t State::entries() const { return table_.entries(); }

size_t State::ApproximateBytes() const {
  const size_t slot = sizeof(std::pair<Key, Counts8>) + sizeof(uint8_t) + sizeof(bool);
  return table_.ApproximateBytes(slot) + 2 * queues_ * sizeof(PaddedCounter);
}

}  // namespace paceline::scheduler
