// Tests for date/timestamp parsing and printing. Expected texts, SQLSTATEs
// and messages are PostgreSQL 15's (TimeZone = UTC), except where Paceline
// deliberately limits years to 1..9999.
#include "common/datetime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace paceline {
namespace {

constexpr int64_t kSecond = 1000000;
constexpr int64_t kDay = 86400 * kSecond;

int32_t Days(int y, unsigned m, unsigned d) {
  return std::chrono::sys_days(std::chrono::year_month_day{std::chrono::year{y}, std::chrono::month{m},
                                                           std::chrono::day{d}})
      .time_since_epoch()
      .count();
}

std::string DateRoundTrip(std::string_view text) {
  int32_t days = 0;
  Status s = ParseDate(text, &days);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return FormatDate(days);
}

std::string TimestampRoundTrip(std::string_view text, bool tz) {
  int64_t micros = 0;
  Status s = ParseTimestamp(text, tz, &micros);
  if (!s.ok()) return "ERROR " + std::string(s.sqlstate()) + " " + s.message();
  return FormatTimestamp(micros, tz);
}

TEST(DatetimeTest, EpochOffsetsMatchPostgres) {
  EXPECT_EQ(Days(2000, 1, 1), kPostgresEpochOffsetDays);
  EXPECT_EQ(int64_t{Days(2000, 1, 1)} * kDay, kPostgresEpochOffsetMicros);
}

TEST(DatetimeTest, ParsesDates) {
  int32_t days = -1;
  ASSERT_TRUE(ParseDate("1970-01-01", &days).ok());
  EXPECT_EQ(days, 0);
  ASSERT_TRUE(ParseDate("1969-12-31", &days).ok());
  EXPECT_EQ(days, -1);
  ASSERT_TRUE(ParseDate(" 2024-01-02 ", &days).ok());
  EXPECT_EQ(days, Days(2024, 1, 2));

  EXPECT_EQ(DateRoundTrip("2024-1-2"), "2024-01-02");
  EXPECT_EQ(DateRoundTrip("2024/01/02"), "2024-01-02");
  EXPECT_EQ(DateRoundTrip("0099-01-01"), "0099-01-01");
  EXPECT_EQ(DateRoundTrip("099-01-02"), "0099-01-02");
  EXPECT_EQ(DateRoundTrip("2024-02-29"), "2024-02-29");
  EXPECT_EQ(DateRoundTrip("0001-01-01"), "0001-01-01");
  EXPECT_EQ(DateRoundTrip("9999-12-31"), "9999-12-31");
  // A time of day (and zone) is accepted and ignored, as date_in does.
  EXPECT_EQ(DateRoundTrip("2024-01-02 10:11:12"), "2024-01-02");
  EXPECT_EQ(DateRoundTrip("2024-01-02 23:00-05"), "2024-01-02");
  EXPECT_EQ(DateRoundTrip("2024-01-02T10:11"), "2024-01-02");
  EXPECT_EQ(DateRoundTrip("epoch"), "1970-01-01");
  EXPECT_EQ(DateRoundTrip("EPOCH"), "1970-01-01");
}

TEST(DatetimeTest, DateErrorsMatchPostgres) {
  EXPECT_EQ(DateRoundTrip("abc"), "ERROR 22007 invalid input syntax for type date: \"abc\"");
  EXPECT_EQ(DateRoundTrip(""), "ERROR 22007 invalid input syntax for type date: \"\"");
  EXPECT_EQ(DateRoundTrip("2024-01-02x"), "ERROR 22007 invalid input syntax for type date: \"2024-01-02x\"");
  EXPECT_EQ(DateRoundTrip("2024-01-02 03"), "ERROR 22007 invalid input syntax for type date: \"2024-01-02 03\"");
  EXPECT_EQ(DateRoundTrip("2024-02-30"), "ERROR 22008 date/time field value out of range: \"2024-02-30\"");
  EXPECT_EQ(DateRoundTrip("2023-02-29"), "ERROR 22008 date/time field value out of range: \"2023-02-29\"");
  EXPECT_EQ(DateRoundTrip("2024-13-01"), "ERROR 22008 date/time field value out of range: \"2024-13-01\"");
  EXPECT_EQ(DateRoundTrip("2024-00-10"), "ERROR 22008 date/time field value out of range: \"2024-00-10\"");
  EXPECT_EQ(DateRoundTrip("0000-01-01"), "ERROR 22008 date/time field value out of range: \"0000-01-01\"");
  EXPECT_EQ(DateRoundTrip("99-01-02"), "ERROR 22008 date/time field value out of range: \"99-01-02\"");
  EXPECT_EQ(DateRoundTrip("2024-01-02 25:00"),
            "ERROR 22008 date/time field value out of range: \"2024-01-02 25:00\"");
  // PostgreSQL accepts years past 9999; Paceline does not.
  EXPECT_EQ(DateRoundTrip("10000-01-01"), "ERROR 22008 date/time field value out of range: \"10000-01-01\"");
  int32_t days = 0;
  EXPECT_TRUE(ParseDate("infinity", &days).Is(sqlstate::kFeatureNotSupported));
}

TEST(DatetimeTest, FormatsDates) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  EXPECT_EQ(FormatDate(Days(2024, 1, 2)), "2024-01-02");
  EXPECT_EQ(FormatDate(Days(1, 1, 1)), "0001-01-01");
  EXPECT_EQ(FormatDate(Days(1, 1, 1) - 1), "0001-12-31 BC");
  EXPECT_EQ(FormatDate(Days(10000, 1, 1)), "10000-01-01");
}

