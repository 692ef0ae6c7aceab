// Encoding and checking log frames (see log_frame.h).
#include "engine/log/log_frame.h"

#include <xxhash.h>

#include <cstring>

namespace paceline::engine::log {
namespace {

uint64_t Checksum(const char* header, uint64_t payload_hash) { return XXH3_64bits_withSeed(header, 16, payload_hash); }

}  // namespace

uint64_t PayloadHash(std::string_view payload) { return XXH3_64bits(payload.data(), payload.size()); }

void AppendFrame(uint64_t seq, uint8_t type, std::string_view payload, uint64_t payload_hash, std::string* out) {
  char header[kFrameHeaderBytes] = {};
  const uint32_t size = static_cast<uint32_t>(payload.size());
  std::memcpy(header, &size, 4);  // little-endian hosts only (x86-64, arm64)
  header[4] = static_cast<char>(type);
  std::memcpy(header + 8, &seq, 8);
  const uint64_t checksum = Checksum(header, payload_hash);
  std::memcpy(header + 16, &checksum, 8);
  out->append(header, kFrameHeaderBytes);
  out->append(payload);
}

FrameResult DecodeFrame(std::string_view bytes, uint64_t* seq, uint8_t* type, std::string_view* payload,
                        size_t* frame_bytes) {
  if (bytes.size() < kFrameHeaderBytes) return FrameResult::kTruncated;
  uint32_t size = 0;
  uint64_t stored = 0;
  std::memcpy(&size, bytes.data(), 4);
  std::memcpy(&stored, bytes.data() + 16, 8);
  if (size > kMaxFramePayload || bytes[5] != 0 || bytes[6] != 0 || bytes[7] != 0) return FrameResult::kCorrupted;
  if (bytes.size() - kFrameHeaderBytes < size) return FrameResult::kTruncated;
  const std::string_view body = bytes.substr(kFrameHeaderBytes, size);
  if (Checksum(bytes.data(), PayloadHash(body)) != stored) return FrameResult::kCorrupted;
  std::memcpy(seq, bytes.data() + 8, 8);
  *type = static_cast<uint8_t>(bytes[4]);
  *payload = body;
  *frame_bytes = kFrameHeaderBytes + size;
  return FrameResult::kOk;
}

}  // namespace paceline::engine::log
