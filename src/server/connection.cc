// Connection: the per-client protocol state machine (see connection.h).
#include "server/connection.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>

#include "common/cancel_token.h"
#include "common/utf8.h"
#include "engine/sql/literal_parameterizer.h"
#include "engine/sql/parser.h"
#include "server/pg_value_codec.h"

namespace paceline::server {

namespace {

constexpr int32_t kSslRequest = 80877103;
constexpr int32_t kGssEncRequest = 80877104;
constexpr int32_t kCancelRequest = 80877102;
constexpr size_t kFlushBytes = 256 * 1024;     // write out long results as they grow
// The largest message before authentication (a SCRAM message is ~100 bytes).
constexpr uint32_t kMaxAuthenticationMessage = 10000;
constexpr size_t kMaxPendingMessages = 4096;   // a batch longer than this runs unscheduled
constexpr size_t kMaxPendingBytes = 16u << 20;

using sql::StatementKind;

bool IsDml(StatementKind kind) {
  return kind == StatementKind::kSelect || kind == StatementKind::kInsert || kind == StatementKind::kUpdate ||
         kind == StatementKind::kDelete;
}

const sql::TransactionStmt* TransactionOf(const sql::Statement* ast) {
  return ast != nullptr && ast->kind == StatementKind::kTransaction ? ast->transaction.get() : nullptr;
}

bool IsKind(const sql::Statement* ast, sql::TransactionKind kind) {
  const sql::TransactionStmt* t = TransactionOf(ast);
  return t != nullptr && t->kind == kind;
}

// A plain BEGIN (nothing a scheduled transaction would ignore: not READ ONLY).
bool IsPlainBegin(const sql::Statement* ast) {
  const sql::TransactionStmt* t = TransactionOf(ast);
  return t != nullptr && t->kind == sql::TransactionKind::kBegin && !t->read_only;
}

// The same error with its position moved by `offset` characters (a
// statement's position within the whole Query text).
Status Shift(const Status& s, int offset) {
  if (s.ok() || s.position() <= 0 || offset == 0) return s;
  Status moved(s.sqlstate(), s.message(), s.position() + offset);
  return s.detail().empty() ? moved : moved.WithDetail(s.detail());
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The index of the statement that failed in a scheduled request with
// `calls` statements, or `calls` when they all ran and the commit failed.
size_t FailedCall(const engine::TransactionResult& r, size_t calls) {
  if (r.results.empty()) return 0;
  if (r.results.size() == calls && !r.results.back().command_tag.empty()) return calls;
  return r.results.size() - 1;
}

// Clients query the system catalogs on their own (psql's \d, pgbench's
// partition check); Paceline has none: say so rather than "relation
// pg_class does not exist" or an unsupported construct of the query.
Status CatalogError(const Status& s, std::string_view text) {
  if (s.ok() || !(s.Is(sqlstate::kFeatureNotSupported) || s.Is(sqlstate::kUndefinedTable) ||
                  s.Is(sqlstate::kUndefinedFunction) || s.Is(sqlstate::kUndefinedColumn) ||
                  s.Is(sqlstate::kSyntaxError))) {
    return s;
  }
  std::string lower(text.substr(0, 4096));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("pg_catalog") == std::string::npos && lower.find("pg_class") == std::string::npos) return s;
  return Status(sqlstate::kFeatureNotSupported,
                "Paceline has no system catalogs (pg_catalog), so this query cannot run: " + s.message(),
                s.position());
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

Connection::Connection(engine::Database* db, const ServerOptions& options, ConnectionHost* host,
                       asio::ip::tcp::socket socket, int32_t pid, int32_t secret)
    : db_(db),
      options_(options),
      host_(host),
      socket_(std::move(socket)),
      pid_(pid),
      secret_(secret),
      wait_deadline_(std::chrono::steady_clock::now() + options.authentication_timeout),
      reader_(&socket_, options.max_message_bytes) {}

Connection::~Connection() {
  ResetSession();  // rolls back an open transaction
  std::lock_guard lock(socket_mu_);
  if (!closed_) {
    asio::error_code ec;
    socket_.close(ec);
    closed_ = true;
  }
}

void Connection::ResetSession() {
  std::unique_ptr<engine::Session> session;
  {
    std::lock_guard lock(session_mu_);
    session = std::move(session_);
  }
  session.reset();
}

void Connection::RequestCancel() {
  cancel_requested_.store(true, std::memory_order_relaxed);
  std::lock_guard lock(session_mu_);
  if (session_) session_->Cancel();
}

void Connection::Interrupt() {
  std::lock_guard lock(socket_mu_);
  if (!closed_) ::shutdown(socket_.native_handle(), SHUT_RD);
}

Status Connection::Flush() {
  if (writer_.size() == 0) return Status::OK();
  asio::error_code ec;
  asio::write(socket_, asio::buffer(writer_.buffer()), ec);
  writer_.Clear();
  if (ec) return Status(kConnectionFailure, "could not send data to client: " + ec.message());
  return Status::OK();
}

void Connection::Fatal(const Status& status) {
  writer_.Error(status, Severity::kFatal);
  Flush();
}

Connection::Progress Connection::Serve() {
  woken_ = true;
  if (!started_) {
    started_ = true;
    asio::error_code ec;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);  // replies are whole messages: send them at once
    // How long a read holds this thread for the client (options_.client_hold).
    const auto hold = std::chrono::duration_cast<std::chrono::microseconds>(options_.client_hold);
    timeval tv{static_cast<time_t>(hold.count() / 1000000), static_cast<suseconds_t>(hold.count() % 1000000)};
    if (hold.count() <= 0) tv = timeval{0, 1000};  // 0 would mean "never": hold 1 ms at least
    ::setsockopt(socket_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    const Status s = Startup();
    wait_deadline_.reset();
    if (!s.ok()) return End();
  }
  return MessageLoop() ? Progress::kWaiting : End();
}

void Connection::Run() {
  while (Serve() == Progress::kWaiting) {
    pollfd fd{socket_handle(), POLLIN, 0};
    int timeout_ms = -1;
    if (wait_deadline_.has_value()) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*wait_deadline_ - std::chrono::steady_clock::now());
      timeout_ms = static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1 << 30));
    }
    (void)::poll(&fd, 1, timeout_ms);  // readable, or the deadline: Serve tells which
  }
}

