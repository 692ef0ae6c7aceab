// ConnectionThreads: serves the server's connections on a small, elastic
// set of threads, so that a connection waiting for its client holds none.
//
// A connection between messages is *waiting*: its socket sits in one epoll
// set (EPOLLONESHOT), and the threads not serving anything all wait in
// epoll_wait on that set. The kernel wakes one of them when a waiting
// socket becomes readable (a message, the end of the stream, or the
// shutdown's Interrupt); that thread *serves* the connection
// (Connection::Serve) on the spot — no hand-off, one wake-up per message,
// as a thread blocked in recv had — until it waits for its client again,
// then re-arms the socket and goes back to epoll_wait. A connection's wait
// deadline (authentication, idle in transaction) bounds the threads' wait:
// the thread that finds it passed serves the connection, which ends it.
//
// Elastic: whenever a thread starts serving and no other thread is left
// waiting on the set, one more thread starts (up to max_threads), so a
// connection whose statement blocks — on a row lock, a conflict lane, a
// table gate, for a long statement — never keeps another connection's
// message (a COMMIT that would release it) unread. Threads beyond `spare`
// that found nothing to serve for `linger` end. So 300 idle connections
// cost a few threads, and 300 blocks queued on one lane cost 300 threads
// only while they wait.
//
// Thread-safety: Add and threads() from any thread; Start once; Stop from
// any thread but its own (it joins them). Ownership: connections are
// borrowed from Add until `ended` is called with them (on a serving
// thread), which hands them back.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "common/status.h"
#include "server/connection.h"

namespace paceline::server {

struct ConnectionThreadsOptions {
  size_t spare = 4;                        // idle threads kept (at least 1 always waits)
  std::chrono::milliseconds linger{1000};  // an idle thread beyond `spare` ends after this
  size_t max_threads = 1024;               // never more (a connection then waits for a thread)
};

class ConnectionThreads {
 public:
  using EndedCallback = std::function<void(Connection*)>;

  ConnectionThreads(ConnectionThreadsOptions options, EndedCallback ended);
  // Stop().
  ~ConnectionThreads();
  ConnectionThreads(const ConnectionThreads&) = delete;
  ConnectionThreads& operator=(const ConnectionThreads&) = delete;

  // Creates the epoll set and the first thread.
  Status Start();
  // Watches `connection` from now on and serves it as described above; its
  // first Serve runs once its client has sent something (or its wait
  // deadline passed). An error (the socket could not be watched) leaves it
  // with the caller.
  Status Add(Connection* connection);
  // Serves `connection` soon if it waits and Connection::wants_wake (a
  // notification for an idle client), as if its deadline had passed. Any
  // thread; a connection not watched (served now, ended) is left alone.
  void Wake(Connection* connection);
  // Ends every thread and returns once they have ended. Call it once no
  // connection is left (each was interrupted and has ended); connections
  // still watched are abandoned, never served again. Idempotent.
  void Stop();

  // Threads now (serving or waiting).
  size_t threads() const;

 private:
  struct Entry {
    Connection* connection = nullptr;
    bool waiting = false;  // in the epoll set, armed; false while served
    std::optional<std::chrono::steady_clock::time_point> deadline;
  };

  void Loop();
  // Starts a thread (mu_ held). False when it could not.
  bool StartThread();
  // The wait of a thread about to epoll_wait: until the earliest deadline,
  // at most `linger` for a thread beyond `spare`; -1: no bound (mu_ held).
  int WaitMs(std::chrono::steady_clock::time_point now) const;
  // Marks `id` waiting with its connection's deadline (now, when it
  // wants_wake) and re-arms its socket (mu_ held). True when it has a
  // deadline (a waiting thread may need to wait less: Kick).
  bool Rearm(uint64_t id, Entry& entry);
  // Wakes one thread to recompute its wait (a new, earlier deadline).
  void Kick();

  const ConnectionThreadsOptions options_;
  const EndedCallback ended_;
  int epoll_fd_ = -1;
  int stop_fd_ = -1;  // eventfd, level-triggered: once written, every waiting thread wakes
  int kick_fd_ = -1;  // eventfd, one-shot: wakes one waiting thread

  mutable std::mutex mu_;
  bool stopping_ = false;                     // guarded by mu_
  std::map<uint64_t, Entry> entries_;         // guarded by mu_
  std::map<Connection*, uint64_t> ids_;        // entries_' ids by connection; guarded by mu_
  std::set<std::pair<std::chrono::steady_clock::time_point, uint64_t>> deadlines_;  // of waiting entries, mu_
  uint64_t next_id_ = 2;                      // 0 and 1 are the eventfds' tokens; guarded by mu_
  size_t threads_ = 0;                        // guarded by mu_
  size_t waiting_threads_ = 0;                // in epoll_wait; guarded by mu_
  std::list<std::thread> running_;            // guarded by mu_
  std::list<std::thread> ended_threads_;      // to join; guarded by mu_
};

}  // namespace paceline::server
