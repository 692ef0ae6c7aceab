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

#include "common/status.h"

namespace paceline {

// Bytes of stack the calling thread has left beyond its reserve (the room
// kept for the non-recursive work below the last check); 0 when none.
size_t StackDepthBudget();

// The error CheckStackDepth returns.
Status StackDepthExceeded();

// OK while the calling thread has stack left beyond its reserve; otherwise
// 54001 "stack depth limit exceeded".
inline Status CheckStackDepth() { return StackDepthBudget() > 0 ? Status::OK() : StackDepthExceeded(); }

}  // namespace paceline