Connection::Progress Connection::End() {
  asio::error_code ec;
  ResetSession();
  // Freed now, not when the server reaps this connection later.
  portals_.clear();
  statements_.clear();
  std::lock_guard lock(socket_mu_);
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  closed_ = true;
  return Progress::kEnded;
}

// ---------------------------------------------------------------- start-up

void Connection::ReadFailedBeforeLogin(const Status& s) {
  if (reader_.timed_out()) {
    Fatal(Status(sqlstate::kQueryCanceled, "canceling authentication due to timeout"));
  } else if (!reader_.eof()) {
    Fatal(s);
  }
}

Status Connection::Startup() {
  // Until authenticated: messages of a few KB, and a deadline.
  reader_.set_max_message_bytes(kMaxAuthenticationMessage);
  reader_.SetDeadline(*wait_deadline_);  // from the connection's start
  std::string body;
  int32_t code = 0;
  for (int attempt = 0;; ++attempt) {
    Status s = reader_.ReadStartupPacket(&body);
    if (!s.ok()) {
      ReadFailedBeforeLogin(s);
      return s;
    }
    Body b(body);
    s = b.Int32(&code);
    if (!s.ok()) return s;
    if ((code == kSslRequest || code == kGssEncRequest) && attempt < 2) {
      asio::error_code ec;
      asio::write(socket_, asio::buffer("N", 1), ec);  // no TLS, no GSSAPI encryption
      if (ec) return Status(kConnectionFailure, ec.message());
      continue;
    }
    if (code == kCancelRequest) {
      int32_t pid = 0, secret = 0;
      if (b.Int32(&pid).ok() && b.Int32(&secret).ok()) host_->Cancel(pid, secret);
      return Status(kConnectionFailure, "cancel request");  // closed without a reply
    }
    const int major = (code >> 16) & 0xffff, minor = code & 0xffff;
    if (major != 3) {
      s = Status(sqlstate::kFeatureNotSupported, "unsupported frontend protocol " + std::to_string(major) + "." +
                                                     std::to_string(minor) + ": server supports 3.0 to 3.0");
      Fatal(s);
      return s;
    }
    // name, value pairs up to an empty name.
    std::map<std::string, std::string> params;
    std::vector<std::string> unrecognized;
    for (;;) {
      std::string_view name, value;
      s = b.CString(&name);
      if (!s.ok() || name.empty()) break;
      s = b.CString(&value);
      if (!s.ok()) break;
      if (name.substr(0, 5) == "_pq_.") unrecognized.emplace_back(name);
      else params[std::string(name)] = std::string(value);
    }
    if (!s.ok()) {
      Status bad(kProtocolViolation, "invalid startup packet layout: expected terminator as last byte");
      Fatal(bad);
      return bad;
    }
    if (minor > 0 || !unrecognized.empty()) writer_.NegotiateProtocolVersion(unrecognized);
    user_ = params["user"];
    if (user_.empty()) {
      s = Status("28000", "no PostgreSQL user name specified in startup packet");
      Fatal(s);
      return s;
    }
    std::string database = params.count("database") && !params["database"].empty() ? params["database"] : user_;
    PL_RETURN_IF_ERROR(Authenticate(user_));
    reader_.ClearDeadline();
    reader_.set_max_message_bytes(options_.max_message_bytes);
    if (!host_->Admit()) {
      writer_.Clear();  // not AuthenticationOk: refused, as PostgreSQL refuses before it
      s = Status(sqlstate::kTooManyConnections, "sorry, too many clients already");
      Fatal(s);
      return s;
    }
    admitted_.store(true, std::memory_order_release);
    if (database != options_.database) {
      s = Status("3D000", "database \"" + database + "\" does not exist");
      Fatal(s);
      return s;
    }
    {
      std::unique_ptr<engine::Session> session = db_->CreateSession();
      std::lock_guard lock(session_mu_);
      session_ = std::move(session);
    }
    for (const auto& [name, value] : params) {
      if (name == "user" || name == "database" || name == "options" || name == "replication") continue;
      (void)session_->SetSetting(name, value);  // unknown settings are ignored
    }
    const std::string application_name = params["application_name"];
    const std::pair<const char*, std::string> reported[] = {
        {"application_name", application_name},
        {"client_encoding", "UTF8"},
        {"DateStyle", "ISO, MDY"},
        {"default_transaction_read_only", "off"},
        {"in_hot_standby", "off"},
        {"integer_datetimes", "on"},
        {"IntervalStyle", "postgres"},
        {"is_superuser", "on"},
        {"server_encoding", "UTF8"},
        {"server_version", options_.server_version},
        {"session_authorization", user_},
        {"standard_conforming_strings", "on"},
        {"TimeZone", "UTC"},
    };
    for (const auto& [name, value] : reported) {
      writer_.ParameterStatus(name, value);
      reported_[name] = value;
    }
    writer_.BackendKeyData(pid_, secret_);
    writer_.ReadyForQuery('I');
    return Flush();
  }
}

Status Connection::Authenticate(const std::string& user) {
  if (options_.auth == "trust") {
    writer_.AuthenticationOk();
    return Status::OK();
  }
  const Status denied("28P01", "password authentication failed for user \"" + user + "\"");
  std::unique_ptr<SaslMechanism> mechanism = options_.sasl ? options_.sasl(user) : nullptr;
  writer_.AuthenticationSasl(mechanism ? mechanism->Name() : std::string_view("SCRAM-SHA-256"));
  PL_RETURN_IF_ERROR(Flush());
  bool initial = true;
  for (;;) {
    char type = 0;
    std::string body;
    Status s = reader_.ReadMessage(&type, &body);
    if (!s.ok()) {
      ReadFailedBeforeLogin(s);
      return s;  // a client that gives up during authentication (psql's password prompt)
    }
    if (type != 'p') {
      s = Status(kProtocolViolation, "expected SASL response, got message type " + std::to_string(type));
      Fatal(s);
      return s;
    }
    std::string_view data = body;
    if (initial) {
      Body b(body);
      std::string_view name, rest;
      int32_t length = 0;
      s = b.CString(&name);
      if (s.ok()) s = b.Int32(&length);
      if (s.ok() && length >= 0) s = b.Bytes(static_cast<size_t>(length), &rest);
      if (!s.ok()) {
        Fatal(s);
        return s;
      }
      if (mechanism && name != mechanism->Name()) {
        s = Status(kProtocolViolation, "client selected an invalid SASL authentication mechanism");
        Fatal(s);
        return s;
      }
      data = rest;
      initial = false;
    }
    if (!mechanism) {
      Fatal(denied);
      return denied;
    }
    std::string reply;
    bool done = false;
    s = mechanism->Step(data, &reply, &done);
    if (!s.ok()) {
      Status shown = s.Is("28P01") ? denied : s;
      Fatal(shown);
      return shown;
    }
    if (done) {
      writer_.AuthenticationSaslFinal(reply);
      writer_.AuthenticationOk();
      return Status::OK();
    }
    writer_.AuthenticationSaslContinue(reply);
    PL_RETURN_IF_ERROR(Flush());
  }
}

