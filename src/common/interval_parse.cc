// ParseInterval: PostgreSQL's interval input (see interval.h for the forms).
//
// The text is cut into tokens (numbers, times "h:m:s", year-months "y-m",
// words), which are then read from right to left as PostgreSQL does: a unit
// word gives the unit of the numbers to its left until the next word, a
// time makes a bare number to its left a count of days, and a bare number
// with nothing to its right is seconds. A unit given twice, a word without
// a number, or anything unreadable is 22007; a number beyond int32, or a
// sum of fields beyond its field's range, is 22015; years beyond int32
// months are 22008 (`interval out of range`).
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "common/interval.h"

namespace paceline {

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kSecondsPerDay = 86400;

enum class Unit {
  kNone, kMicrosecond, kMillisecond, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kYear, kDecade, kCentury,
  kMillennium,
};

Unit UnitOf(const std::string& word) {
  struct Spelling {
    const char* text;
    Unit unit;
  };
  static constexpr Spelling kSpellings[] = {
      {"microsecond", Unit::kMicrosecond}, {"microseconds", Unit::kMicrosecond}, {"usec", Unit::kMicrosecond},
      {"usecs", Unit::kMicrosecond}, {"us", Unit::kMicrosecond}, {"millisecond", Unit::kMillisecond},
      {"milliseconds", Unit::kMillisecond}, {"msec", Unit::kMillisecond}, {"msecs", Unit::kMillisecond},
      {"ms", Unit::kMillisecond}, {"second", Unit::kSecond}, {"seconds", Unit::kSecond}, {"sec", Unit::kSecond},
      {"secs", Unit::kSecond}, {"s", Unit::kSecond}, {"minute", Unit::kMinute}, {"minutes", Unit::kMinute},
      {"min", Unit::kMinute}, {"mins", Unit::kMinute}, {"m", Unit::kMinute}, {"hour", Unit::kHour},
      {"hours", Unit::kHour}, {"hr", Unit::kHour}, {"hrs", Unit::kHour}, {"h", Unit::kHour}, {"day", Unit::kDay},
      {"days", Unit::kDay}, {"d", Unit::kDay}, {"week", Unit::kWeek}, {"weeks", Unit::kWeek}, {"w", Unit::kWeek},
      {"month", Unit::kMonth}, {"months", Unit::kMonth}, {"mon", Unit::kMonth}, {"mons", Unit::kMonth},
      {"year", Unit::kYear}, {"years", Unit::kYear}, {"yr", Unit::kYear}, {"yrs", Unit::kYear}, {"y", Unit::kYear},
      {"decade", Unit::kDecade}, {"decades", Unit::kDecade}, {"dec", Unit::kDecade}, {"decs", Unit::kDecade},
      {"century", Unit::kCentury}, {"centuries", Unit::kCentury}, {"cent", Unit::kCentury}, {"c", Unit::kCentury},
      {"millennium", Unit::kMillennium}, {"millennia", Unit::kMillennium}, {"mil", Unit::kMillennium},
      {"mils", Unit::kMillennium},
  };
  for (const Spelling& s : kSpellings) {
    if (word == s.text) return s.unit;
  }
  return Unit::kNone;
}

// Which fields a unit fills: the same field twice is an error.
uint32_t MaskOf(Unit u) { return 1u << static_cast<int>(u); }
constexpr uint32_t kTimeMask = (1u << static_cast<int>(Unit::kHour)) | (1u << static_cast<int>(Unit::kMinute)) |
                               (1u << static_cast<int>(Unit::kSecond));

enum class Kind { kNumber, kTime, kYearMonth, kWord };

struct Token {
  explicit Token(Kind k) : kind(k) {}
  Kind kind;
  bool negative = false;
  int64_t whole = 0;    // kNumber: integer part; kTime: hours; kYearMonth: years
  double fraction = 0;  // kNumber: fraction part (same sign as the number, applied later)
  int64_t minutes = 0;  // kTime; kYearMonth: months
  int64_t micros = 0;   // kTime: seconds and their fraction
  std::string word;     // kWord, lower case
};

// The interval's fields while it is read; overflow of any is 22015.
struct Fields {
  int64_t years = 0;
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;
  bool overflow = false;

