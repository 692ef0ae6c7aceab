// Fields of dates and timestamps (see datetime_fields.h). Calendar math on
// std::chrono's civil calendar, as datetime.cc.
#include "common/datetime_fields.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string>

namespace paceline {

namespace chr = std::chrono;

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

enum class Field {
  kMicroseconds, kMilliseconds, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kQuarter, kYear, kDecade, kCentury,
  kMillennium, kDow, kIsoDow, kDoy, kIsoYear, kEpoch, kUnknown,
};

Field ParseField(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  struct Spelling {
    const char* text;
    Field field;
  };
  static constexpr Spelling kSpellings[] = {
      {"microseconds", Field::kMicroseconds}, {"microsecond", Field::kMicroseconds}, {"us", Field::kMicroseconds},
      {"usec", Field::kMicroseconds}, {"usecs", Field::kMicroseconds}, {"useconds", Field::kMicroseconds},
      {"milliseconds", Field::kMilliseconds}, {"millisecond", Field::kMilliseconds}, {"ms", Field::kMilliseconds},
      {"msec", Field::kMilliseconds}, {"msecs", Field::kMilliseconds}, {"mseconds", Field::kMilliseconds},
      {"second", Field::kSecond}, {"seconds", Field::kSecond}, {"sec", Field::kSecond}, {"secs", Field::kSecond},
      {"s", Field::kSecond}, {"minute", Field::kMinute}, {"minutes", Field::kMinute}, {"min", Field::kMinute},
      {"mins", Field::kMinute}, {"m", Field::kMinute}, {"hour", Field::kHour}, {"hours", Field::kHour},
      {"hr", Field::kHour}, {"hrs", Field::kHour}, {"h", Field::kHour}, {"day", Field::kDay}, {"days", Field::kDay},
      {"d", Field::kDay}, {"week", Field::kWeek}, {"weeks", Field::kWeek}, {"w", Field::kWeek},
      {"month", Field::kMonth}, {"months", Field::kMonth}, {"mon", Field::kMonth}, {"mons", Field::kMonth},
      {"quarter", Field::kQuarter}, {"qtr", Field::kQuarter}, {"year", Field::kYear}, {"years", Field::kYear},
      {"yr", Field::kYear}, {"yrs", Field::kYear}, {"y", Field::kYear}, {"decade", Field::kDecade},
      {"decades", Field::kDecade}, {"dec", Field::kDecade}, {"decs", Field::kDecade}, {"century", Field::kCentury},
      {"centuries", Field::kCentury}, {"cent", Field::kCentury}, {"c", Field::kCentury},
      {"millennium", Field::kMillennium}, {"millennia", Field::kMillennium}, {"mil", Field::kMillennium},
      {"mils", Field::kMillennium}, {"dow", Field::kDow}, {"isodow", Field::kIsoDow}, {"doy", Field::kDoy},
      {"isoyear", Field::kIsoYear}, {"epoch", Field::kEpoch},
  };
  for (const auto& s : kSpellings) {
    if (n == s.text) return s.field;
  }
  return Field::kUnknown;
}

Status NotRecognized(std::string_view field, TypeId type) {
  return Status(sqlstate::kInvalidParameterValue,
                "unit \"" + std::string(field) + "\" not recognized for type " + Type(type).ToString());
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

// The civil date of a day count.
struct Civil {
  int year;
  int month;  // 1..12
  int day;    // 1..31
};

Civil CivilOf(int64_t days) {
  const chr::year_month_day ymd{chr::sys_days{chr::days{days}}};
  return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

int64_t DaysOf(int year, int month, int day) {
  const chr::year_month_day ymd{chr::year{year}, chr::month{static_cast<unsigned>(month)},
                                chr::day{static_cast<unsigned>(day)}};
  return chr::sys_days(ymd).time_since_epoch().count();
}

// 0 = Sunday .. 6 = Saturday (1970-01-01 was a Thursday).
int DayOfWeek(int64_t days) { return static_cast<int>(((days % 7) + 7 + 4) % 7); }

// The ISO 8601 week-numbering year and week of a day: weeks start on
// Monday, and week 1 holds the year's first Thursday.
void IsoWeek(int64_t days, int* iso_year, int* week) {
  const int64_t thursday = days - (DayOfWeek(days) + 6) % 7 + 3;
  *iso_year = CivilOf(thursday).year;
  *week = static_cast<int>((thursday - DaysOf(*iso_year, 1, 1)) / 7 + 1);
}

// PostgreSQL's year → decade / century / millennium (there is no year 0).
int64_t Decade(int64_t year) { return year >= 0 ? year / 10 : -((8 - (year - 1)) / 10); }
int64_t Century(int64_t year) { return year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100); }
int64_t Millennium(int64_t year) { return year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000); }

// PostgreSQL's breakdown of an interval (datetime_fields.h).
struct IntervalParts {
  int64_t years, months, days, hours, minutes, seconds, micros;
};

IntervalParts PartsOf(const Interval& v) {
  IntervalParts p;
  p.years = v.months / 12;
  p.months = v.months % 12;
  p.days = v.days;
  p.hours = v.micros / (3600 * kMicrosPerSecond);
  p.minutes = v.micros / (60 * kMicrosPerSecond) % 60;
  p.seconds = v.micros / kMicrosPerSecond % 60;
  p.micros = v.micros % kMicrosPerSecond;
  return p;
}

Status NotSupportedForInterval(std::string_view field) {
  return Status(sqlstate::kFeatureNotSupported, "unit \"" + std::string(field) + "\" not supported for type interval");
}

}  // namespace

