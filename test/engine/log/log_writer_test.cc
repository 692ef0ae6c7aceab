// The log writer: records appended by many threads at once come back from
// the files whole, once each, in LSN order; a record is reported durable
// only once it was written and synced; commits share syncs (group commit);
// segments rotate by size and on request, and old ones are deleted; with
// SyncMode::kOff nothing waits; an I/O error reaches every waiter and sticks.
#include "engine/log/log_writer.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/log/log_reader.h"
#include "engine/log/log_segments.h"
#include "test/engine/temp_dir.h"

namespace paceline::engine::log {
namespace {

class LogWriterTest : public ::testing::Test {
 protected:
  std::unique_ptr<LogWriter> Open(SyncMode sync = SyncMode::kFsync, size_t segment_bytes = 64u << 20,
                                  Lsn next_lsn = Lsn(1), LogOptions o = {}) {
    o.dir = dir_.path();
    o.sync = sync;
    o.segment_bytes = segment_bytes;
    std::unique_ptr<LogWriter> w;
    Status s = LogWriter::Open(o, next_lsn, &w);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return w;
  }
  // Every record in the directory, by LSN.
  std::map<Lsn, std::string> ReadBack(LogReadResult* result = nullptr, Lsn from_lsn = Lsn(1)) {
    std::map<Lsn, std::string> out;
    LogReadResult r;
    Status s = ReadLog(
        dir_.path(), from_lsn, false,
        [&](Lsn lsn, uint8_t, std::string_view payload) {
          EXPECT_TRUE(out.emplace(lsn, std::string(payload)).second) << "LSN " << lsn << " twice";
          return Status::OK();
        },
        &r);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (result != nullptr) *result = r;
    return out;
  }
  size_t SegmentCount() {
    std::vector<Segment> segments;
    EXPECT_TRUE(ListSegments(dir_.path(), &segments).ok());
    return segments.size();
  }
  test::TempDir dir_;
};

TEST_F(LogWriterTest, ConcurrentAppendsComeBackWholeInLsnOrder) {
  // Interleaving: 4 threads append and wait at once; each record's payload
  // names its thread and its count. Excluded: a lost or duplicated record,
  // two records sharing an LSN, records interleaved byte-wise.
  constexpr int kThreads = 4, kPerThread = 300;
  std::mutex mu;
  std::map<Lsn, std::string> appended;
  {
    auto w = Open(SyncMode::kFdatasync, 16 << 10);  // small segments: many rotations
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) {
          const std::string payload = "t" + std::to_string(t) + " #" + std::to_string(i) + std::string(i % 50, 'p');
          const Lsn lsn = w->Append(1, payload);
          {
            std::lock_guard lock(mu);
            appended[lsn] = payload;
          }
          if (i % 10 == 0) {
            EXPECT_TRUE(w->WaitDurable(lsn).ok());
          }
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(w->appended_lsn(), Lsn(kThreads * kPerThread));
  }  // the destructor writes and syncs the rest
  EXPECT_EQ(appended.begin()->first, Lsn(1));
  EXPECT_EQ(appended.rbegin()->first, Lsn(kThreads * kPerThread));
  EXPECT_EQ(ReadBack(), appended);
  EXPECT_GT(SegmentCount(), 3u);
}

TEST_F(LogWriterTest, DurableMeansWrittenAndSynced) {
  auto w = Open();
  LogWriter* writer = w.get();  // the callbacks may run in the destructor, when `w` is already null
  std::atomic<int> called{0};
  std::vector<Lsn> lsns;
  for (int i = 0; i < 50; ++i) lsns.push_back(w->Append(1, "x" + std::to_string(i)));
  for (Lsn lsn : lsns) {
    w->WhenDurable(lsn, [&, lsn](const Status& s) {
      EXPECT_TRUE(s.ok());
      EXPECT_GE(writer->durable_lsn(), lsn);
      called.fetch_add(1);
    });
  }
  ASSERT_TRUE(w->WaitDurable(lsns.back()).ok());
  EXPECT_GE(w->durable_lsn(), lsns.back());
  // Callbacks run on the writer thread after the durable LSN moved; they
  // are all done once the writer stops.
  w.reset();
  EXPECT_EQ(called.load(), 50);
}

TEST_F(LogWriterTest, ConcurrentCommitsShareSyncs) {
  // 8 threads each append and wait, 100 times: a sync per record would be
  // 800 syncs; group commit makes records that arrive during a sync share
  // the next one.
  auto w = Open(SyncMode::kFsync);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) ASSERT_TRUE(w->WaitDurable(w->Append(1, "commit")).ok());
    });
  }
  for (auto& t : threads) t.join();
  const LogWriterStats stats = w->stats();
  EXPECT_EQ(stats.appends, 800u);
  EXPECT_LT(stats.syncs, stats.appends / 2) << "group commit did not batch";
  EXPECT_GT(stats.syncs, 0u);
}