// ---------------------------------------------------------------- message loop

char Connection::TransactionStatus() const {
  switch (session_->state()) {
    case engine::TransactionState::kIdle: return 'I';
    case engine::TransactionState::kInBlock: return 'T';
    case engine::TransactionState::kFailed: return 'E';
  }
  return 'I';
}

void Connection::ReportChangedSettings() {
  if (!settings_dirty_) return;
  settings_dirty_ = false;
  static const std::pair<const char*, const char*> kReported[] = {
      {"application_name", "application_name"}, {"DateStyle", "datestyle"},
      {"IntervalStyle", "intervalstyle"},       {"TimeZone", "timezone"},
      {"default_transaction_read_only", "default_transaction_read_only"},
  };
  for (const auto& [reported_name, setting] : kReported) {
    std::string value;
    if (!session_->GetSetting(setting, &value).ok()) continue;
    auto it = reported_.find(reported_name);
    if (it != reported_.end() && it->second == value) continue;
    reported_[reported_name] = value;
    writer_.ParameterStatus(reported_name, value);
  }
}

void Connection::ReadyForQuery() {
  ReportChangedSettings();
  writer_.ReadyForQuery(TransactionStatus());
}

bool Connection::MessageLoop() {
  for (;;) {
    if (host_->shutting_down()) {
      Fatal(Status(sqlstate::kAdminShutdown, "terminating connection due to administrator command"));
      return false;
    }
    char type = 0;
    std::string body;
    Status s;
    if (reader_.HasMessage()) {
      s = reader_.ReadMessage(&type, &body);
    } else {
      if (!woken_) {
        // Nothing buffered: the client's deadline, if it is idle in a block.
        const bool idle_in_transaction =
            TransactionStatus() != 'I' && options_.idle_in_transaction_timeout.count() > 0;
        wait_deadline_.reset();
        if (idle_in_transaction) wait_deadline_ = std::chrono::steady_clock::now() + options_.idle_in_transaction_timeout;
      }
      if (wait_deadline_.has_value()) reader_.SetDeadline(*wait_deadline_);
      if (woken_) {
        // Woken: the socket is readable, or the deadline has passed.
        s = reader_.ReadMessage(&type, &body);
      } else {
        // Hold this thread for a quick client; then wait without it.
        bool idle = false;
        s = reader_.ReadMessageUnlessIdle(&type, &body, &idle);
        if (s.ok() && idle) {
          reader_.ClearDeadline();
          return true;
        }
      }
    }
    woken_ = false;
    reader_.ClearDeadline();
    wait_deadline_.reset();
    if (!s.ok()) {
      if (host_->shutting_down()) {
        Fatal(Status(sqlstate::kAdminShutdown, "terminating connection due to administrator command"));
      } else if (reader_.timed_out()) {
        Fatal(Status(sqlstate::kIdleInTransactionTimeout, "terminating connection due to idle-in-transaction timeout"));
      } else if (!reader_.eof()) {
        Fatal(s);  // oversize or malformed: nothing more is read from this client
      }
      return false;
    }
    // A new message: a cancel that arrived while nothing ran is dropped;
    // one that arrives while it is processed stops it (the scope keeps the
    // session's calls for it from clearing the token).
    cancel_requested_.store(false, std::memory_order_relaxed);
    engine::Session::RequestScope request(session_.get());
    if (copy_discard_) {
      if (type == 'd' || type == 'c' || type == 'f') continue;  // the rest of a failed COPY
      copy_discard_ = false;
    }
    if (skip_until_sync_ && type != 'S' && type != 'X') continue;
    switch (type) {
      case 'Q': {
        if (!pending_.empty()) ProcessPending(false);
        Body b(body);
        std::string_view text;
        s = b.CString(&text);
        if (!s.ok()) {
          Fatal(s);
          return false;
        }
        SimpleQuery(text);
        ReadyForQuery();
        break;
      }
      case 'P': case 'B': case 'D': case 'E': case 'C':
        pending_bytes_ += body.size();
        pending_.push_back({type, std::move(body)});
        if (pending_.size() >= kMaxPendingMessages || pending_bytes_ >= kMaxPendingBytes) ProcessPending(false);
        break;
      case 'H':
        ProcessPending(false);
        break;
      case 'S':
        ProcessPending(true);
        break;
      case 'X':
        return false;
      case 'd': case 'c': case 'f':
        break;  // outside COPY (after a failed one): ignored, as PostgreSQL does
      case 'F':
        writer_.Error(NotSupported("the function call protocol message"));
        ReadyForQuery();
        break;
      default:
        Fatal(Status(kProtocolViolation,
                     "invalid frontend message type " + std::to_string(static_cast<unsigned char>(type))));
        return false;
    }
    if (writer_.size() > 0 && pending_.empty() && !Flush().ok()) return false;
  }
}

bool Connection::SubmitAllowed() const {
  if (db_->workers() == 0) return false;
  if (session_->state() != engine::TransactionState::kIdle) return false;
  std::string read_only;
  if (session_->GetSetting("default_transaction_read_only", &read_only).ok() && read_only == "on") return false;
  return true;
}

// ---------------------------------------------------------------- simple query

