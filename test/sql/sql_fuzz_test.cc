// SQL fuzz test: bad input gets a clear error, never a crash, a hang or an
// internal error.
//
// Seeds are the SQL statements of the behaviour suite (cases/*.test). Each
// file is replayed in a fresh Database, in its own sessions, so that the
// schema and data its statements expect exist; after each statement (when
// no transaction block is open) mutants of that statement run:
//
//   token edits        delete, duplicate, swap, replace with a keyword
//   extreme literals   huge/tiny numbers, '', long strings, NULL, -0,
//                      1e308, '2024-02-30', -2147483648, 9223372036854775808,
//                      99999999999999999999999999999999999999.99, ...
//   inserted syntax    NOT, unary -, casts (::int2, ::numeric(3,1), ::date,
//                      ::char(1), ...), scalar functions, binary operators
//   deep nesting       2,000 parentheses, 5,000-term AND/OR/+ chains,
//                      NOT/-/cast/function/CASE nests, nested BETWEEN
//   parameters         random values of every type for $n
//   blocks             BEGIN .. COMMIT/ROLLBACK with failing statements,
//                      multi-statement scripts
//
// A statement that runs past 5 s is canceled, as a client would (57014:
// pg_sleep(1e308) asks to wait). Every statement must return (OK or a
// failed Status); a Status with SQLSTATE
// XX000 fails the test and prints the SQL and parameters. A crash prints the
// statement being run before the process dies. The mutants come from a fixed
// seed, so a failure reproduces; the count defaults to ~20,000 (a few seconds
// in a RelWithDebInfo build) and is set with PACELINE_FUZZ_ITERATIONS, the
// seed with PACELINE_FUZZ_SEED. PACELINE_FUZZ_VERBOSE=1 prints every
// statement before it runs.
//
// DeepNesting probes the stack-depth limits directly (also on a thread with
// a small stack): the answer must be a result or 54001/54000/42601.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "case_files.h"
#include "engine/database.h"
#include "test/fuzz/watchdog.h"

#if defined(__SANITIZE_ADDRESS__)
#define PL_FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PL_FUZZ_ASAN 1
#endif
#endif
#ifdef PL_FUZZ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace paceline::engine {
namespace {

namespace fs = std::filesystem;
using sql_cases::CaseFiles;
using sql_cases::CasesDir;
using sql_cases::ParseParams;
using sql_cases::Trim;

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoll(v) : fallback;
}

bool Verbose() {
  static const bool verbose = EnvInt("PACELINE_FUZZ_VERBOSE", 0) != 0;
  return verbose;
}

// ---------------------------------------------------------------- crash report

// The statement being run, printed if the process dies while running it.
char g_current[4096];

void PrintCurrent() {
  const char kPrefix[] = "\n*** sql_fuzz_test died while running: ";
  ssize_t ignored = write(STDERR_FILENO, kPrefix, sizeof(kPrefix) - 1);
  ignored = write(STDERR_FILENO, g_current, strnlen(g_current, sizeof(g_current)));
  ignored = write(STDERR_FILENO, "\n", 1);
  (void)ignored;
}

#ifndef PL_FUZZ_ASAN
void OnFatalSignal(int sig) {
  PrintCurrent();
  signal(sig, SIG_DFL);
  raise(sig);
}
#endif

void InstallCrashReporter() {
  static bool installed = false;
  if (installed) return;
  installed = true;
#ifdef PL_FUZZ_ASAN
  __sanitizer_set_death_callback(PrintCurrent);
#else
  // On an alternate stack, so that a stack overflow is reported too.
  static std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_handler = OnFatalSignal;
  sa.sa_flags = SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
#endif
}

void SetCurrent(const std::string& what) {
  size_t n = std::min(what.size(), sizeof(g_current) - 1);
  memcpy(g_current, what.data(), n);
  g_current[n] = '\0';
}

// ---------------------------------------------------------------- seeds

struct Seed {
  std::string sql;
  std::vector<Value> params;  // from a `params` line: untyped text values
  int session = 1;
};

// Every record of one .test file, in order, with the session it runs in.
std::vector<Seed> LoadSeeds(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<Seed> seeds;
  int session = 1;
  size_t i = 0;
  while (i < lines.size()) {
    std::string text = Trim(lines[i]);
    if (text.rfind("session ", 0) == 0) session = std::max(1, std::atoi(text.c_str() + 8));
    if (text.rfind("statement ", 0) != 0 && text.rfind("query", 0) != 0) {
      ++i;
      continue;
    }
    ++i;
    Seed seed;
    seed.session = session;
    if (i < lines.size() && Trim(lines[i]).rfind("params ", 0) == 0) {
      std::string error;  // the case files are valid: the logic test checks them
      ParseParams(Trim(lines[i]).substr(7), &seed.params, &error);
      ++i;
    }
    while (i < lines.size() && !Trim(lines[i]).empty() && Trim(lines[i]) != "----") {
      seed.sql += (seed.sql.empty() ? "" : "\n") + lines[i];
      ++i;
    }
    if (i < lines.size() && Trim(lines[i]) == "----") {
      while (i < lines.size() && !Trim(lines[i]).empty()) ++i;  // expected rows
    }
    if (!seed.sql.empty()) seeds.push_back(std::move(seed));
  }
  return seeds;
}

// ---------------------------------------------------------------- tokens

enum class TokenKind { kWord, kNumber, kString, kParam, kSymbol };

struct Token {
  TokenKind kind;
  std::string text;
};

bool IsOperatorChar(char c) { return std::strchr("+-*/<>=~!@#%^&|`?", c) != nullptr && c != '\0'; }

// A rough SQL lexer: enough to cut statements into tokens that rejoin, with
// single blanks, into equivalent SQL.
std::vector<Token> Tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  auto word_char = [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; };
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
    } else if (s.substr(i, 2) == "--") {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.substr(i, 2) == "/*") {
      size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else if (c == '\'' || ((c == 'E' || c == 'e') && i + 1 < s.size() && s[i + 1] == '\'')) {
      size_t b = i;
      i += c == '\'' ? 1 : 2;
      while (i < s.size()) {
        if (s[i] == '\\' && c != '\'' && i + 1 < s.size()) {
          i += 2;
        } else if (s[i] == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
          i += 2;
        } else if (s[i] == '\'') {
          ++i;
          break;
        } else {
          ++i;
        }
      }
      out.push_back({TokenKind::kString, std::string(s.substr(b, i - b))});
    } else if (c == '"') {
      size_t end = s.find('"', i + 1);
      end = end == std::string_view::npos ? s.size() : end + 1;
      out.push_back({TokenKind::kWord, std::string(s.substr(i, end - i))});
      i = end;
    } else if (std::isdigit(c) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t b = i;
      while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
          i = j;
          while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
      }
      out.push_back({TokenKind::kNumber, std::string(s.substr(b, i - b))});
    } else if (c == '$' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      size_t b = i++;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      out.push_back({TokenKind::kParam, std::string(s.substr(b, i - b))});
    } else if (word_char(c)) {
      size_t b = i;
      while (i < s.size() && word_char(static_cast<unsigned char>(s[i]))) ++i;
      out.push_back({TokenKind::kWord, std::string(s.substr(b, i - b))});
    } else if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      out.push_back({TokenKind::kSymbol, "::"});
      i += 2;
    } else if (IsOperatorChar(static_cast<char>(c))) {
      size_t b = i;
      while (i < s.size() && IsOperatorChar(s[i]) && s.substr(i, 2) != "--" && s.substr(i, 2) != "/*") ++i;
      out.push_back({TokenKind::kSymbol, std::string(s.substr(b, i - b))});
    } else {
      out.push_back({TokenKind::kSymbol, std::string(1, static_cast<char>(c))});
      ++i;
    }
  }
  return out;
}

