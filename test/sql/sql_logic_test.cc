// SQL behaviour tests as data files: one test per file in
// test/sql/cases/*.test, each run in a fresh Database through the
// embedded Session API. Every expectation in those files is PostgreSQL 15's
// own answer (re-check with cases/check_with_postgres.py), except blocks
// marked `# paceline-only:`.
//
// File format (sqllogictest/DuckDB-like; see also cases/README.md). A file is
// a sequence of records separated by blank lines:
//
//   # comment                       anywhere between records
//   # paceline-only: <why>          the next record is Paceline's behaviour,
//                                   not PostgreSQL's (the checker skips it)
//   # TODO-paceline: <why>          explains a following `skip`
//   skip                            the driver skips the next record
//   session 2                       later records run in session 2 (created on
//                                   first use; `session 1` switches back)
//
//   statement ok                    the SQL must succeed
//   <SQL, one statement, up to a blank line>
//
//   statement count 3               must succeed with 3 rows affected
//   <SQL>                           (inserted, updated, deleted or returned)
//
//   statement error 23505 [@pos] [message substring]
//   <SQL>                           must fail with that SQLSTATE; when given,
//                                   the 1-based error position must be `pos`
//                                   and the message must contain the text
//
//   query [rowsort] [columns]
//   <SQL>
//   ----
//   <expected rows, one per line, columns separated by one tab>
//
// Query values are compared in PostgreSQL's text format, NULL as `NULL` and
// the empty string as `(empty)`. `rowsort` sorts actual and expected rows
// (as whole lines) before comparing; `columns` makes the first line after
// `----` the tab-separated column names. A record's header line may be
// followed by `params v1, v2, ...`, which binds $1, $2, ... as text values
// whose types the statement infers (as a driver sending untyped text
// parameters does); `NULL` is a null, and 'quoted' values may hold commas,
// blanks, or NULL as a string.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "case_files.h"
#include "common/array_value.h"
#include "engine/database.h"

namespace paceline::engine {
namespace {

namespace fs = std::filesystem;
using sql_cases::CaseFiles;
using sql_cases::CasesDir;
using sql_cases::ParseParams;
using sql_cases::Trim;

// A second session waiting for the first one's open transaction block fails
// fast instead of after the default 10 s.
Options DriverOptions() {
  Options options;
  options.lock_timeout = std::chrono::milliseconds(200);
  return options;
}

std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> words;
  std::istringstream in{std::string(s)};
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

enum class RecordKind { kStatementOk, kStatementCount, kStatementError, kQuery };

struct Record {
  RecordKind kind = RecordKind::kStatementOk;
  int line = 0;  // of the header
  std::string sql;
  std::vector<Value> params;
  bool has_params = false;
  int64_t count = 0;          // kStatementCount
  std::string sqlstate;       // kStatementError
  int position = 0;           // kStatementError, 0 = not checked
  std::string message;        // kStatementError, "" = not checked
  bool rowsort = false;       // kQuery
  bool columns = false;       // kQuery
  std::vector<std::string> expected;  // kQuery: lines after ----
};

std::string Render(const Value& v, const Type& type) {
  if (v.is_null()) return "NULL";
  std::string s;
  AppendTextAs(v, type, &s);
  return s.empty() ? "(empty)" : s;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "    " + l + "\n";
  return out.empty() ? "    (no rows)\n" : out;
}

// Runs one .test file; every failed record is reported, and the run goes on.
class FileRunner {
 public:
  explicit FileRunner(std::string name) : name_(std::move(name)) {}