TEST_F(LogWriterTest, ALoneCommitterIsNeverDelayed) {
  // With an hour of group commit delay, one committer at a time (each batch
  // one record) is still acknowledged at once. Excluded: a lone client
  // waiting out the delay.
  LogOptions o;
  o.group_commit_delay = std::chrono::hours(1);
  auto w = Open(SyncMode::kFsync, 64u << 20, Lsn(1), o);
  for (int i = 0; i < 20; ++i) {
    auto done = std::make_shared<std::promise<Status>>();
    std::future<Status> f = done->get_future();
    w->WhenDurable(w->Append(1, "alone"), [done](const Status& s) { done->set_value(s); });
    ASSERT_EQ(f.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "commit " << i << " was delayed";
    EXPECT_TRUE(f.get().ok());
  }
}

TEST_F(LogWriterTest, TheDelayGathersCommitsAndAWaitingThreadCutsItShort) {
  // Interleaving: the writer is held before its first sync while two more
  // records arrive, so its next batch holds two (others commit too); then
  // X and Y are appended: the writer waits out the (hour-long) delay after
  // X, so Y joins X's batch; SyncTo(Y), a thread blocking on the log, ends
  // the delay. Excluded: X written alone (no delay), and a blocked thread
  // left waiting for the delay.
  std::mutex mu;
  std::condition_variable cv;
  bool hold = true;
  LogOptions o;
  o.group_commit_delay = std::chrono::hours(1);
  o.before_sync = [&] {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return !hold; });
  };
  auto w = Open(SyncMode::kFsync, 64u << 20, Lsn(1), o);
  w->Append(1, "first");    // the writer takes it and is held before its sync
  w->Append(1, "second");   // these two form the next batch
  w->Append(1, "third");
  {
    std::lock_guard lock(mu);
    hold = false;
  }
  cv.notify_all();
  ASSERT_TRUE(w->SyncTo(Lsn(3)).ok());
  const uint64_t writes_before = w->stats().writes;
  auto x_done = std::make_shared<std::promise<Status>>();
  std::future<Status> x_durable = x_done->get_future();
  const Lsn x = w->Append(1, "X");
  w->WhenDurable(x, [x_done](const Status& s) { x_done->set_value(s); });
  const Lsn y = w->Append(1, "Y");
  ASSERT_TRUE(w->SyncTo(y).ok());
  ASSERT_EQ(x_durable.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_TRUE(x_durable.get().ok());
  EXPECT_EQ(w->stats().writes, writes_before + 1) << "X and Y were not one batch";
}

