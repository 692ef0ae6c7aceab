// Fixtures of the durability tests (durability_test.cc,
// sequence_durability_test.cc): a database on a temporary data directory,
// closed and opened again (DurabilityTest, parameterized by whether the
// close writes a checkpoint), and one whose log files the test damages or
// cuts (DurabilityFilesTest).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/database.h"
#include "engine/log/log_frame.h"
#include "engine/log/log_reader.h"
#include "test/engine/session_sql.h"
#include "test/engine/temp_dir.h"

namespace paceline::engine::test_durability {

using test::TempDir;
using test_sql::Ok;
using test_sql::RunSql;

// Every row of `sql`'s result, as text, one line per row.
inline std::string Rows(const std::unique_ptr<Session>& s, const std::string& sql) {
  QueryResult r;
  Status st = RunSql(s, sql, &r);
  EXPECT_TRUE(st.ok()) << sql << ": " << st.ToString();
  std::string out;
  for (const auto& row : r.rows) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "|" : "") + row[i].ToString();
    out += "\n";
  }
  return out;
}

inline std::vector<std::string> SegmentFiles(const std::string& data_dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(data_dir + "/wal")) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

class DurabilityTest : public ::testing::TestWithParam<bool> {
 protected:
  bool checkpoint_on_close() const { return GetParam(); }

  Options MakeOptions() const {
    Options o;
    o.data_dir = dir_.path();
    o.workers = 2;
    o.sync = "fsync";
    o.checkpoint_on_close = checkpoint_on_close();
    o.checkpoint_interval = std::chrono::seconds(0);
    o.checkpoint_log_bytes = 0;
    return o;
  }
  void Open(Options o) {
    Status s = Database::Open(o, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
    session_ = db_->CreateSession();
  }
  void Open() { Open(MakeOptions()); }
  // A crash while the database runs: its data directory copied into
  // `crashed` (kept by the caller) and opened there, beside the running one.
  void OpenCrashCopy(const TempDir& crashed, std::unique_ptr<Database>* db) const {
    std::filesystem::copy(dir_.path(), crashed.path(), std::filesystem::copy_options::recursive |
                                                           std::filesystem::copy_options::overwrite_existing);
    Options o = MakeOptions();
    o.data_dir = crashed.path();
    Status s = Database::Open(o, db);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void Close() {
    session_.reset();
    db_.reset();
  }

  TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
};

class DurabilityFilesTest : public ::testing::Test {
 protected:
  Options MakeOptions() const {
    Options o;
    o.data_dir = dir_.path();
    o.workers = 0;
    o.checkpoint_on_close = false;  // the log is what these tests damage
    o.checkpoint_interval = std::chrono::seconds(0);
    o.checkpoint_log_bytes = 0;
    return o;
  }
  // Creates t and commits `n` single-row inserts (k = 0..n-1), then closes.
  void Fill(int n) {
    std::unique_ptr<Database> db;
    ASSERT_TRUE(Database::Open(MakeOptions(), &db).ok());
    auto s = db->CreateSession();
    Ok(s, "CREATE TABLE t (k INT PRIMARY KEY, pad TEXT)");
    for (int i = 0; i < n; ++i) Ok(s, "INSERT INTO t VALUES (" + std::to_string(i) + ", 'row " + std::to_string(i) + "')");
  }
  // The end offsets of the frames of the log's (single) segment.
  std::vector<size_t> FrameEnds() const {
    std::vector<size_t> ends;
    log::LogReadResult read;
    size_t offset = 0;
    Status s = log::ReadLog(dir_.path() + "/wal", Lsn(1), false,
                            [&](Lsn, uint8_t, std::string_view payload) {
                              offset += log::kFrameHeaderBytes + payload.size();
                              ends.push_back(offset);
                              return Status::OK();
                            },
                            &read);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return ends;
  }
  // Makes `copy_dir` a data directory whose log is `segment` cut at `end`
  // (and nothing else: a segment an earlier open started is removed).
  static void CopyLogPrefix(const std::string& segment, size_t end, const std::string& copy_dir) {
    std::filesystem::create_directories(copy_dir + "/wal");
    const std::string copied = copy_dir + "/wal/" + std::filesystem::path(segment).filename().string();
    std::filesystem::copy_file(segment, copied, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(copied, end);
    for (const auto& e : std::filesystem::directory_iterator(copy_dir + "/wal")) {
      if (e.path() != copied) std::filesystem::remove(e.path());
    }
  }
  std::string Count(Status* status) {
    std::unique_ptr<Database> db;
    *status = Database::Open(MakeOptions(), &db);
    if (!status->ok()) return "";
    return Rows(db->CreateSession(), "SELECT count(*), max(k) FROM t");
  }
  TempDir dir_;
};

}  // namespace paceline::engine::test_durability