  void Run() {
    std::ifstream in(CasesDir() / name_);
    ASSERT_TRUE(in) << "cannot open " << (CasesDir() / name_);
    std::string line;
    while (std::getline(in, line)) lines_.push_back(line);
    ASSERT_TRUE(Database::Open(DriverOptions(), &db_).ok());
    sessions_[1] = db_->CreateSession();
    session_ = sessions_[1].get();

    bool skip_next = false;
    size_t i = 0;
    while (i < lines_.size()) {
      std::string text = Trim(lines_[i]);
      if (text.empty() || text[0] == '#') {
        ++i;
        continue;
      }
      std::vector<std::string> words = Words(text);
      if (words[0] == "skip" && words.size() == 1) {
        skip_next = true;
        ++i;
        continue;
      }
      if (words[0] == "session") {
        int n = words.size() == 2 ? std::atoi(words[1].c_str()) : 0;
        if (n < 1) {
          Fail(static_cast<int>(i) + 1, "", "bad directive: " + text);
          return;
        }
        if (!sessions_.count(n)) sessions_[n] = db_->CreateSession();
        session_ = sessions_[n].get();
        ++i;
        continue;
      }
      Record record;
      std::string error;
      if (!ParseRecord(&i, &record, &error)) {
        Fail(record.line, record.sql, error);
        return;  // the rest of the file cannot be trusted to parse
      }
      if (skip_next) {
        skip_next = false;
        ++skipped_;
        continue;
      }
      Execute(record);
      ++ran_;
    }
    std::cout << name_ << ": " << ran_ << " records run, " << skipped_ << " skipped\n";
  }

 private:
  bool ParseRecord(size_t* i, Record* r, std::string* error) {
    r->line = static_cast<int>(*i) + 1;
    std::vector<std::string> words = Words(lines_[*i]);
    const std::string header = Trim(lines_[*i]);
    ++*i;
    if (words[0] == "statement" && words.size() == 2 && words[1] == "ok") {
      r->kind = RecordKind::kStatementOk;
    } else if (words[0] == "statement" && words.size() == 3 && words[1] == "count") {
      r->kind = RecordKind::kStatementCount;
      r->count = std::atoll(words[2].c_str());
    } else if (words[0] == "statement" && words.size() >= 3 && words[1] == "error") {
      r->kind = RecordKind::kStatementError;
      r->sqlstate = words[2];
      // Message: the rest of the header after the SQLSTATE (and @position).
      size_t at = header.find(words[2], header.find("error") + 5) + words[2].size();
      std::string rest = Trim(header.substr(at));
      if (!rest.empty() && rest[0] == '@') {
        size_t sp = rest.find(' ');
        r->position = std::atoi(rest.substr(1, sp).c_str());
        rest = sp == std::string::npos ? "" : Trim(rest.substr(sp));
      }
      r->message = rest;
      if (r->sqlstate.size() != 5) {
        *error = "bad SQLSTATE in: " + header;
        return false;
      }
    } else if (words[0] == "query") {
      r->kind = RecordKind::kQuery;
      for (size_t w = 1; w < words.size(); ++w) {
        if (words[w] == "rowsort") r->rowsort = true;
        else if (words[w] == "columns") r->columns = true;
        else {
          *error = "unknown query option '" + words[w] + "'";
          return false;
        }
      }
    } else {
      *error = "unknown record: " + header;
      return false;
    }
    if (*i < lines_.size() && Trim(lines_[*i]).rfind("params ", 0) == 0) {
      r->has_params = true;
      if (!ParseParams(Trim(lines_[*i]).substr(7), &r->params, error)) return false;
      ++*i;
    }
    while (*i < lines_.size() && !Trim(lines_[*i]).empty() && Trim(lines_[*i]) != "----") {
      r->sql += (r->sql.empty() ? "" : "\n") + lines_[*i];
      ++*i;
    }
    if (r->sql.empty()) {
      *error = "record without SQL";
      return false;
    }
    if (r->kind == RecordKind::kQuery) {
      if (*i >= lines_.size() || Trim(lines_[*i]) != "----") {
        *error = "query without ---- line";
        return false;
      }
      ++*i;
      // Expected lines run to a blank line; only trailing \r is dropped, so
      // that CHAR(n) padding and empty columns stay as written.
      while (*i < lines_.size() && !Trim(lines_[*i]).empty()) {
        std::string l = lines_[*i];
        if (!l.empty() && l.back() == '\r') l.pop_back();
        r->expected.push_back(l);
        ++*i;
      }
    }
    return true;
  }

