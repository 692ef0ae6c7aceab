// Stack depth guard for recursion driven by statement text, PostgreSQL's
// check_stack_depth(): recursive code over parse trees and expressions calls
// CheckStackDepth() at each level and stops with 54001 "stack depth limit
// exceeded" while the thread still has room, instead of overflowing its
// stack. The limit follows the calling thread's real stack (its size comes
// from pthread_getattr_np on first use), so it holds in any build and on
// threads with small stacks.
//
// Thread-safety: thread-safe; the stack bounds are cached per thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status.h"

namespace paceline {

namespace stack_depth_internal {
// The lowest address the calling thread's recursion may reach; kUnknown
// until its first check computes it (constant-initialized, so reading it is
// one thread-local load, no initialization guard).
inline constexpr uintptr_t kUnknown = 1;
extern constinit thread_local uintptr_t t_limit;
uintptr_t ComputeLimit();  // 0 when the stack's bounds cannot be known
}  // namespace stack_depth_internal

// Bytes of stack the calling thread has left beyond its reserve (the room
// kept for the non-recursive work below the last check); 0 when none.
inline size_t StackDepthBudget() {
  using namespace stack_depth_internal;
  uintptr_t limit = t_limit;
  if (limit == kUnknown) limit = t_limit = ComputeLimit();
  if (limit == 0) return SIZE_MAX;
  // Stacks grow down on every platform Paceline runs on.
  const uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return here > limit ? here - limit : 0;
}

// The error CheckStackDepth returns.
Status StackDepthExceeded();

// OK while the calling thread has stack left beyond its reserve; otherwise
// 54001 "stack depth limit exceeded".
inline Status CheckStackDepth() { return StackDepthBudget() > 0 ? Status::OK() : StackDepthExceeded(); }

}  // namespace paceline
