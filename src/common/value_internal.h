// Helpers shared by value.cc (construction, text output, hashing, order)
// and value_cast.cc (CastValue): type-family tests and the few conversions
// both need. Internal to src/common; not part of Value's interface.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

#include "common/types.h"

namespace paceline::value_internal {

inline constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

// Concatenates without `"literal" + std::string&&`, which trips GCC 12's
// false-positive -Wrestrict at -O3.
inline std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s.append(p);
  return s;
}

// kUnknown counts as a string here: an untyped literal is text until cast.
inline bool IsStringType(TypeId t) {
  return t == TypeId::kChar || t == TypeId::kVarchar || t == TypeId::kText || t == TypeId::kUnknown;
}
inline bool IsIntegerType(TypeId t) {
  return t == TypeId::kInt16 || t == TypeId::kInt32 || t == TypeId::kInt64 || t == TypeId::kOid;
}
inline bool IsFloatType(TypeId t) { return t == TypeId::kFloat32 || t == TypeId::kFloat64; }
inline bool IsNumberType(TypeId t) { return IsIntegerType(t) || IsFloatType(t) || t == TypeId::kNumeric; }
inline bool IsTemporalType(TypeId t) {
  return t == TypeId::kDate || t == TypeId::kTimestamp || t == TypeId::kTimestampTz;
}

inline std::string_view TrimTrailingBlanks(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && s[n - 1] == ' ') --n;
  return s.substr(0, n);
}

// A date as its midnight; saturated at the ends of the timestamp range (a
// date outside it is later or earlier than every timestamp).
inline int64_t DateMicros(int64_t days) {
  int64_t micros = 0;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &micros)) {
    return days < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return micros;
}

}  // namespace paceline::value_internal
