// paceline-sql: an embedded SQL shell over the Paceline engine, like the
// sqlite3 or duckdb shells. The database lives in this process's memory.
//
//   paceline-sql -c "CREATE TABLE t (a INT); INSERT INTO t VALUES (1); SELECT * FROM t"
//   paceline-sql -f schema.sql            (or: paceline-sql < schema.sql)
//   paceline-sql --csv -c "SELECT ..."
//
// Statements run one at a time in autocommit mode unless inside BEGIN ..
// COMMIT. Results print as psql prints them (aligned tables) or as CSV.
// Errors print with their SQLSTATE. Without a terminal, the first error
// stops the shell with exit status 1. Meta-commands: \q, \dt, \d TABLE.
#include <gflags/gflags.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/database.h"
#include "engine/sql/parser.h"
#include "tools/result_printer.h"
#include "tools/flag_names.h"

DEFINE_string(c, "", "SQL to run (several statements separated by ';'), then exit");
DEFINE_string(f, "", "file of SQL statements to run, then exit ('-' for standard input)");
DEFINE_bool(csv, false, "print results as CSV instead of aligned tables");
DEFINE_bool(echo, false, "print each statement before its result");
DEFINE_int32(lock_timeout_ms, 10000, "how long a statement waits for a lock (2PL waiting variants) or a schema change "
                                     "for running transactions, before 55P03");
DEFINE_string(cc, "occ", "concurrency control: occ, 2pl, 2pl-wait-die, 2pl-wound-wait");

namespace paceline::tools {
namespace {

using engine::QueryResult;

class Shell {
 public:
  explicit Shell(engine::Database* db) : db_(db), session_(db->CreateSession()) {}

  // Runs every statement of `text`; false after the first error when
  // `stop_on_error`.
  bool RunText(const std::string& text, bool stop_on_error) {
    bool ok = true;
    for (const std::string& statement : sql::SplitStatements(text)) {
      if (!RunStatement(statement)) {
        ok = false;
        if (stop_on_error) return false;
      }
    }
    return ok;
  }

  // Runs a script: SQL statements and, at line starts between statements,
  // backslash meta-commands. false after the first error when `stop_on_error`.
  bool RunInput(const std::string& text, bool stop_on_error, bool* quit) {
    std::istringstream in(text);
    std::string line, pending;
    bool ok = true;
    auto between_statements = [&] {
      size_t end = pending.find_last_not_of(" \t\r\n");
      return end == std::string::npos || pending[end] == ';';
    };
    while (std::getline(in, line)) {
      size_t first = line.find_first_not_of(" \t");
      if (first != std::string::npos && line[first] == '\\' && between_statements()) {
        if (!RunText(pending, stop_on_error)) {
          ok = false;
          if (stop_on_error) return false;
        }
        pending.clear();
        if (!RunMeta(line.substr(first), quit)) {
          ok = false;
          if (stop_on_error) return false;
        }
        if (*quit) return ok;
        continue;
      }
      pending += line + "\n";
    }
    if (!RunText(pending, stop_on_error)) ok = false;
    return ok;
  }

  // A backslash command; false on error.
  bool RunMeta(const std::string& line, bool* quit) {
    std::istringstream in(line);
    std::string cmd, arg;
    in >> cmd >> arg;
    if (cmd == "\\q") {
      *quit = true;
      return true;
    }
    if (cmd == "\\dt") {
      QueryResult r;
      r.columns = {{"Name", Type(TypeId::kText)}, {"Rows", Type(TypeId::kInt64)}};
      for (const auto& name : db_->catalog().TableNames()) {
        auto table = db_->catalog().FindTable(name);
        r.rows.push_back({Value::Text(name), Value::Int64(static_cast<int64_t>(table->LiveRowCount()))});
      }
      Print(r);
      return true;
    }
    if (cmd == "\\d" && !arg.empty()) {
      auto table = db_->catalog().FindTable(arg);
      if (!table) {
        std::cerr << "Did not find any relation named \"" << arg << "\".\n";
        return false;
      }
      QueryResult r;
      r.columns = {{"Column", Type(TypeId::kText)}, {"Type", Type(TypeId::kText)},
                   {"Nullable", Type(TypeId::kText)}, {"Default", Type(TypeId::kText)}};
      for (const auto& c : table->schema().columns) {
        const std::string& def = c.default_value.expression;
        r.rows.push_back({Value::Text(c.domain.empty() ? c.type.ToString() : c.domain),
                          Value::Text(c.not_null ? "not null" : ""), Value::Text(def)});
        r.rows.back().insert(r.rows.back().begin(), Value::Text(c.name));
      }
      Print(r);
      for (const auto& index : table->indexes()) {
        std::cout << "    \"" << index->schema().name << "\"" << (index->schema().primary ? " PRIMARY KEY" : "")
                  << (index->schema().unique && !index->schema().primary ? " UNIQUE" : "") << " (";
        for (size_t i = 0; i < index->schema().columns.size(); ++i) {
          std::cout << (i ? ", " : "") << table->schema().columns[index->schema().columns[i]].name;
        }
        std::cout << ")\n";
      }
      for (const auto& fk : table->schema().foreign_keys) {
        std::cout << "    FOREIGN KEY (";
        for (size_t i = 0; i < fk.columns.size(); ++i) {
          std::cout << (i ? ", " : "") << table->schema().columns[fk.columns[i]].name;
        }
        std::cout << ") REFERENCES " << fk.ref_table << "(";
        for (size_t i = 0; i < fk.ref_columns.size(); ++i) std::cout << (i ? ", " : "") << fk.ref_columns[i];
        std::cout << ")\n";
      }
      return true;
    }
    std::cerr << "invalid command " << cmd << " (try \\q, \\dt, \\d TABLE)\n";
    return false;
  }