void Connection::SimpleQuery(std::string_view text) {
  if (TrySubmitUnparsed(text)) return;
  std::vector<std::unique_ptr<sql::Statement>> statements;
  Status s = sql::Parse(text, &statements);
  if (!s.ok()) {
    writer_.Error(CatalogError(s, text));
    session_->FailOpenBlock();
    return;
  }
  if (statements.empty()) {
    writer_.EmptyQueryResponse();
    return;
  }
  std::vector<sql::ScriptStatement> parts;
  for (const auto& statement : statements) {
    sql::ScriptStatement part;
    part.text = statement->text;
    part.offset = static_cast<size_t>(statement->location);
    part.kind = IsPlainBegin(statement.get())                                ? sql::ScriptStatement::Kind::kBegin
                : IsKind(statement.get(), sql::TransactionKind::kCommit) ? sql::ScriptStatement::Kind::kCommit
                : IsDml(statement->kind)                                 ? sql::ScriptStatement::Kind::kDml
                                                                         : sql::ScriptStatement::Kind::kOther;
    parts.push_back(part);
  }
  if (TrySubmitScript(text, parts)) return;
  for (const auto& statement : statements) {
    const int offset = Utf8CharPosition(text, statement->location) - 1;
    if (cancel_requested_.load(std::memory_order_relaxed)) {  // canceled between statements
      s = CanceledStatus();
      writer_.Error(s);
      session_->FailOpenBlock();
      break;
    }
    // Several statements outside a block: one implicit transaction (again
    // after an explicit COMMIT or ROLLBACK among them).
    if (statements.size() > 1) {
      s = session_->BeginImplicitBlock();
      if (!s.ok()) {
        writer_.Error(s);
        break;
      }
    }
    s = RunSimpleStatement(*statement);
    if (!s.ok()) {
      writer_.Error(CatalogError(Shift(s, offset), text));
      break;
    }
  }
  Status end = session_->EndImplicitBlock(!s.ok());
  if (s.ok() && !end.ok()) writer_.Error(end);
}

bool Connection::TrySubmitUnparsed(std::string_view text) {
  if (!db_->options().parameterize_literals || !SubmitAllowed()) return false;
  std::vector<sql::ScriptStatement> parts;
  std::vector<sql::ParameterizedStatement> normalized;  // lexed once, with the split
  if (!sql::LiteralParameterizer::SplitScript(text, &parts, &normalized)) return false;
  for (size_t i = 0; i < parts.size(); ++i) {
    // DML whose literals parameterize is what the engine runs on a cached
    // plan; a DML text without literals, or anything unusual, is parsed.
    if (parts[i].kind == sql::ScriptStatement::Kind::kOther) return false;
    if (parts[i].kind == sql::ScriptStatement::Kind::kDml && normalized[i].text.empty()) return false;
  }
  return TrySubmitScript(text, parts, &normalized);
}

bool Connection::TrySubmitScript(std::string_view text, const std::vector<sql::ScriptStatement>& parts,
                                 const std::vector<sql::ParameterizedStatement>* normalized) {
  using Kind = sql::ScriptStatement::Kind;
  if (parts.empty() || !SubmitAllowed()) return false;
  // [BEGIN] DML... [COMMIT]
  size_t first = 0, last = parts.size();
  const bool begin = parts.front().kind == Kind::kBegin;
  if (begin) first = 1;
  const bool commit = last > first && parts.back().kind == Kind::kCommit;
  if (commit) --last;
  if (begin != commit || first >= last) return false;
  std::vector<engine::StatementCall> calls;
  std::vector<int> offsets;
  for (size_t i = first; i < last; ++i) {
    if (parts[i].kind != Kind::kDml) return false;
    engine::StatementCall call{std::string(parts[i].text), {}};
    // Prepared here from its normalized text, so the engine lexes nothing.
    // (Else the engine prepares the text itself, and reports its error.)
    if (normalized != nullptr && !session_->PrepareNormalized((*normalized)[i], &call.prepared, &call.params)) {
      call.prepared = nullptr;
      call.params.clear();
    }
    calls.push_back(std::move(call));
    offsets.push_back(Utf8CharPosition(text, static_cast<int>(parts[i].offset)) - 1);
  }
  const size_t n = calls.size();
  engine::TransactionRequest request = engine::TransactionRequest::Statements(std::move(calls));
  request.cancel = session_->cancel_token();  // outlives the wait below
  engine::TransactionResult r = db_->Run(std::move(request));
  if (begin) writer_.CommandComplete("BEGIN");
  const size_t failed = r.committed() ? n + 1 : FailedCall(r, n);
  for (size_t i = 0; i < n && i < failed; ++i) {
    Status s = SendResult(r.results[i], {});
    if (!s.ok()) {
      writer_.Error(s);
      return true;
    }
  }
  if (r.committed()) {
    if (commit) writer_.CommandComplete("COMMIT");
    return true;
  }
  writer_.Error(CatalogError(failed < n ? Shift(r.status, offsets[failed]) : r.status, text));
  // An error inside BEGIN ... leaves the client in a failed block (the
  // engine has already rolled it back); a failed commit ends it.
  if (begin && failed < n) session_->EnterFailedBlock();
  return true;
}

Status Connection::RunSimpleStatement(const sql::Statement& statement) {
  StatementRef ref;
  ref.ast = &statement;
  ref.kind = statement.kind;
  ref.text = statement.text;
  engine::QueryResult result;
  bool written = false;
  PL_RETURN_IF_ERROR(RunStatement(ref, {}, &result, &written));
  if (written) return Status::OK();
  return SendResult(result, {});
}

Status Connection::SendResult(const engine::QueryResult& result, const std::vector<int16_t>& formats) {
  if (result.command_tag.empty() && !result.returns_rows) {
    writer_.EmptyQueryResponse();
    return Status::OK();
  }
  if (result.returns_rows) {
    writer_.RowDescription(result.columns, formats);
    for (const auto& row : result.rows) {
      PL_RETURN_IF_ERROR(writer_.DataRow(row, result.columns, formats));
      if (writer_.size() >= kFlushBytes && !deferring_) PL_RETURN_IF_ERROR(Flush());
    }
  }
  writer_.CommandComplete(result.command_tag);
  return Status::OK();
}

Status Connection::RunStatement(const StatementRef& ref, const std::vector<Value>& params,
                                engine::QueryResult* result, bool* written) {
  *written = false;
  NoteStatement(ref.kind);
  Status s = RunStatementHere(ref, params, result, written);
  if (!s.ok()) session_->FailOpenBlock();  // PostgreSQL: an error in a block fails it
  for (const Status& warning : result->warnings) writer_.Notice(warning, Severity::kWarning);
  result->warnings.clear();  // written once (EXECUTE runs its statement through here too)
  return s;
}

