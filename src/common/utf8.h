// UTF-8 helpers: PostgreSQL reports error positions in characters, while
// parse-tree locations are byte offsets.
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

namespace paceline {

// The 1-based character position of byte `byte_offset` of `text` (0 when
// the offset is negative: no position). Counts every byte that is not a
// UTF-8 continuation byte.
inline int Utf8CharPosition(std::string_view text, int byte_offset) {
  if (byte_offset < 0) return 0;
  size_t end = static_cast<size_t>(byte_offset) < text.size() ? static_cast<size_t>(byte_offset) : text.size();
  int chars = 0;
  for (size_t i = 0; i < end; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  }
  return chars + 1 + static_cast<int>(static_cast<size_t>(byte_offset) - end);
}

}  // namespace paceline
