// Server: acceptor, connection threads and shutdown (see server.h).
#include "server/server.h"

#include <unistd.h>

#include <system_error>

namespace paceline::server {

Server::Server(engine::Database* db, ServerOptions options)
    : db_(db), options_(std::move(options)), acceptor_(io_), random_(std::random_device{}()) {
  next_pid_ = static_cast<int32_t>(::getpid() % 100000) * 100 + 1;
}

Server::~Server() { Shutdown(); }

Status Server::Start() {
  if (options_.max_connections == 0) return Status(sqlstate::kInvalidParameterValue, "max_connections must be at least 1");
  if (options_.max_authenticating == 0) {
    return Status(sqlstate::kInvalidParameterValue, "max_authenticating must be at least 1");
  }
  if (options_.auth != "trust" && options_.auth != "scram-sha-256") {
    return Status(sqlstate::kInvalidParameterValue,
                  "unknown auth method \"" + options_.auth + "\" (valid: trust, scram-sha-256)");
  }
  if (options_.auth == "scram-sha-256" && !options_.sasl) {
    return Status(sqlstate::kInvalidParameterValue, "auth scram-sha-256 needs a SASL mechanism (a password file)");
  }
  asio::error_code ec;
  asio::ip::address address = asio::ip::make_address(options_.listen, ec);
  if (ec) return Status(sqlstate::kInvalidParameterValue, "invalid listen address \"" + options_.listen + "\"");
  asio::ip::tcp::endpoint endpoint(address, options_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status("08006", "could not listen on " + options_.listen + ":" + std::to_string(options_.port) + ": " +
                               ec.message());
  }
  port_ = acceptor_.local_endpoint(ec).port();
  Accept();
  io_thread_ = std::thread([this] { io_.run(); });
  return Status::OK();
}

void Server::Accept() {
  acceptor_.async_accept([this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    } else {
      Serve(std::move(socket));
    }
    if (!shutting_down()) Accept();
  });
}

void Server::Serve(asio::ip::tcp::socket accepted) {
  std::lock_guard lock(mu_);
  Reap();
  if (shutting_down()) return;                                    // the socket closes
  if (authenticating_ >= options_.max_authenticating) return;     // too many not logged in: just close
  // Out of io_'s epoll set, into connections_io_ (see server.h).
  asio::error_code ec;
  const asio::ip::tcp::endpoint local = accepted.local_endpoint(ec);
  if (ec) return;  // gone already
  const asio::ip::tcp::socket::native_handle_type fd = accepted.release(ec);
  if (ec) return;
  asio::ip::tcp::socket socket(connections_io_);
  socket.assign(local.protocol(), fd, ec);
  if (ec) {
    ::close(fd);
    return;
  }
  auto slot = std::make_unique<Slot>();
  authenticating_++;
  const int32_t pid = next_pid_++;
  const int32_t secret = static_cast<int32_t>(random_());
  slot->connection = std::make_unique<Connection>(db_, options_, this, std::move(socket), pid, secret);
  Slot* raw = slot.get();
  try {
    raw->thread = std::thread([this, raw] {
      raw->connection->Run();
      {
        std::lock_guard lock(mu_);
        (raw->connection->admitted() ? active_ : authenticating_)--;
      }
      raw->done.store(true, std::memory_order_release);
    });
  } catch (const std::system_error&) {
    authenticating_--;  // no thread to serve it: the socket closes
    return;
  }
  slots_.push_back(std::move(slot));
}

bool Server::Admit() {
  std::lock_guard lock(mu_);
  if (active_ >= options_.max_connections) return false;
  authenticating_--;
  active_++;
  return true;
}

void Server::Reap() {
  for (auto it = slots_.begin(); it != slots_.end();) {
    if ((*it)->done.load(std::memory_order_acquire)) {
      (*it)->thread.join();
      it = slots_.erase(it);
    } else {
      ++it;
    }
  }
}

size_t Server::connections() const {
  std::lock_guard lock(mu_);
  return active_;
}

void Server::Cancel(int32_t pid, int32_t secret) {
  std::lock_guard lock(mu_);
  for (auto& slot : slots_) {
    if (!slot->done.load(std::memory_order_acquire) && slot->connection->pid() == pid &&
        slot->connection->secret() == secret) {
      slot->connection->RequestCancel();
    }
  }
}

void Server::Shutdown() {
  if (stopped_.exchange(true)) return;
  shutting_down_.store(true, std::memory_order_release);
  asio::post(io_, [this] {
    asio::error_code ec;
    acceptor_.close(ec);
  });
  if (io_thread_.joinable()) io_thread_.join();
  // No new connections now; wake the ones waiting for their clients.
  {
    std::lock_guard lock(mu_);
    for (auto& slot : slots_) slot->connection->Interrupt();
  }
  for (;;) {
    Slot* waiting = nullptr;
    {
      std::lock_guard lock(mu_);
      Reap();
      if (slots_.empty()) break;
      waiting = slots_.front().get();
    }
    // Joined outside mu_ (the thread takes it as it ends).
    waiting->thread.join();
    std::lock_guard lock(mu_);
    waiting->done.store(true);
    for (auto it = slots_.begin(); it != slots_.end(); ++it) {
      if (it->get() == waiting) {
        slots_.erase(it);
        break;
      }
    }
  }
}

}  // namespace paceline::server