Status TruncateInterval(std::string_view field, const Interval& v, Interval* out) {
  IntervalParts p = PartsOf(v);
  const Field f = ParseField(field);
  switch (f) {
    case Field::kMillennium: case Field::kCentury: case Field::kDecade: case Field::kYear: case Field::kQuarter:
    case Field::kMonth: case Field::kDay: case Field::kHour: case Field::kMinute: case Field::kSecond:
    case Field::kMilliseconds: case Field::kMicroseconds:
      break;
    case Field::kWeek: case Field::kDow: case Field::kIsoDow: case Field::kDoy: case Field::kIsoYear:
    case Field::kEpoch:
      return NotSupportedForInterval(field);
    case Field::kUnknown:
      return NotRecognized(field, TypeId::kInterval);
  }
  // Each unit clears the fields below it (the cases fall through).
  switch (f) {
    case Field::kMillennium: p.years = p.years / 1000 * 1000; [[fallthrough]];
    case Field::kCentury: p.years = p.years / 100 * 100; [[fallthrough]];
    case Field::kDecade: p.years = p.years / 10 * 10; [[fallthrough]];
    case Field::kYear: p.months = 0; [[fallthrough]];
    case Field::kQuarter: p.months = p.months / 3 * 3; [[fallthrough]];
    case Field::kMonth: p.days = 0; [[fallthrough]];
    case Field::kDay: p.hours = 0; [[fallthrough]];
    case Field::kHour: p.minutes = 0; [[fallthrough]];
    case Field::kMinute: p.seconds = 0; [[fallthrough]];
    case Field::kSecond: p.micros = 0; [[fallthrough]];
    case Field::kMilliseconds: p.micros = p.micros / 1000 * 1000; break;
    default: break;
  }
  out->months = static_cast<int32_t>(p.years * 12 + p.months);
  out->days = static_cast<int32_t>(p.days);
  out->micros = ((p.hours * 60 + p.minutes) * 60 + p.seconds) * kMicrosPerSecond + p.micros;
  return Status::OK();
}

Status ExtractIntervalField(std::string_view field, const Interval& v, Decimal* out) {
  const IntervalParts p = PartsOf(v);
  int64_t whole = 0;
  switch (ParseField(field)) {
    case Field::kMicroseconds: whole = p.seconds * kMicrosPerSecond + p.micros; break;
    case Field::kMilliseconds: *out = Decimal(p.seconds * kMicrosPerSecond + p.micros, 3); return Status::OK();
    case Field::kSecond: *out = Decimal(p.seconds * kMicrosPerSecond + p.micros, 6); return Status::OK();
    case Field::kMinute: whole = p.minutes; break;
    case Field::kHour: whole = p.hours; break;
    case Field::kDay: whole = p.days; break;
    case Field::kMonth: whole = p.months; break;
    case Field::kQuarter: whole = p.months / 3 + 1; break;
    case Field::kYear: whole = p.years; break;
    case Field::kDecade: whole = p.years / 10; break;
    case Field::kCentury: whole = p.years / 100; break;
    case Field::kMillennium: whole = p.years / 1000; break;
    case Field::kEpoch: {
      // In quarter days so that a year's 365.25 days stay whole.
      const __int128 quarter_days = static_cast<__int128>(4 * 365 + 1) * (v.months / 12) +
                                    static_cast<__int128>(4 * 30) * (v.months % 12) + static_cast<__int128>(4) * v.days;
      *out = Decimal(quarter_days * (kMicrosPerDay / 4) + v.micros, 6);
      return Status::OK();
    }
    case Field::kWeek: case Field::kDow: case Field::kIsoDow: case Field::kDoy: case Field::kIsoYear:
      return NotSupportedForInterval(field);
    case Field::kUnknown:
      return NotRecognized(field, TypeId::kInterval);
  }
  *out = Decimal::FromInt(whole);
  return Status::OK();
}

