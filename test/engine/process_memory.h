// Test helper: the calling process's resident memory, for tests that bound
// how much the engine keeps (statement cache, dropped tables).
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

namespace paceline::engine::test_memory {

// VmRSS of this process in KB (0 when /proc is not readable).
inline size_t RssKb() {
  std::ifstream in("/proc/self/status");
  std::string key;
  size_t value = 0;
  while (in >> key) {
    if (key == "VmRSS:") {
      in >> value;
      return value;
    }
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

}  // namespace paceline::engine::test_memory