  // Interactive loop: accumulate lines until a statement ends with ';'.
  void Interactive() {
    std::string buffer, line;
    std::cout << "paceline-sql (in-memory database). End statements with ';', \\q quits.\n";
    while (true) {
      std::cout << (buffer.empty() ? "paceline=> " : "paceline-> ") << std::flush;
      if (!std::getline(std::cin, line)) break;
      if (buffer.find_first_not_of(" \t\r\n") == std::string::npos && !line.empty() && line[0] == '\\') {
        bool quit = false;
        RunMeta(line, &quit);
        if (quit) break;
        buffer.clear();
        continue;
      }
      buffer += line + "\n";
      size_t end = buffer.find_last_not_of(" \t\r\n");
      if (end != std::string::npos && buffer[end] == ';') {
        RunText(buffer, false);
        buffer.clear();
      }
    }
    if (buffer.find_first_not_of(" \t\r\n") != std::string::npos) RunText(buffer, false);
    std::cout << "\n";
  }

 private:
  bool RunStatement(const std::string& statement) {
    if (FLAGS_echo) std::cout << statement << "\n";
    QueryResult result;
    Status status = session_->Execute(statement, &result);
    if (!status.ok()) {
      PrintError(statement, status);
      return false;
    }
    if (result.returns_rows) {
      Print(result);
      // Like psql: INSERT/UPDATE/DELETE .. RETURNING also show their tag.
      bool query = result.command_tag.rfind("SELECT", 0) == 0 || result.command_tag == "SHOW";
      if (!query && !FLAGS_csv) std::cout << result.command_tag << "\n";
    } else if (!result.command_tag.empty() && !FLAGS_csv) {
      std::cout << result.command_tag << "\n";
    }
    return true;
  }

  void Print(const QueryResult& result) {
    std::cout << (FLAGS_csv ? FormatCsv(result) : FormatAligned(result));
    if (!FLAGS_csv) std::cout << "\n";
  }

  // "ERROR:  42P01: relation "x" does not exist", then psql's LINE/caret
  // pointer when the error has a position.
  static void PrintError(const std::string& statement, const Status& status) {
    std::cerr << "ERROR:  " << status.sqlstate() << ": " << status.message() << "\n";
    if (!status.detail().empty()) std::cerr << "DETAIL:  " << status.detail() << "\n";
    int pos = status.position();  // 1-based, in characters
    if (pos <= 0) return;
    // Byte offset of character pos - 1.
    size_t offset = 0;
    for (int chars = 1; offset < statement.size() && chars < pos; ++chars) {
      ++offset;
      while (offset < statement.size() && (static_cast<unsigned char>(statement[offset]) & 0xC0) == 0x80) ++offset;
    }
    size_t line_start = offset == 0 ? std::string::npos : statement.rfind('\n', offset - 1);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    size_t line_end = statement.find('\n', offset);
    int line_no = 1 + static_cast<int>(std::count(statement.begin(), statement.begin() + line_start, '\n'));
    std::string prefix = "LINE " + std::to_string(line_no) + ": ";
    std::string line = statement.substr(line_start, line_end == std::string::npos ? std::string::npos
                                                                                  : line_end - line_start);
    size_t column = 0;  // characters before the error on its line
    for (size_t i = line_start; i < offset; ++i) column += (static_cast<unsigned char>(statement[i]) & 0xC0) != 0x80;
    std::cerr << prefix << line << "\n" << std::string(prefix.size() + column, ' ') << "^\n";
  }

  engine::Database* db_;
  std::unique_ptr<engine::Session> session_;
};

int Main() {
  engine::Options options;
  options.lock_timeout = std::chrono::milliseconds(FLAGS_lock_timeout_ms);
  options.cc = FLAGS_cc;
  options.workers = 0;  // a shell runs its statements on its own session
  std::unique_ptr<engine::Database> db;
  Status status = engine::Database::Open(options, &db);
  if (!status.ok()) {
    std::cerr << status.ToString() << "\n";
    return 1;
  }
  Shell shell(db.get());
  bool quit = false;
  if (!FLAGS_c.empty()) return shell.RunInput(FLAGS_c, true, &quit) ? 0 : 1;
  if (!FLAGS_f.empty() && FLAGS_f != "-") {
    std::ifstream in(FLAGS_f);
    if (!in) {
      std::cerr << "paceline-sql: " << FLAGS_f << ": No such file or directory\n";
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    return shell.RunInput(text.str(), true, &quit) ? 0 : 1;
  }
  if (isatty(STDIN_FILENO)) {
    shell.Interactive();
    return 0;
  }
  std::stringstream text;
  text << std::cin.rdbuf();
  return shell.RunInput(text.str(), true, &quit) ? 0 : 1;
}

}  // namespace
}  // namespace paceline::tools

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "an embedded SQL shell over an in-memory Paceline database\n"
      "  paceline-sql -c \"SQL\"      run statements and exit\n"
      "  paceline-sql -f FILE       run a file of statements and exit\n"
      "  paceline-sql < FILE        the same from standard input\n"
      "  paceline-sql               interactive (on a terminal)");
  gflags::SetVersionString("0.1.0");
  if (const std::string unknown = paceline::tools::UnknownFlag(argc, argv); !unknown.empty()) {
    std::cerr << "paceline-sql: unknown flag " << unknown << " (see --help)\n";
    return 2;
  }
  paceline::tools::AcceptDashedFlags(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    std::cerr << "paceline-sql: unexpected argument \"" << argv[1] << "\" (use -c SQL or -f FILE)\n";
    return 2;
  }
  return paceline::tools::Main();
}