Status Connection::RunStatementHere(const StatementRef& ref, const std::vector<Value>& params,
                                    engine::QueryResult* result, bool* written) {
  if (ref.kind == StatementKind::kCopy && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    return RunCopy(*ref.ast->copy, written);
  }
  if (ref.kind == StatementKind::kDiscard && ref.ast != nullptr && ref.ast->discard->target == sql::DiscardTarget::kAll &&
      session_->state() == engine::TransactionState::kIdle) {
    // The connection's part of DISCARD ALL: its prepared statements (the
    // session resets its settings below). Outside a block no portal
    // outlives its Sync but the one running this statement.
    std::string ignored;
    Deallocate("", &ignored);
    statements_.erase("");
  }
  if (ref.kind == StatementKind::kDeallocate && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    result->Clear();
    return Deallocate(ref.ast->deallocate->name, &result->command_tag);
  }
  if (ref.kind == StatementKind::kPrepare && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    result->Clear();
    PL_RETURN_IF_ERROR(SqlPrepare(*ref.ast->prepare));
    result->command_tag = "PREPARE";
    return Status::OK();
  }
  if (ref.kind == StatementKind::kExecute && ref.ast != nullptr) {
    PL_RETURN_IF_ERROR(session_->CheckNotInFailedBlock());
    return SqlExecute(*ref.ast->execute, result, written);
  }
  if (ref.prepared != nullptr) return session_->ExecutePrepared(*ref.prepared, params, result);
  return session_->Execute(ref.text, params, result);
}

Status Connection::SqlPrepare(const sql::PrepareStmt& prepare) {
  if (statements_.count(prepare.name)) {
    return Status("42P05", "prepared statement \"" + prepare.name + "\" already exists");
  }
  std::vector<Type> declared;
  for (const auto& name : prepare.types) {
    Type t;
    PL_RETURN_IF_ERROR(ResolveBuiltinType(name.name, name.modifiers, &t));
    declared.push_back(t);
  }
  StatementEntry entry;
  PL_RETURN_IF_ERROR(PrepareEntry(prepare.query, declared, &entry));
  if (entry.prepared->kind == StatementKind::kPrepare || entry.prepared->kind == StatementKind::kExecute) {
    return SyntaxError("PREPARE cannot prepare " + std::string(entry.prepared->kind == StatementKind::kPrepare
                                                                    ? "PREPARE" : "EXECUTE"));
  }
  statements_[prepare.name] = std::move(entry);
  return Status::OK();
}

Status Connection::SqlExecute(const sql::ExecuteStmt& execute, engine::QueryResult* result, bool* written) {
  auto it = statements_.find(execute.name);
  if (it == statements_.end() || execute.name.empty()) {
    return Status(sqlstate::kInvalidSqlStatementName, "prepared statement \"" + execute.name + "\" does not exist");
  }
  const std::shared_ptr<const sql::PreparedStatement> prepared = it->second.prepared;  // kept alive
  const std::vector<Type>& types = prepared->param_types;
  // The arguments are expressions: evaluated by a SELECT of them.
  std::vector<Value> args;
  if (!execute.arguments.empty()) {
    engine::QueryResult values;
    PL_RETURN_IF_ERROR(session_->Execute("SELECT " + execute.arguments, &values));
    if (values.rows.size() == 1) args = values.rows[0];
  }
  if (args.size() != types.size()) {
    return Status(sqlstate::kSyntaxError, "wrong number of parameters for prepared statement \"" + execute.name + "\"")
        .WithDetail("Expected " + std::to_string(types.size()) + " parameters but got " +
                    std::to_string(args.size()) + ".");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    Value cast;
    PL_RETURN_IF_ERROR(CastValue(args[i], types[i], false, &cast));
    args[i] = std::move(cast);
  }
  StatementRef ref{prepared->ast.get(), prepared.get(), prepared->kind, prepared->text};
  return RunStatement(ref, args, result, written);
}

Status Connection::Deallocate(const std::string& name, std::string* tag) {
  if (name.empty()) {
    // The unnamed statement is not in SQL's namespace.
    auto unnamed = statements_.find("");
    StatementEntry keep;
    const bool had = unnamed != statements_.end();
    if (had) keep = unnamed->second;
    statements_.clear();
    if (had) statements_[""] = keep;
    *tag = "DEALLOCATE ALL";
    return Status::OK();
  }
  if (statements_.erase(name) == 0) {
    return Status(sqlstate::kInvalidSqlStatementName, "prepared statement \"" + name + "\" does not exist");
  }
  *tag = "DEALLOCATE";
  return Status::OK();
}

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
    PL_RETURN_IF_ERROR(session_->Execute(select, &rows));
    const char delimiter = copy.delimiter.empty() ? '\t' : copy.delimiter[0];
    const std::string null_string = copy.has_null_string ? copy.null_string : "\\N";
    writer_.CopyOutResponse(rows.columns.size());
    std::string line;
    for (const auto& row : rows.rows) {
      line.clear();
      for (size_t i = 0; i < row.size(); ++i) {
        if (i) line.push_back(delimiter);
        if (row[i].is_null()) line += null_string;
        else Escape(row[i].ToString(), delimiter, &line);
      }
      line.push_back('\n');
      writer_.CopyData(line);
      if (writer_.size() >= kFlushBytes) PL_RETURN_IF_ERROR(Flush());
    }
    writer_.CopyDone();
    writer_.CommandComplete("COPY " + std::to_string(rows.rows.size()));
    *written = true;
    return Status::OK();
  }
  std::shared_ptr<const sql::PreparedStatement> shape;
  PL_RETURN_IF_ERROR(session_->Prepare(select, {}, &shape));
  // A COPY outside a block is one transaction of its own.
  const bool own_block = session_->state() == engine::TransactionState::kIdle;
  engine::QueryResult ignored;
  if (own_block) PL_RETURN_IF_ERROR(session_->Execute("BEGIN", &ignored));
  uint64_t rows = 0;
  Status s = CopyIn(copy, table, shape->columns, &rows);
  if (own_block && session_->state() != engine::TransactionState::kIdle) {
    Status end = session_->Execute(s.ok() ? "COMMIT" : "ROLLBACK", &ignored);
    if (s.ok()) s = end;
  }
  PL_RETURN_IF_ERROR(s);
  writer_.CommandComplete("COPY " + std::to_string(rows));
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
  writer_.CopyInResponse(columns.size());
  PL_RETURN_IF_ERROR(Flush());

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
    if (cancel_requested_.load(std::memory_order_relaxed)) return CanceledStatus();
    PL_RETURN_IF_ERROR(session_->Execute(insert, params, &result));
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

