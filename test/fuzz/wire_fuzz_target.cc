// Fuzz target: the PostgreSQL wire protocol as a client speaks it — the
// message reader and the connection's state machine (start-up packet,
// SSLRequest/GSSENCRequest, trust authentication, simple and extended
// query, Parse/Bind/Describe/Execute/Sync/Flush/Close, COPY, Terminate).
//
// Each input is the raw byte stream a client sends. A real
// server::Connection serves it on this thread over a loopback TCP
// connection, exactly as Server does for an accepted socket (no seam
// needed); a peer thread writes the input on the client side, then closes
// its sending direction (end of stream), and drains every reply so the
// server never blocks on a full socket buffer. The conversation ends at
// Terminate, at a protocol violation (FATAL), or at the end of the input.
//
// The database (in memory, one worker so that whole transactions are
// scheduled as Server does) holds pgbench's tables with a few rows, the
// database is named "postgres" as in the captures the seeds come from, and
// authentication is trust. It is recreated when an input changed its
// SchemaFingerprint (tables, columns, indexes: each Query outside a block
// commits), left more than kMaxRows rows, and every kInputsPerDatabase
// inputs (FuzzDatabase). A Watchdog cancels what the connection runs (as
// a CancelRequest) once kBudget has passed.
//
// ErrorResponses and FATALs are fine outcomes; a crash, a sanitizer report,
// a hang or a failed assertion is a finding.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <asio.hpp>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/database.h"
#include "server/connection.h"
#include "server/server_options.h"
#include "test/fuzz/fuzz_database.h"
#include "test/fuzz/watchdog.h"

namespace {

using paceline::engine::Database;
using paceline::engine::Options;
using paceline::fuzz::FuzzDatabase;
using paceline::server::Connection;
using paceline::server::ConnectionHost;
using paceline::server::ServerOptions;

constexpr size_t kMaxInputBytes = 64 * 1024;
constexpr size_t kMaxRows = 10000;
constexpr int kInputsPerDatabase = 200;
constexpr std::chrono::milliseconds kBudget{500};
constexpr int32_t kPid = 7;
constexpr int32_t kSecret = 1234567;

const std::vector<std::string> kSchema = {
    "CREATE TABLE pgbench_branches (bid INT NOT NULL PRIMARY KEY, bbalance INT, filler CHAR(88))",
    "CREATE TABLE pgbench_tellers (tid INT NOT NULL PRIMARY KEY, bid INT REFERENCES pgbench_branches (bid), "
    "tbalance INT, filler CHAR(84))",
    "CREATE TABLE pgbench_accounts (aid INT NOT NULL PRIMARY KEY, bid INT, abalance INT, filler CHAR(84))",
    "CREATE INDEX pgbench_accounts_bid ON pgbench_accounts (bid)",
    "CREATE TABLE pgbench_history (tid INT, bid INT, aid INT, delta INT, mtime TIMESTAMP, filler CHAR(22))",
    "INSERT INTO pgbench_branches VALUES (1, 0, ''), (2, 5, NULL)",
    "INSERT INTO pgbench_tellers VALUES (1, 1, 0, ''), (2, 1, -3, ''), (3, 2, 7, NULL)",
    "INSERT INTO pgbench_accounts VALUES (1, 1, 0, ''), (2, 1, 10, 'x'), (3, 2, -5, NULL), (4, 2, 0, '')",
};

class Host : public ConnectionHost {
 public:
  bool shutting_down() const override { return false; }
  void Cancel(int32_t, int32_t) override {}  // no other connection to cancel
  bool Admit() override { return true; }
  void Wake(Connection*) override {}  // one connection, served by Run: notifications go out with its replies
};

// The client side: writes `input` to `fd`, ends the stream, reads until
// the server closes. One conversation at a time, on its own thread.
class Peer {
 public:
  Peer() : thread_([this] { Loop(); }) {}
  ~Peer() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void Start(int fd, std::string_view input) {
    std::lock_guard lock(mu_);
    fd_ = fd;
    input_ = input;
    busy_ = true;
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return !busy_; });
  }

 private:
  void Loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || busy_; });
      if (stop_) return;
      const int fd = fd_;
      const std::string_view input = input_;
      lock.unlock();
      Converse(fd, input);
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }
  static void Converse(int fd, std::string_view input) {
    char buffer[64 * 1024];
    size_t sent = 0;
    bool write_open = true;
    if (input.empty()) {
      ::shutdown(fd, SHUT_WR);
      write_open = false;
    }
    for (;;) {
      pollfd p{fd, static_cast<short>(POLLIN | (write_open ? POLLOUT : 0)), 0};
      if (::poll(&p, 1, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n == 0) return;  // the server closed the connection
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return;
      }
      if (write_open && (p.revents & POLLOUT)) {
        const ssize_t n = ::send(fd, input.data() + sent, input.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) sent += static_cast<size_t>(n);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) write_open = false;
        if (sent == input.size()) write_open = false;
        if (!write_open) ::shutdown(fd, SHUT_WR);
      }
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  int fd_ = -1;             // guarded by mu_
  std::string_view input_;  // guarded by mu_
  bool busy_ = false;       // guarded by mu_
  bool stop_ = false;       // guarded by mu_
  std::thread thread_;
};

class Harness {
 public:
  Harness() : acceptor_(io_, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    options_.database = "postgres";
    options_.auth = "trust";
    options_.authentication_timeout = std::chrono::milliseconds(2000);
    options_.max_message_bytes = 1u << 20;
  }

  void Run(std::string_view input) {
    Database* db = fuzz_db_.Get();
    asio::ip::tcp::socket client(io_), server(io_);
    Connect(&client, &server);
    peer_.Start(client.native_handle(), input);
    {
      Connection connection(db, options_, &host_, std::move(server), kPid, kSecret);
      watchdog_.Arm([&connection] { connection.RequestCancel(); }, kBudget);
      connection.Run();  // closes its socket when the conversation ends
      watchdog_.Disarm();
    }
    peer_.Wait();
    if (fuzz_db_.Stale()) fuzz_db_.Close();
  }

 private:
  // A loopback connection. A failed connect (the machine short of ephemeral
  // ports while other programs churn connections) is retried for a while:
  // it says nothing about the code under test.
  void Connect(asio::ip::tcp::socket* client, asio::ip::tcp::socket* server) {
    asio::error_code ec;
    for (int attempt = 0; attempt < 500; ++attempt) {
      client->connect(acceptor_.local_endpoint(), ec);
      if (!ec) break;
      client->close();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!ec) acceptor_.accept(*server, ec);
    if (ec) {
      std::fprintf(stderr, "wire_fuzz_target: no loopback connection: %s\n", ec.message().c_str());
      std::abort();
    }
  }

  static Options DatabaseOptions() {
    Options options;
    options.workers = 1;  // scheduled transactions run on a worker, as in paceline-server
    options.lock_timeout = std::chrono::milliseconds(100);
    return options;
  }

  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  ServerOptions options_;
  Host host_;
  Peer peer_;
  paceline::fuzz::Watchdog watchdog_;
  FuzzDatabase fuzz_db_{DatabaseOptions(), kSchema, kInputsPerDatabase, kMaxRows};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness* harness = new Harness();  // never destroyed: libFuzzer exits without unwinding
  const size_t n = size < kMaxInputBytes ? size : kMaxInputBytes;
  harness->Run(std::string_view(reinterpret_cast<const char*>(data), n));
  return 0;
}
