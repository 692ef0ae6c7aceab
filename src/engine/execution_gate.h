// ExecutionGate: admits one transaction at a time into the engine.
//
// Until the concurrency-control layer lands, transactions are serial: a
// transaction (a one-shot request, an autocommit statement, or an explicit
// BEGIN .. COMMIT block) holds the gate from its first statement to its end.
// The holder may release from another thread than the one that acquired
// (sessions may move between threads), hence a semaphore, not a mutex.
//
// Thread-safety: all methods may be called concurrently.
#pragma once

#include <chrono>
#include <semaphore>

namespace paceline::engine {

class ExecutionGate {
 public:
  // Waits at most `timeout`; false when it could not enter.
  bool Enter(std::chrono::milliseconds timeout) { return gate_.try_acquire_for(timeout); }
  void Leave() { gate_.release(); }

 private:
  std::binary_semaphore gate_{1};
};

}  // namespace paceline::engine
