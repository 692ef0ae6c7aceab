// AllocationMeter and the replaced global operator new / delete that feed it
// (allocation_meter.h).
#include "common/allocation_meter.h"

#include <malloc.h>

#include <cstdlib>
#include <new>

namespace paceline {
namespace {

// The innermost live meter of this thread (constant-initialized: no guard,
// safe in operator new at any point of a thread's life).
thread_local AllocationMeter* current_meter = nullptr;

void* Allocate(std::size_t size) {
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = std::malloc(size)) {
      if (current_meter != nullptr) AllocationMeter::OnAllocate(p);
      return p;
    }
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void Free(void* p) noexcept {
  if (p == nullptr) return;
  if (current_meter != nullptr) AllocationMeter::OnFree(p);
  std::free(p);
}

}  // namespace

AllocationMeter::AllocationMeter() : outer_(current_meter) { current_meter = this; }

AllocationMeter::~AllocationMeter() {
  current_meter = outer_;
  if (outer_ != nullptr) {
    outer_->allocated_ += allocated_;
    outer_->freed_ += freed_;
  }
}

void AllocationMeter::OnAllocate(void* p) { current_meter->allocated_ += malloc_usable_size(p); }

void AllocationMeter::OnFree(void* p) { current_meter->freed_ += malloc_usable_size(p); }

}  // namespace paceline

// The replaceable global allocation functions ([new.delete]); the aligned
// forms keep the library's own (rare here; not metered).
void* operator new(std::size_t size) { return paceline::Allocate(size); }
void* operator new[](std::size_t size) { return paceline::Allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return paceline::Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return paceline::Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { paceline::Free(p); }
void operator delete[](void* p) noexcept { paceline::Free(p); }
void operator delete(void* p, std::size_t) noexcept { paceline::Free(p); }
void operator delete[](void* p, std::size_t) noexcept { paceline::Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { paceline::Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { paceline::Free(p); }