std::string Join(const std::vector<Token>& tokens) {
  std::string out;
  for (const auto& t : tokens) {
    if (!out.empty()) out += ' ';
    out += t.text;
  }
  return out;
}

// Highest $n in the text (0 when none).
int MaxParam(const std::vector<Token>& tokens) {
  int n = 0;
  for (const auto& t : tokens) {
    if (t.kind == TokenKind::kParam && t.text.size() < 8) n = std::max(n, std::atoi(t.text.c_str() + 1));
  }
  return n;
}

// ---------------------------------------------------------------- mutation

const std::vector<std::string>& ExtremeLiterals() {
  static const std::vector<std::string> kLiterals = {
      "0", "-0", "-0.0", "1", "-1", "1e308", "-1e308", "1e309", "1e-308", "4.9e-324", "1e-400",
      "2147483647", "2147483648", "-2147483648", "-2147483649", "32767", "32768", "-32768", "-32769",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "18446744073709551616", "99999999999999999999999999999999999999.99",
      "99999999999999999999999999999999999999", "999999999999999999999999999999999999999",
      "0.00000000000000000000000000000000000001", "0.000000000000000000000000000000000000000001",
      "123456789012345678901234567890.12345678901234567890", "1.5", "-2.5", "0.5",
      "'NaN'", "'Infinity'", "'-Infinity'", "'nan'::float8", "'-0'", "''", "' '", "'x'", "'é'", "'\xff\xfe'",
      "'2024-02-30'", "'2024-02-29'", "'0001-01-01'", "'9999-12-31'", "'4714-11-24 BC'", "'5874897-12-31'",
      "'294276-12-31 23:59:59.999999'", "'294277-01-01'", "'infinity'", "'-infinity'", "'epoch'",
      "'2024-01-01 24:00:00'", "'2024-13-01'", "'1999-01-08 04:05:06.999999999'", "'allballs'",
      "'t'", "'f'", "'yes'", "'maybe'", "true", "false", "NULL", "DEFAULT", "'%'", "'_'", "'\\'", "'%%%%\\'",
      "E'\\\\'", "'a''b'", "CURRENT_DATE", "now()", "random()",
  };
  return kLiterals;
}

std::string LongString(std::mt19937_64& rng) {
  static const size_t kSizes[] = {100, 10000, 100000, 1000000};
  size_t n = kSizes[rng() % 4];
  char c = "x%_9 "[rng() % 5];
  return "'" + std::string(n, c) + "'";
}

const std::vector<std::string>& Casts() {
  static const std::vector<std::string> kCasts = {
      "::int2", "::int4", "::int8", "::numeric(3,1)", "::numeric(38,38)", "::numeric(1,0)", "::numeric",
      "::float4", "::float8", "::real", "::date", "::timestamp", "::timestamptz", "::char(1)", "::char",
      "::varchar(1)", "::varchar", "::text", "::bool", "::decimal(38,0)", "::numeric(39,2)", "::char(0)",
      "::varchar(10485761)", "::int[]", "::interval", "::json", "::nosuchtype", "::smallint", "::bigint",
  };
  return kCasts;
}

const std::vector<std::string>& Keywords() {
  static const std::vector<std::string> kWords = {
      "SELECT", "FROM", "WHERE", "NULL", "DEFAULT", "*", ",", "(", ")", ";", "AND", "OR", "NOT", "IN", "BETWEEN",
      "LIKE", "ILIKE", "IS", "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT", "ALL", "ORDER BY", "GROUP BY",
      "HAVING", "LIMIT", "OFFSET", "RETURNING", "VALUES", "SET", "INTO", "AS", "ON", "JOIN", "LEFT JOIN",
      "CROSS JOIN", "USING", "FOR UPDATE", "ASC", "DESC", "NULLS FIRST", "=", "<>", "+", "-", "||", "::", ".",
      "$1", "$0", "$2", "$65535", "$65536", "$2147483647", "$99999999999", "COLLATE \"C\"", "ESCAPE '!'",
      "count(*)", "sum", "min", "max", "avg", "t", "id", "a", "b", "PRIMARY KEY", "UNIQUE", "REFERENCES t",
      "INT", "TEXT", "NUMERIC(1000,2)", "VARCHAR(0)", "CHAR(-1)", "CHECK (true)", "IF EXISTS", "IF NOT EXISTS",
      "CASCADE", "EXISTS (SELECT 1)", "(SELECT 1)", "ANY (ARRAY[1])", "ROW(1, 2)", "[1]", "BEGIN", "COMMIT",
      "ROLLBACK", "SAVEPOINT s", "TABLE", "INDEX", "DOMAIN", "WITH", "UNION", "OVER ()", "FILTER (WHERE true)",
  };
  return kWords;
}

