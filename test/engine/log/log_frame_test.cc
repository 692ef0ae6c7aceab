// Log frames: what is written reads back, and no damage to a frame — a flipped
// bit anywhere, a cut anywhere, an absurd size — reads as a record.
#include "engine/log/log_frame.h"

#include <gtest/gtest.h>

#include <string>

namespace paceline::engine::log {
namespace {

TEST(LogFrameTest, RoundTrip) {
  std::string bytes;
  AppendFrame(7, 2, "CREATE TABLE t (a INT)", &bytes);
  AppendFrame(8, 1, "", &bytes);
  uint64_t seq = 0;
  uint8_t type = 0;
  std::string_view payload;
  size_t frame_bytes = 0;
  ASSERT_EQ(DecodeFrame(bytes, &seq, &type, &payload, &frame_bytes), FrameResult::kOk);
  EXPECT_EQ(seq, 7u);
  EXPECT_EQ(type, 2);
  EXPECT_EQ(payload, "CREATE TABLE t (a INT)");
  EXPECT_EQ(frame_bytes, kFrameHeaderBytes + payload.size());
  ASSERT_EQ(DecodeFrame(std::string_view(bytes).substr(frame_bytes), &seq, &type, &payload, &frame_bytes),
            FrameResult::kOk);
  EXPECT_EQ(seq, 8u);
  EXPECT_EQ(type, 1);
  EXPECT_EQ(payload, "");
  EXPECT_EQ(frame_bytes, kFrameHeaderBytes);
}

TEST(LogFrameTest, EveryFlippedBitIsCaught) {
  std::string frame;
  AppendFrame(123456789, 1, "some row images of a committed transaction", &frame);
  for (size_t byte = 0; byte < frame.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = frame;
      damaged[byte] = static_cast<char>(damaged[byte] ^ (1 << bit));
      uint64_t seq;
      uint8_t type;
      std::string_view payload;
      size_t frame_bytes;
      EXPECT_NE(DecodeFrame(damaged, &seq, &type, &payload, &frame_bytes), FrameResult::kOk)
          << "byte " << byte << " bit " << bit;
    }
  }
}

TEST(LogFrameTest, EveryCutIsTruncated) {
  std::string frame;
  AppendFrame(1, 1, std::string(100, 'x'), &frame);
  for (size_t size = 0; size < frame.size(); ++size) {
    uint64_t seq;
    uint8_t type;
    std::string_view payload;
    size_t frame_bytes;
    EXPECT_EQ(DecodeFrame(std::string_view(frame).substr(0, size), &seq, &type, &payload, &frame_bytes),
              FrameResult::kTruncated)
        << size;
  }
}

TEST(LogFrameTest, AnAbsurdSizeIsDamageNotAShortRead) {
  std::string frame;
  AppendFrame(1, 1, "x", &frame);
  const uint32_t huge = kMaxFramePayload + 1;
  frame.replace(0, 4, reinterpret_cast<const char*>(&huge), 4);
  uint64_t seq;
  uint8_t type;
  std::string_view payload;
  size_t frame_bytes;
  EXPECT_EQ(DecodeFrame(frame, &seq, &type, &payload, &frame_bytes), FrameResult::kCorrupted);
}

}  // namespace
}  // namespace paceline::engine::log
