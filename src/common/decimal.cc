// Decimal: parsing, printing, rounding and exact arithmetic on 128-bit
// fixed-point numbers. Products, quotients and cross-scale comparisons go
// through a small unsigned 256-bit helper so that no intermediate can wrap:
// every result either fits 38 digits or is a 22003 error.
#include "common/decimal.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

namespace paceline {

namespace {

using u128 = unsigned __int128;

constexpr std::array<u128, 39> MakePowersOf10() {
  std::array<u128, 39> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}
constexpr std::array<u128, 39> kPow10 = MakePowersOf10();  // 10^0 .. 10^38
// Every valid Decimal has |unscaled| < 10^38.
constexpr u128 kLimit = kPow10[38];

Status Overflow() { return Status(sqlstate::kNumericValueOutOfRange, "value overflows numeric format"); }
Status FieldOverflow() { return Status(sqlstate::kNumericValueOutOfRange, "numeric field overflow"); }
Status DivisionByZero() { return Status(sqlstate::kDivisionByZero, "division by zero"); }

// Concatenates without `"literal" + std::string&&`, which trips GCC 12's
// false-positive -Wrestrict at -O3.
std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s.append(p);
  return s;
}

u128 Abs(__int128 v) { return v < 0 ? -static_cast<u128>(v) : static_cast<u128>(v); }
int Sign(__int128 v) { return (v > 0) - (v < 0); }

// Number of decimal digits of v (0 for 0).
int Digits(u128 v) {
  int n = 0;
  while (n < 39 && v >= kPow10[n]) ++n;
  return n;
}

int CountLeadingZeros(u128 v) {  // v != 0
  uint64_t hi = static_cast<uint64_t>(v >> 64);
  return hi != 0 ? __builtin_clzll(hi) : 64 + __builtin_clzll(static_cast<uint64_t>(v));
}

// Unsigned 256-bit integer: just enough arithmetic for exact products,
// quotients and comparisons of two 128-bit magnitudes.
struct U256 {
  u128 hi = 0;
  u128 lo = 0;
};

U256 Wide(u128 v) { return U256{0, v}; }

int Cmp(const U256& a, const U256& b) {
  if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
  if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
  return 0;
}

U256 Add(const U256& a, const U256& b) {
  U256 r;
  r.lo = a.lo + b.lo;
  r.hi = a.hi + b.hi + (r.lo < a.lo ? 1 : 0);
  return r;
}

U256 Sub(const U256& a, const U256& b) {  // a >= b, or wraps modulo 2^256
  U256 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1 : 0);
  return r;
}

// Full 128 x 128 → 256-bit product.
U256 Mul128(u128 a, u128 b) {
  const uint64_t a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
  const uint64_t b0 = static_cast<uint64_t>(b), b1 = static_cast<uint64_t>(b >> 64);
  const u128 p00 = static_cast<u128>(a0) * b0;
  const u128 p01 = static_cast<u128>(a0) * b1;
  const u128 p10 = static_cast<u128>(a1) * b0;
  const u128 p11 = static_cast<u128>(a1) * b1;
  const u128 mid = (p00 >> 64) + static_cast<uint64_t>(p01) + static_cast<uint64_t>(p10);
  U256 r;
  r.lo = (mid << 64) | static_cast<uint64_t>(p00);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}

// a * m; false when the product does not fit 256 bits.
bool MulWide(const U256& a, u128 m, U256* out) {
  const U256 low = Mul128(a.lo, m);
  const U256 high = Mul128(a.hi, m);
  if (high.hi != 0) return false;
  out->lo = low.lo;
  out->hi = low.hi + high.lo;
  return out->hi >= low.hi;
}

// mag * 10^n for 0 <= n <= 76 (enough for two 38-digit scales); false on
// overflow of 256 bits.
bool ScaleUp(u128 mag, int n, U256* out) {
  if (n < 0 || n > 76) return false;
  if (n <= 38) {
    *out = Mul128(mag, kPow10[n]);
    return true;
  }
  return MulWide(Mul128(mag, kPow10[38]), kPow10[n - 38], out);
}