// ---------------------------------------------------------------- extended query

Status Connection::PrepareEntry(std::string_view text, const std::vector<Type>& declared, StatementEntry* entry) {
  PL_RETURN_IF_ERROR(session_->Prepare(text, declared, &entry->prepared));
  const sql::PreparedStatement& p = *entry->prepared;
  entry->submittable = false;
  if (IsDml(p.kind)) {
    std::shared_ptr<const sql::PreparedStatement> plain = entry->prepared;
    bool any_declared = false;
    for (const Type& t : declared) any_declared |= t.id != TypeId::kUnknown;
    if (any_declared && !session_->Prepare(text, {}, &plain).ok()) return Status::OK();
    bool same = plain->param_types == p.param_types && plain->columns.size() == p.columns.size();
    for (size_t i = 0; same && i < p.columns.size(); ++i) same = plain->columns[i].type == p.columns[i].type;
    entry->submittable = same;
  } else if (IsPlainBegin(p.ast.get()) || IsKind(p.ast.get(), sql::TransactionKind::kCommit)) {
    entry->submittable = true;
  }
  return Status::OK();
}

Status Connection::HandleParse(std::string_view body) {
  Body b(body);
  std::string_view name, text;
  int16_t count = 0;
  PL_RETURN_IF_ERROR(b.CString(&name));
  PL_RETURN_IF_ERROR(b.CString(&text));
  PL_RETURN_IF_ERROR(b.Int16(&count));
  std::vector<Type> declared;
  for (int16_t i = 0; i < count; ++i) {
    int32_t oid = 0;
    PL_RETURN_IF_ERROR(b.Int32(&oid));
    Type t;
    if (oid == 0 || !TypeFromOid(static_cast<uint32_t>(oid), &t)) t = Type(TypeId::kUnknown);
    declared.push_back(t);
  }
  if (!name.empty() && statements_.count(std::string(name))) {
    return Status("42P05", "prepared statement \"" + std::string(name) + "\" already exists");
  }
  StatementEntry entry;
  Status s = PrepareEntry(text, declared, &entry);
  if (!s.ok()) return CatalogError(s, text);
  statements_[std::string(name)] = std::move(entry);
  writer_.ParseComplete();
  return Status::OK();
}

Status Connection::HandleBind(std::string_view body) {
  Body b(body);
  std::string_view portal_name, statement_name;
  PL_RETURN_IF_ERROR(b.CString(&portal_name));
  PL_RETURN_IF_ERROR(b.CString(&statement_name));
  int16_t format_count = 0;
  PL_RETURN_IF_ERROR(b.Int16(&format_count));
  std::vector<int16_t> formats(static_cast<size_t>(std::max<int16_t>(format_count, 0)));
  for (auto& f : formats) PL_RETURN_IF_ERROR(b.Int16(&f));
  int16_t param_count = 0;
  PL_RETURN_IF_ERROR(b.Int16(&param_count));
  auto it = statements_.find(std::string(statement_name));
  if (it == statements_.end()) {
    return Status(sqlstate::kInvalidSqlStatementName,
                  statement_name.empty() ? std::string("unnamed prepared statement does not exist")
                                         : "prepared statement \"" + std::string(statement_name) + "\" does not exist");
  }
  const StatementEntry& entry = it->second;
  const auto& types = entry.prepared->param_types;
  if (param_count < 0 || static_cast<size_t>(param_count) != types.size()) {
    return Status(kProtocolViolation, "bind message supplies " + std::to_string(param_count) +
                                          " parameters, but prepared statement \"" + std::string(statement_name) +
                                          "\" requires " + std::to_string(types.size()));
  }
  if (formats.size() > 1 && formats.size() != types.size()) {
    return Status(kProtocolViolation, "bind message has " + std::to_string(formats.size()) +
                                          " parameter formats but " + std::to_string(types.size()) + " parameters");
  }
  Portal portal;
  portal.statement = entry;
  portal.params.resize(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    int32_t length = 0;
    PL_RETURN_IF_ERROR(b.Int32(&length));
    if (length < 0) {
      portal.params[i] = Value::Null(types[i].id);
      continue;
    }
    std::string_view bytes;
    PL_RETURN_IF_ERROR(b.Bytes(static_cast<size_t>(length), &bytes));
    const int16_t format = MessageWriter::FormatOf(formats, i);
    PL_RETURN_IF_ERROR(DecodeParameter(bytes, format, types[i], &portal.params[i]));
  }
  int16_t result_count = 0;
  PL_RETURN_IF_ERROR(b.Int16(&result_count));
  portal.result_formats.resize(static_cast<size_t>(std::max<int16_t>(result_count, 0)));
  for (auto& f : portal.result_formats) {
    PL_RETURN_IF_ERROR(b.Int16(&f));
    if (f != 0 && f != 1) return Status(kProtocolViolation, "unsupported format code: " + std::to_string(f));
  }
  if (!portal_name.empty() && portals_.count(std::string(portal_name))) {
    return Status("42P03", "cursor \"" + std::string(portal_name) + "\" already exists");
  }
  portals_[std::string(portal_name)] = std::move(portal);
  writer_.BindComplete();
  return Status::OK();
}

