#include "engine/client/copy_statement.h"

#include <cctype>
#include <memory>
#include <string_view>

#include "common/cancel_token.h"
#include "engine/client/client_input.h"
#include "engine/client/result_sink.h"
#include "engine/session.h"
#include "sql/ast.h"
#include "sql/prepared_statement.h"

namespace paceline::engine {

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

CopyStatement::CopyStatement(Session* session, const sql::CopyStmt& copy)
    : session_(session),
      copy_(copy),
      delimiter_(copy.delimiter.empty() ? '\t' : copy.delimiter[0]),
      null_string_(copy.has_null_string ? copy.null_string : "\\N") {}

Status CopyStatement::Run(ResultSink* sink, ClientInput* input) {
  const sql::CopyStmt& copy = copy_;
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
  if (!copy.from) return ToClient(select, sink);
  std::shared_ptr<const sql::PreparedStatement> shape;
  PL_RETURN_IF_ERROR(session_->Prepare(select, {}, &shape));
  // A COPY outside a block is one transaction of its own, an implicit
  // block (in a Query of several statements, theirs is open already).
  const bool own_block = session_->state() == TransactionState::kIdle;
  if (own_block) PL_RETURN_IF_ERROR(session_->BeginImplicitBlock());
  uint64_t rows = 0;
  Status s = FromClient(table, shape->columns, sink, input, &rows);
  if (own_block) {
    Status end = session_->EndImplicitBlock(!s.ok());
    if (s.ok()) s = end;
  }
  PL_RETURN_IF_ERROR(s);
  sink->Complete("COPY " + std::to_string(rows));
  return Status::OK();
}

Status CopyStatement::ToClient(const std::string& select, ResultSink* sink) {
  QueryResult rows;
  PL_RETURN_IF_ERROR(session_->Execute(select, &rows));
  sink->CopyOutStart(rows.columns.size());
  std::string line;
  for (const auto& row : rows.rows) {
    line.clear();
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) line.push_back(delimiter_);
      if (row[i].is_null()) line += null_string_;
      else Escape(row[i].ToString(), delimiter_, &line);
    }
    line.push_back('\n');
    PL_RETURN_IF_ERROR(sink->CopyOutLine(line));
  }
  sink->CopyOutDone();
  sink->Complete("COPY " + std::to_string(rows.rows.size()));
  return Status::OK();
}

Status CopyStatement::FromClient(const std::string& table, const std::vector<ResultColumn>& columns,
                                 ResultSink* sink, ClientInput* input, uint64_t* rows) {
  std::string insert = "INSERT INTO " + table + " (";
  std::string values;
  for (size_t i = 0; i < columns.size(); ++i) {
    insert += (i ? ", " : "") + QuoteIdentifier(columns[i].name);
    values += (i ? ", $" : "$") + std::to_string(i + 1);
  }
  insert += ") VALUES (" + values + ")";
  PL_RETURN_IF_ERROR(sink->CopyInStart(columns.size()));

  std::string data;   // received, not yet parsed (a partial line)
  std::string chunk;  // the client's latest data
  bool ended = false;  // saw the "\." line
  uint64_t line_number = 0;
  std::vector<Value> params(columns.size());
  std::string field;
  QueryResult result;
  auto where = [&] { return "COPY " + copy_.table + ", line " + std::to_string(line_number); };
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
      size_t end = line.find(delimiter_, start);
      std::string_view raw = line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
      if (column >= columns.size()) {
        return Status(sqlstate::kBadCopyFileFormat, "extra data after last expected column");
      }
      if (raw == null_string_) {
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
      return Status(sqlstate::kBadCopyFileFormat, "missing data for column \"" + columns[column].name + "\"");
    }
    if (session_->cancel_token()->Poll()) return CanceledStatus();  // between rows
    PL_RETURN_IF_ERROR(session_->Execute(insert, params, &result));
    ++*rows;
    return Status::OK();
  };
  auto fail = [&](const Status& s, bool discard) {
    if (discard) input->DiscardCopyData();  // the client's remaining COPY messages are dropped silently
    return Status(s.sqlstate(), s.message() + " (" + where() + ")").WithDetail(s.detail());
  };
  for (;;) {
    bool done = false;
    PL_RETURN_IF_ERROR(input->ReadCopyData(&chunk, &done));
    if (done) {
      if (!ended && !data.empty()) {
        Status s = load(data);
        if (!s.ok()) return fail(s, false);
      }
      return Status::OK();
    }
    if (ended) continue;
    data += chunk;
    size_t start = 0;
    for (size_t nl; !ended && (nl = data.find('\n', start)) != std::string::npos; start = nl + 1) {
      Status s = load(std::string_view(data).substr(start, nl - start));
      if (!s.ok()) return fail(s, true);
    }
    data.erase(0, start);
    if (!ended && data.size() > input->MaxCopyLineBytes()) {
      // A line still without its end: bounded like one message, so a
      // client cannot grow the buffer without limit.
      ++line_number;
      return fail(Status(sqlstate::kProgramLimitExceeded, "COPY line exceeds the limit of " +
                                                              std::to_string(input->MaxCopyLineBytes()) +
                                                              " bytes (max_message_bytes)"),
                  true);
    }
  }
}

}  // namespace paceline::engine