// q = n / d, r = n % d; d != 0.
void DivMod(const U256& n, const U256& d, U256* q, U256* r) {
  if (n.hi == 0 && d.hi == 0) {
    *q = Wide(n.lo / d.lo);
    *r = Wide(n.lo % d.lo);
    return;
  }
  if (Cmp(n, d) < 0) {
    *q = U256{};
    *r = n;
    return;
  }
  if (d.hi == 0 && (d.lo >> 64) == 0) {
    // Schoolbook division by 64-bit limbs: each partial remainder fits 128 bits.
    const uint64_t limbs[4] = {static_cast<uint64_t>(n.hi >> 64), static_cast<uint64_t>(n.hi),
                               static_cast<uint64_t>(n.lo >> 64), static_cast<uint64_t>(n.lo)};
    uint64_t out[4];
    u128 rem = 0;
    for (int i = 0; i < 4; ++i) {
      const u128 cur = (rem << 64) | limbs[i];
      out[i] = static_cast<uint64_t>(cur / d.lo);
      rem = cur % d.lo;
    }
    q->hi = (static_cast<u128>(out[0]) << 64) | out[1];
    q->lo = (static_cast<u128>(out[2]) << 64) | out[3];
    *r = Wide(rem);
    return;
  }
  // Shift-subtract, one bit at a time from n's highest set bit.
  const int top = n.hi != 0 ? 255 - CountLeadingZeros(n.hi) : 127 - CountLeadingZeros(n.lo);
  U256 quo, rem;
  for (int i = top; i >= 0; --i) {
    const bool carry = (rem.hi >> 127) != 0;
    const u128 bit = i >= 128 ? (n.hi >> (i - 128)) & 1 : (n.lo >> i) & 1;
    rem.hi = (rem.hi << 1) | (rem.lo >> 127);
    rem.lo = (rem.lo << 1) | bit;
    if (carry || Cmp(rem, d) >= 0) {
      rem = Sub(rem, d);
      if (i >= 128) {
        quo.hi |= static_cast<u128>(1) << (i - 128);
      } else {
        quo.lo |= static_cast<u128>(1) << i;
      }
    }
  }
  *q = quo;
  *r = rem;
}

// n / d rounded half away from zero (both non-negative).
U256 RoundDiv(const U256& n, const U256& d) {
  U256 q, r;
  DivMod(n, d, &q, &r);
  if (Cmp(r, Sub(d, r)) >= 0) q = Add(q, Wide(1));
  return q;
}

int DigitsWide(U256 v) {
  int n = 0;
  while (v.hi != 0) {
    U256 q, r;
    DivMod(v, Wide(kPow10[38]), &q, &r);
    v = q;
    n += 38;
  }
  return n + Digits(v.lo);
}

bool FitsLimit(const U256& v) { return v.hi == 0 && v.lo < kLimit; }

Decimal Make(bool negative, u128 mag, int scale) {
  const __int128 v = static_cast<__int128>(mag);
  return Decimal(negative ? -v : v, scale);
}

Status InvalidSyntax(std::string_view text) {
  return Status(sqlstate::kInvalidTextRepresentation, Cat({"invalid input syntax for type numeric: \"", text, "\""}));
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// Adds (subtract=false) or subtracts b from a at the larger scale.
Status AddImpl(const Decimal& a, const Decimal& b, bool subtract, Decimal* out) {
  const int scale = std::max(a.scale(), b.scale());
  if (scale > Decimal::kMaxScale) return Overflow();
  __int128 x = a.unscaled(), y = b.unscaled();
  if (a.scale() < scale && __builtin_mul_overflow(x, static_cast<__int128>(kPow10[scale - a.scale()]), &x)) {
    return Overflow();
  }
  if (b.scale() < scale && __builtin_mul_overflow(y, static_cast<__int128>(kPow10[scale - b.scale()]), &y)) {
    return Overflow();
  }
  __int128 r;
  if (subtract ? __builtin_sub_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r)) return Overflow();
  if (Abs(r) >= kLimit) return Overflow();
  *out = Decimal(r, scale);
  return Status::OK();
}

}  // namespace

