// ConnectionThreads: the epoll set, the elastic threads and their waits
// (see connection_threads.h).
//
// Claiming: every event and every passed deadline is turned into "serve
// entry id" under mu_, and only an entry marked waiting can be claimed (its
// mark is cleared by the claim), so a connection is never served by two
// threads, even when its readiness and its deadline wake two at once. An
// event carries the entry's id, never a pointer: one delivered for a
// connection that has just ended finds no entry and is dropped. A socket
// leaves the epoll set when its connection closes it (close removes it; no
// EPOLL_CTL_DEL, which could hit a new socket given the same number).
#include "server/connection_threads.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

namespace paceline::server {

namespace {

constexpr uint64_t kStopToken = 0;
constexpr uint64_t kKickToken = 1;

Status SystemError(const char* what) {
  return Status(sqlstate::kInternalError, std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

ConnectionThreads::ConnectionThreads(ConnectionThreadsOptions options, EndedCallback ended)
    : options_(options), ended_(std::move(ended)) {}

ConnectionThreads::~ConnectionThreads() {
  Stop();
  for (int fd : {epoll_fd_, stop_fd_, kick_fd_}) {
    if (fd >= 0) ::close(fd);
  }
}

Status ConnectionThreads::Start() {
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) return SystemError("epoll_create1");
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  kick_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd_ < 0 || kick_fd_ < 0) return SystemError("eventfd");
  epoll_event stop{};
  stop.events = EPOLLIN;
  stop.data.u64 = kStopToken;
  epoll_event kick{};
  kick.events = EPOLLIN | EPOLLONESHOT;
  kick.data.u64 = kKickToken;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, stop_fd_, &stop) != 0 ||
      ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, kick_fd_, &kick) != 0) {
    return SystemError("epoll_ctl");
  }
  std::lock_guard lock(mu_);
  if (!StartThread()) return Status(sqlstate::kInternalError, "could not start a connection thread");
  return Status::OK();
}

bool ConnectionThreads::StartThread() {
  // Threads that ended have left Loop (they took mu_ last to move here).
  for (std::thread& t : ended_threads_) t.join();
  ended_threads_.clear();
  if (threads_ >= std::max<size_t>(options_.max_threads, 1)) return false;
  running_.emplace_back();
  const auto self = std::prev(running_.end());
  try {
    *self = std::thread([this, self] {
      Loop();
      std::lock_guard lock(mu_);
      // (Once stopping, Stop owns the list and joins this thread.)
      if (!stopping_) ended_threads_.splice(ended_threads_.end(), running_, self);
      --threads_;
    });
  } catch (const std::system_error&) {
    running_.erase(self);
    return false;
  }
  ++threads_;
  return true;
}

size_t ConnectionThreads::threads() const {
  std::lock_guard lock(mu_);
  return threads_;
}

Status ConnectionThreads::Add(Connection* connection) {
  std::unique_lock lock(mu_);
  if (stopping_) return Status(sqlstate::kAdminShutdown, "the server is shutting down");
  const uint64_t id = next_id_++;
  Entry& entry = entries_[id];
  ids_[connection] = id;
  entry.connection = connection;
  entry.waiting = true;
  entry.deadline = connection->wait_deadline();
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
  ev.data.u64 = id;
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, connection->socket_handle(), &ev) != 0) {
    Status s = SystemError("epoll_ctl");
    entries_.erase(id);
    ids_.erase(connection);
    return s;
  }
  if (entry.deadline.has_value()) {
    deadlines_.insert({*entry.deadline, id});
    lock.unlock();
    Kick();
  }
  return Status::OK();
}

void ConnectionThreads::Kick() {
  const uint64_t one = 1;
  (void)!::write(kick_fd_, &one, sizeof(one));
}

int ConnectionThreads::WaitMs(std::chrono::steady_clock::time_point now) const {
  std::chrono::milliseconds wait = std::chrono::milliseconds::max();
  if (!deadlines_.empty()) {
    wait = std::max(std::chrono::milliseconds(0),
                    std::chrono::ceil<std::chrono::milliseconds>(deadlines_.begin()->first - now));
  }
  if (waiting_threads_ >= std::max<size_t>(options_.spare, 1)) wait = std::min(wait, options_.linger);
  if (wait == std::chrono::milliseconds::max()) return -1;
  return static_cast<int>(std::min<int64_t>(wait.count(), 1 << 30));
}