TEST(DatetimeTest, EveryDateRoundTrips) {
  for (int32_t d = Days(1, 1, 1); d <= Days(9999, 12, 31); d += 7) {
    int32_t back = 0;
    const std::string text = FormatDate(d);
    ASSERT_TRUE(ParseDate(text, &back).ok()) << text;
    ASSERT_EQ(back, d) << text;
  }
}

TEST(DatetimeTest, ParsesTimestamps) {
  int64_t micros = 0;
  ASSERT_TRUE(ParseTimestamp("1970-01-01 00:00:01.5", false, &micros).ok());
  EXPECT_EQ(micros, 1500000);
  ASSERT_TRUE(ParseTimestamp("1969-12-31 23:59:59.999999", false, &micros).ok());
  EXPECT_EQ(micros, -1);

  struct Case {
    const char* in;
    const char* out;
  };
  const Case cases[] = {
      {"2024-01-02 03:04:05.250", "2024-01-02 03:04:05.25"},
      {"2024-01-02T10:11", "2024-01-02 10:11:00"},
      {"2024-01-02t03:04:05", "2024-01-02 03:04:05"},
      {"2024-01-02", "2024-01-02 00:00:00"},
      {"2024-01-02 03:04", "2024-01-02 03:04:00"},
      {"2024-01-02  03:04:05", "2024-01-02 03:04:05"},
      {"2024-01-02 3:4:5", "2024-01-02 03:04:05"},
      {"2024-01-02 03:04:05.000", "2024-01-02 03:04:05"},
      {"1999-01-08 04:05:06.", "1999-01-08 04:05:06"},
      {"2024-01-02 03:04:05.1234567", "2024-01-02 03:04:05.123457"},
      {"2024-01-02 03:04:05.1234565", "2024-01-02 03:04:05.123456"},  // rint(0.1234565 * 1e6)
      {"2024-01-02 03:04:05.9999999", "2024-01-02 03:04:06"},
      {"1999-12-31 23:59:59.9999995", "2000-01-01 00:00:00"},
      {"2024-01-02 24:00", "2024-01-03 00:00:00"},
      {"2024-01-02 23:59:60", "2024-01-03 00:00:00"},
      {"1969-12-31 23:59:59.5", "1969-12-31 23:59:59.5"},
      {"9999-12-31 23:59:59.999999", "9999-12-31 23:59:59.999999"},
      // Without time zone, a zone is parsed and ignored.
      {"2024-01-02 03:04:05+05:30", "2024-01-02 03:04:05"},
      {"2024-01-02 03:04:05 UTC", "2024-01-02 03:04:05"},
      {"epoch", "1970-01-01 00:00:00"},
  };
  for (const Case& c : cases) EXPECT_EQ(TimestampRoundTrip(c.in, false), c.out) << c.in;
}

