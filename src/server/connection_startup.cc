// Connection: start-up and authentication (see connection.h): SSLRequest
// and GSSENCRequest refused, CancelRequest passed to the host, the
// StartupMessage's parameters, then trust, password or SCRAM-SHA-256.
#include "server/connection.h"
#include "common/database_name.h"

namespace paceline::server {

namespace {

constexpr int32_t kSslRequest = 80877103;
constexpr int32_t kGssEncRequest = 80877104;
constexpr int32_t kCancelRequest = 80877102;
// The largest message before authentication (a SCRAM message is ~100 bytes).
constexpr uint32_t kMaxAuthenticationMessage = 10000;

}  // namespace

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
      s = Status(sqlstate::kInvalidAuthorizationSpecification, "no PostgreSQL user name specified in startup packet");
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
    // The maintenance databases psql -l, createdb and tools connect to name
    // the one database too.
    if (!NamesServedDatabase(options_.database, database)) {
      s = Status(sqlstate::kInvalidCatalogName, "database \"" + database + "\" does not exist");
      Fatal(s);
      return s;
    }
    {
      auto client = std::make_unique<engine::ClientSession>(db_);
      std::lock_guard lock(session_mu_);
      client_ = std::move(client);
    }
    for (const auto& [name, value] : params) {
      if (name == "user" || name == "database" || name == "options" || name == "replication") continue;
      (void)client_->SetSetting(name, value);  // unknown settings are ignored
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
    client_->SetBackendPid(pid_);
    client_->SetIdentity(user_, options_.database);
    asio::error_code peer_error;
    const asio::ip::tcp::endpoint peer = socket_.remote_endpoint(peer_error);
    if (!peer_error) client_->SetClient(peer.address().to_string(), peer.port());
    const asio::ip::tcp::endpoint local = socket_.local_endpoint(peer_error);
    if (!peer_error) client_->SetServer(local.address().to_string(), local.port());
    // pg_terminate_backend from another session: this connection ends with
    // FATAL 57P01 once its thread sees it (at once if it waits for its
    // client). The session drops the terminator when it is destroyed.
    client_->SetTerminator([this] { RequestTerminate(); });
    // A notification for its LISTEN may come while it waits for its
    // client: it is then served (Serve sends it). The session takes the
    // waker away when it is destroyed (End), before this connection goes.
    client_->SetNotificationWaker([this] {
      notify_pending_.store(true, std::memory_order_release);
      // Always asked: Wake looks at wants_wake() under the threads' mutex,
      // which Rearm holds too, so a wake-up between this and the
      // connection's return to waiting is never lost.
      host_->Wake(this);
    });
    writer_.ReadyForQuery('I');
    return Flush();
  }
}

Status Connection::Authenticate(const std::string& user) {
  if (options_.auth == "trust") {
    writer_.AuthenticationOk();
    return Status::OK();
  }
  const Status denied(sqlstate::kInvalidPassword, "password authentication failed for user \"" + user + "\"");
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
      Status shown = s.Is(sqlstate::kInvalidPassword) ? denied : s;
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
}  // namespace paceline::server