Status Connection::HandleDescribe(std::string_view body) {
  Body b(body);
  std::string_view kind_bytes, name;
  PL_RETURN_IF_ERROR(b.Bytes(1, &kind_bytes));
  PL_RETURN_IF_ERROR(b.CString(&name));
  if (kind_bytes[0] == 'S') {
    auto it = statements_.find(std::string(name));
    if (it == statements_.end()) {
      return Status(sqlstate::kInvalidSqlStatementName,
                    "prepared statement \"" + std::string(name) + "\" does not exist");
    }
    const sql::PreparedStatement& p = *it->second.prepared;
    writer_.ParameterDescription(p.param_types);
    if (p.returns_rows) writer_.RowDescription(p.columns, {});
    else writer_.NoData();
    return Status::OK();
  }
  if (kind_bytes[0] != 'P') return Status(kProtocolViolation, "invalid DESCRIBE message subtype");
  auto it = portals_.find(std::string(name));
  if (it == portals_.end()) return Status("34000", "portal \"" + std::string(name) + "\" does not exist");
  Portal& portal = it->second;
  const sql::PreparedStatement& p = *portal.statement.prepared;
  if (p.kind == StatementKind::kShow && !portal.started && !deferring_) {
    // Its columns are known once it runs: run it now (PostgreSQL runs
    // utility statements that return rows when their portal starts).
    StatementRef ref{p.ast.get(), &p, p.kind, p.text};
    bool written = false;
    portal.started = true;
    PL_RETURN_IF_ERROR(RunStatement(ref, portal.params, &portal.result, &written));
  }
  if (portal.started && portal.result.returns_rows) {
    writer_.RowDescription(portal.result.columns, portal.result_formats);
  } else if (!portal.started && p.returns_rows) {
    writer_.RowDescription(p.columns, portal.result_formats);
  } else {
    writer_.NoData();
  }
  return Status::OK();
}

Status Connection::SendPortalRows(Portal* portal, int32_t max_rows) {
  const engine::QueryResult& r = portal->result;
  const std::vector<int16_t>& formats = portal->result_formats;
  if (r.command_tag.empty() && !r.returns_rows) {
    writer_.EmptyQueryResponse();
    portal->finished = true;
    return Status::OK();
  }
  size_t end = r.rows.size();
  const size_t first = portal->next_row;
  if (max_rows > 0) end = std::min(end, first + static_cast<size_t>(max_rows));
  for (size_t i = first; i < end; ++i) {
    PL_RETURN_IF_ERROR(writer_.DataRow(r.rows[i], r.columns, formats));
    if (writer_.size() >= kFlushBytes && !deferring_) PL_RETURN_IF_ERROR(Flush());
  }
  portal->next_row = end;
  // As PostgreSQL: an Execute that returned its full row limit suspends
  // the portal, even if no row is left (the next Execute completes it).
  if (end < r.rows.size() || (max_rows > 0 && end - first == static_cast<size_t>(max_rows))) {
    writer_.PortalSuspended();
    return Status::OK();
  }
  portal->finished = true;
  if (first > 0 || (max_rows > 0 && r.command_tag.rfind("SELECT", 0) == 0)) {
    writer_.CommandComplete("SELECT " + std::to_string(end - first));  // rows of this Execute
  } else {
    writer_.CommandComplete(r.command_tag);
  }
  return Status::OK();
}

Status Connection::HandleExecute(std::string_view body, bool autocommit) {
  Body b(body);
  std::string_view name;
  int32_t max_rows = 0;
  PL_RETURN_IF_ERROR(b.CString(&name));
  PL_RETURN_IF_ERROR(b.Int32(&max_rows));
  auto it = portals_.find(std::string(name));
  if (it == portals_.end()) return Status("34000", "portal \"" + std::string(name) + "\" does not exist");
  Portal& portal = it->second;
  const sql::PreparedStatement& p = *portal.statement.prepared;
  if (deferring_) {
    Deferred d;
    d.offset = writer_.size();
    d.formats = portal.result_formats;
    if (IsDml(p.kind)) {
      d.call = static_cast<int>(deferred_calls_.size());
      deferred_calls_.push_back({p.text, portal.params, portal.statement.prepared});
    } else {
      d.tag = IsKind(p.ast.get(), sql::TransactionKind::kBegin) ? "BEGIN" : "COMMIT";
    }
    deferred_.push_back(std::move(d));
    portal.started = true;
    return Status::OK();
  }
  if (portal.finished) {
    // Already run to completion: PostgreSQL answers with an empty tag-only
    // completion for a SELECT; keep it simple.
    writer_.CommandComplete(p.returns_rows ? "SELECT 0" : portal.result.command_tag);
    return Status::OK();
  }
  if (!portal.started) {
    StatementRef ref{p.ast.get(), &p, p.kind, p.text};
    if (!autocommit && p.kind != StatementKind::kTransaction && p.kind != StatementKind::kVacuum &&
        p.kind != StatementKind::kCheckpoint && !p.IsEmpty()) {
      // Statements up to Sync form one implicit transaction.
      PL_RETURN_IF_ERROR(session_->BeginImplicitBlock());
    }
    bool written = false;
    portal.started = true;
    Status s = RunStatement(ref, portal.params, &portal.result, &written);
    if (!s.ok()) {
      portal.finished = true;
      return s;
    }
    if (written) {
      portal.finished = true;
      return Status::OK();
    }
  }
  return SendPortalRows(&portal, max_rows);
}

Status Connection::HandleClose(std::string_view body) {
  Body b(body);
  std::string_view kind_bytes, name;
  PL_RETURN_IF_ERROR(b.Bytes(1, &kind_bytes));
  PL_RETURN_IF_ERROR(b.CString(&name));
  if (kind_bytes[0] == 'S') statements_.erase(std::string(name));
  else if (kind_bytes[0] == 'P') portals_.erase(std::string(name));
  else return Status(kProtocolViolation, "invalid CLOSE message subtype");
  writer_.CloseComplete();  // closing what does not exist is not an error
  return Status::OK();
}

void Connection::ProcessPending(bool sync) {
  if (sync && !skip_until_sync_ && TrySubmitBatch()) {
    pending_.clear();
    pending_bytes_ = 0;
    batch_failed_ = false;
    if (session_->state() == engine::TransactionState::kIdle) portals_.clear();
    ReadyForQuery();
    return;
  }
  size_t executes = 0;
  for (const auto& m : pending_) executes += m.type == 'E';
  // A lone statement before Sync runs as an autocommit statement (its
  // conflicts are retried); more form one implicit block up to Sync.
  const bool autocommit = sync && executes <= 1 && !session_->in_implicit_block();
  for (auto& m : pending_) {
    if (skip_until_sync_) break;
    Status s;
    switch (m.type) {
      case 'P': s = HandleParse(m.body); break;
      case 'B': s = HandleBind(m.body); break;
      case 'D': s = HandleDescribe(m.body); break;
      case 'E': s = HandleExecute(m.body, autocommit); break;
      case 'C': s = HandleClose(m.body); break;
      default: break;
    }
    if (!s.ok()) {
      writer_.Error(s);
      skip_until_sync_ = true;
      batch_failed_ = true;
      session_->FailOpenBlock();
    }
  }
  pending_.clear();
  pending_bytes_ = 0;
  if (!sync) {
    Flush();
    return;
  }
  skip_until_sync_ = false;
  Status end = session_->EndImplicitBlock(batch_failed_);
  if (!batch_failed_ && !end.ok()) writer_.Error(end);
  batch_failed_ = false;
  if (session_->state() == engine::TransactionState::kIdle) portals_.clear();
  ReadyForQuery();
}

