// HotSet: per-epoch sampling of the hot keys and the draws; HotSetClock.
#include "workloads/hot_set.h"

#include <algorithm>
#include <cassert>
#include <sstream>
#include <unordered_set>

namespace paceline::workloads {

namespace {

// splitmix64's finalizer: decorrelates (seed, epoch) pairs.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double Uniform01(Random& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

uint64_t UniformBelow(Random& rng, uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng); }

}  // namespace

uint64_t EpochSeed(uint64_t seed, uint64_t epoch) { return Mix(seed ^ Mix(epoch)); }

HotSet::HotSet(uint64_t keys, uint64_t hot, double fraction, uint64_t seed)
    : keys_(keys), hot_(hot), fraction_(fraction), seed_(seed) {
  assert(keys >= 1 && hot <= keys && fraction >= 0 && fraction <= 1);
  cached_ = Sample(0);
}

Status HotSet::Validate(uint64_t keys, const char* keys_flag, uint64_t hot, const char* hot_flag, double fraction) {
  if (hot > keys) {
    std::ostringstream out;
    out << hot_flag << " must be between 0 and " << keys << " (" << keys_flag << "): " << hot;
    return Status(sqlstate::kInvalidParameterValue, out.str());
  }
  if (!(fraction >= 0 && fraction <= 1)) {
    std::ostringstream out;
    out << "--hot-fraction must be in [0, 1]: " << fraction;
    return Status(sqlstate::kInvalidParameterValue, out.str());
  }
  return Status::OK();
}

std::shared_ptr<const HotSet::Epoch> HotSet::Sample(uint64_t epoch) const {
  auto e = std::make_shared<Epoch>();
  e->number = epoch;
  Random rng(EpochSeed(seed_, epoch));
  // Floyd: for j in keys-hot .. keys-1, take a uniform t in [0, j]; t if new,
  // else j. Each hot-subset is equally likely.
  std::unordered_set<uint64_t> chosen;
  chosen.reserve(hot_);
  for (uint64_t j = keys_ - hot_; j < keys_; ++j) {
    const uint64_t t = UniformBelow(rng, j + 1);
    if (!chosen.insert(t).second) chosen.insert(j);
  }
  e->hot.assign(chosen.begin(), chosen.end());
  std::sort(e->hot.begin(), e->hot.end());
  e->cold_rank.resize(e->hot.size());
  for (size_t j = 0; j < e->hot.size(); ++j) e->cold_rank[j] = e->hot[j] - j;
  return e;
}

std::shared_ptr<const HotSet::Epoch> HotSet::Get(uint64_t epoch) const {
  {
    std::lock_guard lock(mu_);
    if (cached_->number == epoch) return cached_;
  }
  std::shared_ptr<const Epoch> e = Sample(epoch);
  std::lock_guard lock(mu_);
  cached_ = e;
  return e;
}

uint64_t HotSet::Draw(Random& rng, uint64_t epoch) const {
  if (hot_ == 0) return UniformBelow(rng, keys_);
  const std::shared_ptr<const Epoch> e = Get(epoch);
  if (hot_ == keys_ || Uniform01(rng) < fraction_) return e->hot[UniformBelow(rng, hot_)];
  // The i-th cold key: i plus the hot keys at or below it, which are those
  // with fewer than i + 1 cold keys below them.
  const uint64_t i = UniformBelow(rng, keys_ - hot_);
  return i + static_cast<uint64_t>(std::upper_bound(e->cold_rank.begin(), e->cold_rank.end(), i) -
                                   e->cold_rank.begin());
}

std::vector<uint64_t> HotSet::HotKeys(uint64_t epoch) const { return Get(epoch)->hot; }

bool HotSet::IsHot(uint64_t key, uint64_t epoch) const {
  const std::shared_ptr<const Epoch> e = Get(epoch);
  return std::binary_search(e->hot.begin(), e->hot.end(), key);
}

uint64_t HotSetClock::EpochAt(Clock::time_point t) const {
  if (shift_ns_ <= 0 || !started_.load(std::memory_order_acquire)) return 0;
  const int64_t since = Nanoseconds(t) - start_ns_.load(std::memory_order_relaxed);
  return since <= 0 ? 0 : static_cast<uint64_t>(since / shift_ns_);
}

}  // namespace paceline::workloads
