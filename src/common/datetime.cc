// Dates and timestamps: parses PostgreSQL's ISO input forms ("2024-01-02",
// "2024-01-02 03:04:05.25+05:30", "2024-01-02T03:04:05Z", 'epoch', 'now',
// 'today', ...) and prints PostgreSQL's ISO output. Calendar math is
// std::chrono's (year_month_day ↔ sys_days); years 1..9999 are accepted.
#include "common/datetime.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>

namespace paceline {

namespace {

namespace chr = std::chrono;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;
constexpr int kMinYear = 1;
constexpr int kMaxYear = 9999;
// PostgreSQL accepts zone offsets up to 15:59:59 (MAX_TZDISP_HOUR).
constexpr int kMaxZoneHours = 15;

// Concatenates without `"literal" + std::string&&`, which trips GCC 12's
// false-positive -Wrestrict at -O3.
std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s.append(p);
  return s;
}

enum class ParseResult { kOk, kSyntax, kFieldRange, kZoneRange, kZoneUnknown, kInfinity };

enum class Special { kNone, kEpoch, kNow, kToday, kTomorrow, kYesterday };

struct Fields {
  Special special = Special::kNone;
  int year = 0, month = 0, day = 0;
  int hour = 0, minute = 0, second = 0;
  int64_t fraction = 0;  // microseconds, 0..1000000 (1000000 after rounding up)
  bool has_zone = false;
  int zone_seconds = 0;  // offset east of UTC
  std::string zone_name;  // an unrecognized zone, lowercased
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string LowerCopy(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = Lower(c);
  return r;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

// A small cursor over the trimmed input.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  void advance(size_t n = 1) { pos_ += n; }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  // Reads a run of digits (at most `max_len` of them, 0 = any), returning
  // the count read and the value (saturated).
  int digits(int64_t* value, int max_len = 0) {
    int n = 0;
    int64_t v = 0;
    while (!done() && IsDigit(peek()) && (max_len == 0 || n < max_len)) {
      if (v < 100000000) v = v * 10 + (peek() - '0');
      ++n;
      ++pos_;
    }
    *value = v;
    return n;
  }
  std::string_view rest() const { return s_.substr(pos_); }
  size_t pos() const { return pos_; }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

// "+05", "-0800", "+05:30", "+05:30:15" after the sign.
ParseResult ParseNumericZone(Cursor* c, Fields* f) {
  const bool negative = c->peek() == '-';
  c->advance();
  int64_t v = 0;
  int64_t hours = 0, minutes = 0, seconds = 0;
  const int n = c->digits(&v);
  if (n == 1 || n == 2) {
    hours = v;
    if (c->peek() == ':' && IsDigit(c->peek(1))) {
      c->advance();
      if (c->digits(&minutes) != 2) return ParseResult::kSyntax;
      if (c->peek() == ':' && IsDigit(c->peek(1))) {
        c->advance();
        if (c->digits(&seconds) != 2) return ParseResult::kSyntax;
      }
    }
  } else if (n == 4) {
    hours = v / 100;
    minutes = v % 100;
  } else if (n == 6) {
    hours = v / 10000;
    minutes = v / 100 % 100;
    seconds = v % 100;
  } else {
    return ParseResult::kSyntax;
  }
  if (hours > kMaxZoneHours || minutes > 59 || seconds > 59) return ParseResult::kZoneRange;
  const int total = static_cast<int>((hours * 60 + minutes) * 60 + seconds);
  f->has_zone = true;
  f->zone_seconds = negative ? -total : total;
  return ParseResult::kOk;
}

ParseResult ParseZone(Cursor* c, Fields* f) {
  if (c->peek() == '+' || c->peek() == '-') return ParseNumericZone(c, f);
  size_t n = 0;
  while (IsAlpha(c->peek(n)) || c->peek(n) == '/' || c->peek(n) == '_') ++n;
  if (n == 0) return ParseResult::kSyntax;
  const std::string name = LowerCopy(c->rest().substr(0, n));
  c->advance(n);
  if (name == "z" || name == "utc" || name == "gmt" || name == "ut" || name == "zulu") {
    f->has_zone = true;
    f->zone_seconds = 0;
    return ParseResult::kOk;
  }
  f->zone_name = name;
  return ParseResult::kZoneUnknown;
}

// "HH:MM[:SS[.ffffff]]" (one or two digits per field).
ParseResult ParseTime(Cursor* c, Fields* f) {
  int64_t v = 0;
  if (c->digits(&v, 2) == 0) return ParseResult::kSyntax;
  f->hour = static_cast<int>(v);
  if (!c->consume(':')) return ParseResult::kSyntax;
  if (c->digits(&v, 2) == 0) return ParseResult::kSyntax;
  f->minute = static_cast<int>(v);
  if (c->consume(':')) {
    if (c->digits(&v, 2) == 0) return ParseResult::kSyntax;
    f->second = static_cast<int>(v);
    if (c->consume('.')) {
      const std::string_view rest = c->rest();
      size_t n = 0;
      while (n < rest.size() && IsDigit(rest[n])) ++n;
      if (n <= 6) {
        int64_t micros = 0;
        for (size_t i = 0; i < 6; ++i) micros = micros * 10 + (i < n ? rest[i] - '0' : 0);
        f->fraction = micros;
      } else {
        // As PostgreSQL: rint(strtod(".fff...") * 1e6).
        std::string frac = "0.";
        frac.append(rest.substr(0, n));
        double d = 0;
        std::from_chars(frac.data(), frac.data() + frac.size(), d);
        f->fraction = static_cast<int64_t>(std::rint(d * 1e6));
      }
      c->advance(n);
    }
  }
  if (IsDigit(c->peek())) return ParseResult::kSyntax;
  return ParseResult::kOk;
}

ParseResult ParseSpecial(std::string_view body, Fields* f) {
  const std::string word = LowerCopy(body);
  if (word == "epoch") {
    f->special = Special::kEpoch;
  } else if (word == "now") {
    f->special = Special::kNow;
  } else if (word == "today") {
    f->special = Special::kToday;
  } else if (word == "tomorrow") {
    f->special = Special::kTomorrow;
  } else if (word == "yesterday") {
    f->special = Special::kYesterday;
  } else if (word == "infinity" || word == "+infinity" || word == "-infinity") {
    return ParseResult::kInfinity;
  } else {
    return ParseResult::kSyntax;
  }
  return ParseResult::kOk;
}

// Splits the text into fields and checks their ranges.
ParseResult ParseFields(std::string_view text, Fields* f) {
  size_t b = 0, e = text.size();
  while (b < e && IsSpace(text[b])) ++b;
  while (e > b && IsSpace(text[e - 1])) --e;
  const std::string_view body = text.substr(b, e - b);
  if (body.empty()) return ParseResult::kSyntax;
  if (!IsDigit(body[0])) return ParseSpecial(body, f);

  Cursor c(body);
  int64_t v = 0;
  const int year_digits = c.digits(&v);
  f->year = static_cast<int>(v);
  const char separator = c.peek();  // "2024-01-02" or "2024/01/02"
  if (separator != '-' && separator != '/') return ParseResult::kSyntax;
  c.advance();
  if (c.digits(&v, 2) == 0) return ParseResult::kSyntax;
  f->month = static_cast<int>(v);
  if (!c.consume(separator)) return ParseResult::kSyntax;
  if (c.digits(&v, 2) == 0) return ParseResult::kSyntax;
  f->day = static_cast<int>(v);
  if (IsDigit(c.peek())) return ParseResult::kSyntax;

  // Time, after 'T' or blanks.
  bool has_time = false;
  if ((c.peek() == 'T' || c.peek() == 't') && IsDigit(c.peek(1))) {
    has_time = true;
    c.advance();
    const ParseResult r = ParseTime(&c, f);
    if (r != ParseResult::kOk) return r;
  } else {
    size_t n = 0;
    while (IsSpace(c.peek(n))) ++n;
    if (n > 0 && IsDigit(c.peek(n))) {
      has_time = true;
      c.advance(n);
      const ParseResult r = ParseTime(&c, f);
      if (r != ParseResult::kOk) return r;
    }
  }
  // Zone, possibly after blanks; a zone name glued to a bare date
  // ("2024-01-02x") is just bad syntax.
  const size_t before_blanks = c.pos();
  while (IsSpace(c.peek())) c.advance();
  if (!c.done()) {
    if (!has_time && c.pos() == before_blanks && IsAlpha(c.peek())) return ParseResult::kSyntax;
    const ParseResult r = ParseZone(&c, f);
    if (r != ParseResult::kOk) return r;
    while (IsSpace(c.peek())) c.advance();
    if (!c.done()) return ParseResult::kSyntax;
  }

  // Field ranges, as PostgreSQL checks them.
  if (year_digits < 3) return ParseResult::kFieldRange;  // PostgreSQL reads 2-digit years another way
  if (f->year < kMinYear || f->year > kMaxYear) return ParseResult::kFieldRange;
  const chr::year_month_day ymd{chr::year{f->year}, chr::month{static_cast<unsigned>(f->month)},
                                chr::day{static_cast<unsigned>(f->day)}};
  if (!ymd.ok()) return ParseResult::kFieldRange;
  if (f->hour > 24 || f->minute > 59 || f->second > 60) return ParseResult::kFieldRange;
  if (f->hour == 24 && (f->minute > 0 || f->second > 0 || f->fraction > 0)) return ParseResult::kFieldRange;
  if (f->second == 60 && f->fraction > 0) return ParseResult::kFieldRange;
  return ParseResult::kOk;
}

Status ParseError(ParseResult r, std::string_view type_name, std::string_view text, const Fields& f) {
  switch (r) {
    case ParseResult::kSyntax:
      return Status(sqlstate::kInvalidDatetimeFormat,
                    Cat({"invalid input syntax for type ", type_name, ": \"", text, "\""}));
    case ParseResult::kFieldRange:
      return Status(sqlstate::kDatetimeFieldOverflow, Cat({"date/time field value out of range: \"", text, "\""}));
    case ParseResult::kZoneRange:
      return Status(sqlstate::kInvalidTimeZoneDisplacementValue, Cat({"time zone displacement out of range: \"", text, "\""}));
    case ParseResult::kZoneUnknown:
      return Status(sqlstate::kInvalidParameterValue, Cat({"time zone \"", f.zone_name, "\" not recognized"}));
    case ParseResult::kInfinity:
      return Status(sqlstate::kFeatureNotSupported, "infinite dates and timestamps are not supported");
    case ParseResult::kOk:
      break;
  }
  return Status::OK();
}

constexpr int32_t DaysFromCivil(int year, int month, int day) {
  const chr::year_month_day ymd{chr::year{year}, chr::month{static_cast<unsigned>(month)},
                                chr::day{static_cast<unsigned>(day)}};
  return chr::sys_days(ymd).time_since_epoch().count();
}

constexpr int32_t kMinDays = DaysFromCivil(kMinYear, 1, 1);
constexpr int32_t kMaxDaysExclusive = DaysFromCivil(kMaxYear + 1, 1, 1);

int64_t SpecialMicros(Special s) {
  switch (s) {
    case Special::kEpoch: return 0;
    case Special::kNow: return CurrentTimestampMicros();
    case Special::kToday:
    case Special::kTomorrow:
    case Special::kYesterday: {
      const int64_t today = FloorDiv(CurrentTimestampMicros(), kMicrosPerDay);
      const int64_t delta = s == Special::kTomorrow ? 1 : (s == Special::kYesterday ? -1 : 0);
      return (today + delta) * kMicrosPerDay;
    }
    case Special::kNone: break;
  }
  return 0;
}

// Writes v as exactly `width` digits (zero-padded) at p.
char* PutDigits(char* p, int64_t v, int width) {
  for (int i = width - 1; i >= 0; --i) {
    p[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  return p + width;
}

// "YYYY-MM-DD" into p (5+ digit years print in full); returns the end and
// whether the year is BC (year <= 0 in proleptic numbering).
char* PutDate(char* p, int32_t days, bool* bc) {
  const chr::year_month_day ymd{chr::sys_days{chr::days{days}}};
  int year = static_cast<int>(ymd.year());
  *bc = year <= 0;
  if (*bc) year = 1 - year;
  int width = 4;
  for (int y = year; y >= 10000; y /= 10) ++width;
  p = PutDigits(p, year, width);
  *p++ = '-';
  p = PutDigits(p, static_cast<unsigned>(ymd.month()), 2);
  *p++ = '-';
  return PutDigits(p, static_cast<unsigned>(ymd.day()), 2);
}

}  // namespace

bool IsValidDate(int64_t days) {
  constexpr int32_t kFirst = -2440588;  // 4714-11-24 BC, Julian day 0
  constexpr int32_t kLast = DaysFromCivil(32767, 12, 31);
  return days >= kFirst && days <= kLast;
}

Status ParseDate(std::string_view text, int32_t* days) {
  Fields f;
  const ParseResult r = ParseFields(text, &f);
  if (r != ParseResult::kOk) return ParseError(r, "date", text, f);
  if (f.special != Special::kNone) {
    *days = static_cast<int32_t>(FloorDiv(SpecialMicros(f.special), kMicrosPerDay));
    return Status::OK();
  }
  // Like PostgreSQL's date_in, any time of day and zone are ignored.
  *days = DaysFromCivil(f.year, f.month, f.day);
  return Status::OK();
}

std::string FormatDate(int32_t days) {
  char buf[32];
  bool bc = false;
  char* p = PutDate(buf, days, &bc);
  std::string s(buf, p);
  if (bc) s += " BC";
  return s;
}

Status ParseTimestamp(std::string_view text, bool with_time_zone, int64_t* micros) {
  Fields f;
  const std::string_view type_name = with_time_zone ? "timestamp with time zone" : "timestamp";
  const ParseResult r = ParseFields(text, &f);
  if (r != ParseResult::kOk) return ParseError(r, type_name, text, f);
  if (f.special != Special::kNone) {
    *micros = SpecialMicros(f.special);
    return Status::OK();
  }
  int64_t t = static_cast<int64_t>(DaysFromCivil(f.year, f.month, f.day)) * kMicrosPerDay +
              ((f.hour * 60LL + f.minute) * 60 + f.second) * kMicrosPerSecond + f.fraction;
  if (with_time_zone && f.has_zone) t -= f.zone_seconds * kMicrosPerSecond;
  const int64_t day = FloorDiv(t, kMicrosPerDay);
  if (day < kMinDays || day >= kMaxDaysExclusive) {
    return Status(sqlstate::kDatetimeFieldOverflow, Cat({"timestamp out of range: \"", text, "\""}));
  }
  *micros = t;
  return Status::OK();
}

std::string FormatTimestamp(int64_t micros, bool with_time_zone) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  int64_t rest = micros % kMicrosPerDay;  // not micros - days * kMicrosPerDay: that overflows at the extremes
  if (rest < 0) rest += kMicrosPerDay;
  const int64_t fraction = rest % kMicrosPerSecond;
  rest /= kMicrosPerSecond;
  char buf[64];
  bool bc = false;
  char* p = PutDate(buf, static_cast<int32_t>(days), &bc);
  *p++ = ' ';
  p = PutDigits(p, rest / 3600, 2);
  *p++ = ':';
  p = PutDigits(p, rest / 60 % 60, 2);
  *p++ = ':';
  p = PutDigits(p, rest % 60, 2);
  if (fraction != 0) {
    *p++ = '.';
    p = PutDigits(p, fraction, 6);
    while (p[-1] == '0') --p;
  }
  if (with_time_zone) {
    *p++ = '+';
    *p++ = '0';
    *p++ = '0';
  }
  std::string s(buf, p);
  if (bc) s += " BC";
  return s;
}

int64_t CurrentTimestampMicros() {
  return chr::duration_cast<chr::microseconds>(chr::system_clock::now().time_since_epoch()).count();
}

Status TimestampOutOfRange() { return Status(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); }

}  // namespace paceline