Status Decimal::Parse(std::string_view text, Decimal* out) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n && IsSpace(text[i])) ++i;
  size_t end = n;
  while (end > i && IsSpace(text[end - 1])) --end;

  // PostgreSQL's special values, which Paceline's NUMERIC cannot hold.
  std::string_view body = text.substr(i, end - i);
  if (EqualsIgnoreCase(body, "nan")) return NotSupported("numeric NaN");
  std::string_view unsigned_body = body;
  if (!unsigned_body.empty() && (unsigned_body[0] == '+' || unsigned_body[0] == '-')) unsigned_body.remove_prefix(1);
  if (EqualsIgnoreCase(unsigned_body, "infinity") || EqualsIgnoreCase(unsigned_body, "inf")) {
    return NotSupported("numeric infinity");
  }

  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  u128 mag = 0;
  int significant = 0;  // digits accumulated in mag (leading zeros skipped)
  int fraction = 0;     // digits written after the point
  bool any_digit = false, seen_point = false, too_long = false;
  for (; i < n; ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (seen_point) ++fraction;
      if (mag == 0 && c == '0') continue;
      if (significant >= kMaxPrecision) {
        too_long = true;
      } else {
        mag = mag * 10 + static_cast<unsigned>(c - '0');
        ++significant;
      }
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return InvalidSyntax(text);

  int64_t exponent = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    const size_t digits_start = i;
    for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (exponent <= 100000) exponent = exponent * 10 + (text[i] - '0');  // saturates; overflows below
    }
    if (i == digits_start) return InvalidSyntax(text);
    if (exp_negative) exponent = -exponent;
  }
  while (i < n && IsSpace(text[i])) ++i;
  if (i != n) return InvalidSyntax(text);
  if (too_long) return Overflow();

  int64_t scale = fraction - exponent;
  if (scale < 0) {
    // "1.5e3": shift the digits left and keep scale 0.
    if (mag != 0) {
      if (-scale > kMaxPrecision || Digits(mag) - scale > kMaxPrecision) return Overflow();
      mag *= kPow10[-scale];
    }
    scale = 0;
  }
  if (scale > kMaxScale) return Overflow();
  *out = Make(negative, mag, static_cast<int>(scale));
  return Status::OK();
}

Status Decimal::FromDouble(double v, Decimal* out) {
  if (std::isnan(v)) return Status(sqlstate::kNumericValueOutOfRange, "cannot convert NaN to numeric");
  if (std::isinf(v)) return Status(sqlstate::kNumericValueOutOfRange, "cannot convert infinity to numeric");
  // PostgreSQL's float8_numeric prints with "%.15g" (DBL_DIG) and parses that.
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::general, 15);
  return Parse(std::string_view(buf, static_cast<size_t>(res.ptr - buf)), out);
}

std::string Decimal::ToString() const {
  char digits[300];  // room for any uint8_t scale
  int len = 0;
  u128 mag = Abs(unscaled_);
  do {
    digits[len++] = static_cast<char>('0' + static_cast<int>(mag % 10));
    mag /= 10;
  } while (mag != 0);
  const int scale = scale_;
  while (len <= scale) digits[len++] = '0';  // at least one digit before the point
  std::string s;
  s.reserve(static_cast<size_t>(len) + 2);
  if (unscaled_ < 0) s.push_back('-');
  for (int i = len - 1; i >= 0; --i) {
    s.push_back(digits[i]);
    if (i == scale && scale > 0) s.push_back('.');
  }
  return s;
}

double Decimal::ToDouble() const {
  static constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                           1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                           1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const u128 mag = Abs(unscaled_);
  if (mag < (static_cast<u128>(1) << 53) && scale_ <= 22) {
    // Both operands are exact doubles, so one division rounds correctly.
    const double d = static_cast<double>(static_cast<uint64_t>(mag)) / kExactPow10[scale_];
    return unscaled_ < 0 ? -d : d;
  }
  const std::string s = ToString();
  double d = 0;
  std::from_chars(s.data(), s.data() + s.size(), d);
  return d;
}

Status Decimal::ToInt64(int64_t* out) const {
  Decimal rounded;
  PL_RETURN_IF_ERROR(Rescale(0, &rounded));
  if (rounded.unscaled_ < std::numeric_limits<int64_t>::min() ||
      rounded.unscaled_ > std::numeric_limits<int64_t>::max()) {
    return Status(sqlstate::kNumericValueOutOfRange, "bigint out of range");
  }
  *out = static_cast<int64_t>(rounded.unscaled_);
  return Status::OK();
}

