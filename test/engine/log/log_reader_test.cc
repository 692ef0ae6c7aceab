// Reading the redo log for recovery: records come back in LSN order across
// segments; a torn end (cut short, or zeros where a write did not land) is cut
// off; damage with an intact record after it, damage in an older segment, and
// a missing segment stop the reading with XX001 naming the file and offset —
// a record is never skipped silently.
#include "engine/log/log_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/log/log_frame.h"
#include "engine/log/log_segments.h"
#include "test/engine/temp_dir.h"

namespace paceline::engine::log {
namespace {

std::string PayloadOf(uint64_t lsn) { return "record " + std::to_string(lsn) + std::string(lsn % 7, '.'); }

// Writes segments by hand: `lsns_per_segment` records each, from LSN `first`.
std::vector<std::string> WriteSegments(const std::string& dir, uint64_t first, const std::vector<int>& lsns_per_segment) {
  std::vector<std::string> paths;
  uint64_t lsn = first;
  for (int n : lsns_per_segment) {
    std::string bytes;
    const std::string path = SegmentPath(dir, Lsn(lsn));
    for (int i = 0; i < n; ++i, ++lsn) AppendFrame(lsn, 1, PayloadOf(lsn), &bytes);
    std::ofstream(path, std::ios::binary) << bytes;
    paths.push_back(path);
  }
  return paths;
}

struct Read {
  Status status;
  LogReadResult result;
  std::vector<uint64_t> lsns;
};

Read ReadAll(const std::string& dir, uint64_t from_lsn = 1, bool truncate = true) {
  Read r;
  r.status = ReadLog(
      dir, Lsn(from_lsn), truncate,
      [&](Lsn lsn, uint8_t type, std::string_view payload) {
        EXPECT_EQ(type, 1);
        EXPECT_EQ(payload, PayloadOf(lsn.value()));
        r.lsns.push_back(lsn.value());
        return Status::OK();
      },
      &r.result);
  return r;
}

std::vector<uint64_t> Range(uint64_t from, uint64_t to) {  // [from, to]
  std::vector<uint64_t> out;
  for (uint64_t i = from; i <= to; ++i) out.push_back(i);
  return out;
}

void Flip(const std::string& path, size_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x40));
}

class LogReaderTest : public ::testing::Test {
 protected:
  test::TempDir dir_;
};

TEST_F(LogReaderTest, AnEmptyDirectoryIsAnEmptyLog) {
  Read r = ReadAll(dir_.path(), 1);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.lsns.empty());
  EXPECT_EQ(r.result.next_lsn.value(), 1u);
}

TEST_F(LogReaderTest, RecordsComeBackInOrderAcrossSegments) {
  WriteSegments(dir_.path(), 1, {5, 0, 7, 3});  // an empty segment too (a rotation with nothing after it)
  Read r = ReadAll(dir_.path());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.lsns, Range(1, 15));
  EXPECT_EQ(r.result.next_lsn.value(), 16u);
  EXPECT_EQ(r.result.records, 15u);
  EXPECT_FALSE(r.result.torn_tail);
}

TEST_F(LogReaderTest, FromLsnSkipsWhatACheckpointHolds) {
  WriteSegments(dir_.path(), 1, {5, 7, 3});
  Read r = ReadAll(dir_.path(), 9);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.lsns, Range(9, 15));
  EXPECT_EQ(r.result.next_lsn.value(), 16u);
}

TEST_F(LogReaderTest, ATruncatedLastRecordIsCutOffAndTheCutSticks) {
  const auto paths = WriteSegments(dir_.path(), 1, {5, 6});
  const auto size = std::filesystem::file_size(paths[1]);
  std::filesystem::resize_file(paths[1], size - 5);
  Read r = ReadAll(dir_.path());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.lsns, Range(1, 10));
  EXPECT_TRUE(r.result.torn_tail);
  EXPECT_EQ(r.result.next_lsn.value(), 11u);
  Read again = ReadAll(dir_.path());
  ASSERT_TRUE(again.status.ok());
  EXPECT_FALSE(again.result.torn_tail);
  EXPECT_EQ(again.lsns, Range(1, 10));
}

TEST_F(LogReaderTest, ZerosWhereTheLastWriteDidNotLandAreATornTail) {
  const auto paths = WriteSegments(dir_.path(), 1, {4});
  std::ofstream(paths[0], std::ios::binary | std::ios::app) << std::string(4096, '\0');
  Read r = ReadAll(dir_.path());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.lsns, Range(1, 4));
  EXPECT_TRUE(r.result.torn_tail);
}

TEST_F(LogReaderTest, WithoutTruncationTheFileIsLeftAsItIs) {
  const auto paths = WriteSegments(dir_.path(), 1, {4});
  const auto size = std::filesystem::file_size(paths[0]);
  std::filesystem::resize_file(paths[0], size - 1);
  Read r = ReadAll(dir_.path(), 1, /*truncate=*/false);
  ASSERT_TRUE(r.status.ok());
  EXPECT_TRUE(r.result.torn_tail);
  EXPECT_EQ(std::filesystem::file_size(paths[0]), size - 1);
}

