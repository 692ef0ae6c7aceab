#include "common/stack_depth.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>

namespace paceline {

namespace stack_depth_internal {

constinit thread_local uintptr_t t_limit = kUnknown;

// The thread's stack's low end plus a reserve of an eighth of the stack,
// between 64 KiB and 512 KiB (PostgreSQL keeps 512 KiB of "slop").
uintptr_t ComputeLimit() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* low = nullptr;
  size_t size = 0;
  int rc = pthread_attr_getstack(&attr, &low, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0 || low == nullptr) return 0;
  size_t reserve = std::clamp<size_t>(size / 8, size_t{64} << 10, size_t{512} << 10);
  return reinterpret_cast<uintptr_t>(low) + std::min(reserve, size);
}

}  // namespace stack_depth_internal

Status StackDepthExceeded() { return Status(sqlstate::kStatementTooComplex, "stack depth limit exceeded"); }

}  // namespace paceline
