// Memory comes back: a dropped table's rows, tuples and index entries are
// freed once no transaction can reach them (at once when none runs; a
// stale cached plan does not keep them), so rounds of CREATE, bulk load
// and DROP leave the process's memory flat once the allocator has settled —
// growth by a whole table per round is what this excludes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/database.h"
#include "test/engine/process_memory.h"

namespace paceline::engine {
namespace {

using test_memory::RssKb;

TEST(DropTableMemoryTest, RoundsOfCreateLoadDropStayFlat) {
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
  size_t after_first = 0, after_tenth = 0, loaded_kb = 0;
  for (int round = 0; round < 20; ++round) {
    const size_t before = RssKb();
    ASSERT_TRUE(s->Execute("CREATE TABLE big (k BIGINT PRIMARY KEY, filler TEXT)", &r).ok());
    ASSERT_TRUE(s->Execute("CREATE INDEX big_filler ON big (filler)", &r).ok());
    ASSERT_TRUE(db->BulkLoad("big", rows).ok());
    ASSERT_TRUE(s->Execute("SELECT count(*) FROM big WHERE k < 10", &r).ok());  // a cached plan names it
    if (round == 0) loaded_kb = RssKb() - before;
    ASSERT_TRUE(s->Execute("DROP TABLE big", &r).ok());
    if (round == 0) after_first = RssKb();
    if (round == 9) after_tenth = RssKb();
  }
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the process's memory is the sanitizer's here (shadow memory, freed blocks held back)";
#endif
  const size_t after_last = RssKb();
  ASSERT_GT(loaded_kb, size_t{10} << 10) << "the load should take memory to give back";
  // The allocator settles within a few rounds (some fragmentation), then
  // stays: flat over the last ten rounds, and far below one load per round.
  EXPECT_LT(after_last, after_tenth + loaded_kb / 10)
      << "after round 10: " << after_tenth << " KB, after round 20: " << after_last << " KB, one load: " << loaded_kb
      << " KB";
  EXPECT_LT(after_last, after_first + loaded_kb / 2)
      << "after round 1: " << after_first << " KB, after round 20: " << after_last << " KB, one load: " << loaded_kb
      << " KB";
}

}  // namespace
}  // namespace paceline::engine