Status Decimal::Rescale(int new_scale, Decimal* out) const {
  if (new_scale < 0 || new_scale > kMaxScale) return Overflow();
  const int scale = scale_;
  if (new_scale == scale) {
    *out = *this;
    return Status::OK();
  }
  const u128 mag = Abs(unscaled_);
  if (new_scale > scale) {
    const u128 p = kPow10[new_scale - scale];
    if (mag > (kLimit - 1) / p) return Overflow();
    *out = Make(unscaled_ < 0, mag * p, new_scale);
    return Status::OK();
  }
  const int drop = scale - new_scale;
  if (drop > kMaxPrecision) {  // only for out-of-contract scales: rounds to zero
    *out = Decimal(0, new_scale);
    return Status::OK();
  }
  const u128 p = kPow10[drop];
  u128 q = mag / p;
  const u128 r = mag % p;
  if (r >= p - r) ++q;  // half away from zero
  *out = Make(unscaled_ < 0, q, new_scale);
  return Status::OK();
}

Status Decimal::FitTo(int precision, int scale, Decimal* out) const {
  if (precision < 0) {  // unconstrained NUMERIC
    *out = *this;
    return Status::OK();
  }
  Decimal r;
  if (!Rescale(scale, &r).ok()) return FieldOverflow();
  if (Abs(r.unscaled_) >= kPow10[std::min(precision, kMaxPrecision)]) return FieldOverflow();
  *out = r;
  return Status::OK();
}

Status Decimal::Add(const Decimal& a, const Decimal& b, Decimal* out) { return AddImpl(a, b, false, out); }

Status Decimal::Sub(const Decimal& a, const Decimal& b, Decimal* out) { return AddImpl(a, b, true, out); }

Status Decimal::Mul(const Decimal& a, const Decimal& b, Decimal* out) {
  const bool negative = (a.unscaled_ < 0) != (b.unscaled_ < 0);
  const u128 x = Abs(a.unscaled_), y = Abs(b.unscaled_);
  const int scale = a.scale_ + b.scale_;
  constexpr u128 kHalfWidth = static_cast<u128>(1) << 63;
  if (x < kHalfWidth && y < kHalfWidth) {  // fast path: the product fits 126 bits
    const u128 p = x * y;
    if (p < kLimit && scale <= kMaxScale) {
      *out = Make(negative, p, scale);
      return Status::OK();
    }
  }
  // Drop as few fraction digits as needed to fit 38 digits and kMaxScale.
  const U256 product = Mul128(x, y);
  int drop = std::max({0, scale - kMaxScale, DigitsWide(product) - kMaxPrecision});
  for (;;) {
    if (drop > scale) return Overflow();
    U256 divisor;
    if (!ScaleUp(1, drop, &divisor)) return Overflow();
    const U256 q = RoundDiv(product, divisor);
    if (FitsLimit(q)) {
      *out = Make(negative, q.lo, scale - drop);
      return Status::OK();
    }
    ++drop;  // rounding carried into one more digit
  }
}

namespace {

// The weight and value of the leading base-10000 digit of |x| / 10^scale, as
// PostgreSQL's numeric stores it (weight 0: [1, 10000); -1: [0.0001, 1)).
// Zero has weight 0 and leading digit 0.
void LeadingBase10000Digit(u128 x, int scale, int* weight, int* digit) {
  *weight = 0;
  *digit = 0;
  if (x == 0) return;
  const int aligned = (scale + 3) / 4 * 4;  // the point falls between base-10000 digits
  U256 v, unit, q, r;
  ScaleUp(x, aligned - scale, &v);  // at most 3 more digits: fits 256 bits
  const int groups = (DigitsWide(v) + 3) / 4;
  ScaleUp(1, 4 * (groups - 1), &unit);
  DivMod(v, unit, &q, &r);
  *digit = static_cast<int>(q.lo);
  *weight = (groups - 1) - aligned / 4;
}

// PostgreSQL's select_div_scale: enough digits for at least 16 significant
// digits of the quotient, and no fewer than either input's scale.
int PostgresDivisionScale(u128 x, int x_scale, u128 y, int y_scale) {
  int w1, d1, w2, d2;
  LeadingBase10000Digit(x, x_scale, &w1, &d1);
  LeadingBase10000Digit(y, y_scale, &w2, &d2);
  int qweight = w1 - w2;
  if (d1 <= d2) --qweight;
  return std::max({Decimal::kMinDivisionScale - qweight * 4, x_scale, y_scale, 0});
}

}  // namespace

