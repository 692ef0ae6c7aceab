// TpccRandom: the specification's generators.
#include "workloads/tpcc/tpcc_random.h"

#include <array>
#include <string_view>

namespace paceline::workloads::tpcc {

namespace {
constexpr std::array<std::string_view, 10> kSyllables = {"BAR", "OUGHT", "ABLE", "PRI",   "PRES",
                                                         "ESE", "ANTI",  "CALLY", "ATION", "EING"};
constexpr std::string_view kAlphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
}  // namespace

TpccRandom::TpccRandom(uint64_t seed) {
  Random rng(seed);
  c_last_load_ = Uniform(rng, 0, 255);
  for (;;) {
    c_last_run_ = Uniform(rng, 0, 255);
    int64_t delta = c_last_run_ > c_last_load_ ? c_last_run_ - c_last_load_ : c_last_load_ - c_last_run_;
    if (delta >= 65 && delta <= 119 && delta != 96 && delta != 112) break;
  }
  c_id_ = Uniform(rng, 0, 1023);
  ol_i_id_ = Uniform(rng, 0, 8191);
}

int64_t TpccRandom::Uniform(Random& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

int64_t TpccRandom::NURand(Random& rng, int64_t a, int64_t x, int64_t y) const {
  int64_t c = a == 255 ? c_last_run_ : a == 1023 ? c_id_ : ol_i_id_;
  return (((Uniform(rng, 0, a) | Uniform(rng, x, y)) + c) % (y - x + 1)) + x;
}

int64_t TpccRandom::NURandLastNameForLoad(Random& rng) const {
  return (((Uniform(rng, 0, 255) | Uniform(rng, 0, 999)) + c_last_load_) % 1000);
}

std::string TpccRandom::LastName(int n) {
  std::string name;
  name += kSyllables[(n / 100) % 10];
  name += kSyllables[(n / 10) % 10];
  name += kSyllables[n % 10];
  return name;
}

std::string TpccRandom::AlphaString(Random& rng, int lo, int hi) {
  std::string s(static_cast<size_t>(Uniform(rng, lo, hi)), ' ');
  for (char& c : s) c = kAlphanumeric[rng() % kAlphanumeric.size()];
  return s;
}

std::string TpccRandom::NumericString(Random& rng, int lo, int hi) {
  std::string s(static_cast<size_t>(Uniform(rng, lo, hi)), ' ');
  for (char& c : s) c = static_cast<char>('0' + rng() % 10);
  return s;
}

std::string TpccRandom::DataString(Random& rng, int lo, int hi) {
  std::string s = AlphaString(rng, lo, hi);
  if (Uniform(rng, 1, 10) == 1) {
    size_t at = static_cast<size_t>(Uniform(rng, 0, static_cast<int64_t>(s.size()) - 8));
    s.replace(at, 8, "ORIGINAL");
  }
  return s;
}

std::string TpccRandom::Zip(Random& rng) { return NumericString(rng, 4, 4) + "11111"; }

}  // namespace paceline::workloads::tpcc