  // Adds to a field that must stay within int32 (`narrow`) or int64.
  void Add(int64_t* field, int64_t v, bool narrow) {
    if (__builtin_add_overflow(*field, v, field)) overflow = true;
    if (narrow && (*field > std::numeric_limits<int32_t>::max() || *field < std::numeric_limits<int32_t>::min())) {
      overflow = true;
    }
  }
  void AddMicros(int64_t v) { Add(&micros, v, false); }
  void AddDays(int64_t v) { Add(&days, v, true); }
  void AddMonths(int64_t v) { Add(&months, v, true); }
  void AddYears(int64_t v) { Add(&years, v, true); }
  // A fraction of `seconds_per_unit` seconds: microseconds, rounded.
  void AddFractionSeconds(double fraction, double seconds_per_unit) {
    const double micros_d = std::rint(fraction * seconds_per_unit * 1e6);
    AddMicros(static_cast<int64_t>(micros_d));
  }
  // A fraction of `days_per_unit` days: whole days, the rest as seconds.
  void AddFractionDays(double fraction, double days_per_unit) {
    const double d = fraction * days_per_unit;
    const double whole = std::trunc(d);
    AddDays(static_cast<int64_t>(whole));
    AddFractionSeconds(d - whole, kSecondsPerDay);
  }
  // `value` (whole part `whole`, fraction `fraction`) of `unit`.
  void AddUnit(Unit unit, int64_t whole, double fraction) {
    int64_t scaled = 0;
    switch (unit) {
      case Unit::kMicrosecond: AddMicros(static_cast<int64_t>(std::rint(static_cast<double>(whole) + fraction))); break;
      case Unit::kMillisecond:
        AddMicros(whole * 1000);
        AddMicros(static_cast<int64_t>(std::rint(fraction * 1000)));
        break;
      case Unit::kSecond:
        AddMicros(whole * kMicrosPerSecond);
        AddFractionSeconds(fraction, 1);
        break;
      case Unit::kMinute:
        AddMicros(whole * 60 * kMicrosPerSecond);
        AddFractionSeconds(fraction, 60);
        break;
      case Unit::kHour:
        AddMicros(whole * 3600 * kMicrosPerSecond);
        AddFractionSeconds(fraction, 3600);
        break;
      case Unit::kDay:
        AddDays(whole);
        AddFractionSeconds(fraction, kSecondsPerDay);
        break;
      case Unit::kWeek:
        if (__builtin_mul_overflow(whole, 7, &scaled)) overflow = true;
        AddDays(scaled);
        AddFractionDays(fraction, 7);
        break;
      case Unit::kMonth:
        AddMonths(whole);
        AddFractionDays(fraction, 30);
        break;
      case Unit::kYear: case Unit::kDecade: case Unit::kCentury: case Unit::kMillennium: {
        const int64_t factor = unit == Unit::kYear ? 1 : unit == Unit::kDecade ? 10 : unit == Unit::kCentury ? 100 : 1000;
        if (__builtin_mul_overflow(whole, factor, &scaled)) overflow = true;
        AddYears(scaled);
        AddMonths(static_cast<int64_t>(std::rint(fraction * 12.0 * static_cast<double>(factor))));
        break;
      }
      case Unit::kNone: break;
    }
  }
};

constexpr int64_t kMaxMagnitude = int64_t{1} << 31;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads digits at text[*i] into *value; false when there are none. Beyond
// 2^31 (int32's range, the negative end included) sets `*overflow`.
bool ReadInt(std::string_view text, size_t* i, int64_t* value, bool* overflow) {
  const size_t start = *i;
  int64_t v = 0;
  while (*i < text.size() && IsDigit(text[*i])) {
    v = v * 10 + (text[*i] - '0');
    if (v > kMaxMagnitude) {
      *overflow = true;
      v = kMaxMagnitude;
    }
    ++*i;
  }
  *value = v;
  return *i > start;
}

// Reads ".ddd" at text[*i] (if there) as a fraction in [0, 1).
double ReadFraction(std::string_view text, size_t* i) {
  if (*i >= text.size() || text[*i] != '.') return 0;
  const size_t start = *i;
  ++*i;
  while (*i < text.size() && IsDigit(text[*i])) ++*i;
  return std::strtod(std::string(text.substr(start, *i - start)).c_str(), nullptr);
}

// Cuts `text` into tokens; false on anything PostgreSQL would not read.
bool Tokenize(std::string_view text, std::vector<Token>* tokens, bool* overflow) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (IsSpace(c) || c == ',') {
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      Token t(Kind::kWord);
      while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) {
        t.word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++]))));
      }
      tokens->push_back(std::move(t));
      continue;
    }
    Token t(Kind::kNumber);
    if (c == '+' || c == '-') {
      t.negative = c == '-';
      ++i;
      while (i < text.size() && IsSpace(text[i])) ++i;
    }
    if (i >= text.size() || !(IsDigit(text[i]) || (text[i] == '.' && c != '+' && c != '-'))) return false;
    const bool has_int = ReadInt(text, &i, &t.whole, overflow);
    if (!t.negative && t.whole > std::numeric_limits<int32_t>::max()) *overflow = true;
    if (i < text.size() && text[i] == ':' && has_int) {  // h:m[:s[.f]]
      t.kind = Kind::kTime;
      ++i;
      if (!ReadInt(text, &i, &t.minutes, overflow)) return false;
      if (t.minutes > 59) *overflow = true;
      if (i < text.size() && text[i] == ':') {
        ++i;
        int64_t seconds = 0;
        if (!ReadInt(text, &i, &seconds, overflow)) return false;
        if (seconds > 60) *overflow = true;
        const double fraction = ReadFraction(text, &i);
        t.micros = seconds * kMicrosPerSecond + static_cast<int64_t>(std::rint(fraction * 1e6));
      }
    } else if (i < text.size() && text[i] == '-' && has_int && i + 1 < text.size() && IsDigit(text[i + 1])) {
      t.kind = Kind::kYearMonth;  // SQL standard y-m
      ++i;
      ReadInt(text, &i, &t.minutes, overflow);
      if (t.minutes > 11) *overflow = true;
      if (i < text.size() && (text[i] == '-' || text[i] == ':' || text[i] == '.')) return false;  // a date, not y-m
    } else {
      t.fraction = ReadFraction(text, &i);
      if (!has_int && t.fraction == 0 && (i == 0 || text[i - 1] == '.')) return false;  // a lone "."
    }
    if (i < text.size() && !IsSpace(text[i]) && !std::isalpha(static_cast<unsigned char>(text[i])) &&
        text[i] != '+' && text[i] != '-') {
      return false;
    }
    tokens->push_back(std::move(t));
  }
  return true;
}

