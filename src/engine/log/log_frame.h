// Log frames: how one record sits in a log segment or a checkpoint file,
// with its sequence number and a checksum, so that a reader can tell a
// complete record from a torn or damaged one.
//
//   offset  0  u32  payload size
//   offset  4  u8   record type (the caller's: durability/redo_record.h)
//   offset  5  u8×3 zero
//   offset  8  u64  sequence number (the LSN in the log; 0, 1, 2... in a
//                   checkpoint file)
//   offset 16  u64  checksum: XXH3-64 of bytes 0..15, seeded with the
//                   XXH3-64 of the payload (so the payload's part can be
//                   computed before the sequence number is known)
//   offset 24  payload
//
// Little-endian. Thread-safety: stateless functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace paceline::engine::log {

inline constexpr size_t kFrameHeaderBytes = 24;
// A larger size field is damage, not a record (a bulk load of that much is
// split by its caller long before).
inline constexpr uint32_t kMaxFramePayload = 1u << 30;

// The payload's part of the checksum.
uint64_t PayloadHash(std::string_view payload);
// Appends the frame of one record to `out`; `payload_hash` is
// PayloadHash(payload).
void AppendFrame(uint64_t seq, uint8_t type, std::string_view payload, uint64_t payload_hash, std::string* out);
inline void AppendFrame(uint64_t seq, uint8_t type, std::string_view payload, std::string* out) {
  AppendFrame(seq, type, payload, PayloadHash(payload), out);
}

enum class FrameResult {
  kOk,         // a whole, intact frame
  kTruncated,  // `bytes` ends before the frame does (its size field is sane)
  kCorrupted,  // the checksum or the header does not hold
};

// Decodes the frame at the start of `bytes`. On kOk sets every output
// (`payload` views into `bytes`; `frame_bytes` = header + payload).
FrameResult DecodeFrame(std::string_view bytes, uint64_t* seq, uint8_t* type, std::string_view* payload,
                        size_t* frame_bytes);

}  // namespace paceline::engine::log