TEST(DatetimeTest, TimestampWithTimeZoneConvertsToUtc) {
  struct Case {
    const char* in;
    const char* out;
  };
  const Case cases[] = {
      {"2024-01-02 03:04:05+05:30", "2024-01-01 21:34:05+00"},
      {"2024-01-02 03:04:05Z", "2024-01-02 03:04:05+00"},
      {"2024-01-02 03:04:05 z", "2024-01-02 03:04:05+00"},
      {"2024-01-02 03:04:05 +05", "2024-01-01 22:04:05+00"},
      {"2024-01-02 03:04:05+5", "2024-01-01 22:04:05+00"},
      {"2024-01-02 03:04:05-0800", "2024-01-02 11:04:05+00"},
      {"2024-01-02 03:04:05 +0530", "2024-01-01 21:34:05+00"},
      {"2024-01-02 03:04:05+05:30:15", "2024-01-01 21:33:50+00"},
      {"2024-01-02 03:04:05+15:59", "2024-01-01 11:05:05+00"},
      {"2024-01-02 03:04:05 UTC", "2024-01-02 03:04:05+00"},
      {"2024-01-02 03:04:05 gmt", "2024-01-02 03:04:05+00"},
      {"2024-01-02T03:04:05.123Z", "2024-01-02 03:04:05.123+00"},
      {"2024-01-02 03:04:05.5+05", "2024-01-01 22:04:05.5+00"},
      {"2024-01-02+05", "2024-01-01 19:00:00+00"},
      {"2024-01-02 03:04:05", "2024-01-02 03:04:05+00"},  // no zone: UTC
  };
  for (const Case& c : cases) EXPECT_EQ(TimestampRoundTrip(c.in, true), c.out) << c.in;
}

TEST(DatetimeTest, TimestampErrorsMatchPostgres) {
  struct Case {
    const char* in;
    bool tz;
    const char* error;
  };
  const Case cases[] = {
      {"abc", false, "ERROR 22007 invalid input syntax for type timestamp: \"abc\""},
      {"abc", true, "ERROR 22007 invalid input syntax for type timestamp with time zone: \"abc\""},
      {"2024-01-02 03", false, "ERROR 22007 invalid input syntax for type timestamp: \"2024-01-02 03\""},
      {"2024-01-02 25:00", false, "ERROR 22008 date/time field value out of range: \"2024-01-02 25:00\""},
      {"2024-01-02 24:00:01", false, "ERROR 22008 date/time field value out of range: \"2024-01-02 24:00:01\""},
      {"2024-01-02 12:60", false, "ERROR 22008 date/time field value out of range: \"2024-01-02 12:60\""},
      {"2024-01-02 23:59:60.5", false,
       "ERROR 22008 date/time field value out of range: \"2024-01-02 23:59:60.5\""},
      {"2024-02-30 00:00", true, "ERROR 22008 date/time field value out of range: \"2024-02-30 00:00\""},
      {"2024-01-02 03:04:05+16", true,
       "ERROR 22009 time zone displacement out of range: \"2024-01-02 03:04:05+16\""},
      {"2024-01-02 03:04:05 +05:60", true,
       "ERROR 22009 time zone displacement out of range: \"2024-01-02 03:04:05 +05:60\""},
      {"2024-01-02 03:04:05 Foo/Bar", true, "ERROR 22023 time zone \"foo/bar\" not recognized"},
      {"2024-01-02 03:04:05 Foo/Bar", false, "ERROR 22023 time zone \"foo/bar\" not recognized"},
      // Paceline's year range ends at 9999 (PostgreSQL would go on).
      {"9999-12-31 24:00", false, "ERROR 22008 timestamp out of range: \"9999-12-31 24:00\""},
      {"0001-01-01 00:00:00+01", true, "ERROR 22008 timestamp out of range: \"0001-01-01 00:00:00+01\""},
  };
  for (const Case& c : cases) EXPECT_EQ(TimestampRoundTrip(c.in, c.tz), c.error) << c.in;
}

