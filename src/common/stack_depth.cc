#include "common/stack_depth.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>

namespace paceline {

namespace {

// The lowest address the calling thread's recursion may reach: its stack's
// low end plus a reserve of an eighth of the stack, between 64 KiB and
// 512 KiB (PostgreSQL keeps 512 KiB of "slop"). 0 when unknown.
uintptr_t StackLimit() {
  thread_local const uintptr_t limit = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t{0};
    void* low = nullptr;
    size_t size = 0;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || low == nullptr) return uintptr_t{0};
    size_t reserve = std::clamp<size_t>(size / 8, size_t{64} << 10, size_t{512} << 10);
    return reinterpret_cast<uintptr_t>(low) + std::min(reserve, size);
  }();
  return limit;
}

}  // namespace

size_t StackDepthBudget() {
  // Stacks grow down on every platform Paceline runs on.
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t limit = StackLimit();
  if (limit == 0) return SIZE_MAX;
  return here > limit ? here - limit : 0;
}

Status StackDepthExceeded() { return Status(sqlstate::kStatementTooComplex, "stack depth limit exceeded"); }

}  // namespace paceline