Status Decimal::Div(const Decimal& a, const Decimal& b, Decimal* out) {
  if (b.unscaled_ == 0) return DivisionByZero();
  const bool negative = (a.unscaled_ < 0) != (b.unscaled_ < 0);
  const u128 x = Abs(a.unscaled_), y = Abs(b.unscaled_);
  const int shift = b.scale_ - a.scale_;  // value = x / y * 10^shift

  // Digits of the integer part of the quotient bound the scale we can keep.
  U256 num, den, q, r;
  if (!ScaleUp(x, std::max(shift, 0), &num) || !ScaleUp(y, std::max(-shift, 0), &den)) return Overflow();
  DivMod(num, den, &q, &r);
  const int int_digits = DigitsWide(q);
  if (int_digits > kMaxPrecision) return Overflow();
  int scale = std::min({PostgresDivisionScale(x, a.scale_, y, b.scale_), kMaxScale, kMaxPrecision - int_digits});
  for (;;) {
    const int k = scale + shift;  // quotient at `scale` = round(x * 10^k / y)
    if (!ScaleUp(x, std::max(k, 0), &num) || !ScaleUp(y, std::max(-k, 0), &den)) return Overflow();
    q = RoundDiv(num, den);
    if (FitsLimit(q)) {
      *out = Make(negative, q.lo, scale);
      return Status::OK();
    }
    if (scale == 0) return Overflow();
    --scale;  // rounding carried into one more integer digit
  }
}

Status Decimal::Mod(const Decimal& a, const Decimal& b, Decimal* out) {
  if (b.unscaled_ == 0) return DivisionByZero();
  const int scale = std::max(a.scale_, b.scale_);
  U256 x, y, q, r;
  if (!ScaleUp(Abs(a.unscaled_), scale - a.scale_, &x) || !ScaleUp(Abs(b.unscaled_), scale - b.scale_, &y)) {
    return Overflow();
  }
  DivMod(x, y, &q, &r);
  if (!FitsLimit(r) || scale > kMaxScale) return Overflow();
  *out = Make(a.unscaled_ < 0, r.lo, scale);  // the sign of the dividend, as in PostgreSQL
  return Status::OK();
}

int Decimal::Compare(const Decimal& a, const Decimal& b) {
  const int sa = Sign(a.unscaled_), sb = Sign(b.unscaled_);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  if (a.scale_ == b.scale_) return a.unscaled_ < b.unscaled_ ? -1 : (a.unscaled_ > b.unscaled_ ? 1 : 0);
  const int scale = std::max(a.scale_, b.scale_);
  U256 x, y;
  ScaleUp(Abs(a.unscaled_), scale - a.scale_, &x);
  ScaleUp(Abs(b.unscaled_), scale - b.scale_, &y);
  const int c = Cmp(x, y);
  return sa > 0 ? c : -c;
}

uint64_t Decimal::Hash() const {
  // Normalize away trailing fraction zeros so 1.0 and 1.00 hash alike; an
  // integral value that fits int64 hashes exactly like that int64 (so an
  // integer and an equal NUMERIC collide, as Value::Hash relies on).
  __int128 u = unscaled_;
  int scale = scale_;
  if (u == 0) {
    scale = 0;
  } else if (u >= std::numeric_limits<int64_t>::min() && u <= std::numeric_limits<int64_t>::max()) {
    int64_t small = static_cast<int64_t>(u);
    while (scale > 0 && small % 10 == 0) {
      small /= 10;
      --scale;
    }
    u = small;
  } else {
    while (scale > 0 && u % 10 == 0) {
      u /= 10;
      --scale;
    }
  }
  if (scale == 0 && u >= std::numeric_limits<int64_t>::min() && u <= std::numeric_limits<int64_t>::max()) {
    const int64_t i = static_cast<int64_t>(u);
    return XXH3_64bits(&i, sizeof(i));
  }
  unsigned char buf[sizeof(__int128) + 1];
  std::memcpy(buf, &u, sizeof(u));
  buf[sizeof(u)] = static_cast<unsigned char>(scale);
  return XXH3_64bits(buf, sizeof(buf));
}

}  // namespace paceline
