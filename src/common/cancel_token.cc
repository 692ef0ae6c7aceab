// SleepUnlessCanceled (see cancel_token.h): a timed wait on a condition
// variable that the token's Wakeup signals, so a Cancel ends it at once.
#include "common/cancel_token.h"

#include <condition_variable>

namespace paceline {

namespace {

struct Sleeper {
  std::mutex mu;
  std::condition_variable cv;
};

void WakeSleeper(void* arg) {
  auto* s = static_cast<Sleeper*>(arg);
  { std::lock_guard lock(s->mu); }  // a waiter between its test and its wait sees the notify
  s->cv.notify_all();
}

}  // namespace

Status SleepUnlessCanceled(std::chrono::microseconds duration, const CancelToken* cancel) {
  const auto deadline = std::chrono::steady_clock::now() + duration;
  Sleeper sleeper;
  // Registered before the flag is first tested: a Cancel either set the
  // flag before (the predicate sees it) or finds the wakeup.
  CancelToken::Wakeup wakeup(cancel, &WakeSleeper, &sleeper);
  std::unique_lock lock(sleeper.mu);
  const bool canceled =
      sleeper.cv.wait_until(lock, deadline, [&] { return cancel != nullptr && cancel->Poll(); });
  return canceled ? CanceledStatus() : Status::OK();
}

}  // namespace paceline
