// Connection: COPY FROM STDIN and TO STDOUT in the text format (see
// connection.h). COPY FROM runs its rows in one transaction of its own
// when no block is open.
#include "server/connection.h"

#include "common/cancel_token.h"
#include "server/pg_value_codec.h"

namespace paceline::server {

namespace {

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// COPY text format: one field's backslash escapes resolved.
void Unescape(std::string_view field, std::string* out) {
  out->clear();
  for (size_t i = 0; i < field.size(); ++i) {
    char c = field[i];
    if (c != '\\' || i + 1 == field.size()) {
      out->push_back(c);
      continue;
    }
    c = field[++i];
    switch (c) {
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'v': out->push_back('\v'); break;
      case 'x': {
        int v = 0, digits = 0;
        while (digits < 2 && i + 1 < field.size() && std::isxdigit(static_cast<unsigned char>(field[i + 1]))) {
          const char h = field[++i];
          v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          ++digits;
        }
        if (digits == 0) out->push_back('x');
        else out->push_back(static_cast<char>(v));
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0';
          for (int k = 0; k < 2 && i + 1 < field.size() && field[i + 1] >= '0' && field[i + 1] <= '7'; ++k) {
            v = v * 8 + (field[++i] - '0');
          }
          out->push_back(static_cast<char>(v));
        } else {
          out->push_back(c);  // \\ and any other escaped character
        }
    }
  }
}

// COPY text format: a value with its special characters escaped.
void Escape(std::string_view value, char delimiter, std::string* out) {
  for (char c : value) {
    switch (c) {
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += delimiter == '\t' ? "\\t" : "\t"; break;
      default:
        if (c == delimiter) {
          out->push_back('\\');
        }
        out->push_back(c);
    }
  }
}

}  // namespace

// ---------------------------------------------------------------- COPY

Status Connection::RunCopy(const sql::CopyStmt& copy, bool* written) {
  if (!copy.stdio) {
    return NotSupported("COPY to or from a file or program (use FROM STDIN / TO STDOUT, or psql's \\copy)");
  }
  if (copy.has_query) return NotSupported("COPY (query) TO");
  if (copy.has_where) return NotSupported("COPY FROM ... WHERE");
  if (copy.format != "text") return NotSupported("COPY format \"" + copy.format + "\" (only text)");
  if (copy.header) return NotSupported("COPY HEADER");
  if (!copy.unsupported_options.empty()) return NotSupported("COPY option \"" + copy.unsupported_options[0] + "\"");
  if (!copy.delimiter.empty() && copy.delimiter.size() != 1) {
    return Status(sqlstate::kFeatureNotSupported, "COPY delimiter must be a single one-byte character");
  }
  // The columns (and their types) as a SELECT of them sees them; also
  // checks that the table and the columns exist.
  std::string select = "SELECT ";
  if (copy.columns.empty()) {
    select += "*";
  } else {
    for (size_t i = 0; i < copy.columns.size(); ++i) select += (i ? ", " : "") + QuoteIdentifier(copy.columns[i]);
  }
  const std::string table = QuoteIdentifier(copy.table);
  select += " FROM " + table;
  if (!copy.from) {
    engine::QueryResult rows;
    PL_RETURN_IF_ERROR(session()->Execute(select, &rows));
    const char delimiter = copy.delimiter.empty() ? '\t' : copy.delimiter[0];
    const std::string null_string = copy.has_null_string ? copy.null_string : "\\N";
    sink_.CopyOutStart(rows.columns.size());
    std::string line;
    for (const auto& row : rows.rows) {
      line.clear();
      for (size_t i = 0; i < row.size(); ++i) {
        if (i) line.push_back(delimiter);
        if (row[i].is_null()) line += null_string;
        else Escape(row[i].ToString(), delimiter, &line);
      }
      line.push_back('\n');
      PL_RETURN_IF_ERROR(sink_.CopyOutLine(line));
    }
    sink_.CopyOutDone();
    sink_.Complete("COPY " + std::to_string(rows.rows.size()));
    *written = true;
    return Status::OK();
  }
  std::shared_ptr<const sql::PreparedStatement> shape;
  PL_RETURN_IF_ERROR(session()->Prepare(select, {}, &shape));
  // A COPY outside a block is one transaction of its own, an implicit
  // block (in a Query of several statements, theirs is open already).
  const bool own_block = session()->state() == engine::TransactionState::kIdle;
  if (own_block) PL_RETURN_IF_ERROR(session()->BeginImplicitBlock());
  uint64_t rows = 0;
  Status s = CopyIn(copy, table, shape->columns, &rows);
  if (own_block) {
    Status end = session()->EndImplicitBlock(!s.ok());
    if (s.ok()) s = end;
  }
  PL_RETURN_IF_ERROR(s);
  sink_.Complete("COPY " + std::to_string(rows));
  *written = true;
  return Status::OK();
}

Status Connection::CopyIn(const sql::CopyStmt& copy, const std::string& table,
                          const std::vector<engine::ResultColumn>& columns, uint64_t* rows) {
  std::string insert = "INSERT INTO " + table + " (";
  std::string values;
  for (size_t i = 0; i < columns.size(); ++i) {
    insert += (i ? ", " : "") + QuoteIdentifier(columns[i].name);
    values += (i ? ", $" : "$") + std::to_string(i + 1);
  }
  insert += ") VALUES (" + values + ")";
  const char delimiter = copy.delimiter.empty() ? '\t' : copy.delimiter[0];
  const std::string null_string = copy.has_null_string ? copy.null_string : "\\N";
  PL_RETURN_IF_ERROR(sink_.CopyInStart(columns.size()));

  std::string data;   // received, not yet parsed (a partial line)
  bool ended = false;  // saw the "\." line
  uint64_t line_number = 0;
  std::vector<Value> params(columns.size());
  std::string field;
  engine::QueryResult result;
  auto where = [&] { return "COPY " + copy.table + ", line " + std::to_string(line_number); };
  // Loads one line; an error names the line.
  auto load = [&](std::string_view line) -> Status {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line == "\\.") {
      ended = true;
      return Status::OK();
    }
    size_t column = 0, start = 0;
    for (;;) {
      size_t end = line.find(delimiter, start);
      std::string_view raw = line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
      if (column >= columns.size()) {
        return Status("22P04", "extra data after last expected column");
      }
      if (raw == null_string) {
        params[column] = Value::Null();
      } else {
        Unescape(raw, &field);
        params[column] = Value::Text(field);
      }
      ++column;
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
    if (column < columns.size()) {
      return Status("22P04", "missing data for column \"" + columns[column].name + "\"");
    }
    if (session()->cancel_token()->Poll()) return CanceledStatus();  // between rows
    PL_RETURN_IF_ERROR(session()->Execute(insert, params, &result));
    ++*rows;
    return Status::OK();
  };
  auto fail = [&](const Status& s, bool discard) {
    if (discard) copy_discard_ = true;  // the client's remaining COPY messages are dropped silently
    return Status(s.sqlstate(), s.message() + " (" + where() + ")").WithDetail(s.detail());
  };
  for (;;) {
    char type = 0;
    std::string body;
    PL_RETURN_IF_ERROR(reader_.ReadMessage(&type, &body));
    switch (type) {
      case 'd': {
        if (ended) break;
        data += body;
        size_t start = 0;
        for (size_t nl; !ended && (nl = data.find('\n', start)) != std::string::npos; start = nl + 1) {
          Status s = load(std::string_view(data).substr(start, nl - start));
          if (!s.ok()) return fail(s, true);
        }
        data.erase(0, start);
        if (!ended && data.size() > options_.max_message_bytes) {
          // A line still without its end: bounded like one message, so a
          // client cannot grow the buffer without limit.
          ++line_number;
          return fail(Status(sqlstate::kProgramLimitExceeded,
                             "COPY line exceeds the limit of " + std::to_string(options_.max_message_bytes) +
                                 " bytes (max_message_bytes)"),
                      true);
        }
        break;
      }
      case 'c':
        if (!ended && !data.empty()) {
          Status s = load(data);
          if (!s.ok()) return fail(s, false);
        }
        return Status::OK();
      case 'f': {
        Body b(body);
        std::string_view message;
        (void)b.CString(&message);
        return Status(sqlstate::kQueryCanceled, "COPY from stdin failed: " + std::string(message));
      }
      case 'H': case 'S':
        break;  // ignored during COPY IN, as PostgreSQL does
      default:
        copy_discard_ = true;
        return Status(kProtocolViolation, "unexpected message type " + std::to_string(static_cast<unsigned char>(type)) +
                                              " during COPY from stdin");
    }
  }
}
}  // namespace paceline::server