TEST_F(LogReaderTest, DamageFollowedByAnIntactRecordIsCorruption) {
  const auto paths = WriteSegments(dir_.path(), 1, {3, 10});
  // Record 7 (the fourth of the second segment): its payload.
  size_t offset = 0;
  for (uint64_t lsn = 4; lsn < 7; ++lsn) offset += kFrameHeaderBytes + PayloadOf(lsn).size();
  Flip(paths[1], offset + kFrameHeaderBytes + 2);
  Read r = ReadAll(dir_.path());
  EXPECT_TRUE(r.status.Is(sqlstate::kDataCorrupted)) << r.status.ToString();
  EXPECT_NE(r.status.message().find(paths[1] + " at offset " + std::to_string(offset)), std::string::npos)
      << r.status.message();
  EXPECT_NE(r.status.message().find("LSN 7"), std::string::npos) << r.status.message();
  EXPECT_EQ(r.lsns, Range(1, 6));  // nothing after the damage was applied
}

TEST_F(LogReaderTest, ADamagedSizeFieldDoesNotHideTheRecordsAfterIt) {
  // The size of record 2 made huge-but-plausible: it would swallow the rest
  // of the file, which holds intact records.
  const auto paths = WriteSegments(dir_.path(), 1, {6});
  const size_t offset = kFrameHeaderBytes + PayloadOf(1).size();
  const uint32_t size = 1u << 20;
  std::fstream f(paths[0], std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(reinterpret_cast<const char*>(&size), 4);
  f.close();
  Read r = ReadAll(dir_.path());
  EXPECT_TRUE(r.status.Is(sqlstate::kDataCorrupted)) << r.status.ToString();
  EXPECT_EQ(r.lsns, Range(1, 1));
}

TEST_F(LogReaderTest, DamageAtTheEndOfAnOlderSegmentIsCorruption) {
  // The writer syncs a segment before starting the next: only the newest
  // can end torn.
  const auto paths = WriteSegments(dir_.path(), 1, {3, 2});
  const auto cut = std::filesystem::file_size(paths[0]) - 1;
  std::filesystem::resize_file(paths[0], cut);
  Read r = ReadAll(dir_.path());
  EXPECT_TRUE(r.status.Is(sqlstate::kDataCorrupted)) << r.status.ToString();
  EXPECT_NE(r.status.message().find(paths[0]), std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(paths[0]), cut);  // left for a person to look at
}

TEST_F(LogReaderTest, AMissingSegmentIsCorruption) {
  const auto paths = WriteSegments(dir_.path(), 1, {3, 3, 3});
  std::filesystem::remove(paths[1]);
  Read r = ReadAll(dir_.path());
  EXPECT_TRUE(r.status.Is(sqlstate::kDataCorrupted)) << r.status.ToString();
  EXPECT_NE(r.status.message().find("missing"), std::string::npos) << r.status.message();
  EXPECT_EQ(r.lsns, Range(1, 3));
}

TEST_F(LogReaderTest, ALogThatStartsAfterWhatIsNeededIsCorruption) {
  WriteSegments(dir_.path(), 10, {3});
  Read r = ReadAll(dir_.path(), 5);
  EXPECT_TRUE(r.status.Is(sqlstate::kDataCorrupted)) << r.status.ToString();
  EXPECT_TRUE(r.lsns.empty());
}

TEST_F(LogReaderTest, ARecordOutOfSequenceIsCorruption) {
  std::string bytes;
  AppendFrame(1, 1, PayloadOf(1), &bytes);
  AppendFrame(3, 1, PayloadOf(3), &bytes);  // LSN 2 missing inside a segment
  AppendFrame(4, 1, PayloadOf(4), &bytes);
  std::ofstream(SegmentPath(dir_.path(), Lsn(1)), std::ios::binary) << bytes;
  Read r = ReadAll(dir_.path());
  EXPECT_TRUE(r.status.Is(sqlstate::kDataCorrupted)) << r.status.ToString();
  EXPECT_EQ(r.lsns, Range(1, 1));
}

TEST_F(LogReaderTest, TheCallbacksErrorStopsTheReadingAndNamesWhere) {
  const auto paths = WriteSegments(dir_.path(), 1, {5});
  LogReadResult result;
  int seen = 0;
  Status s = ReadLog(
      dir_.path(), Lsn(1), true,
      [&](Lsn lsn, uint8_t, std::string_view) {
        ++seen;
        return lsn == Lsn(3) ? Status(sqlstate::kDataCorrupted, "bad content") : Status::OK();
      },
      &result);
  EXPECT_TRUE(s.Is(sqlstate::kDataCorrupted));
  EXPECT_NE(s.message().find("bad content"), std::string::npos);
  EXPECT_NE(s.message().find(paths[0]), std::string::npos) << s.message();
  EXPECT_EQ(seen, 3);
}

}  // namespace
}  // namespace paceline::engine::log
