// ProcessMemory (process_memory.h): /proc/self/statm and glibc's malloc
// figures.
#include "common/process_memory.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace paceline {
namespace {

size_t ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

}  // namespace

ProcessMemory ReadProcessMemory() {
  ProcessMemory m;
  m.resident_bytes = ResidentBytes();
  const struct mallinfo2 mi = ::mallinfo2();
  m.heap_in_use_bytes = mi.uordblks + mi.hblkhd;
  m.heap_free_bytes = mi.fordblks;
  m.heap_mmapped_bytes = mi.hblkhd;
  // mallinfo2 has no arena count; malloc_info's XML has, but costs a
  // stream: count the arenas glibc reports through it.
  char* text = nullptr;
  size_t length = 0;
  if (std::FILE* f = ::open_memstream(&text, &length)) {
    ::malloc_info(0, f);
    std::fclose(f);
    for (const char* p = text; p != nullptr && (p = std::strstr(p, "<heap nr=")) != nullptr; ++p) m.arenas++;
    std::free(text);
  }
  return m;
}

bool ConfigureAllocator(const AllocatorOptions& options) {
  if (options.mmap_threshold_bytes == 0) return true;
  // Setting it turns glibc's dynamic adjustment off (mallopt(3)).
  return ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(options.mmap_threshold_bytes)) == 1;
}

size_t ReleaseFreeMemory() {
  const size_t before = ResidentBytes();
  ::malloc_trim(0);
  const size_t after = ResidentBytes();
  return before > after ? before - after : 0;
}

}  // namespace paceline
