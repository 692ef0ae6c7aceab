// Fixed-width values as raw bytes in a string, and read back: the host's
// byte order (little-endian hosts only: x86-64, arm64), for formats that
// this engine writes and reads itself (array payloads, redo records).
//
// Thread-safety: free functions over the caller's buffers.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace paceline {

// Appends v's bytes to *out.
template <typename T>
void PutFixed(std::string* out, T v) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  out->append(bytes, sizeof(T));
}

// Reads a T from the front of *in and drops its bytes; false (nothing
// consumed) when fewer than sizeof(T) bytes remain.
template <typename T>
bool TakeFixed(std::string_view* in, T* v) {
  if (in->size() < sizeof(T)) return false;
  std::memcpy(v, in->data(), sizeof(T));
  in->remove_prefix(sizeof(T));
  return true;
}

}  // namespace paceline
