// ProcessMemory: what the process holds, for SHOW paceline.memory and for
// tests: resident bytes (/proc/self/statm) and the C allocator's figures
// (glibc mallinfo2: bytes in use, free bytes it keeps, bytes in mmapped
// blocks, arenas).
//
// ReleaseFreeMemory: gives the free memory the allocator keeps back to the
// kernel (glibc malloc_trim(0): the top of every arena, and whole free pages
// inside them). Each connection's thread allocates from its own glibc
// arena; a burst of large or many statements leaves their freed blocks
// there, resident, until a trim. The server calls it when a connection
// ends (server.cc). It walks every arena under its lock: milliseconds, not
// for a hot path.
//
// ConfigureAllocator: process-wide settings of the C allocator, applied
// once by a binary's main() before its threads start. The one setting: a
// fixed mmap threshold. glibc starts at 128 KiB and raises its threshold to
// the size of each mmapped block freed (up to 32 MiB), so after a burst of
// large statements every later block of up to that size comes from a
// thread's arena, where the long-lived ones among them (a cached plan's
// arrays) pin pages that free neighbours cannot leave: measured, 1,500
// distinct 100 KB statements left 170 MB resident with 108 MB in use; with
// the threshold fixed at 128 KiB, 127 MB with 118 MB in use
// (script/memory_burst.py). Blocks from the threshold up get a mapping of
// their own, returned to the kernel when freed.
//
// Thread-safety: ReadProcessMemory and ReleaseFreeMemory may be called
// from any thread; ConfigureAllocator before other threads run.
#pragma once

#include <cstddef>

namespace paceline {

struct ProcessMemory {
  size_t resident_bytes = 0;   // VmRSS
  size_t heap_in_use_bytes = 0;  // allocated blocks, mmapped ones included
  size_t heap_free_bytes = 0;    // free blocks the allocator keeps
  size_t heap_mmapped_bytes = 0;  // blocks of their own mapping (large ones)
  size_t arenas = 0;              // glibc arenas (main arena plus one per thread that needed one, up to its cap)
};

ProcessMemory ReadProcessMemory();

struct AllocatorOptions {
  // Blocks of at least this many bytes are mmapped (and unmapped when
  // freed); 0 keeps glibc's own dynamic threshold.
  size_t mmap_threshold_bytes = size_t{128} << 10;
};

// False when the allocator refused a setting.
bool ConfigureAllocator(const AllocatorOptions& options);

// Returns the resident bytes it gave back (0 when none, or unknown).
size_t ReleaseFreeMemory();

}  // namespace paceline
