// Watchdog: bounds the work of one fuzz input. Arm(cancel, budget) starts
// the clock; once `budget` has passed, `cancel` is called on the
// watchdog's thread, and again every 20 ms until Disarm (a connection's
// cancel is dropped between messages, so once may not be enough). It plays
// the client's CancelRequest: the input's statement then ends with 57014.
//
// Thread-safety: Arm and Disarm from the fuzzing thread; `cancel` runs on
// the watchdog's own thread, never after Disarm has returned.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace paceline::fuzz {

class Watchdog {
 public:
  Watchdog() : thread_([this] { Loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void Arm(std::function<void()> cancel, std::chrono::milliseconds budget) {
    std::lock_guard lock(mu_);
    cancel_ = std::move(cancel);
    deadline_ = std::chrono::steady_clock::now() + budget;
    cv_.notify_all();
  }
  void Disarm() {
    std::lock_guard lock(mu_);
    cancel_ = nullptr;
  }

 private:
  void Loop() {
    std::unique_lock lock(mu_);
    while (!stop_) {
      if (!cancel_) {
        cv_.wait(lock);
      } else if (cv_.wait_until(lock, deadline_) == std::cv_status::timeout && cancel_) {
        cancel_();
        deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
      }
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::function<void()> cancel_;  // guarded by mu_; empty when disarmed
  std::chrono::steady_clock::time_point deadline_;  // guarded by mu_
  bool stop_ = false;                                // guarded by mu_
  std::thread thread_;
};

}  // namespace paceline::fuzz
