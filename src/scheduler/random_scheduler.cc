// RandomScheduler: uniform random queue from a per-thread SplitMix64 stream.
#include "scheduler/random_scheduler.h"

#include <cassert>

#include "common/split_mix64.h"

namespace paceline::scheduler {

namespace {

std::atomic<uint64_t> next_instance{1};

// The calling thread's generator for the instance it used last. A thread that
// alternates between instances starts a fresh stream at each switch; that
// stays uniform, it only loses per-thread reproducibility.
struct ThreadStream {
  uint64_t instance = 0;  // 0: none yet
  SplitMix64 generator{0};
};
thread_local ThreadStream thread_stream;

}  // namespace

RandomScheduler::RandomScheduler(const SchedulerOptions& options)
    : queues_(options.queues),
      seed_(options.seed),
      instance_(next_instance.fetch_add(1, std::memory_order_relaxed)) {
  assert(queues_ >= 1);
}

size_t RandomScheduler::Pick(const Footprint&) {
  ThreadStream& stream = thread_stream;
  if (stream.instance != instance_) {
    const uint64_t index = streams_.fetch_add(1, std::memory_order_relaxed);
    stream.instance = instance_;
    stream.generator = SplitMix64(seed_ ^ SplitMix64::Mix(index + 1));
  }
  return stream.generator.Below(queues_);
}

}  // namespace paceline::scheduler
