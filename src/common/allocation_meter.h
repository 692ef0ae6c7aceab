// AllocationMeter: the bytes that C++ allocations (operator new / delete) on
// the calling thread took and gave back while the meter was alive: what a
// piece of work really keeps, measured rather than estimated. The
// StatementCache charges each entry what preparing its statement kept.
//
// How: allocation_meter.cc replaces the global operator new and delete (the
// replacement the C++ standard provides for; they call malloc and free, so a
// malloc replacement such as tbbmalloc_proxy still serves them). Each looks
// at one thread_local pointer, the innermost live meter of its thread, and
// when there is one adds or subtracts malloc_usable_size of the block (what
// the allocator really holds for it, not the size asked for). Memory taken
// by malloc directly (libpg_query's memory contexts) is not seen: it is
// freed before a statement is kept.
//
// Net bytes: a block allocated before the meter and freed while it lives
// counts negative, one allocated while it lives and freed on another thread
// counts positive. Meters nest: an inner meter's net is added to the outer
// one when the inner ends.
//
// Thread-safety: a meter belongs to the thread that made it (construct,
// read and destroy it there); meters of different threads are independent.
// Cost with no live meter: one thread_local load per new and delete.
#pragma once

#include <cstddef>
#include <cstdint>

namespace paceline {

class AllocationMeter {
 public:
  AllocationMeter();
  ~AllocationMeter();
  AllocationMeter(const AllocationMeter&) = delete;
  AllocationMeter& operator=(const AllocationMeter&) = delete;

  // Bytes allocated minus bytes freed on this thread since construction
  // (clamped at 0), of nested meters included once they ended.
  size_t net_bytes() const { return allocated_ > freed_ ? static_cast<size_t>(allocated_ - freed_) : 0; }
  uint64_t allocated_bytes() const { return allocated_; }
  uint64_t freed_bytes() const { return freed_; }

  // Called by the replaced operators (allocation_meter.cc) only.
  static void OnAllocate(void* p);
  static void OnFree(void* p);

 private:
  AllocationMeter* outer_;
  uint64_t allocated_ = 0;
  uint64_t freed_ = 0;
};

}  // namespace paceline