bool ConnectionThreads::Rearm(uint64_t id, Entry& entry) {
  entry.waiting = true;
  entry.deadline = entry.connection->wants_wake() ? std::chrono::steady_clock::now() : entry.connection->wait_deadline();
  if (entry.deadline.has_value()) deadlines_.insert({*entry.deadline, id});
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
  ev.data.u64 = id;
  // A failure (the socket is broken) leaves it unwatched; its client has
  // gone, and the shutdown's Interrupt or its deadline still reaches it.
  (void)::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, entry.connection->socket_handle(), &ev);
  return entry.deadline.has_value();
}

void ConnectionThreads::Loop() {
  std::unique_lock lock(mu_);
  auto idle_since = std::chrono::steady_clock::now();
  for (;;) {
    if (stopping_) return;
    const int wait_ms = WaitMs(std::chrono::steady_clock::now());
    ++waiting_threads_;
    lock.unlock();
    epoll_event ev{};
    const int n = ::epoll_wait(epoll_fd_, &ev, 1, wait_ms);
    lock.lock();
    --waiting_threads_;
    if (stopping_) return;
    const auto now = std::chrono::steady_clock::now();
    uint64_t id = 0;
    if (n == 1 && ev.data.u64 == kKickToken) {
      uint64_t count;
      (void)!::read(kick_fd_, &count, sizeof(count));
      epoll_event kick{};
      kick.events = EPOLLIN | EPOLLONESHOT;
      kick.data.u64 = kKickToken;
      (void)::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, kick_fd_, &kick);
      continue;  // recompute the wait
    }
    if (n == 1 && ev.data.u64 != kStopToken) id = ev.data.u64;
    if (id == 0 && !deadlines_.empty() && deadlines_.begin()->first <= now) id = deadlines_.begin()->second;
    auto it = id == 0 ? entries_.end() : entries_.find(id);
    if (it == entries_.end() || !it->second.waiting) {
      // Nothing to serve: a thread beyond the spare ones that has idled
      // for `linger` ends.
      if (n == 0 && waiting_threads_ >= std::max<size_t>(options_.spare, 1) && now - idle_since >= options_.linger) {
        // This thread may have been the one watching a deadline (the
        // others may wait without a bound): one of them looks again.
        if (!deadlines_.empty()) Kick();
        return;
      }
      continue;
    }
    Entry& entry = it->second;
    entry.waiting = false;
    if (entry.deadline.has_value()) deadlines_.erase({*entry.deadline, id});
    if (waiting_threads_ == 0) StartThread();  // someone keeps watching the others
    Connection* connection = entry.connection;
    lock.unlock();
    const Connection::Progress progress = connection->Serve();
    lock.lock();
    idle_since = std::chrono::steady_clock::now();
    // (`it` is still valid: only the thread serving an entry erases it.)
    if (progress == Connection::Progress::kEnded) {
      entries_.erase(it);
      ids_.erase(connection);
      lock.unlock();
      ended_(connection);  // its socket is closed, so out of the epoll set
      lock.lock();
      continue;
    }
    if (Rearm(id, it->second)) {
      lock.unlock();
      Kick();  // a waiting thread may wait past this deadline
      lock.lock();
    }
  }
}

void ConnectionThreads::Wake(Connection* connection) {
  {
    std::lock_guard lock(mu_);
    auto id = ids_.find(connection);
    if (id == ids_.end()) return;
    Entry& entry = entries_[id->second];
    if (!entry.waiting || !connection->wants_wake()) return;  // Rearm looks again when it is served now
    if (entry.deadline.has_value()) deadlines_.erase({*entry.deadline, id->second});
    entry.deadline = std::chrono::steady_clock::now();
    deadlines_.insert({*entry.deadline, id->second});
  }
  Kick();
}

void ConnectionThreads::Stop() {
  std::list<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    if (stop_fd_ >= 0) {
      const uint64_t one = 1;
      (void)!::write(stop_fd_, &one, sizeof(one));  // never read: wakes every waiting thread
    }
    threads.splice(threads.end(), running_);
    threads.splice(threads.end(), ended_threads_);
  }
  for (std::thread& t : threads) {
    if (t.joinable()) t.join();
  }
}

}  // namespace paceline::server