// ISO 8601 with designators: P[nY][nM][nW][nD][T[nH][nM][nS]].
bool ParseIso(std::string_view text, Fields* f, bool* overflow) {
  size_t i = 1;
  bool in_time = false, any = false;
  while (i < text.size()) {
    if (text[i] == 'T') {
      if (in_time) return false;
      in_time = true;
      any = true;
      ++i;
      continue;
    }
    bool negative = false;
    if (text[i] == '-' || text[i] == '+') negative = text[i++] == '-';
    int64_t whole = 0;
    const bool has_int = ReadInt(text, &i, &whole, overflow);
    const double fraction = ReadFraction(text, &i);
    if ((!has_int && fraction == 0) || i >= text.size()) return false;
    Unit unit = Unit::kNone;
    switch (text[i++]) {
      case 'Y': unit = in_time ? Unit::kNone : Unit::kYear; break;
      case 'M': unit = in_time ? Unit::kMinute : Unit::kMonth; break;
      case 'W': unit = in_time ? Unit::kNone : Unit::kWeek; break;
      case 'D': unit = in_time ? Unit::kNone : Unit::kDay; break;
      case 'H': unit = in_time ? Unit::kHour : Unit::kNone; break;
      case 'S': unit = in_time ? Unit::kSecond : Unit::kNone; break;
      default: break;
    }
    if (unit == Unit::kNone) return false;
    f->AddUnit(unit, negative ? -whole : whole, negative ? -fraction : fraction);
    any = true;
  }
  return any;
}