bool Connection::TrySubmitBatch() {
  if (!SubmitAllowed() || pending_.empty()) return false;
  // Dry run: which statements and portals the batch would use; it must be
  // [BEGIN] DML... [COMMIT], every portal bound in the batch and run once,
  // to completion, with no Close.
  std::map<std::string, StatementEntry> parsed;
  std::map<std::string, const StatementEntry*> bound;
  std::map<std::string, bool> executed;
  bool begin = false, commit = false;
  size_t dml = 0;
  for (const auto& m : pending_) {
    Body b(m.body);
    std::string_view name, other;
    switch (m.type) {
      case 'P': {
        int16_t count = 0;
        if (!b.CString(&name).ok() || !b.CString(&other).ok() || !b.Int16(&count).ok()) return false;
        if (!name.empty() && (statements_.count(std::string(name)) || parsed.count(std::string(name)))) return false;
        std::vector<Type> declared;
        for (int16_t i = 0; i < count; ++i) {
          int32_t oid = 0;
          if (!b.Int32(&oid).ok()) return false;
          Type t;
          if (oid == 0 || !TypeFromOid(static_cast<uint32_t>(oid), &t)) t = Type(TypeId::kUnknown);
          declared.push_back(t);
        }
        StatementEntry entry;
        if (!PrepareEntry(other, declared, &entry).ok() || !entry.submittable) return false;
        parsed[std::string(name)] = std::move(entry);
        break;
      }
      case 'B': {
        if (!b.CString(&name).ok() || !b.CString(&other).ok()) return false;
        const StatementEntry* entry = nullptr;
        auto p = parsed.find(std::string(other));
        if (p != parsed.end()) {
          entry = &p->second;
        } else {
          auto s = statements_.find(std::string(other));
          if (s == statements_.end()) return false;
          entry = &s->second;
        }
        if (!entry->submittable) return false;
        if (!name.empty() && (portals_.count(std::string(name)) || bound.count(std::string(name)))) return false;
        bound[std::string(name)] = entry;
        executed[std::string(name)] = false;
        break;
      }
      case 'D': {
        if (!b.Bytes(1, &other).ok() || !b.CString(&name).ok()) return false;
        if (other[0] == 'P' && !bound.count(std::string(name))) return false;
        if (other[0] == 'S' && !parsed.count(std::string(name)) && !statements_.count(std::string(name))) return false;
        break;
      }
      case 'E': {
        int32_t max_rows = 0;
        if (!b.CString(&name).ok() || !b.Int32(&max_rows).ok() || max_rows != 0) return false;
        auto p = bound.find(std::string(name));
        if (p == bound.end() || executed[std::string(name)]) return false;
        executed[std::string(name)] = true;
        const sql::PreparedStatement& ps = *p->second->prepared;
        if (IsDml(ps.kind)) {
          if (commit) return false;
          ++dml;
        } else if (IsPlainBegin(ps.ast.get())) {
          if (begin || dml > 0) return false;
          begin = true;
        } else if (IsKind(ps.ast.get(), sql::TransactionKind::kCommit)) {
          if (commit || !begin) return false;
          commit = true;
        } else {
          return false;
        }
        break;
      }
      default:
        return false;  // Close
    }
  }
  if (dml == 0 || begin != commit) return false;

  // Build the replies in order, with each Execute's reply left for later.
  deferring_ = true;
  deferred_.clear();
  deferred_calls_.clear();
  const size_t batch_start = writer_.size();
  Status s;
  for (const auto& m : pending_) {
    switch (m.type) {
      case 'P': s = HandleParse(m.body); break;
      case 'B': s = HandleBind(m.body); break;
      case 'D': s = HandleDescribe(m.body); break;
      case 'E': s = HandleExecute(m.body, false); break;
      default: break;
    }
    if (!s.ok()) break;
  }
  deferring_ = false;
  if (!s.ok()) {
    // Nothing ran: the implicit transaction is rolled back as a whole.
    writer_.Error(s);
    deferred_.clear();
    deferred_calls_.clear();
    return true;
  }
  const size_t n = deferred_calls_.size();
  engine::TransactionRequest request = engine::TransactionRequest::Statements(std::move(deferred_calls_));
  request.cancel = session_->cancel_token();  // outlives the wait below
  engine::TransactionResult r = db_->Run(std::move(request));
  deferred_calls_.clear();
  const size_t failed = r.committed() ? n + 1 : FailedCall(r, n);
  std::string built = writer_.buffer().substr(0, batch_start);
  std::string batch = writer_.buffer().substr(batch_start);
  writer_.Clear();
  writer_.buffer() = std::move(built);
  size_t copied = 0;
  bool stopped = false;
  bool failed_in_block = false;
  for (const Deferred& d : deferred_) {
    writer_.buffer().append(batch, copied, d.offset - batch_start - copied);
    copied = d.offset - batch_start;
    if (d.call < 0) {
      if (d.tag == "COMMIT" && !r.committed()) {
        writer_.Error(r.status);  // the commit failed (retries ran out)
        stopped = true;
        break;
      }
      writer_.CommandComplete(d.tag);
      continue;
    }
    const size_t call = static_cast<size_t>(d.call);
    if (call == failed) {
      writer_.Error(r.status);
      failed_in_block = begin;
      stopped = true;
      break;
    }
    Portal portal;  // the portal as it was bound (a later Bind may have replaced it)
    portal.result = std::move(r.results[call]);
    portal.result_formats = d.formats;
    Status sent = SendPortalRows(&portal, 0);
    if (!sent.ok()) {
      writer_.Error(sent);
      stopped = true;
      break;
    }
  }
  if (!stopped) {
    writer_.buffer().append(batch, copied, std::string::npos);
    if (!r.committed() && failed == n) writer_.Error(r.status);  // the implicit commit failed
  }
  deferred_.clear();
  if (failed_in_block) session_->EnterFailedBlock();
  return true;
}

}  // namespace paceline::server