const std::vector<std::string>& FunctionWrappers() {
  // '#' is replaced by the wrapped operand.
  static const std::vector<std::string> kWrappers = {
      "abs(#)", "round(#, 40)", "round(#, -2147483648)", "round(#, 2147483647)", "trunc(#, 38)", "trunc(#, -1)",
      "floor(#)", "ceil(#)", "ceiling(#)", "lower(#)", "upper(#)", "length(#)", "char_length(#)",
      "substr(#, -2147483648, 2147483647)", "substr(#, 2147483647, 2147483647)", "substr(#, 0, -1)",
      "substring(#, 9223372036854775807)", "substring(# from 2 for 3)", "btrim(#, '')", "ltrim(#, #)",
      "rtrim(#)", "power(#, 1e308)", "power(#, -1)", "pow(#, 0.5)", "sqrt(#)", "mod(#, 0)", "mod(#, -1)",
      "coalesce(#, NULL)", "coalesce(NULL, #)", "nullif(#, #)", "greatest(#, 9223372036854775807)",
      "least(#, -9223372036854775808)", "# || #", "count(#)", "count(DISTINCT #)", "sum(#)", "avg(#)", "min(#)",
      "max(#)", "(# / 0)", "(# % 0)", "(# * 9223372036854775807)", "(-9223372036854775808 / #)", "(# - #)",
      "(# + 1e308)", "(# = #)", "(# < NULL)", "(# LIKE #)", "(# IS DISTINCT FROM NULL)", "(# IN (#, NULL))",
      "(# BETWEEN # AND #)", "CASE WHEN # THEN # ELSE # END", "CASE # WHEN # THEN NULL END", "CAST(# AS int2)",
      "CAST(# AS numeric(3,1))", "(# IS TRUE)", "(# IS NOT UNKNOWN)", "- #", "NOT #", "+ #", "(#)::text",
      "(# + '1 day'::interval)", "(# - DATE '2024-01-01')", "(# + 2147483647)", "date '2024-01-01' + #",
  };
  return kWrappers;
}

std::string Replace(std::string pattern, const std::string& operand) {
  std::string out;
  for (char c : pattern) {
    if (c == '#') out += operand;
    else out += c;
  }
  return out;
}

