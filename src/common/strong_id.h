// StrongId: an integer that names one kind of thing (a log sequence number,
// a table, a transaction's timestamp), as a type of its own, so that one
// kind is never passed where another is expected: Lsn and TableId do not
// convert into each other or from a bare integer without saying so.
//
//   struct LsnTag {};
//   using Lsn = StrongId<LsnTag, uint64_t>;
//   Lsn lsn(7);            // explicit from the raw value
//   lsn.value();           // and back, where a number is really meant
//   lsn < lsn.Next();      // compared with its own kind only
//
// A StrongId is as cheap as its integer (trivially copyable, fits
// std::atomic the same way) and hashes as it does (StrongId::Hash).
//
// Thread-safety: a plain value.
#pragma once

#include <compare>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <iosfwd>

namespace paceline {

template <typename Tag, typename Int>
class StrongId {
 public:
  using value_type = Int;

  constexpr StrongId() = default;
  constexpr explicit StrongId(Int value) : value_(value) {}

  constexpr Int value() const { return value_; }
  // The ids next to this one (ids handed out in order: LSNs, timestamps).
  constexpr StrongId Next() const { return StrongId(value_ + 1); }
  constexpr StrongId Prev() const { return StrongId(value_ - 1); }

  friend constexpr auto operator<=>(const StrongId&, const StrongId&) = default;
  friend std::ostream& operator<<(std::ostream& out, const StrongId& id) { return out << id.value_; }

  struct Hash {
    size_t operator()(const StrongId& id) const noexcept { return std::hash<Int>()(id.value_); }
  };

 private:
  Int value_{};
};

// What the header promises: the integer's size, trivially copyable.
static_assert(sizeof(StrongId<struct StrongIdCheckTag, uint64_t>) == sizeof(uint64_t));
static_assert(std::is_trivially_copyable_v<StrongId<struct StrongIdCheckTag, uint64_t>>);

}  // namespace paceline
