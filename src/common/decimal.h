// Decimal: the exact fixed-point number behind NUMERIC(p,s) and DECIMAL.
//
// A Decimal is a 128-bit two's-complement unscaled integer and a scale (digits
// after the point): 12.50 is {1250, 2}. Up to 38 significant digits, which
// covers every NUMERIC Paceline accepts (precision ≤ 38). Arithmetic is exact
// where PostgreSQL's is (add, subtract, multiply) and rounds half away from
// zero where PostgreSQL's does (division, rescaling), so money never drifts.
// Overflow is an error (22003), never a wrap. Decimal is a trivially copyable
// value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline {

class Decimal {
 public:
  static constexpr int kMaxPrecision = 38;
  static constexpr int kMaxScale = 38;
  // The minimum scale of a quotient, as in PostgreSQL (NUMERIC_MIN_SIG_DIGITS).
  static constexpr int kMinDivisionScale = 16;

  constexpr Decimal() = default;
  constexpr Decimal(__int128 unscaled, int scale) : unscaled_(unscaled), scale_(static_cast<uint8_t>(scale)) {}
  static Decimal FromInt(int64_t v) { return Decimal(v, 0); }

  // Parses PostgreSQL numeric input: optional sign, digits with an optional
  // point, optional exponent ("1.5e3"), surrounding spaces allowed. Keeps the
  // written scale ("1.50" → scale 2). Bad text → 22P02 `invalid input syntax
  // for type numeric: "x"`; too many digits → 22003.
  static Status Parse(std::string_view text, Decimal* out);
  // Converts a finite double with up to 15 significant digits (PostgreSQL's
  // float8 → numeric cast); NaN/Inf → 22003.
  static Status FromDouble(double v, Decimal* out);

  __int128 unscaled() const { return unscaled_; }
  int scale() const { return scale_; }
  bool IsZero() const { return unscaled_ == 0; }
  bool IsNegative() const { return unscaled_ < 0; }

  // Text form with exactly scale() digits after the point: "-0.30", "12", "0.000".
  std::string ToString() const;
  double ToDouble() const;
  // Rounds half away from zero to an integer; out of int64 range → 22003.
  Status ToInt64(int64_t* out) const;

  // Same value at `new_scale` digits, rounding half away from zero when the
  // scale shrinks. Overflow → 22003.
  Status Rescale(int new_scale, Decimal* out) const;
  // Rescales to `scale` and checks it fits NUMERIC(precision, scale); else
  // 22003 "numeric field overflow" (PostgreSQL's message and detail text).
  Status FitTo(int precision, int scale, Decimal* out) const;

  // Exact sum/difference/product at the larger scale (product: sum of scales,
  // rounded back to 38 digits if needed). Quotient at PostgreSQL's scale
  // (select_div_scale: at least 16 significant digits, at least either
  // input's scale), capped so it fits 38 digits, rounded half away from
  // zero; division by zero → 22012. Modulo keeps the larger scale.
  static Status Add(const Decimal& a, const Decimal& b, Decimal* out);
  static Status Sub(const Decimal& a, const Decimal& b, Decimal* out);
  static Status Mul(const Decimal& a, const Decimal& b, Decimal* out);
  static Status Div(const Decimal& a, const Decimal& b, Decimal* out);
  static Status Mod(const Decimal& a, const Decimal& b, Decimal* out);
  Decimal Negate() const { return Decimal(-unscaled_, scale_); }

  // Numeric comparison regardless of scale: 1.0 == 1.00. Returns <0, 0, >0.
  static int Compare(const Decimal& a, const Decimal& b);
  // Hash equal for numerically equal values (1.0 and 1.00 hash alike).
  uint64_t Hash() const;

 private:
  __int128 unscaled_ = 0;
  uint8_t scale_ = 0;
};

}  // namespace paceline