// A deeply nested expression around `x`, of about `n` levels.
std::string Deep(std::mt19937_64& rng, const std::string& x, int n) {
  n = std::min<int>(n, static_cast<int>(2'000'000 / (x.size() + 16)) + 1);  // a few MB at most
  std::string s;
  auto repeat = [&](const std::string& piece, const std::string& sep) {
    std::string r = x;
    for (int i = 1; i < n; ++i) r += sep + piece;
    return r;
  };
  switch (rng() % 12) {
    case 0: return std::string(n, '(') + x + std::string(n, ')');
    case 1: return repeat(x, " AND ");
    case 2: return repeat(x, " OR ");
    case 3: return repeat(x, " + ");
    case 4: return repeat(x, " || ");
    case 5: for (int i = 0; i < n; ++i) s += "NOT "; return s + x;
    case 6: for (int i = 0; i < n; ++i) s += "- "; return s + x;
    case 7: s = x; for (int i = 0; i < n; ++i) s += i % 2 ? "::int8" : "::numeric"; return s;
    case 8: for (int i = 0; i < n; ++i) s += "abs("; return s + x + std::string(n, ')');
    case 9: for (int i = 0; i < n; ++i) s += "CASE WHEN true THEN "; s += x; for (int i = 0; i < n; ++i) s += " END"; return s;
    case 10: return x + " IN (" + repeat(x, ", ") + ")";
    default: {
      // BETWEEN repeats its left operand: nesting it grows exponentially.
      int levels = std::min(n, 40);
      s = x;
      for (int i = 0; i < levels; ++i) s = "(" + s + " BETWEEN " + x + " AND " + x + ")";
      return s;
    }
  }
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Whether token i of `v` is (probably) a value in an expression: a literal, a
// parameter, or a column name (not a keyword, a table or a function name), so
// that wrapping it keeps the statement parseable more often than not.
bool IsOperand(const std::vector<Token>& v, size_t i) {
  const Token& t = v[i];
  if (t.kind == TokenKind::kNumber || t.kind == TokenKind::kString || t.kind == TokenKind::kParam) return true;
  if (t.kind != TokenKind::kWord) return false;
  static const std::set<std::string> kKeywords = {
      "SELECT", "FROM", "WHERE", "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "AND", "OR", "NOT", "IS",
      "IN", "AS", "ON", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "CROSS", "ORDER", "GROUP", "BY", "HAVING",
      "LIMIT", "OFFSET", "CREATE", "TABLE", "INDEX", "UNIQUE", "PRIMARY", "KEY", "REFERENCES", "DROP", "ALTER",
      "ADD", "DOMAIN", "DEFAULT", "RETURNING", "DISTINCT", "ALL", "CASE", "WHEN", "THEN", "ELSE", "END", "BETWEEN",
      "LIKE", "ILIKE", "ASC", "DESC", "NULLS", "FIRST", "LAST", "FOR", "BEGIN", "COMMIT", "ROLLBACK", "START",
      "TRANSACTION", "TRUNCATE", "IF", "EXISTS", "CAST", "INT", "INTEGER", "BIGINT", "SMALLINT", "NUMERIC",
      "DECIMAL", "VARCHAR", "CHAR", "CHARACTER", "VARYING", "TEXT", "BOOLEAN", "DATE", "TIMESTAMP", "REAL",
      "DOUBLE", "PRECISION", "FLOAT", "SHOW", "TO", "WITH", "WITHOUT", "TIME", "ZONE", "ISOLATION", "LEVEL",
      "READ", "WRITE", "ONLY", "CONSTRAINT", "CHECK", "FOREIGN", "USING", "CASCADE", "VACUUM", "ANALYZE"};
  if (kKeywords.count(Upper(t.text))) return false;
  static const std::set<std::string> kBeforeName = {"FROM", "INTO", "UPDATE", "TABLE", "JOIN", "INDEX", "DOMAIN",
                                                    "AS", "REFERENCES", "EXISTS", "ON", "SET", "SHOW", "TO"};
  if (i > 0 && kBeforeName.count(Upper(v[i - 1].text)) && Upper(v[i - 1].text) != "SET") return false;
  if (i + 1 < v.size() && (v[i + 1].text == "(" || v[i + 1].text == ".")) return false;
  return true;
}

// Applies one random mutation to `tokens`.
void Mutate(std::mt19937_64& rng, std::vector<Token>* tokens) {
  if (tokens->empty()) {
    tokens->push_back({TokenKind::kWord, "SELECT"});
    return;
  }
  auto& v = *tokens;
  auto pick = [&](auto pred) -> int {
    std::vector<int> candidates;
    for (size_t i = 0; i < v.size(); ++i) {
      if (pred(v, i)) candidates.push_back(static_cast<int>(i));
    }
    if (candidates.empty()) return static_cast<int>(rng() % v.size());
    return candidates[rng() % candidates.size()];
  };
  auto any = [](const std::vector<Token>&, size_t) { return true; };
  auto literal = [](const std::vector<Token>& v, size_t i) {
    return v[i].kind == TokenKind::kNumber || v[i].kind == TokenKind::kString || v[i].kind == TokenKind::kParam;
  };
  const uint64_t op = rng() % 100;
  if (op < 6) {  // delete a token
    v.erase(v.begin() + pick(any));
  } else if (op < 10) {  // duplicate a token
    int i = pick(any);
    v.insert(v.begin() + i, v[i]);
  } else if (op < 14) {  // swap two tokens (neighbours, or anywhere)
    int i = pick(any);
    int j = rng() % 2 ? std::min<int>(i + 1, static_cast<int>(v.size()) - 1) : static_cast<int>(rng() % v.size());
    std::swap(v[i], v[j]);
  } else if (op < 40) {  // a literal becomes an extreme
    int i = pick(literal);
    v[i] = {TokenKind::kString, rng() % 12 == 0 ? LongString(rng) : ExtremeLiterals()[rng() % ExtremeLiterals().size()]};
  } else if (op < 48) {  // any operand becomes an extreme
    int i = pick(IsOperand);
    v[i] = {TokenKind::kString, ExtremeLiterals()[rng() % ExtremeLiterals().size()]};
  } else if (op < 58) {  // a cast after an operand
    int i = pick(IsOperand);
    v[i] = {TokenKind::kSymbol, v[i].text + Casts()[rng() % Casts().size()]};
  } else if (op < 62) {  // NOT or - before an operand
    int i = pick(rng() % 4 ? IsOperand : any);
    v.insert(v.begin() + i, {TokenKind::kSymbol, rng() % 2 ? "NOT" : "-"});
  } else if (op < 80) {  // wrap an operand in a function or operator
    int i = pick(IsOperand);
    v[i] = {TokenKind::kSymbol, Replace(FunctionWrappers()[rng() % FunctionWrappers().size()], v[i].text)};
  } else if (op < 88) {  // a keyword or symbol inserted or replacing a token
    int i = pick(any);
    Token k{TokenKind::kSymbol, Keywords()[rng() % Keywords().size()]};
    if (rng() % 2) v.insert(v.begin() + i, k);
    else v[i] = k;
  } else if (op < 92) {  // a $n parameter instead of a literal
    int i = pick(literal);
    v[i] = {TokenKind::kParam, "$" + std::to_string(1 + rng() % 4)};
  } else if (op < 95) {  // deep nesting around an operand
    static const int kDepths[] = {10, 100, 1000, 2000, 5000};
    int i = pick(IsOperand);
    v[i] = {TokenKind::kSymbol, Deep(rng, v[i].text, kDepths[rng() % 5])};
  } else if (op < 98) {  // a slice of the statement repeated
    if (Join(v).size() > 1'000'000) return;
    size_t b = rng() % v.size(), e = std::min(v.size(), b + 1 + rng() % 6);
    std::vector<Token> slice(v.begin() + b, v.begin() + e);
    v.insert(v.begin() + e, slice.begin(), slice.end());
  } else {  // truncated
    v.resize(rng() % v.size());
  }
}

// ---------------------------------------------------------------- parameter values

Decimal DecimalOf(const char* text) {
  Decimal d;
  EXPECT_TRUE(Decimal::Parse(text, &d).ok()) << text;
  return d;
}

Value RandomValue(std::mt19937_64& rng) {
  static const int64_t kInts[] = {0, 1, -1, INT16_MAX, INT16_MIN, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 42};
  static const double kFloats[] = {0.0, -0.0, 1e308, -1e308, 5e-324, 1.5,
                                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN(), 3.4e38, 1e39};
  static const char* kNumerics[] = {"0", "-0.00", "99999999999999999999999999999999999999",
                                    "-99999999999999999999999999999999999999", "0.00000000000000000000000000000000000001",
                                    "-9999999999999999999.9999999999999999999", "12.345", "1e37"};
  static const char* kTexts[] = {"", " ", "1", "-1", "abc", "NULL", "2024-02-30", "2024-01-02 03:04:05",
                                 "9223372036854775808", "-2147483648", "1e308", "NaN", "Infinity", "-0", "t",
                                 "é", "\xff", "a\\b", "99999999999999999999999999999999999999.99", "infinity",
                                 "294277-01-01", "5874898-01-01", " 12 ", "1.5e3", "0x10", "--", "'"};
  static const int64_t kDays[] = {0, -1, 2932896, -2451545, -2451508, 2147483647, -2147483648, 19723};
  static const int64_t kMicros[] = {0, -1, INT64_MAX, INT64_MIN, 9223371331200000000LL, -211813488000000000LL,
                                    1704067200000000LL, 253402300799999999LL};
  switch (rng() % 14) {
    case 0: return Value::Null();
    case 1: return Value::Bool(rng() % 2);
    case 2: return Value::Int16(static_cast<int16_t>(kInts[rng() % 10]));
    case 3: return Value::Int32(static_cast<int32_t>(kInts[rng() % 10]));
    case 4: return Value::Int64(kInts[rng() % 10]);
    case 5: return Value::Float32(static_cast<float>(kFloats[rng() % 11]));
    case 6: return Value::Float64(kFloats[rng() % 11]);
    case 7: return Value::Numeric(DecimalOf(kNumerics[rng() % 8]));
    case 8: return Value::Date(static_cast<int32_t>(kDays[rng() % 8]));
    case 9: return Value::Timestamp(kMicros[rng() % 8]);
    case 10: return Value::TimestampTz(kMicros[rng() % 8]);
    case 11: {
      static const TypeId kStringTypes[] = {TypeId::kChar, TypeId::kVarchar, TypeId::kText, TypeId::kUnknown};
      return Value::String(kStringTypes[rng() % 4], kTexts[rng() % std::size(kTexts)]);
    }
    case 12: return Value::Text(std::string(rng() % 2 ? 100000 : 3, 'z'));
    default: return Value::Text(kTexts[rng() % std::size(kTexts)]);
  }
}

std::vector<Value> RandomParams(std::mt19937_64& rng, int n) {
  // Sometimes one too few or one too many.
  int count = n;
  if (rng() % 10 == 0) count = std::max(0, n + (rng() % 2 ? 1 : -1));
  std::vector<Value> params;
  for (int i = 0; i < count; ++i) params.push_back(RandomValue(rng));
  return params;
}

std::string Describe(const std::vector<Value>& params) {
  std::string out;
  for (size_t i = 0; i < params.size(); ++i) {
    const Value& v = params[i];
    out += (i ? ", " : "") + std::string("$") + std::to_string(i + 1) + "=" + std::string(TypeIdName(v.type())) +
           ":";
    if (v.is_null()) {
      out += "NULL";
    } else if (v.type() == TypeId::kDate || v.type() == TypeId::kTimestamp || v.type() == TypeId::kTimestampTz) {
      out += std::to_string(v.int_value());  // raw: ToString may be what fails
    } else {
      std::string s = v.ToString();
      out += s.size() > 60 ? s.substr(0, 60) + "...(" + std::to_string(s.size()) + " bytes)" : s;
    }
  }
  return out;
}

// ---------------------------------------------------------------- runner

std::string Shorten(const std::string& sql) {
  return sql.size() > 400 ? sql.substr(0, 300) + " ...(" + std::to_string(sql.size()) + " bytes)... " +
                                sql.substr(sql.size() - 80)
                          : sql;
}

// A statement still running after this is canceled (the Runner's
// watchdog); well below PACELINE_FUZZ_SLOW_SECONDS, which flags a hang.
constexpr std::chrono::seconds kStatementBudget{5};

// Runs statements against one database and checks the outcome of each.
class Runner {
 public:
  explicit Runner(std::string name) : name_(std::move(name)) {
    Options options;
    options.lock_timeout = std::chrono::milliseconds(200);
    EXPECT_TRUE(Database::Open(options, &db_).ok());
  }

  Session* session(int n) {
    auto& s = sessions_[n];
    if (!s) s = db_->CreateSession();
    return s.get();
  }

  bool AllIdle() const {
    for (const auto& [n, s] : sessions_) {
      if (s->state() != TransactionState::kIdle) return false;
    }
    return true;
  }

  // Runs one statement; fails the test on XX000 or a hang-like duration.
  Status Run(Session* s, const std::string& sql, const std::vector<Value>& params) {
    SetCurrent(sql.substr(0, 3000) + (params.empty() ? "" : "  -- params: " + Describe(params)));
    if (Verbose()) std::cerr << "[" << name_ << "] " << g_current << "\n";
    QueryResult result;
    auto start = std::chrono::steady_clock::now();
    watchdog_.Arm([s] { s->Cancel(); }, kStatementBudget);
    Status status = s->Execute(sql, params, &result);
    watchdog_.Disarm();
    Check(status, sql, params, start);
    ++executed_;
    return status;
  }

  Status RunScript(Session* s, const std::string& sql) {
    SetCurrent("(script) " + sql.substr(0, 3000));
    if (Verbose()) std::cerr << "[" << name_ << "] " << g_current << "\n";
    std::vector<QueryResult> results;
    auto start = std::chrono::steady_clock::now();
    watchdog_.Arm([s] { s->Cancel(); }, kStatementBudget);
    Status status = s->ExecuteScript(sql, &results);
    watchdog_.Disarm();
    Check(status, sql, {}, start);
    ++executed_;
    return status;
  }

  // Prepares with declared parameter types, then executes.
  void RunPrepared(Session* s, const std::string& sql, const std::vector<Type>& types,
                   const std::vector<Value>& params) {
    SetCurrent("(prepared) " + sql.substr(0, 3000) + "  -- params: " + Describe(params));
    auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const sql::PreparedStatement> prepared;
    Status status = s->Prepare(sql, types, &prepared);
    if (status.ok()) {
      QueryResult result;
      watchdog_.Arm([s] { s->Cancel(); }, kStatementBudget);
      status = s->ExecutePrepared(*prepared, params, &result);
      watchdog_.Disarm();
    }
    Check(status, sql, params, start);
    ++executed_;
  }

  // Ends every session's transaction block, then checks that a new session
  // can still run a statement (nothing leaked the execution gate).
  void Reset() {
    for (auto& [n, s] : sessions_) {
      if (s->state() != TransactionState::kIdle) Run(s.get(), "ROLLBACK", {});
    }
    auto fresh = db_->CreateSession();
    QueryResult result;
    Status status = fresh->Execute("SELECT 1", {}, &result);
    EXPECT_TRUE(status.ok()) << name_ << ": after " << executed_ << " statements a new session cannot run SELECT 1: "
                             << status.ToString() << "\n  last statement: " << g_current;
  }

  int64_t executed() const { return executed_; }
  // "00000: 812, 42601: 2210, ..." — how the statements ended.
  std::string Outcomes() const {
    std::string out;
    for (const auto& [code, n] : outcomes_) out += (out.empty() ? "" : ", ") + code + ": " + std::to_string(n);
    return out;
  }
  int failures() const { return failures_; }

 private:
  void Check(const Status& status, const std::string& sql, const std::vector<Value>& params,
             std::chrono::steady_clock::time_point start) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++outcomes_[std::string(status.sqlstate())];
    if (status.Is(sqlstate::kInternalError)) {
      ++failures_;
      std::string key = std::string(status.message());
      if (reported_.insert(key).second && reported_.size() <= 20) {
        ADD_FAILURE() << name_ << ": internal error " << status.ToString() << "\n  SQL: " << Shorten(sql)
                      << (params.empty() ? "" : "\n  params: " + Describe(params));
      }
    }
    static const double kSlow = static_cast<double>(EnvInt("PACELINE_FUZZ_SLOW_SECONDS", 20));
    if (seconds > kSlow) {
      ADD_FAILURE() << name_ << ": statement took " << seconds << " s (a hang?)\n  SQL: " << Shorten(sql)
                    << (params.empty() ? "" : "\n  params: " + Describe(params));
    }
  }

  std::string name_;
  std::unique_ptr<Database> db_;
  std::map<int, std::unique_ptr<Session>> sessions_;
  // Cancels a statement that runs past kStatementBudget (57014, as a
  // client's CancelRequest): a mutant may ask to wait, as pg_sleep(1e308)
  // does, which is no hang of the engine's making.
  fuzz::Watchdog watchdog_;
  int64_t executed_ = 0;
  int failures_ = 0;
  std::set<std::string> reported_;
  std::map<std::string, int64_t> outcomes_;
};