  void Execute(const Record& r) {
    QueryResult result;
    Status s = session_->Execute(r.sql, r.params, &result);
    switch (r.kind) {
      case RecordKind::kStatementOk:
      case RecordKind::kStatementCount:
        if (!s.ok()) {
          Fail(r.line, r.sql, "expected success, got error " + s.ToString());
        } else if (r.kind == RecordKind::kStatementCount && result.rows_affected != static_cast<uint64_t>(r.count)) {
          Fail(r.line, r.sql,
               "expected " + std::to_string(r.count) + " rows affected, got " + std::to_string(result.rows_affected) +
                   " (" + result.command_tag + ")");
        }
        return;
      case RecordKind::kStatementError: {
        if (s.ok()) {
          Fail(r.line, r.sql, "expected error " + r.sqlstate + (r.message.empty() ? "" : " \"" + r.message + "\"") +
                                  ", but the statement succeeded (" + result.command_tag + ")");
          return;
        }
        bool good = s.sqlstate() == r.sqlstate;
        good = good && (r.message.empty() || s.message().find(r.message) != std::string::npos);
        good = good && (r.position == 0 || s.position() == r.position);
        if (!good) {
          Fail(r.line, r.sql,
               "expected error " + r.sqlstate + (r.position ? " at position " + std::to_string(r.position) : "") +
                   (r.message.empty() ? "" : " containing \"" + r.message + "\"") + "\n  actual error " +
                   std::string(s.sqlstate()) + " at position " + std::to_string(s.position()) + ": " + s.message());
        }
        return;
      }
      case RecordKind::kQuery: {
        if (!s.ok()) {
          Fail(r.line, r.sql, "expected rows, got error " + s.ToString());
          return;
        }
        if (!result.returns_rows) {
          Fail(r.line, r.sql, "query returned no rows description (" + result.command_tag + ")");
          return;
        }
        std::vector<std::string> actual;
        for (const auto& row : result.rows) {
          std::string l;
          for (size_t c = 0; c < row.size(); ++c) {
            l += (c ? "\t" : "") + Render(row[c], c < result.columns.size() ? result.columns[c].type : Type());
          }
          actual.push_back(std::move(l));
        }
        std::vector<std::string> expected = r.expected;
        if (r.rowsort) {
          std::sort(actual.begin(), actual.end());
          std::sort(expected.begin() + (r.columns && !expected.empty() ? 1 : 0), expected.end());
        }
        if (r.columns) {
          std::string names;
          for (size_t c = 0; c < result.columns.size(); ++c) names += (c ? "\t" : "") + result.columns[c].name;
          actual.insert(actual.begin(), names);
        }
        if (actual != expected) {
          Fail(r.line, r.sql, "expected:\n" + Join(expected) + "  actual:\n" + Join(actual));
        }
        return;
      }
    }
  }

  void Fail(int line, const std::string& sql, const std::string& what) {
    ADD_FAILURE_AT((CasesDir() / name_).string().c_str(), line) << "\n  SQL: " << sql << "\n  " << what;
  }

  std::string name_;
  std::vector<std::string> lines_;
  std::unique_ptr<Database> db_;
  std::map<int, std::unique_ptr<Session>> sessions_;
  Session* session_ = nullptr;
  int ran_ = 0;
  int skipped_ = 0;
};

class SqlLogicTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SqlLogicTest, Run) { FileRunner(GetParam()).Run(); }

INSTANTIATE_TEST_SUITE_P(Cases, SqlLogicTest, ::testing::ValuesIn(CaseFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// A missing or empty cases folder must fail loudly, not pass with no tests.
TEST(SqlLogicTestFiles, Found) { EXPECT_FALSE(CaseFiles().empty()) << "no .test files in " << CasesDir(); }

}  // namespace
}  // namespace paceline::engine
