// Connection: the per-client protocol state machine (see connection.h):
// its life (Serve, Run, End, cancel and interrupt) and the message loop.
// Beside it: connection_startup.cc (start-up and authentication) and
// connection_extended.cc (Parse, Bind, Describe, Execute and Close,
// buffered up to Sync and decoded). Every request runs behind the
// ClientSession.
#include "server/connection.h"

#include <poll.h>
#include <sys/socket.h>

namespace paceline::server {

namespace {

constexpr size_t kMaxPendingMessages = 4096;   // a batch longer than this runs unscheduled
constexpr size_t kMaxPendingBytes = 16u << 20;

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
      reader_(&socket_, options.max_message_bytes) {
  writer_.CountErrorsIn(host_->error_counts());
}

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
  std::unique_ptr<engine::ClientSession> client;
  {
    std::lock_guard lock(session_mu_);
    client = std::move(client_);
  }
  client.reset();
}

void Connection::RequestCancel() {
  std::lock_guard lock(session_mu_);
  if (client_) client_->Cancel();
}

void Connection::RequestTerminate() {
  terminating_.store(true, std::memory_order_release);
  RequestCancel();
  Interrupt();
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

Status Connection::AdministratorCommand() {
  return Status(sqlstate::kAdminShutdown, "terminating connection due to administrator command");
}

void Connection::Fatal(const Status& status) {
  writer_.Error(status, Severity::kFatal);
  Flush();
}

Connection::Progress Connection::Serve() {
  woken_ = true;
  const bool was_idle = idle_waiting_.exchange(false, std::memory_order_acq_rel);
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
  if (was_idle && notify_pending_.load(std::memory_order_acquire)) {
    // Woken for notifications (the socket may be readable too): they go
    // out now, then messages are read as usual.
    AddNotifications();
    if (!Flush().ok()) return End();
    woken_ = false;
  }
  if (!MessageLoop()) return End();
  idle_waiting_.store(TransactionStatus() == 'I' && pending_.empty(), std::memory_order_release);
  return Progress::kWaiting;
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
  ResetSession();  // its statements and portals freed now, not when the server reaps this connection
  std::lock_guard lock(socket_mu_);
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  closed_ = true;
  return Progress::kEnded;
}

// ---------------------------------------------------------------- message loop

char Connection::TransactionStatus() const {
  switch (client_->state()) {
    case engine::TransactionState::kIdle: return 'I';
    case engine::TransactionState::kInBlock: return 'T';
    case engine::TransactionState::kFailed: return 'E';
  }
  return 'I';
}

void Connection::ReportChangedSettings() {
  if (!client_->TakeSettingsChanged()) return;
  static const std::pair<const char*, const char*> kReported[] = {
      {"application_name", "application_name"}, {"DateStyle", "datestyle"},
      {"IntervalStyle", "intervalstyle"},       {"TimeZone", "timezone"},
      {"default_transaction_read_only", "default_transaction_read_only"},
  };
  for (const auto& [reported_name, setting] : kReported) {
    std::string value;
    if (!client_->GetSetting(setting, &value).ok()) continue;
    auto it = reported_.find(reported_name);
    if (it != reported_.end() && it->second == value) continue;
    reported_[reported_name] = value;
    writer_.ParameterStatus(reported_name, value);
  }
}

void Connection::AddNotifications() {
  notify_pending_.store(false, std::memory_order_release);
  if (client_->state() != engine::TransactionState::kIdle || !pending_.empty()) return;  // sent once it is
  for (const engine::Notification& n : client_->TakeNotifications()) {
    writer_.NotificationResponse(n.sender_pid, n.channel, n.payload);
  }
}

void Connection::ReadyForQuery() {
  ReportChangedSettings();
  AddNotifications();  // before ReadyForQuery, as PostgreSQL sends them
  writer_.ReadyForQuery(TransactionStatus());
}

bool Connection::MessageLoop() {
  for (;;) {
    if (host_->shutting_down() || terminating_.load(std::memory_order_acquire)) {
      Fatal(AdministratorCommand());
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
      if (host_->shutting_down() || terminating_.load(std::memory_order_acquire)) {
        Fatal(AdministratorCommand());
      } else if (reader_.timed_out()) {
        Fatal(Status(sqlstate::kIdleInTransactionTimeout, "terminating connection due to idle-in-transaction timeout"));
      } else if (!reader_.eof()) {
        Fatal(s);  // oversize or malformed: nothing more is read from this client
      }
      return false;
    }
    // A new message: a cancel that arrived while nothing ran is dropped
    // (the scope clears the session's token); one that arrives while it is
    // processed stops it (the scope keeps the session's calls for it from
    // clearing the token).
    engine::ClientSession::RequestScope request(client_.get());
    if (sink_.discarding_copy()) {
      if (type == 'd' || type == 'c' || type == 'f') continue;  // the rest of a failed COPY
      sink_.EndCopyDiscard();
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
        client_->RunQuery(text, &sink_, &sink_);
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
    if (terminating_.load(std::memory_order_acquire)) {
      // pg_terminate_backend came while the message ran: the client gets
      // the FATAL, not the answer (as a PostgreSQL backend ends at once).
      writer_.Clear();
      Fatal(AdministratorCommand());
      return false;
    }
    if (writer_.size() > 0 && pending_.empty() && !Flush().ok()) return false;
  }
}

}  // namespace paceline::server