uint64_t Fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

int64_t TotalSeeds() {
  static const int64_t total = [] {
    int64_t n = 0;
    for (const auto& f : CaseFiles()) n += static_cast<int64_t>(LoadSeeds(CasesDir() / f).size());
    return n;
  }();
  return total;
}

// One mutant of `seed` (or a block or script of several), run in `s`.
void RunMutant(std::mt19937_64& rng, Runner& runner, Session* s, const std::vector<Seed>& seeds, const Seed& seed) {
  auto mutant = [&](const Seed& from) {
    std::vector<Token> tokens = Tokenize(from.sql);
    const uint64_t r = rng() % 10;
    int edits = r < 6 ? 1 : r < 9 ? 2 : 3;
    for (int i = 0; i < edits; ++i) Mutate(rng, &tokens);
    return tokens;
  };
  auto params_for = [&](const std::vector<Token>& tokens, const Seed& from) {
    int n = MaxParam(tokens);
    // Mostly the seed's own (text) values, when it had them and kept its $n.
    if (!from.params.empty() && static_cast<int>(from.params.size()) >= n && rng() % 3 == 0) return from.params;
    return n > 0 || rng() % 20 == 0 ? RandomParams(rng, n) : std::vector<Value>{};
  };

  const uint64_t kind = rng() % 100;
  if (kind < 84) {
    std::vector<Token> tokens = mutant(seed);
    runner.Run(s, Join(tokens), params_for(tokens, seed));
  } else if (kind < 88) {  // the seed itself with random parameter values
    std::vector<Token> tokens = Tokenize(seed.sql);
    runner.Run(s, seed.sql, RandomParams(rng, std::max(MaxParam(tokens), static_cast<int>(rng() % 2))));
  } else if (kind < 90) {  // declared parameter types
    std::vector<Token> tokens = rng() % 2 ? Tokenize(seed.sql) : mutant(seed);
    int n = MaxParam(tokens);
    static const TypeId kTypes[] = {TypeId::kUnknown, TypeId::kBool, TypeId::kInt16, TypeId::kInt32,
                                    TypeId::kInt64, TypeId::kFloat32, TypeId::kFloat64, TypeId::kNumeric,
                                    TypeId::kChar, TypeId::kVarchar, TypeId::kText, TypeId::kDate,
                                    TypeId::kTimestamp, TypeId::kTimestampTz};
    std::vector<Type> types;
    for (int i = 0; i < n + static_cast<int>(rng() % 2); ++i) types.push_back(Type(kTypes[rng() % std::size(kTypes)]));
    runner.RunPrepared(s, Join(tokens), types, RandomParams(rng, n));
  } else if (kind < 96) {  // a transaction block with failing statements
    runner.Run(s, rng() % 2 ? "BEGIN" : "START TRANSACTION", {});
    int n = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      const Seed& other = rng() % 2 ? seed : seeds[rng() % seeds.size()];
      switch (rng() % 4) {
        case 0: runner.Run(s, "SELECT 1/0", {}); break;
        case 1: runner.Run(s, other.sql, other.params); break;
        default: {
          std::vector<Token> tokens = mutant(other);
          runner.Run(s, Join(tokens), params_for(tokens, other));
        }
      }
    }
    static const char* kEnds[] = {"COMMIT", "ROLLBACK", "END", "ABORT", "COMMIT AND CHAIN", "ROLLBACK AND CHAIN"};
    runner.Run(s, kEnds[rng() % std::size(kEnds)], {});
    if (s->state() != TransactionState::kIdle) runner.Run(s, "ROLLBACK", {});
  } else {  // a multi-statement script
    std::string script;
    int n = 2 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) {
      const Seed& other = rng() % 2 ? seed : seeds[rng() % seeds.size()];
      std::vector<Token> tokens = rng() % 3 ? mutant(other) : Tokenize(other.sql);
      if (MaxParam(tokens) > 0) continue;  // a script has no parameters
      static const char* kExtras[] = {"BEGIN", "COMMIT", "ROLLBACK", "SELECT 1/0", "SELECT 1"};
      if (rng() % 4 == 0) script += std::string(kExtras[rng() % std::size(kExtras)]) + ";\n";
      script += Join(tokens) + ";\n";
    }
    runner.RunScript(s, script);
    if (s->state() != TransactionState::kIdle) runner.Run(s, "ROLLBACK", {});
  }
}

class SqlFuzzTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SqlFuzzTest, Mutants) {
  InstallCrashReporter();
  const std::string file = GetParam();
  const std::vector<Seed> seeds = LoadSeeds(CasesDir() / file);
  ASSERT_FALSE(seeds.empty()) << "no statements in " << file;
  const int64_t iterations = EnvInt("PACELINE_FUZZ_ITERATIONS", 20000);
  const uint64_t seed_value = static_cast<uint64_t>(EnvInt("PACELINE_FUZZ_SEED", 20240229));
  std::mt19937_64 rng(seed_value ^ Fnv1a(file));
  // This file's share of the mutants, spread evenly over its statements.
  const int64_t budget = std::max<int64_t>(1, iterations * static_cast<int64_t>(seeds.size()) / TotalSeeds());
  const int64_t per_seed = budget / static_cast<int64_t>(seeds.size());
  const int64_t extra = budget % static_cast<int64_t>(seeds.size());

  Runner runner(file);
  int64_t mutants = 0;
  for (size_t i = 0; i < seeds.size(); ++i) {
    const Seed& seed = seeds[i];
    Session* s = runner.session(seed.session);
    runner.Run(s, seed.sql, seed.params);  // the original, to build the file's state
    // Mutants only between transaction blocks: inside one a failure would
    // abort it and change what the following statements see.
    int64_t n = per_seed + (static_cast<int64_t>(i) < extra ? 1 : 0);
    if (!runner.AllIdle()) continue;
    for (int64_t k = 0; k < n; ++k) {
      RunMutant(rng, runner, s, seeds, seed);
      ++mutants;
      if (!runner.AllIdle()) runner.Reset();
    }
    if (i % 50 == 0) runner.Reset();
  }
  // The rest of the budget (seeds skipped inside blocks) against the final state.
  runner.Reset();
  Session* s = runner.session(1);
  while (mutants < budget) {
    RunMutant(rng, runner, s, seeds, seeds[rng() % seeds.size()]);
    ++mutants;
    if (!runner.AllIdle()) runner.Reset();
  }
  runner.Reset();
  std::cout << file << ": " << runner.executed() << " statements, " << mutants << " mutants, "
            << runner.failures() << " internal errors\n  outcomes: " << runner.Outcomes() << "\n";
  EXPECT_EQ(runner.failures(), 0);
}

