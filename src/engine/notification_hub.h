// NotificationHub: LISTEN / NOTIFY between sessions, as PostgreSQL's
// asynchronous notifications. A session listens on channels; a committed
// transaction's notifications (NOTIFY, pg_notify) are published as one
// batch, and every session listening on a notification's channel at that
// moment (the sender too) gets it in its inbox, batches in the order they
// were published, notifications within a batch in the order sent. A
// session takes its inbox when it is between transactions (the server
// then sends NotificationResponse messages); its waker, if it set one, is
// called when its inbox gets something (the server wakes the connection
// of a client that waits for notifications without sending anything).
//
// Thread-safety: every method may be called from any thread (one mutex).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace paceline::engine {

struct Notification {
  int32_t sender_pid = 0;  // the notifying session's process id (Session::backend_pid)
  std::string channel;
  std::string payload;
};

class NotificationHub {
 public:
  void Listen(uint64_t session, const std::string& channel);
  void Unlisten(uint64_t session, const std::string& channel);
  // UNLISTEN *, and a closed session (its inbox and waker go too: no call
  // of the waker is running once this returns).
  void UnlistenAll(uint64_t session, bool forget_inbox);
  // Called (under the hub's mutex: it must not call back into the hub)
  // whenever Publish puts something in `session`'s inbox; empty: none.
  void SetWaker(uint64_t session, std::function<void()> waker);
  // A committed transaction's notifications.
  void Publish(const std::vector<Notification>& batch);
  // The notifications delivered to `session` since its last Take, on the
  // channels it still listens on.
  std::vector<Notification> Take(uint64_t session);

 private:
  std::mutex mu_;
  std::map<std::string, std::set<uint64_t>> listeners_;  // channel → sessions
  std::unordered_map<uint64_t, std::vector<Notification>> inbox_;
  std::unordered_map<uint64_t, std::function<void()>> wakers_;
};

}  // namespace paceline::engine