TEST_F(LogWriterTest, RotateStartsASegmentAndOldOnesCanGo) {
  auto w = Open();
  for (int i = 0; i < 10; ++i) w->Append(1, "before");
  const Lsn start = w->Rotate();
  EXPECT_EQ(start, Lsn(11));
  for (int i = 0; i < 5; ++i) w->Append(1, "after");
  ASSERT_TRUE(w->WaitDurable(w->appended_lsn()).ok());
  size_t deleted = 0;
  ASSERT_TRUE(w->DeleteSegmentsBefore(start, &deleted).ok());
  EXPECT_EQ(deleted, 1u);
  std::vector<Segment> segments;
  ASSERT_TRUE(ListSegments(dir_.path(), &segments).ok());
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0].first_lsn, start);
  w.reset();
  LogReadResult r;
  const auto records = ReadBack(&r, start);
  EXPECT_EQ(records.size(), 5u);
  EXPECT_EQ(records.begin()->first, start);
  EXPECT_EQ(r.next_lsn, Lsn(16));
}

TEST_F(LogWriterTest, DeletionWaitsForTheRotationItFollows) {
  // Rotate with nothing appended after it, then delete at once: the
  // writer may not have started the new segment yet; the current one is
  // never deleted and the log stays readable from `start`.
  auto w = Open();
  for (int i = 0; i < 3; ++i) w->Append(1, "r");
  const Lsn start = w->Rotate();
  size_t deleted = 0;
  ASSERT_TRUE(w->DeleteSegmentsBefore(start, &deleted).ok());
  EXPECT_EQ(deleted, 1u);
  w->Append(1, "later");
  w.reset();
  LogReadResult r;
  Status s = ReadLog(dir_.path(), start, false, [](Lsn, uint8_t, std::string_view) { return Status::OK(); }, &r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(r.records, 1u);
}

TEST_F(LogWriterTest, OpenContinuesFromTheLsnRecoveryGives) {
  {
    auto w = Open();
    w->Append(1, "a");
    w->Append(1, "b");
  }
  {
    auto w = Open(SyncMode::kFsync, 64u << 20, Lsn(3));
    EXPECT_EQ(w->Append(1, "c"), Lsn(3));
  }
  const auto records = ReadBack();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records.at(Lsn(3)), "c");
}

TEST_F(LogWriterTest, OffAcknowledgesAtOnceButSyncToSyncs) {
  auto w = Open(SyncMode::kOff);
  const Lsn lsn = w->Append(1, "fast");
  bool called = false;
  w->WhenDurable(lsn, [&](const Status& s) {
    EXPECT_TRUE(s.ok());
    called = true;
  });
  EXPECT_TRUE(called);  // on this thread, before WhenDurable returned
  EXPECT_TRUE(w->WaitDurable(lsn).ok());
  ASSERT_TRUE(w->SyncTo(lsn).ok());
  EXPECT_GE(w->durable_lsn(), lsn);
  EXPECT_GE(w->stats().syncs, 1u);
}

TEST_F(LogWriterTest, AnIoErrorReachesEveryWaiterAndSticks) {
  // The file-size limit makes write(2) fail (EFBIG) once the segment would
  // pass 64 KiB; SIGXFSZ is ignored so that the process lives.
  auto w = Open(SyncMode::kFsync);
  ASSERT_TRUE(w->WaitDurable(w->Append(1, "fits")).ok());
  struct rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = old_limit;
  limit.rlim_cur = 64 << 10;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  const Lsn big = w->Append(1, std::string(128 << 10, 'b'));
  std::atomic<bool> heard{false};
  w->WhenDurable(big, [&](const Status& s) {
    EXPECT_TRUE(s.Is(sqlstate::kIoError)) << s.ToString();
    heard = true;
  });
  Status s = w->WaitDurable(big);
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(s.Is(sqlstate::kIoError)) << s.ToString();
  EXPECT_NE(s.message().find("redo log failed"), std::string::npos) << s.message();
  // Later records are not durable either, and say why.
  EXPECT_TRUE(w->WaitDurable(w->Append(1, "small")).Is(sqlstate::kIoError));
  bool later = false;
  w->WhenDurable(w->appended_lsn(), [&](const Status& st) { later = st.Is(sqlstate::kIoError); });
  EXPECT_TRUE(later);
  w.reset();
  EXPECT_TRUE(heard.load());
}

}  // namespace
}  // namespace paceline::engine::log