INSTANTIATE_TEST_SUITE_P(Cases, SqlFuzzTest, ::testing::ValuesIn(CaseFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(SqlFuzzFiles, Found) { EXPECT_GT(TotalSeeds(), 100) << "no seeds in " << CasesDir(); }

// ---------------------------------------------------------------- type matrix

// Every operator, function, aggregate and cast applied to every type, on
// extreme values (and NULL, an untyped literal, a text parameter), directly
// and through an index: each must give a result or an error, never a crash
// or an internal error.
TEST(SqlFuzzMatrix, EveryTypeEverywhere) {
  InstallCrashReporter();
  Runner runner("type matrix");
  Session* s = runner.session(1);
  struct Column {
    const char* name;
    const char* type;
    const char* high;
    const char* low;
  };
  static const Column kColumns[] = {
      {"c_int2", "SMALLINT", "32767", "-32768"},
      {"c_int4", "INT", "2147483647", "-2147483648"},
      {"c_int8", "BIGINT", "9223372036854775807", "-9223372036854775808"},
      {"c_num", "NUMERIC", "99999999999999999999999999999999999999", "-0.00000000000000000000000000000000000001"},
      {"c_num2", "NUMERIC(38,2)", "999999999999999999999999999999999999.99", "-0.01"},
      {"c_float4", "REAL", "'3.4e38'", "'-Infinity'"},
      {"c_float8", "DOUBLE PRECISION", "'NaN'", "'-1e308'"},
      {"c_text", "TEXT", "'zz%_\\'", "''"},
      {"c_char", "CHAR(3)", "'ab'", "''"},
      {"c_varchar", "VARCHAR(3)", "'abc'", "' '"},
      {"c_bool", "BOOLEAN", "true", "false"},
      {"c_date", "DATE", "'9999-12-31'", "'0001-01-01'"},
      {"c_ts", "TIMESTAMP", "'9999-12-31 23:59:59.999999'", "'0001-01-01 00:00:00'"},
      {"c_tstz", "TIMESTAMPTZ", "'9999-12-31 23:59:59.999999+00'", "'0001-01-01 00:00:00+00'"},
  };
  std::string create = "CREATE TABLE m (id INT PRIMARY KEY";
  std::string high = "INSERT INTO m VALUES (1", low = "INSERT INTO m VALUES (2";
  for (const Column& c : kColumns) {
    create += std::string(", ") + c.name + " " + c.type;
    high += std::string(", ") + c.high;
    low += std::string(", ") + c.low;
  }
  ASSERT_TRUE(runner.Run(s, create + ")", {}).ok());
  ASSERT_TRUE(runner.Run(s, high + ")", {}).ok());
  ASSERT_TRUE(runner.Run(s, low + ")", {}).ok());
  ASSERT_TRUE(runner.Run(s, "INSERT INTO m (id) VALUES (3)", {}).ok());  // all NULL

  std::vector<std::string> operands;
  for (const Column& c : kColumns) operands.push_back(c.name);
  operands.push_back("NULL");
  operands.push_back("'1'");
  operands.push_back("$1");
  const std::vector<Value> param = {Value::Text("1")};
  auto run = [&](const std::string& sql) {
    runner.Run(s, sql, sql.find("$1") != std::string::npos ? param : std::vector<Value>{});
  };

  static const char* kOperators[] = {"+", "-", "*", "/", "%", "||", "=", "<>", "<", ">=", "LIKE", "NOT ILIKE",
                                     "IS DISTINCT FROM", "AND", "OR"};
  for (const auto& a : operands) {
    for (const auto& b : operands) {
      for (const char* op : kOperators) run("SELECT " + a + " " + op + " " + b + " FROM m");
    }
  }
  static const char* kUnary[] = {"-#", "+#", "NOT #", "# IS NULL", "# IS TRUE", "# IN (#, NULL)",
                                 "# BETWEEN # AND #", "CASE # WHEN # THEN # END", "CASE WHEN # THEN # ELSE # END"};
  for (const auto& a : operands) {
    for (const char* u : kUnary) run("SELECT " + Replace(u, a) + " FROM m");
  }
  static const char* kFunctions1[] = {"abs", "round", "trunc", "floor", "ceil", "lower", "upper", "length",
                                      "btrim", "ltrim", "rtrim", "sqrt", "coalesce", "greatest", "least",
                                      "count", "sum", "avg", "min", "max"};
  static const char* kFunctions2[] = {"round", "trunc", "substr", "btrim", "power", "mod", "coalesce",
                                      "nullif", "greatest", "least"};
  for (const auto& a : operands) {
    for (const char* f : kFunctions1) run(std::string("SELECT ") + f + "(" + a + ") FROM m");
    for (const auto& b : operands) {
      for (const char* f : kFunctions2) run(std::string("SELECT ") + f + "(" + a + ", " + b + ") FROM m");
      run("SELECT substr(" + a + ", " + b + ", " + b + ") FROM m");
    }
  }
  static const char* kTypes[] = {"int2", "int4", "int8", "numeric", "numeric(3,1)", "float4", "float8", "text",
                                 "char(1)", "varchar(1)", "bool", "date", "timestamp", "timestamptz"};
  for (const auto& a : operands) {
    for (const char* t : kTypes) run("SELECT " + a + "::" + t + " FROM m");
    run("SELECT DISTINCT " + a + " FROM m ORDER BY 1");
    run("SELECT " + a + ", count(*) FROM m GROUP BY 1 ORDER BY 1 DESC");
  }
  // Through an index on each column, probed with every operand.
  for (const Column& c : kColumns) {
    run(std::string("CREATE INDEX ON m (") + c.name + ")");
    for (const auto& b : operands) {
      for (const char* op : {"=", "<", ">=", "IN"}) {
        std::string cond = std::string(op) == "IN" ? std::string(" IN (") + b + ", " + b + ")" : " " + std::string(op) + " " + b;
        run(std::string("SELECT id FROM m WHERE ") + c.name + cond);
        run(std::string("UPDATE m SET ") + c.name + " = " + b + " WHERE " + c.name + cond);
      }
    }
  }
  std::cout << "type matrix: " << runner.executed() << " statements\n  outcomes: " << runner.Outcomes() << "\n";
  EXPECT_EQ(runner.failures(), 0);
}

// ---------------------------------------------------------------- stack depth

// Deeply nested statements of every shape: each must succeed or fail with
// 54001 (stack depth limit exceeded), 54000 (too complex), 42601 (syntax,
// e.g. the grammar's own "memory exhausted") or 0A000 (a construct Paceline
// does not support); anything else, and above all a crash, is a bug.
std::vector<std::string> DeepStatements(int n) {
  auto repeat = [n](const std::string& first, const std::string& piece) {
    std::string s = first;
    for (int i = 1; i < n; ++i) s += piece;
    return s;
  };
  auto nest = [n](const std::string& open, const std::string& inner, const std::string& close) {
    std::string s;
    s.reserve(static_cast<size_t>(n) * (open.size() + close.size()) + inner.size());
    for (int i = 0; i < n; ++i) s += open;
    s += inner;
    for (int i = 0; i < n; ++i) s += close;
    return s;
  };
  return {
      "SELECT " + nest("(", "1", ")"),
      "SELECT " + nest("(1 + ", "1", ")"),
      "SELECT " + repeat("1", " + 1"),
      "SELECT a FROM deep WHERE " + repeat("a = 1", " AND a = 1"),
      "SELECT a FROM deep WHERE " + repeat("a = 1", " OR a = 1"),
      "SELECT a FROM deep WHERE " + nest("(a = 1 AND ", "true", ")"),
      "SELECT " + repeat("a", " + a") + " FROM deep",
      "SELECT " + repeat("'x'", " || 'x'"),
      "SELECT " + nest("NOT ", "true", ""),
      "SELECT " + nest("- ", "a", "") + " FROM deep",
      "SELECT " + nest("abs(", "a", ")") + " FROM deep",
      "SELECT " + nest("coalesce(", "a", ", 1)") + " FROM deep",
      "SELECT " + nest("CASE WHEN true THEN ", "a", " END") + " FROM deep",
      "SELECT a" + repeat("", "::int8::int4") + " FROM deep",
      "SELECT a FROM deep WHERE a IN (" + repeat("1", ", 1") + ")",
      "SELECT a FROM deep WHERE " + nest("(", "a IS NULL", ") IS NULL"),
      "SELECT ARRAY" + nest("[", "1", "]"),  // crashed the server at 4,400 levels
      "SELECT " + nest("ARRAY[", "1", "]"),
      "SELECT " + nest("ARRAY[1, ", "1", "]"),
      "SELECT a" + repeat("", "[1]") + " FROM deep",
      "SELECT " + nest("ROW(", "1", ")"),
      "SELECT " + nest("(SELECT ", "1", ")"),
      "SELECT a FROM deep WHERE " + nest("a IN (SELECT a FROM deep WHERE ", "true", ")"),
      "SELECT " + nest("greatest(1, ", "a", ")") + " FROM deep",
      "INSERT INTO sink VALUES " + repeat("(1)", ", (1)") + " RETURNING a",
      "UPDATE deep SET a = " + repeat("a", " + 0") + " WHERE a = 1",
      "SELECT 1 FROM deep d0" + [n] {
        std::string s;
        for (int i = 1; i < std::min(n, 2000); ++i) s += " JOIN deep d" + std::to_string(i) + " ON true";
        return s;
      }(),
      "SELECT " + [n] {
        std::string s = "true";
        for (int i = 0; i < std::min(n, 40); ++i) s = "(" + s + " BETWEEN false AND true)";
        return s;
      }(),
  };
}

void ProbeDepths(const std::vector<int>& depths, std::vector<std::string>* problems) {
  std::unique_ptr<Database> db;
  const Options options;  // named: GCC 12 -O3 misreads a temporary's strings
  ASSERT_TRUE(Database::Open(options, &db).ok());
  auto s = db->CreateSession();
  QueryResult r;
  ASSERT_TRUE(s->Execute("CREATE TABLE deep (a INT)", {}, &r).ok());
  ASSERT_TRUE(s->Execute("INSERT INTO deep VALUES (1)", {}, &r).ok());  // one row: joins stay cheap
  ASSERT_TRUE(s->Execute("CREATE TABLE sink (a INT)", {}, &r).ok());
  for (int n : depths) {
    for (const std::string& sql : DeepStatements(n)) {
      SetCurrent("(depth " + std::to_string(n) + ") " + sql.substr(0, 200));
      auto start = std::chrono::steady_clock::now();
      Status status = s->Execute(sql, {}, &r);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (Verbose()) std::cerr << g_current << "\n  -> " << status.ToString() << " in " << seconds << " s\n";
      bool fine = status.ok() || status.Is("54001") || status.Is("54000") || status.Is(sqlstate::kSyntaxError) ||
                  status.Is(sqlstate::kFeatureNotSupported);  // ARRAY, ROW: refused at any depth, never a crash
      if (!fine || seconds > 10) {
        problems->push_back("depth " + std::to_string(n) + " (" + std::to_string(seconds) + " s): " +
                            status.ToString() + "\n  SQL: " + Shorten(sql));
      }
      if (s->state() != TransactionState::kIdle) s->Execute("ROLLBACK", {}, &r);
    }
  }
}

TEST(SqlFuzzDepth, DeepNesting) {
  InstallCrashReporter();
  std::vector<std::string> problems;
  ProbeDepths({1, 10, 100, 1000, 2000, 5000, 10000, 100000}, &problems);
  for (const auto& p : problems) ADD_FAILURE() << p;
}

// Deep statements with PostgreSQL's answers: redundant parentheses and long
// AND/OR chains (which PostgreSQL flattens) work; a 100,000-term sum is too
// deep (54001, PostgreSQL's error for it too), 100,000 parentheses overflow
// the grammar's stack (42601 "memory exhausted", as in PostgreSQL).
TEST(SqlFuzzDepth, KnownAnswers) {
  InstallCrashReporter();
  std::unique_ptr<Database> db;
  const Options options;  // named: GCC 12 -O3 misreads a temporary's strings
  ASSERT_TRUE(Database::Open(options, &db).ok());
  auto s = db->CreateSession();
  QueryResult r;
  ASSERT_TRUE(s->Execute("CREATE TABLE deep (a INT)", {}, &r).ok());
  ASSERT_TRUE(s->Execute("INSERT INTO deep VALUES (1)", {}, &r).ok());
  auto chain = [](const std::string& first, const std::string& piece, int n) {
    std::string out = first;
    for (int i = 1; i < n; ++i) out += piece;
    return out;
  };
  auto answer = [&](const std::string& sql) {
    Status status = s->Execute(sql, {}, &r);
    if (!status.ok()) return std::string(status.sqlstate()) + " " + status.message();
    return r.rows.size() == 1 && r.rows[0].size() == 1 ? r.rows[0][0].ToString() : std::string("?");
  };
  EXPECT_EQ(answer("SELECT " + std::string(2000, '(') + "1" + std::string(2000, ')')), "1");
  EXPECT_EQ(answer("SELECT count(*) FROM deep WHERE " + chain("a = 1", " AND a = 1", 5000)), "1");
  EXPECT_EQ(answer("SELECT count(*) FROM deep WHERE " + chain("a = 2", " OR a = 2", 4999) + " OR a = 1"), "1");
  EXPECT_EQ(answer("SELECT " + chain("true", " AND true", 99999) + " AND false"), "f");
  EXPECT_EQ(answer("SELECT count(*) FROM deep WHERE a IN (" + chain("2", ", 2", 100000) + ", 1)"), "1");
  EXPECT_EQ(answer("SELECT " + chain("1", " + 1", 100000)), "54001 stack depth limit exceeded");
  EXPECT_EQ(answer("SELECT " + chain("a", " || a", 100000) + " FROM deep"), "54001 stack depth limit exceeded");
  EXPECT_EQ(answer("SELECT " + std::string(100000, '(') + "1" + std::string(100000, ')')).substr(0, 22),
            "42601 memory exhausted");
}

// The stack-depth check follows the thread's real stack, whatever its size.
TEST(SqlFuzzDepth, DeepNestingOnSmallStack) {
  InstallCrashReporter();
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer's frames are several times larger: a 256 KiB stack cannot
  // even create a table under it. The guard itself is exercised above.
  GTEST_SKIP() << "small thread stacks are meaningless under ThreadSanitizer";
#endif
  for (size_t stack_size : {size_t{256} << 10, size_t{1} << 20}) {
    struct Job {
      std::vector<std::string> problems;
    } job;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack_size);
    pthread_t thread;
    ASSERT_EQ(pthread_create(
                  &thread, &attr,
                  [](void* arg) -> void* {
                    ProbeDepths({100, 1000, 5000}, &static_cast<Job*>(arg)->problems);
                    return nullptr;
                  },
                  &job),
              0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    for (const auto& p : job.problems) ADD_FAILURE() << "stack " << (stack_size >> 10) << " KiB: " << p;
  }
}

}  // namespace
}  // namespace paceline::engine