Status InvalidSyntax(std::string_view text) {
  return Status(sqlstate::kInvalidDatetimeFormat,
                "invalid input syntax for type interval: \"" + std::string(text) + "\"");
}

}  // namespace

Status ParseInterval(std::string_view text, Interval* out) {
  std::string_view s = text;
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  if (!s.empty() && s.front() == '@') s.remove_prefix(1);
  Fields f;
  bool overflow = false;
  if (!s.empty() && s.front() == 'P') {
    if (!ParseIso(s, &f, &overflow)) return InvalidSyntax(text);
  } else {
    std::vector<Token> tokens;
    if (!Tokenize(s, &tokens, &overflow) || tokens.empty()) return InvalidSyntax(text);
    // "ago", wherever it stands and however often, negates the whole.
    bool ago = false;
    std::erase_if(tokens, [&](const Token& t) {
      const bool is_ago = t.kind == Kind::kWord && t.word == "ago";
      ago |= is_ago;
      return is_ago;
    });
    if (tokens.empty()) return InvalidSyntax(text);
    Unit unit = Unit::kNone;  // the unit of bare numbers, set from the right
    bool unit_used = true;    // whether the last word had its number
    uint32_t mask = 0;
    for (size_t k = tokens.size(); k-- > 0;) {
      const Token& t = tokens[k];
      switch (t.kind) {
        case Kind::kWord: {
          const Unit u = UnitOf(t.word);
          if (u == Unit::kNone || !unit_used) return InvalidSyntax(text);
          unit = u;
          unit_used = false;
          break;
        }
        case Kind::kNumber: {
          const Unit u = unit == Unit::kNone ? Unit::kSecond : unit;
          if ((mask & MaskOf(u)) != 0) return InvalidSyntax(text);
          mask |= MaskOf(u);
          f.AddUnit(u, t.negative ? -t.whole : t.whole, t.negative ? -t.fraction : t.fraction);
          unit = u;
          unit_used = true;
          break;
        }
        case Kind::kTime: {
          if (!unit_used || (mask & kTimeMask) != 0) return InvalidSyntax(text);
          mask |= kTimeMask;
          const int64_t micros = (t.whole * 3600 + t.minutes * 60) * kMicrosPerSecond + t.micros;
          f.AddMicros(t.negative ? -micros : micros);
          unit = Unit::kDay;
          break;
        }
        case Kind::kYearMonth: {
          const uint32_t m = MaskOf(Unit::kYear) | MaskOf(Unit::kMonth);
          if (!unit_used || (mask & m) != 0) return InvalidSyntax(text);
          mask |= m;
          f.AddYears(t.negative ? -t.whole : t.whole);
          f.AddMonths(t.negative ? -t.minutes : t.minutes);
          unit = Unit::kNone;
          break;
        }
      }
    }
    if (!unit_used) return InvalidSyntax(text);
    if (ago) {
      f.years = -f.years;
      f.months = -f.months;
      f.days = -f.days;
      if (f.micros == std::numeric_limits<int64_t>::min()) overflow = true;
      f.micros = overflow ? 0 : -f.micros;
    }
  }
  if (overflow || f.overflow) {
    return Status(sqlstate::kIntervalFieldOverflow,
                  "interval field value out of range: \"" + std::string(text) + "\"");
  }
  int64_t months = 0;
  if (__builtin_mul_overflow(f.years, 12, &months) || __builtin_add_overflow(months, f.months, &months) ||
      months > std::numeric_limits<int32_t>::max() || months < std::numeric_limits<int32_t>::min()) {
    return IntervalOutOfRange();
  }
  out->months = static_cast<int32_t>(months);
  out->days = static_cast<int32_t>(f.days);
  out->micros = f.micros;
  return Status::OK();
}

}  // namespace paceline