Status TruncateTimestamp(std::string_view field, int64_t micros, TypeId type, int64_t* out) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  const int64_t time = micros - days * kMicrosPerDay;
  const Civil c = CivilOf(days);
  auto at_day = [&](int64_t d) { return d * kMicrosPerDay; };
  auto year_start = [&](int64_t year) { return at_day(DaysOf(static_cast<int>(year), 1, 1)); };
  switch (ParseField(field)) {
    case Field::kMicroseconds: *out = micros; return Status::OK();
    case Field::kMilliseconds: *out = micros - (time % 1000); return Status::OK();
    case Field::kSecond: *out = micros - (time % kMicrosPerSecond); return Status::OK();
    case Field::kMinute: *out = micros - (time % (60 * kMicrosPerSecond)); return Status::OK();
    case Field::kHour: *out = micros - (time % (3600 * kMicrosPerSecond)); return Status::OK();
    case Field::kDay: *out = at_day(days); return Status::OK();
    case Field::kWeek: *out = at_day(days - (DayOfWeek(days) + 6) % 7); return Status::OK();
    case Field::kMonth: *out = at_day(DaysOf(c.year, c.month, 1)); return Status::OK();
    case Field::kQuarter: *out = at_day(DaysOf(c.year, (c.month - 1) / 3 * 3 + 1, 1)); return Status::OK();
    case Field::kYear: *out = year_start(c.year); return Status::OK();
    case Field::kDecade: *out = year_start(c.year >= 0 ? c.year / 10 * 10 : -((9 - c.year) / 10 * 10)); return Status::OK();
    case Field::kCentury:
      *out = year_start(c.year > 0 ? (c.year - 1) / 100 * 100 + 1 : -((99 - (c.year - 1)) / 100 * 100) + 1);
      return Status::OK();
    case Field::kMillennium:
      *out = year_start(c.year > 0 ? (c.year - 1) / 1000 * 1000 + 1 : -((999 - (c.year - 1)) / 1000 * 1000) + 1);
      return Status::OK();
    default:
      return NotRecognized(field, type);
  }
}

Status ExtractField(std::string_view field, int64_t value, TypeId type, Decimal* out) {
  const bool is_date = type == TypeId::kDate;
  const int64_t micros = is_date ? value * kMicrosPerDay : value;
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  const int64_t time = micros - days * kMicrosPerDay;
  const Civil c = CivilOf(days);
  const Field f = ParseField(field);
  if (is_date && (f == Field::kMicroseconds || f == Field::kMilliseconds || f == Field::kSecond ||
                  f == Field::kMinute || f == Field::kHour)) {
    return Status(sqlstate::kFeatureNotSupported, "unit \"" + std::string(field) + "\" not supported for type date");
  }
  int64_t whole = 0;
  switch (f) {
    case Field::kMicroseconds: whole = time % (60 * kMicrosPerSecond); break;
    case Field::kMilliseconds: *out = Decimal(time % (60 * kMicrosPerSecond), 3); return Status::OK();
    case Field::kSecond: *out = Decimal(time % (60 * kMicrosPerSecond), 6); return Status::OK();
    case Field::kMinute: whole = time / (60 * kMicrosPerSecond) % 60; break;
    case Field::kHour: whole = time / (3600 * kMicrosPerSecond); break;
    case Field::kDay: whole = c.day; break;
    case Field::kMonth: whole = c.month; break;
    case Field::kQuarter: whole = (c.month - 1) / 3 + 1; break;
    case Field::kYear: whole = c.year > 0 ? c.year : c.year - 1; break;
    case Field::kDecade: whole = Decade(c.year); break;
    case Field::kCentury: whole = Century(c.year); break;
    case Field::kMillennium: whole = Millennium(c.year); break;
    case Field::kDow: whole = DayOfWeek(days); break;
    case Field::kIsoDow: whole = DayOfWeek(days) == 0 ? 7 : DayOfWeek(days); break;
    case Field::kDoy: whole = days - DaysOf(c.year, 1, 1) + 1; break;
    case Field::kWeek: case Field::kIsoYear: {
      int iso_year = 0, week = 0;
      IsoWeek(days, &iso_year, &week);
      whole = f == Field::kWeek ? week : iso_year;
      break;
    }
    case Field::kEpoch:
      if (is_date) {
        whole = value * 86400;
        break;
      }
      *out = Decimal(micros, 6);
      return Status::OK();
    case Field::kUnknown:
      return NotRecognized(field, type);
  }
  *out = Decimal::FromInt(whole);
  return Status::OK();
}

}  // namespace paceline