TEST(DatetimeTest, FormatsTimestamps) {
  EXPECT_EQ(FormatTimestamp(0), "1970-01-01 00:00:00");
  EXPECT_EQ(FormatTimestamp(0, true), "1970-01-01 00:00:00+00");
  EXPECT_EQ(FormatTimestamp(-1), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(FormatTimestamp(-kDay), "1969-12-31 00:00:00");
  EXPECT_EQ(FormatTimestamp(250000), "1970-01-01 00:00:00.25");
  EXPECT_EQ(FormatTimestamp(100), "1970-01-01 00:00:00.0001");
  EXPECT_EQ(FormatTimestamp(kPostgresEpochOffsetMicros + 3 * 3600 * kSecond + 4 * 60 * kSecond + 5 * kSecond),
            "2000-01-01 03:04:05");
}

// Every int64 prints without overflow (a typed parameter need not be a
// valid timestamp); the time of day is exact even where the year is not.
TEST(DatetimeTest, FormatsTimestampsAtTheEndsOfInt64) {
  EXPECT_TRUE(FormatTimestamp(INT64_MAX).ends_with(" 04:00:54.775807")) << FormatTimestamp(INT64_MAX);
  EXPECT_NE(FormatTimestamp(INT64_MIN, true).find(" 19:59:05.224192+00"), std::string::npos)
      << FormatTimestamp(INT64_MIN, true);
}

TEST(DatetimeTest, ValidDatesRunFromJulianDayZeroToYear32767) {
  int32_t first = 0, last = 0;
  ASSERT_TRUE(ParseDate("0001-01-01", &first).ok());
  EXPECT_TRUE(IsValidDate(first));
  EXPECT_TRUE(IsValidDate(-2440588));  // 4714-11-24 BC, PostgreSQL's first date
  EXPECT_EQ(FormatDate(-2440588), "4714-11-24 BC");
  EXPECT_FALSE(IsValidDate(-2440589));
  ASSERT_TRUE(ParseDate("9999-12-31", &last).ok());
  EXPECT_TRUE(IsValidDate(last + int64_t{8400} * 366));
  EXPECT_EQ(FormatDate(11248737), "32767-12-31");
  EXPECT_TRUE(IsValidDate(11248737));
  EXPECT_FALSE(IsValidDate(11248738));
  EXPECT_FALSE(IsValidDate(INT32_MAX));
}

TEST(DatetimeTest, RelativeSpecialValues) {
  const int64_t before = CurrentTimestampMicros();
  int64_t now = 0, today = 0, tomorrow = 0, yesterday = 0;
  ASSERT_TRUE(ParseTimestamp(" now ", true, &now).ok());
  ASSERT_TRUE(ParseTimestamp("today", false, &today).ok());
  ASSERT_TRUE(ParseTimestamp("Tomorrow", false, &tomorrow).ok());
  ASSERT_TRUE(ParseTimestamp("yesterday", false, &yesterday).ok());
  const int64_t after = CurrentTimestampMicros();
  EXPECT_GE(now, before);
  EXPECT_LE(now, after);
  EXPECT_EQ(today % kDay, 0);
  EXPECT_LE(today, now);
  EXPECT_GT(today + kDay, before);
  EXPECT_EQ(tomorrow - today, kDay);
  EXPECT_EQ(today - yesterday, kDay);
  int32_t days = 0;
  ASSERT_TRUE(ParseDate("today", &days).ok());
  EXPECT_TRUE(int64_t{days} * kDay == today || int64_t{days} * kDay == tomorrow);  // midnight may pass
}

}  // namespace
}  // namespace paceline
