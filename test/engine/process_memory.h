// Test helper: the calling process's resident memory, for tests that bound
// how much the engine keeps (statement cache, dropped tables).
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

namespace paceline::engine::test_memory {

// RssAnon of this process in KB (0 when /proc is not readable): the
// resident heap, stacks and anonymous mappings — what the process holds as
// data. Not VmRSS, which also counts code pages first touched by the
// measured work (about 3 MB when a test first runs DDL and a bulk load),
// which the engine neither keeps nor can give back.
inline size_t RssKb() {
  std::ifstream in("/proc/self/status");
  std::string key;
  size_t value = 0;
  while (in >> key) {
    if (key == "RssAnon:") {
      in >> value;
      return value;
    }
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

}  // namespace paceline::engine::test_memory
