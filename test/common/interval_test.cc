// Interval (common/interval.h): text in and out, order by span, arithmetic
// and its overflow errors, timestamp arithmetic. SQL behaviour against
// PostgreSQL 15 is in test/sql/cases/intervals.test; this covers the
// edges a SQL file reaches awkwardly.
#include "common/interval.h"

#include <gtest/gtest.h>

#include <limits>

#include "common/datetime.h"

namespace paceline {
namespace {

Interval Parse(std::string_view text) {
  Interval v;
  Status s = ParseInterval(text, &v);
  EXPECT_TRUE(s.ok()) << text << ": " << s.ToString();
  return v;
}

std::string RoundTrip(std::string_view text) { return FormatInterval(Parse(text)); }

TEST(IntervalTest, ParsesIntoThreeFields) {
  const Interval v = Parse("1 year 2 mons 3 days 04:05:06.5");
  EXPECT_EQ(v.months, 14);
  EXPECT_EQ(v.days, 3);
  EXPECT_EQ(v.micros, ((4 * 60 + 5) * 60 + 6) * 1000000LL + 500000);
  EXPECT_EQ(Parse("P1Y2M3DT4H5M6.5S").micros, v.micros);
  EXPECT_EQ(Parse("1 week").days, 7);
  EXPECT_EQ(Parse("1.5 mons").days, 15);
}

TEST(IntervalTest, PrintsInPostgresStyle) {
  EXPECT_EQ(RoundTrip("0"), "00:00:00");
  EXPECT_EQ(RoundTrip("-1 days +02:00:00"), "-1 days +02:00:00");
  EXPECT_EQ(RoundTrip("1 year 1 mon 1 day"), "1 year 1 mon 1 day");
  EXPECT_EQ(RoundTrip("2 years 3 mons 4 days"), "2 years 3 mons 4 days");
  EXPECT_EQ(RoundTrip("-1 mons +1 day -00:00:01"), "-1 mons +1 day -00:00:01");
  EXPECT_EQ(RoundTrip("1 day -1"), "1 day -00:00:01");
  EXPECT_EQ(RoundTrip("100:00:00.000001"), "100:00:00.000001");
  EXPECT_EQ(FormatInterval(Interval{std::numeric_limits<int64_t>::min(), 0, 0}), "-2562047788:00:54.775808");
}

TEST(IntervalTest, BadInputIsPostgresError) {
  Interval v;
  Status s = ParseInterval("1 fortnight", &v);
  EXPECT_TRUE(s.Is(sqlstate::kInvalidDatetimeFormat)) << s.ToString();
  EXPECT_EQ(s.message(), "invalid input syntax for type interval: \"1 fortnight\"");
  EXPECT_TRUE(ParseInterval("P", &v).Is(sqlstate::kInvalidDatetimeFormat));
  EXPECT_TRUE(ParseInterval("ago", &v).Is(sqlstate::kInvalidDatetimeFormat));
  EXPECT_TRUE(ParseInterval("2024-01-01", &v).Is(sqlstate::kInvalidDatetimeFormat));  // a date
  EXPECT_EQ(RoundTrip("1 day ago ago"), "-1 days");  // "ago" negates once, as PostgreSQL
  EXPECT_TRUE(ParseInterval("1:60", &v).Is(sqlstate::kIntervalFieldOverflow));
  EXPECT_TRUE(ParseInterval("99999999999 hours", &v).Is(sqlstate::kIntervalFieldOverflow));
  EXPECT_TRUE(ParseInterval("178956971 years", &v).Is(sqlstate::kDatetimeFieldOverflow));
}

TEST(IntervalTest, ComparesBySpan) {
  EXPECT_EQ(CompareIntervals(Parse("1 mon"), Parse("30 days")), 0);
  EXPECT_EQ(CompareIntervals(Parse("1 day"), Parse("24:00:00")), 0);
  EXPECT_EQ(HashInterval(Parse("1 mon")), HashInterval(Parse("720 hours")));
  EXPECT_LT(CompareIntervals(Parse("-1 year"), Parse("-1 day")), 0);
  // Spans beyond int64 microseconds still order.
  EXPECT_GT(CompareIntervals(Interval{0, 0, std::numeric_limits<int32_t>::max()},
                             Interval{std::numeric_limits<int64_t>::max(), 0, 0}),
            0);
}

TEST(IntervalTest, ArithmeticOverflowIsIntervalOutOfRange) {
  Interval out;
  const Interval max_days{0, std::numeric_limits<int32_t>::max(), 0};
  EXPECT_TRUE(AddIntervals(max_days, Interval{0, 1, 0}, &out).Is(sqlstate::kDatetimeFieldOverflow));
  EXPECT_TRUE(NegateInterval(Interval{0, std::numeric_limits<int32_t>::min(), 0}, &out).Is(sqlstate::kDatetimeFieldOverflow));
  EXPECT_TRUE(MultiplyInterval(Parse("1 day"), 1e300, &out).Is(sqlstate::kDatetimeFieldOverflow));
  EXPECT_TRUE(DivideInterval(Parse("1 day"), 0, &out).Is(sqlstate::kDivisionByZero));
  ASSERT_TRUE(DivideInterval(Parse("1 mon"), 7, &out).ok());
  EXPECT_EQ(FormatInterval(out), "4 days 06:51:25.6896");
}

TEST(IntervalTest, TimestampArithmetic) {
  int64_t jan31 = 0, out = 0;
  ASSERT_TRUE(ParseTimestamp("2024-01-31 10:00:00", false, &jan31).ok());
  ASSERT_TRUE(AddIntervalToTimestamp(jan31, Parse("1 mon"), &out).ok());
  EXPECT_EQ(FormatTimestamp(out), "2024-02-29 10:00:00");
  ASSERT_TRUE(AddIntervalToTimestamp(jan31, Parse("-13 mons"), &out).ok());
  EXPECT_EQ(FormatTimestamp(out), "2022-12-31 10:00:00");
  EXPECT_TRUE(AddIntervalToTimestamp(jan31, Parse("40000 years"), &out).Is(sqlstate::kDatetimeFieldOverflow));
  Interval diff;
  ASSERT_TRUE(SubtractTimestamps(jan31, jan31 - 36 * 3600000000LL, &diff).ok());
  EXPECT_EQ(FormatInterval(diff), "1 day 12:00:00");
  ASSERT_TRUE(SubtractTimestamps(jan31 - 36 * 3600000000LL, jan31, &diff).ok());
  EXPECT_EQ(FormatInterval(diff), "-1 days -12:00:00");
}

}  // namespace
}  // namespace paceline
