// Occ, driven directly (rows and commit hooks, no engine): the interleavings
// inside a commit that SQL cannot pin down, because a statement cannot stop
// a commit half way.
#include "cc/occ.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace paceline::cc {
namespace {

using storage::Row;

// Commit hooks over one written row, with a callback between the key check
// (step 2) and the install (step 4).
class OneRowCommit : public CommitHooks {
 public:
  OneRowCommit(Row* row, std::function<bool()> at_key_check) : rows_{row}, at_key_check_(std::move(at_key_check)) {}
  const std::vector<Row*>& WriteRows() override { return rows_; }
  bool StillOwnsKeys() override { return at_key_check_(); }
  void Install() override { installed = true; }

  std::atomic<bool> installed{false};

 private:
  std::vector<Row*> rows_;
  std::function<bool()> at_key_check_;
};

TEST(OccTest, AnEntryUndoneBesideACommitOfItsRowWaitsForTheInstall) {
  // Interleaving: B commits row 1: it locks the row and checks that the
  // unique entry its image relies on (one A added for the row) is there;
  // then A, rolling back, starts to take that entry back
  // (UndoBesideCommits); then B installs. Excludes A's undo running
  // between B's check and B's install: B would install a key whose entry A
  // had just removed (a committed row its unique key no longer finds). The
  // undo must run after B's install (then the engine sees the key
  // committed and keeps the entry). A wrong implementation is caught when
  // its undo runs within the 200 ms B waits for it (on a loaded machine it
  // might not be scheduled in time: then the test passes anyway).
  Occ occ{CcOptions{}};
  Row row(1, 0, TableId(1));
  auto a = occ.Begin(TxnTimestamp(1));
  auto b = occ.Begin(TxnTimestamp(2));

  std::mutex mu;
  std::condition_variable cv;
  bool undone = false;
  bool undo_saw_install = false;
  std::thread undoer;
  OneRowCommit* commit_ptr = nullptr;
  OneRowCommit commit(&row, [&] {
    undoer = std::thread([&] {
      occ.UndoBesideCommits(a.get(), &row, [&] {
        std::lock_guard<std::mutex> lock(mu);
        undo_saw_install = commit_ptr->installed.load();
        undone = true;
        cv.notify_all();
      });
    });
    // An undo that did not wait would run now: give it the chance (the
    // undo cannot run until the install when it waits, so this bound is
    // the test's only cost).
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, std::chrono::milliseconds(200), [&] { return undone; });
    return true;
  });
  commit_ptr = &commit;
  const Status committed = occ.Commit(b.get(), &commit);
  undoer.join();
  EXPECT_TRUE(committed.ok()) << committed.ToString();
  EXPECT_TRUE(undone);
  EXPECT_TRUE(undo_saw_install) << "the undo ran inside the commit, between its key check and its install";
  EXPECT_EQ(row.cc_word.load() & Occ::kLockBit, 0u) << "the row is left unlocked";
  occ.Abort(a.get());
}

TEST(OccTest, AnEntryUndoneBeforeACommitOfItsRowLeavesTheRowAsItWas) {
  // Interleaving: A takes its entry back (UndoBesideCommits), then B
  // commits the row. Excludes the undo leaving the row locked (B would
  // wait forever) or its version moved (B's reads of it would fail).
  Occ occ{CcOptions{}};
  Row row(1, 0, TableId(1));
  auto a = occ.Begin(TxnTimestamp(1));
  auto b = occ.Begin(TxnTimestamp(2));
  const storage::Tuple* image = nullptr;
  ASSERT_TRUE(occ.Read(b.get(), &row, /*for_update=*/true, kNoPredicate, &image).ok());
  bool ran = false;
  occ.UndoBesideCommits(a.get(), &row, [&] { ran = true; });
  EXPECT_TRUE(ran);
  OneRowCommit commit(&row, [] { return true; });
  EXPECT_TRUE(occ.Commit(b.get(), &commit).ok()) << "B's read of the row is still current";
  EXPECT_TRUE(commit.installed.load());
  occ.Abort(a.get());
}

TEST(OccTest, AFailedCommitUndoesItsEntriesWithoutWaitingForItself) {
  // Interleaving: A's commit locks row 1 and fails its key check; A, still
  // holding the lock, takes back the entry it added for the row; then A
  // aborts. Excludes A waiting for its own lock (a hang).
  Occ occ{CcOptions{}};
  Row row(1, 0, TableId(1));
  auto a = occ.Begin(TxnTimestamp(1));
  OneRowCommit commit(&row, [] { return false; });
  Status status = occ.Commit(a.get(), &commit);
  EXPECT_TRUE(status.Is(sqlstate::kSerializationFailure)) << status.ToString();
  bool ran = false;
  occ.UndoBesideCommits(a.get(), &row, [&] { ran = true; });
  EXPECT_TRUE(ran);
  occ.Abort(a.get());
  EXPECT_EQ(row.cc_word.load() & Occ::kLockBit, 0u) << "the abort released the lock";
}

}  // namespace
}  // namespace paceline::cc
