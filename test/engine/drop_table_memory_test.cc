// Memory comes back: a dropped table's rows, tuples and index entries are
// freed once no transaction can reach them (at once when none runs; a
// stale cached plan does not keep them) and their pages go back to the
// system, so rounds of CREATE, bulk load and DROP end where they started —
// keeping a whole table per round, or the allocators' free pages, is what
// this excludes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "test/engine/process_memory.h"

namespace paceline::engine {
namespace {

using test_memory::RssKb;

TEST(DropTableMemoryTest, RoundsOfCreateLoadDropGiveTheMemoryBack) {
  Options options;
  options.workers = 0;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(options, &db).ok());
  auto s = db->CreateSession();
  QueryResult r;
  constexpr int kRows = 100000;
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < kRows; ++i) {
    rows.push_back({Value::Int64(i), Value::Text(std::string(100, static_cast<char>('a' + i % 26)))});
  }
  auto round_trip = [&](const std::vector<std::vector<Value>>& load, size_t* loaded_kb) {
    const size_t before = RssKb();
    ASSERT_TRUE(s->Execute("CREATE TABLE big (k BIGINT PRIMARY KEY, filler TEXT)", &r).ok());
    ASSERT_TRUE(s->Execute("CREATE INDEX big_filler ON big (filler)", &r).ok());
    ASSERT_TRUE(db->BulkLoad("big", load).ok());
    ASSERT_TRUE(s->Execute("SELECT count(*) FROM big WHERE k < 10", &r).ok());  // a cached plan names it
    if (loaded_kb != nullptr) *loaded_kb = RssKb() - before;
    ASSERT_TRUE(s->Execute("DROP TABLE big", &r).ok());
  };
  // One small round first, so that what any first DDL and load set up once
  // (the allocators' per-thread caches, the statement cache's first plans)
  // is in the starting point; the test is about what a load keeps.
  round_trip(std::vector<std::vector<Value>>(rows.begin(), rows.begin() + 100), nullptr);
  size_t after_first = 0, after_tenth = 0, loaded_kb = 0;
  const size_t start = RssKb();
  for (int round = 0; round < 20; ++round) {
    round_trip(rows, round == 0 ? &loaded_kb : nullptr);
    if (round == 0) after_first = RssKb();
    if (round == 9) after_tenth = RssKb();
  }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the process's memory is the sanitizer's here (shadow memory, freed blocks held back)";
#endif
  const size_t after_last = RssKb();
  ASSERT_GT(loaded_kb, size_t{10} << 10) << "the load should take memory to give back";
  // What a round took is given back to the system (glibc's and oneTBB's
  // free pages are returned after a DROP), so the process ends where it
  // started, give or take a small part of one load; and no round keeps
  // what the one before it loaded.
  EXPECT_LT(after_last, start + loaded_kb / 10)
      << "at start: " << start << " KB, after round 20: " << after_last << " KB, one load: " << loaded_kb << " KB";
  EXPECT_LT(after_first, start + loaded_kb / 10)
      << "at start: " << start << " KB, after round 1: " << after_first << " KB, one load: " << loaded_kb << " KB";
  EXPECT_LT(after_last, after_tenth + loaded_kb / 20)
      << "after round 10: " << after_tenth << " KB, after round 20: " << after_last << " KB, one load: " << loaded_kb
      << " KB";
}

}  // namespace
}  // namespace paceline::engine
