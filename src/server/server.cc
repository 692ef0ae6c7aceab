// Server: acceptor, connections and shutdown (see server.h).
#include "server/server.h"

#include <unistd.h>

#include <system_error>

#include "common/process_memory.h"

namespace paceline::server {

Server::Server(engine::Database* db, ServerOptions options)
    : db_(db),
      options_(std::move(options)),
      acceptor_(io_),
      random_(std::random_device{}()),
      threads_(ConnectionThreadsOptions{}, [this](Connection* c) { Ended(c); }) {
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
    return Status(sqlstate::kConnectionFailure, "could not listen on " + options_.listen + ":" + std::to_string(options_.port) + ": " +
                               ec.message());
  }
  port_ = acceptor_.local_endpoint(ec).port();
  PL_RETURN_IF_ERROR(threads_.Start());
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
  const int32_t pid = next_pid_++;
  const int32_t secret = static_cast<int32_t>(random_());
  connections_.push_back(std::make_unique<Connection>(db_, options_, this, std::move(socket), pid, secret));
  if (!threads_.Add(connections_.back().get()).ok()) {
    connections_.pop_back();  // the socket closes
    return;
  }
  authenticating_++;
}

void Server::Wake(Connection* connection) { threads_.Wake(connection); }

void Server::Ended(Connection* connection) {
  std::unique_ptr<Connection> ended;
  {
    std::lock_guard lock(mu_);
    (connection->admitted() ? active_ : authenticating_)--;
    for (auto it = connections_.begin(); it != connections_.end(); ++it) {
      if (it->get() == connection) {
        ended = std::move(*it);
        connections_.erase(it);
        break;
      }
    }
  }
  ended.reset();  // outside mu_ (its session rolls back what it left open)
  // What the connection's statements freed stays in the glibc arenas of
  // the threads that served it, resident, until a trim (process_memory.h).
  ReleaseFreeMemory();
  ended_cv_.notify_all();
}

bool Server::Admit() {
  std::lock_guard lock(mu_);
  if (active_ >= options_.max_connections) return false;
  authenticating_--;
  active_++;
  return true;
}

size_t Server::connections() const {
  std::lock_guard lock(mu_);
  return active_;
}

void Server::Cancel(int32_t pid, int32_t secret) {
  std::lock_guard lock(mu_);
  for (auto& connection : connections_) {
    if (connection->pid() == pid && connection->secret() == secret) connection->RequestCancel();
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
  // No new connections now; wake the ones waiting for their clients, and
  // wait until every connection has ended (each answers 57P01, or finishes
  // its statement first).
  {
    std::unique_lock lock(mu_);
    for (auto& connection : connections_) connection->Interrupt();
    ended_cv_.wait(lock, [&] { return connections_.empty(); });
  }
  threads_.Stop();
}

}  // namespace paceline::server
