// Tests for Decimal: parsing, printing, rounding, exact arithmetic with
// overflow detection, cross-scale comparison and hashing. Expected values
// come from PostgreSQL 15 unless a comment says the header's rule differs.
#include "common/decimal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace paceline {
namespace {

Decimal D(std::string_view text) {
  Decimal d;
  Status s = Decimal::Parse(text, &d);
  EXPECT_TRUE(s.ok()) << text << ": " << s.ToString();
  return d;
}

// 10^n as an __int128.
__int128 Pow10(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

using BinaryOp = Status (*)(const Decimal&, const Decimal&, Decimal*);

std::string Apply(BinaryOp op, std::string_view a, std::string_view b) {
  Decimal r;
  Status s = op(D(a), D(b), &r);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return r.ToString();
}

TEST(DecimalTest, ParseKeepsWrittenScale) {
  struct Case {
    const char* text;
    const char* printed;
    int scale;
  };
  const Case cases[] = {
      {"  -12.50 ", "-12.50", 2}, {"1e3", "1000", 0},   {".5", "0.5", 1},         {"5.", "5", 0},
      {"1.5e-3", "0.0015", 4},    {"1.50e1", "15.0", 1}, {"+.5e+1", "5", 0},       {"0.000", "0.000", 3},
      {"-0.00", "0.00", 2},       {"0001.1000", "1.1000", 4}, {"1E5", "100000", 0}, {"+0.0e10", "0", 0},
      {"99999999999999999999999999999999999999", "99999999999999999999999999999999999999", 0},
      {"0.00000000000000000000000000000000000001", "0.00000000000000000000000000000000000001", 38},
      {"1e37", "10000000000000000000000000000000000000", 0},
      {"\t7\n", "7", 0},
  };
  for (const Case& c : cases) {
    Decimal d;
    ASSERT_TRUE(Decimal::Parse(c.text, &d).ok()) << c.text;
    EXPECT_EQ(d.ToString(), c.printed) << c.text;
    EXPECT_EQ(d.scale(), c.scale) << c.text;
  }
}

TEST(DecimalTest, ParseRejectsBadSyntaxLikePostgres) {
  for (const char* text : {"1.2.3", "", "abc", "1e", ".", "- 1", " ", "1 2", "1e+", "--1", "0x10", "1,5"}) {
    Decimal d;
    Status s = Decimal::Parse(text, &d);
    EXPECT_TRUE(s.Is(sqlstate::kInvalidTextRepresentation)) << text << ": " << s.ToString();
    EXPECT_EQ(s.message(), "invalid input syntax for type numeric: \"" + std::string(text) + "\"");
  }
}

TEST(DecimalTest, ParseBeyond38DigitsOverflows) {
  for (const char* text : {"123456789012345678901234567890123456789", "1e38",
                           "0.000000000000000000000000000000000000001", "1e1001", "1e-39"}) {
    Decimal d;
    Status s = Decimal::Parse(text, &d);
    EXPECT_TRUE(s.Is(sqlstate::kNumericValueOutOfRange)) << text << ": " << s.ToString();
    EXPECT_EQ(s.message(), "value overflows numeric format");
  }
  Decimal zero;
  ASSERT_TRUE(Decimal::Parse("0e5000", &zero).ok());  // zero never overflows
  EXPECT_EQ(zero.ToString(), "0");
}

TEST(DecimalTest, ParseSpecialValuesAreNotSupported) {
  for (const char* text : {"NaN", " nan ", "Infinity", "-inf", "+Infinity"}) {
    Decimal d;
    EXPECT_TRUE(Decimal::Parse(text, &d).Is(sqlstate::kFeatureNotSupported)) << text;
  }
}

TEST(DecimalTest, ToStringPrintsExactlyScaleDigits) {
  EXPECT_EQ(Decimal(30, 2).ToString(), "0.30");
  EXPECT_EQ(Decimal(-5, 2).ToString(), "-0.05");
  EXPECT_EQ(Decimal(12, 0).ToString(), "12");
  EXPECT_EQ(Decimal(0, 3).ToString(), "0.000");
  EXPECT_EQ(Decimal(-1234567, 3).ToString(), "-1234.567");
  EXPECT_EQ(Decimal(Pow10(38) - 1, 38).ToString(), "0.99999999999999999999999999999999999999");
  EXPECT_EQ(Decimal(-(Pow10(38) - 1), 0).ToString(), "-99999999999999999999999999999999999999");
}

TEST(DecimalTest, RescaleRoundsHalfAwayFromZero) {
  struct Case {
    const char* in;
    int scale;
    const char* out;
  };
  const Case cases[] = {
      {"1.25", 1, "1.3"},   {"-1.25", 1, "-1.3"}, {"1.249", 1, "1.2"}, {"0.5", 0, "1"},
      {"-0.5", 0, "-1"},    {"0.49", 0, "0"},     {"2.5", 3, "2.500"}, {"999.995", 2, "1000.00"},
      {"-0.004", 2, "0.00"}, {"12", 0, "12"},
  };
  for (const Case& c : cases) {
    Decimal r;
    ASSERT_TRUE(D(c.in).Rescale(c.scale, &r).ok()) << c.in;
    EXPECT_EQ(r.ToString(), c.out) << c.in << " → scale " << c.scale;
    EXPECT_EQ(r.scale(), c.scale);
  }
  Decimal r;
  EXPECT_TRUE(D("1e37").Rescale(1, &r).Is(sqlstate::kNumericValueOutOfRange));
  EXPECT_TRUE(D("1").Rescale(39, &r).Is(sqlstate::kNumericValueOutOfRange));
}

TEST(DecimalTest, FitToChecksPrecisionLikePostgres) {
  Decimal r;
  ASSERT_TRUE(D("123.456").FitTo(5, 2, &r).ok());
  EXPECT_EQ(r.ToString(), "123.46");
  ASSERT_TRUE(D("-0.001").FitTo(5, 2, &r).ok());
  EXPECT_EQ(r.ToString(), "0.00");
  ASSERT_TRUE(D("999.994").FitTo(5, 2, &r).ok());
  EXPECT_EQ(r.ToString(), "999.99");
  ASSERT_TRUE(D("0.123").FitTo(38, 38, &r).ok());
  EXPECT_EQ(r.scale(), 38);
  for (const char* text : {"1234.5", "999.995", "-999.995", "100000"}) {
    Status s = D(text).FitTo(5, 2, &r);
    EXPECT_TRUE(s.Is(sqlstate::kNumericValueOutOfRange)) << text;
    EXPECT_EQ(s.message(), "numeric field overflow");
  }
  // Unconstrained NUMERIC keeps the value as is.
  ASSERT_TRUE(D("1.2345").FitTo(-1, -1, &r).ok());
  EXPECT_EQ(r.ToString(), "1.2345");
}

TEST(DecimalTest, AddAndSubAreExactAtTheLargerScale) {
  EXPECT_EQ(Apply(Decimal::Add, "0.1", "0.2"), "0.3");
  EXPECT_EQ(Apply(Decimal::Add, "1.50", "2"), "3.50");
  EXPECT_EQ(Apply(Decimal::Sub, "1", "0.001"), "0.999");
  EXPECT_EQ(Apply(Decimal::Sub, "0.30", "0.3"), "0.00");
  EXPECT_EQ(Apply(Decimal::Add, "-12.5", "12.5"), "0.0");
  EXPECT_EQ(Apply(Decimal::Add, "99999999999999999999999999999999999998", "1"),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(Apply(Decimal::Add, "99999999999999999999999999999999999999", "1"),
            "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(Apply(Decimal::Sub, "-99999999999999999999999999999999999999", "1"),
            "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(Apply(Decimal::Add, "1e37", "0.1"), "ERROR 22003 value overflows numeric format");
}

TEST(DecimalTest, MulIsExactAndRoundsOnlyBeyond38Digits) {
  EXPECT_EQ(Apply(Decimal::Mul, "1.23", "4.5"), "5.535");
  EXPECT_EQ(Apply(Decimal::Mul, "-0.5", "0.5"), "-0.25");
  EXPECT_EQ(Apply(Decimal::Mul, "0.10", "0.10"), "0.0100");
  EXPECT_EQ(Apply(Decimal::Mul, "0", "-3.5"), "0.0");
  // 18 integer digits + 24 fraction digits: the fraction is rounded to fit 38 digits.
  EXPECT_EQ(Apply(Decimal::Mul, "123456789012345678.901234567890123456", "1.000005"),
            "123457406296290740.62962907406296290662");
  // Scale 20 + 20 > 38: rounded half away from zero to scale 38.
  EXPECT_EQ(Apply(Decimal::Mul, "0.00000000000000000005", "0.00000000000000000005"),
            "0.00000000000000000000000000000000000000");
  EXPECT_EQ(Apply(Decimal::Mul, "0.0000000000000000001", "0.0000000000000000005"),
            "0.00000000000000000000000000000000000005");  // exactly scale 38
  EXPECT_EQ(Apply(Decimal::Mul, "0.0000000000000000001", "0.00000000000000000005"),
            "0.00000000000000000000000000000000000001");  // 5e-39 rounds up
  // Products of two full-width magnitudes go through the 256-bit path:
  // (10^19 - 10^-19)^2 = 10^38 - 2 + 10^-38, which keeps no fraction digits.
  EXPECT_EQ(Apply(Decimal::Mul, "9999999999999999999.9999999999999999999", "9999999999999999999.9999999999999999999"),
            "99999999999999999999999999999999999998");
  EXPECT_EQ(Apply(Decimal::Mul, "99999999999999999999", "9999999999999999999"),
            "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(Apply(Decimal::Mul, "-10000000000000000000", "10000000000000000000"),
            "ERROR 22003 value overflows numeric format");
}

TEST(DecimalTest, DivUsesPostgresQuotientScale) {
  // PostgreSQL's select_div_scale: at least 16 significant digits, weighing
  // the operands' leading base-10000 digits. Every value here is what
  // PostgreSQL 15 prints for the same division.
  EXPECT_EQ(Apply(Decimal::Div, "1", "3"), "0.33333333333333333333");
  EXPECT_EQ(Apply(Decimal::Div, "2", "3"), "0.66666666666666666667");
  EXPECT_EQ(Apply(Decimal::Div, "-2", "3"), "-0.66666666666666666667");
  EXPECT_EQ(Apply(Decimal::Div, "10", "4"), "2.5000000000000000");
  EXPECT_EQ(Apply(Decimal::Div, "1", "0.0001"), "10000.0000000000000000");
  EXPECT_EQ(Apply(Decimal::Div, "0", "3"), "0.00000000000000000000");
  EXPECT_EQ(Apply(Decimal::Div, "1.00000000000000000000", "3"), "0.33333333333333333333");
  EXPECT_EQ(Apply(Decimal::Div, "100000", "3"), "33333.333333333333");
  EXPECT_EQ(Apply(Decimal::Div, "7", "0.5"), "14.0000000000000000");
  EXPECT_EQ(Apply(Decimal::Div, "1234567890123456789012345678901234567", "3"), "411522630041152263004115226300411522");
  // The quotient's integer digits leave less room for the fraction (38 digits in all).
  EXPECT_EQ(Apply(Decimal::Div, "1234567890123456789012345678901234567.0", "3"),
            "411522630041152263004115226300411522.3");
  EXPECT_EQ(Apply(Decimal::Div, "99999999999999999999999999999999999999", "1"),
            "99999999999999999999999999999999999999");
  // Rounding that carries into a new integer digit gives up one more fraction digit.
  EXPECT_EQ(Apply(Decimal::Div, "9999999999999999999999999999999999999.9", "1"), "9999999999999999999999999999999999999.9");
  EXPECT_EQ(Apply(Decimal::Div, "1e37", "0.1"), "ERROR 22003 value overflows numeric format");
  EXPECT_EQ(Apply(Decimal::Div, "1", "0"), "ERROR 22012 division by zero");
  EXPECT_EQ(Apply(Decimal::Div, "1", "0.000"), "ERROR 22012 division by zero");
  // Tiny divisor at scale 38: the intermediate needs more than 128 bits.
  EXPECT_EQ(Apply(Decimal::Div, "0.00000000000000000000000000000000000003", "0.00000000000000000000000000000000000007"),
            "0.42857142857142857142857142857142857143");
}

TEST(DecimalTest, ModTakesTheDividendsSign) {
  EXPECT_EQ(Apply(Decimal::Mod, "5.5", "2"), "1.5");
  EXPECT_EQ(Apply(Decimal::Mod, "-5.5", "2"), "-1.5");
  EXPECT_EQ(Apply(Decimal::Mod, "5", "-2.25"), "0.50");
  EXPECT_EQ(Apply(Decimal::Mod, "7", "7"), "0");
  EXPECT_EQ(Apply(Decimal::Mod, "1", "0"), "ERROR 22012 division by zero");
  EXPECT_EQ(Apply(Decimal::Mod, "99999999999999999999999999999999999999", "0.00000000000000000000000000000000000007"),
            "0.00000000000000000000000000000000000002");
}

TEST(DecimalTest, CompareIgnoresScale) {
  EXPECT_EQ(Decimal::Compare(D("1.0"), D("1.00")), 0);
  EXPECT_LT(Decimal::Compare(D("1.09"), D("1.1")), 0);
  EXPECT_GT(Decimal::Compare(D("-1.09"), D("-1.1")), 0);
  EXPECT_LT(Decimal::Compare(D("-0.001"), D("0")), 0);
  EXPECT_EQ(Decimal::Compare(D("0"), D("-0.000")), 0);
  // Rescaling either side to the other's scale would overflow 128 bits.
  const Decimal big = D("99999999999999999999999999999999999999");
  const Decimal small = D("0.99999999999999999999999999999999999999");
  EXPECT_GT(Decimal::Compare(big, small), 0);
  EXPECT_LT(Decimal::Compare(small, big), 0);
  EXPECT_LT(Decimal::Compare(big.Negate(), small), 0);
  EXPECT_EQ(Decimal::Compare(D("12345678901234567890"), D("12345678901234567890.000000000000000000")), 0);
}

TEST(DecimalTest, HashIsEqualForEqualValues) {
  EXPECT_EQ(D("1.0").Hash(), D("1.00").Hash());
  EXPECT_EQ(D("1").Hash(), D("1.000").Hash());
  EXPECT_EQ(D("0").Hash(), D("-0.00").Hash());
  EXPECT_EQ(D("-120.50").Hash(), D("-120.5").Hash());
  EXPECT_EQ(D("12345678901234567890123.100").Hash(), D("12345678901234567890123.1").Hash());
  EXPECT_EQ(D("42.00").Hash(), Decimal::FromInt(42).Hash());
  EXPECT_NE(D("1.1").Hash(), D("1.01").Hash());
  EXPECT_NE(D("1").Hash(), D("-1").Hash());
  EXPECT_NE(D("10").Hash(), D("1").Hash());
}

TEST(DecimalTest, ConvertsToDoubleAndInteger) {
  EXPECT_EQ(D("0.1").ToDouble(), 0.1);
  EXPECT_EQ(D("-12.5").ToDouble(), -12.5);
  EXPECT_EQ(D("12345678901234567890.123").ToDouble(), 12345678901234567890.123);
  EXPECT_EQ(D("0.00000000000000000000000000000000000001").ToDouble(), 1e-38);

  int64_t i = 0;
  ASSERT_TRUE(D("2.5").ToInt64(&i).ok());
  EXPECT_EQ(i, 3);
  ASSERT_TRUE(D("-2.5").ToInt64(&i).ok());
  EXPECT_EQ(i, -3);
  ASSERT_TRUE(D("2.4999").ToInt64(&i).ok());
  EXPECT_EQ(i, 2);
  ASSERT_TRUE(D("-9223372036854775808.4").ToInt64(&i).ok());
  EXPECT_EQ(i, INT64_MIN);
  Status s = D("9223372036854775807.5").ToInt64(&i);
  EXPECT_TRUE(s.Is(sqlstate::kNumericValueOutOfRange));
  EXPECT_EQ(s.message(), "bigint out of range");
}

TEST(DecimalTest, FromDoubleUsesFifteenSignificantDigits) {
  struct Case {
    double in;
    const char* out;
  };
  // PostgreSQL 15's float8 → numeric results.
  const Case cases[] = {{0.1, "0.1"},
                        {0.1 + 0.2, "0.3"},
                        {1e20, "100000000000000000000"},
                        {1.5e-5, "0.000015"},
                        {123456789.123456789, "123456789.123457"},
                        {-2.5, "-2.5"},
                        {0.0, "0"}};
  for (const Case& c : cases) {
    Decimal d;
    ASSERT_TRUE(Decimal::FromDouble(c.in, &d).ok()) << c.in;
    EXPECT_EQ(d.ToString(), c.out);
  }
  Decimal d;
  EXPECT_TRUE(Decimal::FromDouble(std::numeric_limits<double>::quiet_NaN(), &d).Is(sqlstate::kNumericValueOutOfRange));
  EXPECT_TRUE(Decimal::FromDouble(std::numeric_limits<double>::infinity(), &d).Is(sqlstate::kNumericValueOutOfRange));
  EXPECT_TRUE(Decimal::FromDouble(1e300, &d).Is(sqlstate::kNumericValueOutOfRange));
}

// Random round trips: (a + b) - b == a, (a * 10^k) / 10^k == a, and Compare
// agrees with the sign of the difference and with Hash.
TEST(DecimalTest, RandomizedIdentities) {
  std::mt19937_64 rng(20240102);
  auto random_decimal = [&](int max_digits) {
    const int digits = 1 + static_cast<int>(rng() % static_cast<uint64_t>(max_digits));
    __int128 u = 0;
    for (int i = 0; i < digits; ++i) u = u * 10 + static_cast<int>(rng() % 10);
    if (rng() % 2) u = -u;
    return Decimal(u, static_cast<int>(rng() % static_cast<uint64_t>(std::min(digits, 16) + 1)));
  };
  for (int i = 0; i < 20000; ++i) {
    // At most 20 digits, so even after rescaling to scale 16 a sum fits 38 digits.
    const Decimal a = random_decimal(20), b = random_decimal(20);
    Decimal sum, back;
    ASSERT_TRUE(Decimal::Add(a, b, &sum).ok());
    ASSERT_TRUE(Decimal::Sub(sum, b, &back).ok());
    EXPECT_EQ(Decimal::Compare(back, a), 0) << a.ToString() << " " << b.ToString();

    Decimal diff;
    ASSERT_TRUE(Decimal::Sub(a, b, &diff).ok());
    const int c = Decimal::Compare(a, b);
    EXPECT_EQ(c, diff.IsZero() ? 0 : (diff.IsNegative() ? -1 : 1));
    EXPECT_EQ(c, -Decimal::Compare(b, a));

    Decimal wide;
    if (a.Rescale(std::min(Decimal::kMaxScale, a.scale() + 5), &wide).ok()) {
      EXPECT_EQ(Decimal::Compare(wide, a), 0);
      EXPECT_EQ(wide.Hash(), a.Hash());
    }

    const Decimal k = Decimal(Pow10(static_cast<int>(rng() % 8)), 0);
    Decimal product, quotient;
    if (Decimal::Mul(a, k, &product).ok()) {
      ASSERT_TRUE(Decimal::Div(product, k, &quotient).ok());
      EXPECT_EQ(Decimal::Compare(quotient, a), 0) << a.ToString() << " * " << k.ToString();
    }
  }
}

}  // namespace
}  // namespace paceline
